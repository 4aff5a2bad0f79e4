"""How a game's analysis reads in the reader's language: its sides and its turning points
("Turn 14: Blue took Asia's last territory at 23.0 % odds: Blue 41.0 % → 68.0 %")."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.story import Story
from lib.numbers import signed
from ratings import analysis
from words import narrator
from words.vocabulary import continent_name, percent, seat_color, territory_name


def side_seats(story: Story, side: int) -> list[int]:
    return [s for s in range(story.seats) if story.team_of(s) == side]


def side_name(story: Story, side: int, names: dict | None = None) -> str:
    """A side as people read it: a seat's colour (and player), or a team with its seats."""
    if story.teams == story.seats:
        return narrator.seat_name(side, names)
    return narrator.team_words(side, side_seats(story, side), names)


def side_color(story: Story, side: int) -> str:
    return seat_color(side_seats(story, side)[0])


def went_well(point: dict, story: Story) -> bool:
    """Whether the turn's player came out of it better: their side's chance rose, or the
    side the point cites (another) fell."""
    rose = point["after"] > point["before"]
    return rose == (point["side"] == story.team_of(point["seat"]))


def _setback(point: dict, words: dict) -> str:
    """A turn that cost its player: what it cost, never a conquest that reads as a gain."""
    if point.get("lost"):
        return ngettext("Turn %(turn)s: %(player)s lost %(lost)s army attacking",
                        "Turn %(turn)s: %(player)s lost %(lost)s armies attacking",
                        point["lost"]) % {**words, "lost": point["lost"]}
    if point.get("kind") == "quiet":
        return _("Turn %(turn)s: %(player)s took no territory") % words
    return _("Turn %(turn)s: %(player)s's turn") % words


def _deed(point: dict, story: Story, names: dict | None) -> str:
    """What the turn's player did, as the start of the sentence: in a turn that went against
    them, what it cost (the chance that fell would contradict "took a continent")."""
    words = {"turn": point["turn"], "player": narrator.seat_name(point["seat"], names)}
    kind, board = point.get("kind"), story.board
    if kind != "left" and not went_well(point, story):
        return _setback(point, words)
    if kind == "eliminated":
        return _("Turn %(turn)s: %(player)s eliminated %(others)s") % {
            **words, "others": ", ".join(narrator.seat_name(s, names) for s in point["seats"])}
    if kind == "left":
        return ngettext("Turn %(turn)s: %(others)s left the game",
                        "Turn %(turn)s: %(others)s left the game", len(point["seats"])) % {
            **words, "others": ", ".join(narrator.seat_name(s, names) for s in point["seats"])}
    if kind == "continent" and point.get("odds") is not None:
        return _("Turn %(turn)s: %(player)s took %(continent)s's last territory "
                 "(%(territory)s) at %(odds)s odds") % {
            **words, "continent": continent_name(point["continent"], board),
            "territory": territory_name(point["territory"], board),
            "odds": percent(point["odds"])}
    if kind == "continent":
        return _("Turn %(turn)s: %(player)s took %(continent)s") % {
            **words, "continent": continent_name(point["continent"], board)}
    if kind == "broke":
        return _("Turn %(turn)s: %(player)s broke %(holder)s's hold on %(continent)s") % {
            **words, "holder": narrator.seat_name(point["holder"], names),
            "continent": continent_name(point["continent"], board)}
    if kind == "took":
        return ngettext(
            "Turn %(turn)s: %(player)s took %(count)s territory (%(territory)s at %(odds)s "
            "odds)",
            "Turn %(turn)s: %(player)s took %(count)s territories (the boldest, "
            "%(territory)s, at %(odds)s odds)", point["count"]) % {
            **words, "count": point["count"], "odds": percent(point["odds"]),
            "territory": territory_name(point["territory"], board)}
    return _("Turn %(turn)s: %(player)s took no territory") % words


def turning_point_text(point: dict, story: Story, names: dict | None = None) -> str:
    """The whole sentence: the deed, the chance that moved most, and the turn's dice luck."""
    text = _("%(deed)s: %(side)s %(before)s → %(after)s") % {
        "deed": _deed(point, story, names), "side": side_name(story, point["side"], names),
        "before": percent(point["before"]), "after": percent(point["after"])}
    if point.get("luck") is not None:
        text = _("%(sentence)s (dice luck that turn: %(luck)s armies)") % {
            "sentence": text, "luck": signed(point["luck"], 1)}
    return text


def mail_line(game, names: dict | None = None) -> str:
    """The analysis's biggest turning point in a sentence, or "" while there is none."""
    row = analysis.done(game.pk)
    if row is None or not row.turning_points:
        return ""
    biggest = max(row.turning_points, key=lambda p: (p["swing"], -p["index"]))
    story = analysis.outline(game, row) if row.series else analysis.story_of(game)
    return turning_point_text(biggest, story, names)

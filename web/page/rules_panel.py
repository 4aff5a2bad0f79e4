"""A game's rules in words: the rules panel of the game page (its rulebook and where it
differs, every option that applies, when the clock rests) and the lobby's one line."""

from __future__ import annotations

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine as rules
from engine.maps import DEFAULT_MAP, Board, UnknownMap
from engine.options import OPTIONS, PRESET_PLAYERS
from games.boards import board_of_map
from games.models import Game
from words.rules import RULE_CHOICES, RULE_LABELS, RULEBOOKS
from words.vocabulary import continent_name, map_name, symbol_name

# Rules about cards, left out of a game played without them (rules.cards false).
_CARD_KEYS = ("card_values", "fixed_values", "card_territory_bonus", "max_cards",
              "elimination_trade_at", "elimination_trade_when", "forced_trade", "traded_cards",
              "card_draw")


def _irrelevant(key: str, rules_dict: dict, players: int | None) -> bool:
    """Rules a game's panel leaves out because they cannot apply to it: capitals' rules in
    a game without capitals, the neutral's in a game without one, and the like."""
    if key in ("capitals_to_win", "capital_collapse"):
        return rules_dict.get("objective") != "capitals"
    if key == "neutral":
        return players is not None and players != 2
    if key in ("neutral_reinforcement", "neutral_dice"):
        return not rules_dict.get("neutral") or (players is not None and players != 2)
    if key == "capital_card_out":
        return rules_dict.get("objective") != "capitals"
    if key in _CARD_KEYS:
        return rules_dict.get("cards") is False
    if key == "placement_batch":
        return rules_dict.get("initial_placement") == "simultaneous"
    return False


# Not what a rulebook says but how the site keeps time: left out of "where it differs".
_CLOCK_KEYS = ("deadline_seconds", "max_missed_turns", "dropped_seat", "preset")


def rulebook_in_words(rules_dict: dict, players: int | None = None) -> list[dict]:
    """Which rulebook the game follows (rules.preset) and where its rules differ from it."""
    name = rules_dict.get("preset")
    if name not in RULEBOOKS:
        return []
    label, _summary = RULEBOOKS[name]
    lines = [{"key": "preset", "label": _("Rulebook"), "value": label}]
    # A table its rulebook is not written for (a game made before the preset refused it) is
    # compared with the rulebook at the nearest size it is written for.
    low, high = PRESET_PLAYERS.get(name, (2, 6))
    table = min(max(players or 3, low), high)
    as_written = rules.validate_rules({"preset": name}, table).to_dict()
    differs = [str(RULE_LABELS[o.name]) for o in OPTIONS if o.name not in _CLOCK_KEYS
               and rules_dict.get(o.name) != as_written.get(o.name)]
    lines.append({"key": "preset_differs", "label": _("Differs from the rulebook in"),
                  "value": ", ".join(differs) if differs else _("nothing: as written")})
    return lines


def map_in_words(board: Board) -> list[dict]:
    """The map the game is played on (a link to its page) and its continents' bonuses."""
    bonuses = ", ".join(f"{continent_name(c, board)} +{bonus}"
                        for c, (bonus, _members) in board.continents.items())
    return [{"key": "map", "label": _("Map"), "link": reverse("map", args=[board.id]),
             "value": ngettext("%(map)s (%(territories)d territory)",
                               "%(map)s (%(territories)d territories)",
                               len(board.territories)) % {
                 "map": map_name(board), "territories": len(board.territories)}},
            {"key": "continents", "label": _("Continents and their bonus armies"),
             "value": bonuses}]


def rules_in_words(rules_dict: dict, players: int | None = None) -> list[dict]:
    """Every option that applies to the game, in its declared order (engine.options), in
    words."""
    lines = rulebook_in_words(rules_dict, players)
    for option in OPTIONS:
        key = option.name
        if option.part == "preset" or _irrelevant(key, rules_dict, players):
            continue
        if key == "fixed_values" and rules_dict.get("card_values") != "fixed":
            continue
        lines.append({"key": key, "label": RULE_LABELS[key],
                      "value": _value_words(option, rules_dict, players)})
    return lines


def _value_words(option, rules_dict: dict, players: int | None):
    """One option's value in words, as its kind (a choice, a switch, a number) reads."""
    key, value = option.name, rules_dict.get(option.name)
    if (key == "objective" and value == "missions" and players == 2
            and rules_dict.get("neutral")):
        return _("no missions with two players and the neutral army: destroy the other "
                 "player")
    if option.kind == "choice":
        return RULE_CHOICES[key].get(value, value)
    if key == "fixed_values":
        return ", ".join(f"{symbol_name(k)} {v}" for k, v in value.items())
    if key == "cards":
        return _("played") if value is not False else _("not played at all")
    if key == "fog":
        return (_("yes: you see your territories, their neighbours and your teammates'")
                if value else _("no"))
    if option.kind == "switch":
        return _("yes") if value else _("no")
    if key == "team_size":
        return team_size_words(value or 1, players)
    if key == "deadline_seconds":
        return duration_words(value)
    if option.default is None:  # a number whose default is no limit
        return value if value is not None else _("no limit")
    return value


def open_game_words(game: Game) -> str:
    """An open game's rules in one line for the lobby: how to win, the clock, and whatever
    departs from the classic game."""
    rules_dict = game.rules or {}
    try:
        board = board_of_map(game.map)
    except UnknownMap:
        board = None
    parts = [map_name(board) if board is not None and board.id != DEFAULT_MAP else "",
             RULE_CHOICES["objective"].get(rules_dict.get("objective"), ""),
             _("%(time)s per move") % {"time": duration_words(game.deadline_seconds)}]
    if rules_dict.get("initial_placement") == "simultaneous":
        parts.append(_("starting armies placed all at once"))
    else:
        batch = rules_dict.get("placement_batch") or 1
        parts.append(_("starting armies placed one per turn") if batch == 1 else
                     _("starting armies placed %(n)s per turn") % {"n": batch})
    if rules_dict.get("fog"):
        parts.append(_("fog of war"))
    if (rules_dict.get("team_size") or 1) > 1:
        parts.append(team_size_words(rules_dict["team_size"], None))
    if game.players == 2 and rules_dict.get("neutral"):
        parts.append(_("with a neutral army"))
    return "; ".join(str(p) for p in parts if p)


def team_size_words(team_size: int, players: int | None) -> str:
    if team_size <= 1:
        return _("no teams: everyone for themselves")
    if players:
        return ngettext("%(teams)s team of %(size)s; teammates never attack each other, see "
                        "each other's cards and win together",
                        "%(teams)s teams of %(size)s; teammates never attack each other, see "
                        "each other's cards and win together", players // team_size) % {
            "teams": players // team_size, "size": team_size}
    return _("teams of %(size)s") % {"size": team_size}


def clock_in_words(game: Game) -> list[dict]:
    """When the game's clock rests (night hours, weekends), in the game's time zone."""
    rests = []
    if game.quiet_from is not None and game.quiet_until is not None:
        rests.append(_("every night from %(start)02d:00 to %(end)02d:00") % {
            "start": game.quiet_from, "end": game.quiet_until})
    if game.pause_weekends:
        rests.append(_("on Saturdays and Sundays"))
    if not rests:
        return []
    return [{"key": "clock", "label": _("The clock rests"),
             "value": "; ".join(rests) + f" ({game.clock_time_zone})"}]


def duration_words(seconds: int) -> str:
    if seconds % 86400 == 0:
        n = seconds // 86400
        return ngettext("%(n)s day", "%(n)s days", n) % {"n": n}
    if seconds % 3600 == 0:
        n = seconds // 3600
        return ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n}
    if seconds % 60 == 0:
        n = seconds // 60
        return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n}
    return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}

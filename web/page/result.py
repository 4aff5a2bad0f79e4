"""A finished game's result on its page: the viewer's headline ("You won", "You lost (3rd of
4)", a team's; a spectator reads who won), the standings with each player's rating change
once the worker has recorded it (the page polls until then), and the rematch: its offer,
who accepted, and the new game."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game
from games.store.row import rules_of
from lib.numbers import signed
from lobby import rematch, seeds
from ratings import changes, headlines
from words import narrator
from words.vocabulary import seat_color

# A finished page polls this long after the end for its ratings to be recorded.
RESULTS_POLL = timedelta(minutes=10)


def result_context(game: Game, view: dict, places: dict[int, int], seat: int | None,
                   user, names: dict[int, str]) -> dict | None:
    """What the page's result box shows (`places`: each seat's, ratings.headlines;
    `names`: the seats' usernames), or None if the game did not finish with a result."""
    if game.status != Game.FINISHED:
        return None
    team_size = rules_of(game).team_size
    found = changes.changes(game.pk)  # None until the worker recorded the game
    humans = dict(game.seats.filter(bot__isnull=True).values_list("seat", "user_id"))
    rows = []
    for place_seat, place in sorted(places.items(), key=lambda item: (item[1], item[0])):
        change = (found or {}).get(humans.get(place_seat), {})
        rows.append({"seat": place_seat, "place": headlines.ordinal(place),
                     "name": narrator.seat_name(place_seat, names),
                     "color": seat_color(place_seat),
                     "change": signed(change["change"]) if change.get("rated") else "",
                     "rating": changes.written(change.get("after"), change)
                     if change.get("rated") else None})
    if seat is not None and seat in places:
        headline, won = headlines.headline(places, seat, team_size)
    else:
        headline, won = _("%(winner)s won") % {"winner": _winners(view, names)}, None
    mine, why = None, ""
    if seat in humans and found is not None:
        mine = found.get(humans[seat], {"rated": False, "why": changes.why_words("", False)})
        if mine["rated"]:
            mine = {**mine, "signed": signed(mine["change"]),
                    "before": changes.written(mine["before"], mine),
                    "after": changes.written(mine["after"], mine)}
        why = mine["why"]
    elif seat in humans:  # not recorded yet: said at once if it will move no rating
        why = changes.known_unrated(game)
    offer = rematch.state_of(game, user)
    return {
        "headline": headline, "won": won, "standings": rows, "rating": mine, "why": why,
        "recorded": found is not None, "player": seat in humans,
        "late": found is None and game.finished_at is not None
        and game.finished_at < timezone.now() - RESULTS_POLL,
        "rematch": offer,
        # The seed an offer by the viewer would take, shown before they send entropy with it.
        "next_seed_hash": seeds.next_for(user).seed_hash
        if offer is None and seat in humans else None,
    }


def _winners(view: dict, names: dict) -> str:
    if view.get("winning_team") is not None:
        return narrator.team_words(view["winning_team"], view["winners"], names)
    return narrator.seat_name(view.get("winner"), names)


def still_changing(game: Game) -> bool:
    """Whether a finished game's page has more to show by itself: its ratings, soon after
    the end, or a rematch offer still open."""
    if game.status != Game.FINISHED:
        return False
    recent = game.finished_at is None or game.finished_at > timezone.now() - RESULTS_POLL
    if recent and not changes.recorded(game.pk):
        return True
    offer = rematch.rematch_of(game)
    return offer is not None and offer.status == offer.OPEN


def result_stamp(game: Game) -> str:
    """What changes a finished game's page while it stands still: the ratings recorded,
    rematch answers."""
    if game.status != Game.FINISHED:
        return ""
    offer = rematch.rematch_of(game)
    answers = "" if offer is None else f"{offer.status}{offer.answers.count()}"
    return f".{int(changes.recorded(game.pk))}{answers}"

"""Turning a posted play form into a command of docs/bots/contract.md, for games.service.submit."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.commands import COMMAND_TYPES
from engine.maps import Board
from lib.inputs import whole_number
from words.vocabulary import territory_name


class FormProblem(Exception):
    """Input the page itself refuses before asking the rules (a number that is not one...)."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text


def _whole(raw, what: str, allow_blank: bool = False) -> int | None:
    raw = (raw or "").strip()
    if not raw:
        if allow_blank:
            return None
        raise FormProblem(_("Enter a number for %(what)s.") % {"what": what})
    # ASCII digits only (int() also reads "١", "1_0" and "+1"); a minus sign is kept so
    # that the caller can say what a negative number may not be.
    negative = raw.startswith("-")
    value = whole_number(raw[1:] if negative else raw)
    if value is None:
        raise FormProblem(_("%(value)s is not a whole number.") % {"value": raw[:40]})
    return -value if negative else value


def _armies_by_territory(post, prefix: str, board: Board) -> dict:
    """Fields named <prefix><territory> with a number of armies (blank or 0: none), for
    each territory of the game's map."""
    placements = {}
    for territory in board.territories:
        value = _whole(post.get(prefix + territory), territory_name(territory, board),
                       allow_blank=True)
        if value is None or value == 0:
            continue
        if value < 0:
            raise FormProblem(_("Armies cannot be negative."))
        placements[territory] = value
    return placements


def _chosen(post, field: str, ask: str) -> str:
    """A territory the form names; a blank one is a question the player has not answered
    (a tap that selected nothing), asked in their words."""
    value = (post.get(field) or "").strip()
    if not value:
        raise FormProblem(ask)
    return value


def payload_from_post(post, board: Board) -> dict:
    """The command a play form asks for on the game's map (`board`); raises FormProblem for
    input that is not one."""
    kind = post.get("type", "")
    if kind not in COMMAND_TYPES:
        raise FormProblem(_("Unknown move."))
    payload: dict = {"type": kind}
    if kind in ("claim", "choose_capital"):
        payload["territory"] = _chosen(post, "territory", _("Choose a territory first."))
    elif kind in ("place", "place_neutral"):
        placements = _armies_by_territory(post, "place-", board)
        if not placements:
            raise FormProblem(_("Put at least one army on a territory."))
        payload["placements"] = placements
    elif kind == "trade":
        picked = post.getlist("card")
        if post.get("set"):
            picked = post["set"].split(",")
        cards = [_whole(c, _("a card")) for c in picked]
        if len(cards) != 3:
            raise FormProblem(_("Pick exactly three cards."))
        payload["cards"] = cards
        if post.get("bonus_territory"):
            payload["bonus_territory"] = post["bonus_territory"]
    elif kind == "attack":
        payload["from"] = _chosen(post, "from", _("Choose the territory to attack from."))
        payload["to"] = _chosen(post, "to", _("Choose the territory to attack."))
        dice = _whole(post.get("dice"), _("dice"), allow_blank=True)
        if dice is not None:
            payload["dice"] = dice
        payload["repeat"] = post.get("repeat") in ("on", "1", "true")
    elif kind == "occupy":
        payload["armies"] = _whole(post.get("armies"), _("armies"))
    elif kind == "fortify":
        payload["from"] = _chosen(post, "from", _("Choose the territory to move armies from."))
        if post.get("mode") == "spread":
            moves = _armies_by_territory(post, "move-", board)
            if not moves:
                raise FormProblem(_("Move at least one army."))
            payload["moves"] = [{"to": t, "armies": n} for t, n in moves.items()]
        else:
            payload["to"] = _chosen(post, "to", _("Choose the territory to move armies to."))
            payload["armies"] = _whole(post.get("armies"), _("armies"))
    elif kind == "set_defense":
        payload["policy"] = post.get("policy", "")
        if post.get("neutral") == "yes":  # the neutral's dice (`neutral_dice: opponent`)
            payload["neutral"] = True
    elif kind == "resign" and post.get("confirm") not in ("on", "1", "yes"):
        raise FormProblem(_("Tick the box to confirm that you resign."))
    return payload

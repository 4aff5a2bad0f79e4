"""GET /api/v1/odds/: the exact odds of an attack (engine.odds), for bot writers and anyone."""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.response import Response

from accounts import throttles
from engine import odds, odds_dice
from engine.options import CHOICES, SWITCHES
from engine.pieces import ATTACK_DICE
from lib.api.errors import ERRORS, error
from lib.api.views import ApiView
from lib.inputs import whole_number

_PAIR = ("attackers", "defenders", "dice", "defense", "neutral")
_SWITCH_WORDS = {"true": True, "1": True, "false": False, "0": False}


class BadQuery(ValueError):
    pass


def _choice(query, name: str, allowed, default: str) -> str:
    value = query.get(name, default)
    if value not in allowed:
        raise BadQuery(f"{name} must be one of: {', '.join(allowed)}")
    return value


def _switch(query, name: str) -> bool:
    value = query.get(name, "false")
    if value not in _SWITCH_WORDS:
        raise BadQuery(f"{name} must be true or false")
    return _SWITCH_WORDS[value]


def _armies(query, name: str, low: int) -> int:
    value = whole_number(query.get(name), low, odds_dice.MOST_ARMIES)
    if value is None:
        raise BadQuery(f"{name} must be a whole number from {low} to {odds_dice.MOST_ARMIES}")
    return value


def battle_asked(query) -> tuple[int, int, int, str]:
    """(attackers, defenders, dice, the defender's standing order) from a query; the game's
    rule options may come along (a bot passes its game's), and only those that change the
    dice change the answer. Raises BadQuery."""
    unknown = sorted(set(query) - set(_PAIR) - set(CHOICES) - set(SWITCHES) - {"format"})
    if unknown:
        raise BadQuery(f"unknown parameter(s): {', '.join(unknown)}")
    for name in set(query) & set(CHOICES):
        _choice(query, name, CHOICES[name], "")
    for name in set(query) & set(SWITCHES):
        _switch(query, name)
    attackers = _armies(query, "attackers", 2)
    defenders = _armies(query, "defenders", 1)
    dice = whole_number(query.get("dice", str(ATTACK_DICE)), 1, ATTACK_DICE)
    if dice is None:
        raise BadQuery(f"dice must be a whole number from 1 to {ATTACK_DICE} (the most the "
                       "attacker rolls)")
    defense = odds_dice.defense_of(_choice(query, "defense", odds_dice.DEFENSES, "max"),
                              neutral=_switch(query, "neutral"),
                              neutral_dice=query.get("neutral_dice", "max"))
    return attackers, defenders, dice, defense


class OddsView(ApiView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = throttles.ODDS  # anyone may ask: each client address a share

    @extend_schema(
        summary="The exact odds of an attack",
        description=(
            "The chance that `attackers` armies on a territory (one of them stays behind) "
            "take a neighbour held by `defenders`, computed exactly over the dice (a Markov "
            "chain, no simulation): with one roll, and by repeating until it falls or the "
            "source is down to one army (the attack command's `repeat`). Also each side's "
            "expected losses and the armies that may move in if it falls (their chances "
            "given the fall, mean and median). `dice` caps the attacker's dice as the attack "
            "command does; `defense` is the defender's standing order. The game's rule "
            "options may be passed as they are: `neutral_dice` decides the neutral's dice "
            "(with `neutral=true`: `max` always, or `defense` as the player not attacking "
            "chose it); capitals and the other options change no dice. Limited per client "
            "address (429 throttled with Retry-After)."),
        parameters=[
            OpenApiParameter("attackers", int, required=True,
                             description=f"armies on the source, 2 to {odds_dice.MOST_ARMIES}"),
            OpenApiParameter("defenders", int, required=True,
                             description=f"armies on the target, 1 to {odds_dice.MOST_ARMIES}"),
            OpenApiParameter("dice", int, enum=list(range(1, ATTACK_DICE + 1)),
                             default=ATTACK_DICE),
            OpenApiParameter("defense", str, enum=list(odds_dice.DEFENSES), default="max"),
            OpenApiParameter("neutral", bool, default=False,
                             description="the target is the two-player neutral's"),
            OpenApiParameter("neutral_dice", str, enum=list(CHOICES["neutral_dice"]),
                             default="max"),
        ],
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS[400]},
    )
    def get(self, request):
        try:
            pair = battle_asked(request.query_params)
        except BadQuery as refusal:
            return error(400, "bad_request", str(refusal))
        return Response(odds.summary(*pair))

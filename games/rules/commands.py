"""What a player (or the clock) asks for, and parsing a JSON command into one."""

from __future__ import annotations

from dataclasses import dataclass

from .board import TERRITORIES
from .errors import BadCards, BadCommand, BadDice, BadPlacement, UnknownTerritory
from .options import Rules

_TERRITORY_SET = frozenset(TERRITORIES)


@dataclass(frozen=True)
class StartGame:
    """Seat the players and deal: the first command of every game (made by the service).
    `entropy`: the players' contributions to the seed, ((seat, text), ...) in seat order;
    the draws must already be keyed with fair.game_seed of them."""
    game_id: str
    players: int
    rules: Rules
    entropy: tuple = ()


@dataclass(frozen=True)
class Claim:
    seat: int
    territory: str


@dataclass(frozen=True)
class Place:
    seat: int
    placements: dict


@dataclass(frozen=True)
class ChooseCapital:
    seat: int
    territory: str


@dataclass(frozen=True)
class Trade:
    seat: int
    cards: tuple
    bonus_territory: str | None = None


@dataclass(frozen=True)
class Attack:
    seat: int
    source: str
    target: str
    dice: int | None = None
    repeat: bool = False


@dataclass(frozen=True)
class Occupy:
    seat: int
    armies: int


@dataclass(frozen=True)
class EndAttack:
    seat: int


@dataclass(frozen=True)
class Fortify:
    seat: int
    source: str
    moves: tuple  # ((to, armies), ...): one move, or several under `spread`


@dataclass(frozen=True)
class EndTurn:
    seat: int


@dataclass(frozen=True)
class PlaceNeutral:
    seat: int
    placements: dict


@dataclass(frozen=True)
class SetDefense:
    seat: int
    policy: str
    neutral: bool = False  # the neutral's defence (`neutral_dice: opponent`), not the seat's


@dataclass(frozen=True)
class Resign:
    seat: int


@dataclass(frozen=True)
class TimeOut:
    """The deadline of the decision now owed has passed (made by the deadline sweep)."""


@dataclass(frozen=True)
class Moderate:
    """A moderator's action on the game: pause, resume, abort, end_turn (complete the owed
    decision for an absent player without counting a miss), drop (a seat), and the actions
    that change no board: extend_deadline, replace_player and hide_message, whose facts
    from outside the rules (the new deadline, the new holder, the message) come in `facts`
    and go into the event as they are."""
    action: str
    by: str
    reason: str = ""
    seat: int | None = None
    facts: dict | None = None


@dataclass(frozen=True)
class MoveDeadline:
    """The clock moves the deadline of the decision now owed, for a reason outside the
    rules (made by the deadline sweep and by a vacation called off): STRETCH while the
    owing `seats` are on vacation, PULL_BACK when `seats[0]` is back early. `until` and
    the deadline it replaces, `was`, are ISO date-times: facts recorded as given."""
    action: str
    seats: tuple
    until: str
    was: str | None = None


STRETCH, PULL_BACK = "stretch", "pull_back"


MODERATOR_ACTIONS = ("pause", "resume", "abort", "end_turn", "drop", "extend_deadline",
                     "replace_player", "hide_message")


def _territory(payload: dict, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise BadCommand(f"'{key}' must be a territory id")
    if value not in _TERRITORY_SET:
        raise UnknownTerritory(f"no territory '{value}'")
    return value


def _count(value, what: str, minimum: int | None = 1, too_few=BadCommand) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadCommand(f"{what} must be a whole number")
    if minimum is not None and value < minimum:
        raise too_few(f"{what} must be at least {minimum}")
    return value


def _placements(payload: dict) -> dict:
    raw = payload.get("placements")
    if not isinstance(raw, dict):
        raise BadCommand("'placements' must be an object of territory: armies")
    if not raw:
        raise BadPlacement("'placements' names no territory")
    placements = {}
    for territory, armies in raw.items():
        if territory not in _TERRITORY_SET:
            raise UnknownTerritory(f"no territory '{territory}'")
        placements[territory] = _count(armies, f"armies for {territory}",
                                       too_few=BadPlacement)
    return placements


def parse_command(payload, seat: int):
    """Turn a JSON command of CONTRACT.md into a command for `seat`; raises BadCommand."""
    if not isinstance(payload, dict):
        raise BadCommand("a command must be a JSON object")
    kind = payload.get("type")
    if kind == "claim":
        return Claim(seat, _territory(payload, "territory"))
    if kind == "place":
        return Place(seat, _placements(payload))
    if kind == "place_neutral":
        return PlaceNeutral(seat, _placements(payload))
    if kind == "choose_capital":
        return ChooseCapital(seat, _territory(payload, "territory"))
    if kind == "trade":
        cards = payload.get("cards")
        if (not isinstance(cards, list) or len(cards) != 3
                or any(isinstance(c, bool) or not isinstance(c, int) for c in cards)):
            raise BadCards("'cards' must be a list of three card ids")
        bonus = payload.get("bonus_territory")
        if bonus is not None:
            bonus = _territory(payload, "bonus_territory")
        return Trade(seat, tuple(cards), bonus)
    if kind == "attack":
        dice = payload.get("dice")
        if dice is not None:
            dice = _count(dice, "'dice'", minimum=None)
            if dice < 1:
                raise BadDice("roll 1 to 3 dice")
        repeat = payload.get("repeat", False)
        if not isinstance(repeat, bool):
            raise BadCommand("'repeat' must be true or false")
        return Attack(seat, _territory(payload, "from"), _territory(payload, "to"), dice, repeat)
    if kind == "occupy":
        return Occupy(seat, _count(payload.get("armies"), "'armies'"))
    if kind == "end_attack":
        return EndAttack(seat)
    if kind == "fortify":
        source = _territory(payload, "from")
        if "moves" in payload:
            moves = payload["moves"]
            if not isinstance(moves, list) or not moves:
                raise BadCommand("'moves' must be a list of {to, armies}")
            parsed = []
            for move in moves:
                if not isinstance(move, dict):
                    raise BadCommand("each move must be an object {to, armies}")
                parsed.append((_territory(move, "to"), _count(move.get("armies"), "'armies'")))
            return Fortify(seat, source, tuple(parsed))
        target = _territory(payload, "to")
        return Fortify(seat, source, ((target, _count(payload.get("armies"), "'armies'")),))
    if kind == "end_turn":
        return EndTurn(seat)
    if kind == "set_defense":
        policy = payload.get("policy")
        if policy not in ("max", "one"):
            raise BadCommand("'policy' must be 'max' or 'one'")
        neutral = payload.get("neutral", False)
        if not isinstance(neutral, bool):
            raise BadCommand("'neutral' must be true or false")
        return SetDefense(seat, policy, neutral)
    if kind == "resign":
        return Resign(seat)
    if not isinstance(kind, str):
        raise BadCommand("a command needs a 'type'")
    raise BadCommand(f"unknown command type '{kind}'")

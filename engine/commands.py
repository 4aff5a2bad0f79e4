"""What a player (or the clock) asks for, and parsing a JSON command into one."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from . import events as ev
from .errors import BadCards, BadCommand, BadDice, BadPlacement, UnknownTerritory
from .maps import Board, classic
from .options import Rules


@dataclass(frozen=True)
class StartGame:
    """Seat the players and deal: the first command of every game (made by the service).
    `entropy`: the players' contributions to the seed, ((seat, text), ...) in seat order;
    the draws must already be keyed with fair.game_seed of them."""
    game_id: str
    players: int
    rules: Rules
    entropy: tuple = ()
    board: Board = field(default_factory=classic)


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


@dataclass(frozen=True)
class ModeratorAction:
    """A moderator's action, declared once: its name (Moderate.action), the event it
    writes, and when the moderation page offers it (a running game, a paused one; never:
    hiding a chat line is done from the chat, and may come after the end too)."""
    name: str
    writes: str
    running: bool = False
    paused: bool = False
    seat: bool = False  # names the seat it acts on


# In the order the moderation page offers them.
MODERATOR_ACTION_LIST = (
    ModeratorAction("pause", ev.GAME_PAUSED, running=True),
    ModeratorAction("resume", ev.GAME_RESUMED, paused=True),
    ModeratorAction("end_turn", ev.MODERATOR_ENDED_TURN, running=True),
    ModeratorAction("extend_deadline", ev.DEADLINE_EXTENDED, running=True),
    ModeratorAction("drop", ev.PLAYER_DROPPED, running=True, seat=True),
    ModeratorAction("replace_player", ev.PLAYER_REPLACED, running=True, paused=True, seat=True),
    ModeratorAction("abort", ev.GAME_ABORTED, running=True, paused=True),
    ModeratorAction("hide_message", ev.CHAT_HIDDEN),
)
MODERATOR_ACTIONS = {action.name: action for action in MODERATOR_ACTION_LIST}


def _territory(payload: dict, key: str) -> str:
    value = payload.get(key)
    if not isinstance(value, str) or not value:
        raise BadCommand(f"'{key}' must be a territory id")
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
        if not isinstance(territory, str) or not territory:
            raise BadCommand("placements are keyed by territory ids")
        placements[territory] = _count(armies, f"armies for {territory}",
                                       too_few=BadPlacement)
    return placements


# What a JSON field of a command holds (the API's schema says each in JSON Schema).
TERRITORY, ARMIES, PLACEMENTS, CARDS, DICE, FLAG, POLICY, MOVES = (
    "territory", "armies", "placements", "cards", "dice", "flag", "policy", "moves")
POLICIES = ("max", "one")
# Any command may carry the version the client saw (409 when the game has moved on).
ENVELOPE = ("type", "expected_version")


@dataclass(frozen=True)
class Field:
    """A JSON field of a command: what it holds, whether it is sent, what it (or none) means."""
    name: str
    kind: str
    required: bool = True
    about: str = ""


@dataclass(frozen=True)
class Shape:
    """The fields a command takes; `one_of`: groups of which exactly one is sent whole."""
    fields: tuple = ()
    one_of: tuple = ()
    about: str = ""


# Each command a player sends, declared once: its JSON name (docs/bots/contract.md), the command it
# becomes, its fields and how its JSON is read. The API's schema, the play forms and moves by
# mail read these tables; a command added here is one they must learn (tests say which not).
PLAYER_COMMANDS: dict[str, tuple[type, Callable[[dict, int], object]]] = {}
COMMAND_FIELDS: dict[str, Shape] = {}


def _declare(name: str, command: type, *fields: Field, one_of: tuple = (), about: str = ""):
    def register(parse):
        PLAYER_COMMANDS[name] = (command, parse)
        COMMAND_FIELDS[name] = Shape(fields, one_of, about)
        return parse
    return register


_PLACEMENTS = Field("placements", PLACEMENTS, about="Armies to put on each territory")


@_declare("claim", Claim, Field("territory", TERRITORY, about="An unowned territory"),
          about="Setup by claiming: take one unowned territory (phase claim).")
def _claim(payload: dict, seat: int) -> Claim:
    return Claim(seat, _territory(payload, "territory"))


@_declare("place", Place, _PLACEMENTS,
          about="Place armies on your territories in setup (phase setup_place) or your "
                "reinforcements (phase reinforce): part of what is owed, or all of it.")
def _place(payload: dict, seat: int) -> Place:
    return Place(seat, _placements(payload))


@_declare("choose_capital", ChooseCapital, Field("territory", TERRITORY, about="One of yours"),
          about="Choose your capital (phase capital, rule objective capitals).")
def _choose_capital(payload: dict, seat: int) -> ChooseCapital:
    return ChooseCapital(seat, _territory(payload, "territory"))


@_declare("trade", Trade,
          Field("cards", CARDS, about="Three card ids of your hand (you.cards[].id)"),
          Field("bonus_territory", TERRITORY, required=False,
                about="The territory shown on a traded card that you own to take the 2 "
                      "bonus armies (default: the first such card's)"),
          about="Trade a set of three cards for armies (phase reinforce).")
def _trade(payload: dict, seat: int) -> Trade:
    cards = payload.get("cards")
    if (not isinstance(cards, list) or len(cards) != 3
            or any(isinstance(c, bool) or not isinstance(c, int) for c in cards)):
        raise BadCards("'cards' must be a list of three card ids")
    bonus = payload.get("bonus_territory")
    if bonus is not None:
        bonus = _territory(payload, "bonus_territory")
    return Trade(seat, tuple(cards), bonus)


@_declare("attack", Attack,
          Field("from", TERRITORY, about="Your territory attacking"),
          Field("to", TERRITORY, about="A bordering territory of another player"),
          Field("dice", DICE, required=False,
                about="Dice to roll, 1 to 3; without it the most allowed: 3, or fewer if "
                      "the territory has 3 armies or less (one stays behind)"),
          Field("repeat", FLAG, required=False, about="Roll until the territory falls or "
                "no attack is left (default false: one roll)"),
          about="Roll one battle (phase attack); a conquest leads to phase occupy.")
def _attack(payload: dict, seat: int) -> Attack:
    dice = payload.get("dice")
    if dice is not None:
        dice = _count(dice, "'dice'", minimum=None)
        if dice < 1:
            raise BadDice("roll 1 to 3 dice")
    repeat = payload.get("repeat", False)
    if not isinstance(repeat, bool):
        raise BadCommand("'repeat' must be true or false")
    return Attack(seat, _territory(payload, "from"), _territory(payload, "to"), dice, repeat)


@_declare("occupy", Occupy, Field("armies", ARMIES, about="Armies to move in, from "
                                  "pending.occupy.min to pending.occupy.max"),
          about="Move armies into the territory just conquered (phase occupy).")
def _occupy(payload: dict, seat: int) -> Occupy:
    return Occupy(seat, _count(payload.get("armies"), "'armies'"))


@_declare("end_attack", EndAttack, about="Stop attacking and go on to fortify (phase attack).")
def _end_attack(payload: dict, seat: int) -> EndAttack:
    return EndAttack(seat)


@_declare("fortify", Fortify,
          Field("from", TERRITORY, about="Your territory the armies leave"),
          Field("to", TERRITORY, required=False, about="Your territory they go to (adjacent, "
                "or linked by yours under rule fortify connected)"),
          Field("armies", ARMIES, required=False, about="How many (one stays behind)"),
          Field("moves", MOVES, required=False,
                about="Under rule fortify spread: several {to, armies} from one territory"),
          one_of=(("to", "armies"), ("moves",)),
          about="Move armies once, which ends the turn (phase attack or fortify).")
def _fortify(payload: dict, seat: int) -> Fortify:
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


@_declare("end_turn", EndTurn, about="End the turn without fortifying (phase attack or fortify).")
def _end_turn(payload: dict, seat: int) -> EndTurn:
    return EndTurn(seat)


@_declare("place_neutral", PlaceNeutral, _PLACEMENTS,
          about="Two players with a neutral: place the neutral's reinforcement on its "
                "territories (phase neutral_place), sent by the seat that is not playing "
                "the turn: see `turn_seat`.")
def _place_neutral(payload: dict, seat: int) -> PlaceNeutral:
    return PlaceNeutral(seat, _placements(payload))


@_declare("set_defense", SetDefense, Field("policy", POLICY, about="max: most dice; one: 1"),
          Field("neutral", FLAG, required=False, about="Set the neutral's policy instead "
                "of yours (rule neutral_dice opponent; default false)"),
          about="How your territories defend, at any time (a standing policy).")
def _set_defense(payload: dict, seat: int) -> SetDefense:
    policy = payload.get("policy")
    if policy not in POLICIES:
        raise BadCommand("'policy' must be 'max' or 'one'")
    neutral = payload.get("neutral", False)
    if not isinstance(neutral, bool):
        raise BadCommand("'neutral' must be true or false")
    return SetDefense(seat, policy, neutral)


@_declare("resign", Resign, about="Leave the game for good, at any time, as a dropped player.")
def _resign(payload: dict, seat: int) -> Resign:
    return Resign(seat)


# The JSON names of the commands a player may send, in the order the API lists them.
COMMAND_TYPES = tuple(PLAYER_COMMANDS)


def territories_named(command) -> list:
    """The territory ids a player's command names, for the engine to check against the
    game's map (a command is parsed before anyone knows which map it is for)."""
    named = [getattr(command, name, None) for name in ("territory", "source", "target",
                                                       "bonus_territory")]
    named.extend(getattr(command, "placements", None) or ())
    named.extend(to for to, _ in getattr(command, "moves", None) or ())
    return [t for t in named if t is not None]


def check_territories(command, board: Board) -> None:
    known = board.index
    for territory in territories_named(command):
        if territory not in known:
            raise UnknownTerritory(f"no territory '{territory}' on the map {board.id}")


def parse_command(payload, seat: int):
    """Turn a JSON command of docs/bots/contract.md into a command for `seat`; raises BadCommand."""
    if not isinstance(payload, dict):
        raise BadCommand("a command must be a JSON object")
    kind = payload.get("type")
    if not isinstance(kind, str):
        raise BadCommand("a command needs a 'type'")
    declared = PLAYER_COMMANDS.get(kind)
    if declared is None:
        raise BadCommand(f"unknown command type '{kind}'")
    taken = {field.name for field in COMMAND_FIELDS[kind].fields}
    unknown = sorted(str(key) for key in payload if key not in taken and key not in ENVELOPE)
    if unknown:  # a misspelt optional field would otherwise be a silent default
        takes = ", ".join(sorted(taken)) or "no field"
        raise BadCommand(f"'{unknown[0]}' is not a field of {kind} (it takes {takes}, "
                         "besides type and expected_version)")
    return declared[1](payload, seat)

"""Given events, when a command, then events or an error: the rules tests' vocabulary.

Positions are built from events (`position(...)` writes the setup of a game that reached
the board you describe), dice come from `ScriptedDice` (a test double for FairDice whose
streams hand out exactly the dice the test names), and `when`/`refused` run one command
through `decide` the way the service does, checking on the way that `decide` never
changes the state it is given and that every event survives a JSON round trip.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable

import pytest

from engine import (
    NEUTRAL,
    Event,
    GameState,
    RuleViolation,
    StartGame,
    TimeOut,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from engine.board import CARDS, STARTING_ARMIES, TERRITORIES
from engine.cards import set_value
from engine.flow import reinforcements_owed
from engine.state import ENGINE_VERSION
from engine.turn import losses

# Named seats: alice plays, bob is her opponent, carol a third player; a spectator has no seat.
ALICE, BOB, CAROL, DAVE, ERIN, FRANK = range(6)
SPECTATOR = None


# ---- cards by what they show -----------------------------------------------------------
def card(territory: str) -> int:
    """The id of the territory card showing `territory`."""
    return TERRITORIES.index(territory)


WILDS = (42, 43)


def cards_of(symbol: str) -> list[int]:
    """Ids of every card with `symbol`, in id order."""
    return [i for i, (_, s) in enumerate(CARDS) if s == symbol]


INFANTRY, CAVALRY, ARTILLERY = cards_of("infantry"), cards_of("cavalry"), cards_of("artillery")


# ---- the dice ---------------------------------------------------------------------------
class ScriptedStream:
    """One event's draws, read from the script the test wrote."""

    def __init__(self, script: ScriptedDice):
        self.script = script

    def randbelow(self, n: int) -> int:
        picks = self.script.picks
        value = picks.pop(0) if picks else 0
        assert 0 <= value < n, f"scripted pick {value} is not below {n}"
        return value

    def die(self) -> int:
        if not self.script.dice:
            raise AssertionError("the engine rolled a die the test did not script")
        return self.script.dice.pop(0)

    def dice(self, count: int) -> list[int]:
        return [self.die() for _ in range(count)]

    def shuffle(self, items):
        """Leaves the order as it is, unless the test scripted the outcome of this shuffle."""
        if self.script.shuffles:
            outcome = list(self.script.shuffles.pop(0))
            assert sorted(outcome, key=str) == sorted(items, key=str), "not a permutation"
            items[:] = outcome
        return items

    def choice(self, items):
        return items[self.randbelow(len(items))]


class ScriptedDice:
    """A stand-in for FairDice: dice faces, picks (randbelow) and shuffle outcomes, in order.

    Unscripted picks are 0 and unscripted shuffles leave the order alone; an unscripted die
    fails the test, so a test that names the dice also shows how many were rolled.
    """

    def __init__(self, dice: Iterable[int] = (), picks: Iterable[int] = (),
                 shuffles: Iterable[Iterable] = ()):
        self.dice = list(dice)
        self.picks = list(picks)
        self.shuffles = [list(s) for s in shuffles]
        self.seqs: list[int] = []

    def at(self, seq: int) -> ScriptedStream:
        self.seqs.append(seq)
        return ScriptedStream(self)


# ---- events -----------------------------------------------------------------------------
def history(*events) -> list[Event]:
    """Events numbered from 1; each is (type, data) or (type, data, actor), or a list of them."""
    flat: list = []
    for item in events:
        if isinstance(item, list):
            flat.extend(item)
        else:
            flat.append(item)
    numbered = []
    for seq, item in enumerate(flat, start=1):
        if isinstance(item, Event):
            numbered.append(Event(seq, item.type, item.data, item.actor))
        else:
            kind, data, *actor = item
            numbered.append(Event(seq, kind, copy.deepcopy(data), actor[0] if actor else None))
    return numbered


def given(*events) -> GameState:
    """The state these events build."""
    return replay(history(*events))


def started(players: int = 3, order=None, game_id: str = "g1", engine: int = ENGINE_VERSION,
            **rules) -> tuple:
    """The game_started of a game this engine starts (`engine`: one an older engine started)."""
    return ("game_started", {
        "order": list(order if order is not None else range(players)), "players": players,
        "rules": validate_rules(rules, players).to_dict(), "game_id": game_id,
        "engine": engine,
    })


def battle(seat, source, target, attacker_dice, defender_dice, conquered=False,
           defender=None) -> tuple:
    attacker_losses, defender_losses = losses(attacker_dice, defender_dice)
    return ("battle", {
        "seat": seat, "from": source, "to": target, "defender": defender,
        "attacker_dice": list(attacker_dice),
        "defender_dice": list(defender_dice), "attacker_losses": attacker_losses,
        "defender_losses": defender_losses, "conquered": conquered,
    }, seat)


def deal(players: int, owners: dict | None = None, rest=None, neutral: bool = False) -> dict:
    """Every territory's owner: those named in `owners`, the rest to `rest`, or else dealt
    round-robin in board order over the seats (and the neutral, if it plays)."""
    owners = dict(owners or {})
    unknown = set(owners) - set(TERRITORIES)
    assert not unknown, f"no such territories: {unknown}"
    hands = list(range(players)) + ([NEUTRAL] if neutral else [])
    free = [t for t in TERRITORIES if t not in owners]
    for i, territory in enumerate(free):
        owners[territory] = rest if rest is not None else hands[i % len(hands)]
    return {t: owners[t] for t in TERRITORIES}


def position(*, players: int = 3, owners: dict | None = None, rest=None,
             armies: dict | None = None, order=None, hands: dict | None = None,
             traded: Iterable = (), deck: list | None = None, missions: list | None = None,
             capitals: dict | None = None, earlier: Iterable = (), seat=ALICE,
             phase: str | None = "reinforce", turn: int = 1, game_id: str = "g1",
             engine: int = ENGINE_VERSION, **rules) -> list[tuple]:
    """The events of a game whose board is as described, with `seat` to move in `phase`.

    - owners: territory -> seat | NEUTRAL; the others as `deal` hands them out.
    - armies: territory -> armies now (others: 1, the neutral's 2 in a two-player game).
      A seat's starting armies left over go to its first territory (board order) that
      `armies` does not name, and so do the armies placed in this turn's reinforce phase.
    - hands: seat -> card ids drawn in earlier turns; traded: (seat, trio) sets traded in
      earlier turns (they count for escalating values and lie in the discard pile); deck:
      the draw pile, top first (default: every other card in id order).
    - missions: one mission per seat; capitals: seat -> territory (objective capitals).
    - earlier: further events of earlier turns (an elimination, a drop ...), just before
      this turn starts.
    - engine: the ENGINE_VERSION the game started under (an older one plays its rules).
    - phase: None (setup just done), "reinforce" (turn_started), "attack" (the turn's
      reinforcements placed, and in a two-player game the neutral's share too) or
      "fortify" (the attack ended).
    """
    assert rules.get("setup", "deal") != "claim", "build claim games with StartGame"
    armies = dict(armies or {})
    hands = {s: list(cs) for s, cs in (hands or {}).items()}
    traded = [(s, list(trio)) for s, trio in traded]
    rules_obj = validate_rules(rules, players)
    neutral = rules_obj.has_neutral(players)
    owner = deal(players, owners, rest, neutral)
    default = {t: 2 if owner[t] == NEUTRAL and neutral else 1 for t in TERRITORIES}
    want = {t: armies.get(t, default[t]) for t in TERRITORIES}

    def first_unnamed(who):
        return next((t for t in TERRITORIES if owner[t] == who and t not in armies), None)

    def put(who, count: int) -> dict:
        """Where `count` armies of this turn go: an unnamed territory, else named headroom."""
        spot = first_unnamed(who)
        if spot is not None:
            want[spot] += count
            return {spot: count}
        placements = {}
        for t in TERRITORIES:
            if owner[t] == who and count:
                take = min(want[t] - default[t], count)
                if take > 0:
                    placements[t] = take
                    count -= take
        assert count == 0, f"{who} cannot have placed this turn's armies on this board"
        return placements

    events: list[tuple] = [started(players, order, game_id, engine, **rules)]
    events.append(("territories_dealt", {"owners": owner}))
    in_hands = [c for cs in hands.values() for c in cs] + [c for _, trio in traded for c in trio]
    assert len(set(in_hands)) == len(in_hands), "a card is in two places"
    if deck is None:
        deck = [c for c in range(44) if c not in in_hands]
    events.append(("deck_shuffled", {"cards": in_hands + list(deck)}))
    if missions is not None:
        events.append(("missions_dealt", {"missions": list(missions)}))

    # This turn's placements, worked out first so setup leaves room for them.
    state_after_deal = given(*events)
    this_turn: dict = {}
    neutral_turn: dict = {}
    total = 0
    if phase in ("attack", "fortify"):
        base, continents = reinforcements_owed(state_after_deal, seat)
        total = base + sum(continents.values())
        this_turn = put(seat, total)
        if neutral and total // 2 and NEUTRAL in owner.values():
            neutral_turn = put(NEUTRAL, total // 2)

    for s in (order if order is not None else range(players)):
        placements = {}
        for t in TERRITORIES:
            if owner[t] == s:
                at_setup = want[t] - 1 - (this_turn.get(t, 0) if s == seat else 0)
                if at_setup:
                    assert at_setup > 0, f"{t} cannot hold {want[t]} armies on this board"
                    placements[t] = at_setup
        left = STARTING_ARMIES[players] - list(owner.values()).count(s) - sum(placements.values())
        spot = first_unnamed(s)
        if left > 0 and spot is not None:
            placements[spot] = placements.get(spot, 0) + left
            want[spot] += left
        events.append(("armies_placed", {"seat": s, "placements": placements}, s))
    for t in TERRITORIES:
        if owner[t] == NEUTRAL:
            assert want[t] - neutral_turn.get(t, 0) == default[t], (
                f"neutral {t} can only hold {default[t]} armies before this turn")
    if capitals:
        for s, territory in capitals.items():
            events.append(("capital_chosen", {"seat": s, "territory": territory}, s))
    for s, cards in hands.items():
        for c in cards:
            events.append(("card_drawn", {"seat": s, "card": c}))
    for s, trio in traded:
        for c in trio:
            events.append(("card_drawn", {"seat": s, "card": c}))
        value = set_value(rules_obj, trio, len([e for e in events if e[0] == "cards_traded"]))
        events.append(("cards_traded", {"seat": s, "cards": trio, "value": value, "bonus": {}}, s))
    events.extend(earlier)
    if phase is None:
        return events
    state = given(*events)
    base, continents = reinforcements_owed(state, seat)
    events.append(("turn_started", {
        "seat": seat, "turn": turn, "base": base, "continents": continents,
        "total": base + sum(continents.values()),
    }))
    if phase == "reinforce":
        return events
    assert base + sum(continents.values()) == total
    events.append(("armies_placed", {"seat": seat, "placements": this_turn}, seat))
    if neutral_turn:
        events.append(("armies_placed", {
            "seat": NEUTRAL, "placements": neutral_turn, "by": 1 - seat,
        }, 1 - seat))
    if phase == "fortify":
        events.append(("attack_ended", {"seat": seat}, seat))
    return events


# ---- when a command ---------------------------------------------------------------------
class Outcome(list):
    """The events a command made, as (type, data) pairs; `.events` and `.state` (after)."""

    events: list[Event]
    state: GameState

    def types(self) -> list[str]:
        return [kind for kind, _ in self]

    def of(self, kind: str) -> list[dict]:
        return [data for k, data in self if k == kind]


def _command(seat, command):
    """A command object as it is, anything else as JSON a client sent."""
    if hasattr(command, "__dataclass_fields__"):
        return command
    return parse_command(command, seat)


def when(state: GameState, seat, command, *, dice: Iterable[int] = (),
         picks: Iterable[int] = (), shuffles: Iterable = (), rng=None) -> Outcome:
    """Decide `command` (JSON, or a command object such as TimeOut()) sent by `seat`."""
    rng = rng or ScriptedDice(dice, picks, shuffles)
    before = copy.deepcopy(state.to_dict()) if state is not None else None
    events = decide(state, _command(seat, command), rng)
    if state is not None:
        assert state.to_dict() == before, "decide changed the state it was given"
    if isinstance(rng, ScriptedDice):
        assert not rng.dice, f"scripted dice left unrolled: {rng.dice}"
    start = state.version if state is not None else 0
    assert [e.seq for e in events] == list(range(start + 1, start + 1 + len(events)))
    after = state.copy() if state is not None else None
    for event in events:
        after = evolve(after, event)
    stored = [Event.from_dict(json.loads(json.dumps(e.to_dict()))) for e in events]
    again = replay(stored, state.copy() if state is not None else None)
    assert again == after, "the events do not replay the same through JSON"
    outcome = Outcome((e.type, e.data) for e in events)
    outcome.events = events
    outcome.state = after
    return outcome


def timeout(state: GameState, **draws) -> Outcome:
    """The deadline of whatever decision is owed has passed."""
    return when(state, None, TimeOut(), **draws)


def refused(state: GameState, seat, command, code: str, **draws) -> RuleViolation:
    """The command is refused with `code`, and the state is exactly as it was."""
    before = copy.deepcopy(state.to_dict()) if state is not None else None
    with pytest.raises(RuleViolation) as refusal:
        decide(state, _command(seat, command), ScriptedDice(**draws))
    assert refusal.value.code == code, f"{refusal.value.code}: {refusal.value}"
    if state is not None:
        assert state.to_dict() == before, "a refused command changed the state"
    return refusal.value


def start(players: int = 3, rng=None, game_id: str = "g1", **rules) -> Outcome:
    """StartGame with these options; scripted draws leave every shuffle in order."""
    command = StartGame(game_id, players, validate_rules(rules, players))
    return when(None, None, command, rng=rng or ScriptedDice())


def play(state: GameState, *moves, dice: Iterable[int] = ()) -> GameState:
    """The state after several (seat, command) moves, sharing one scripted dice list."""
    rng = ScriptedDice(dice)
    for seat, command in moves:
        for event in decide(state, _command(seat, command), rng):
            state = evolve(state.copy(), event)
    assert not rng.dice, f"scripted dice left unrolled: {rng.dice}"
    return state

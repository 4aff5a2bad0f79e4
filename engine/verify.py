"""verify(record): replay a finished game through the rules and recompute every draw.

The seed is derived again first: the revealed server seed must match the seed hash
published at creation, and the draws' key is fair.game_seed of it and the players' entropy
that game_started lists. Each event is checked against the state just before it: the rules must allow it (audit:
whose turn, which phase, what the board and the hand permit, every derived figure), and
each draw it carries is recomputed from the revealed seed with the stream of its own seq.
The first event the rules would not have produced is reported, and so is every draw that
differs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from . import setup
from .audit import audit
from .events import Event
from .evolve import evolve
from .fair import FairDice, entropy_problem, game_seed, seed_hash
from .flow import random_placement, redraw_order
from .turn import defender_dice, losses, roll


@dataclass
class Verification:
    ok: bool = True
    checked_draws: int = 0
    problems: list[str] = field(default_factory=list)

    def fail(self, seq: int, text: str) -> None:
        self.ok = False
        self.problems.append(f"event {seq}: {text}")


def _expected(state, event: Event, dice: FairDice):
    """The random part the event should carry, or None if it carries none."""
    data, stream = event.data, dice.at(event.seq)
    kind = event.type
    if kind == ev.GAME_STARTED:
        return data["order"], setup.draw_order(data["players"], stream)
    if kind == ev.TERRITORIES_DEALT:
        return data["owners"], setup.draw_deal(state, stream)
    if kind == ev.DECK_SHUFFLED:
        # The deck is shuffled whole at setup; later only the discards are shuffled back.
        pile = list(state.board.card_ids) if state.turn == 0 else sorted(state.discard)
        return data["cards"], stream.shuffle(pile)
    if kind == ev.PLAY_ORDER_DRAWN:
        return data["order"], redraw_order(state, stream)
    if kind == ev.MISSIONS_DEALT:
        return data["missions"], setup.draw_missions(state, stream)
    if kind == ev.BATTLE:
        attacker, defending = roll(stream, len(data["attacker_dice"]), defender_dice(state, data["to"]))
        expected = {"attacker_dice": attacker, "defender_dice": defending,
                    "losses": list(losses(attacker, defending))}
        actual = {"attacker_dice": data["attacker_dice"], "defender_dice": data["defender_dice"],
                  "losses": [data["attacker_losses"], data["defender_losses"]]}
        return actual, expected
    if not data.get("random"):
        return None
    if kind == ev.TERRITORY_CLAIMED:
        return data["territory"], setup.draw_claim(state, stream)
    if kind == ev.CAPITAL_CHOSEN:
        return data["territory"], setup.draw_capital(state, data["seat"], stream)
    if kind == ev.ARMIES_PLACED:
        count = sum(data["placements"].values())
        return data["placements"], random_placement(state, data["seat"], count, stream)
    return None


def _contributions(record: dict) -> list:
    """The players' entropy as the log's game_started lists it (none in older games)."""
    events = record.get("events") or []
    if not events:
        return []
    first = events[0]
    data = first.data if isinstance(first, Event) else first.get("data", {})
    return list(data.get("contributions") or []) if isinstance(data, dict) else []


def derived_seed(record: dict, result: Verification) -> str | None:
    """The key of the record's draws, derived again from the server seed and the players'
    entropy; None (with the problem noted) if it cannot be, or is not the record's own."""
    server_seed = record.get("server_seed") or record.get("seed")  # older records: the same
    if not server_seed:
        result.fail(0, "the seed is not revealed (the game is not finished)")
        return None
    contributions = _contributions(record)
    listed = record.get("contributions")
    if listed is not None and list(listed) != contributions:
        result.fail(0, "the record's contributions are not those game_started lists")
    problems = [entropy_problem(text) for text in contributions]
    if any(problems):
        result.fail(1, f"a contribution is not entropy: {next(p for p in problems if p)}")
        return None
    try:
        seed = game_seed(server_seed, contributions)
        if len(bytes.fromhex(seed)) != 32 or len(bytes.fromhex(server_seed)) != 32:
            raise ValueError
    except (TypeError, ValueError):
        result.fail(0, "the seed is not 32 bytes of hex")
        return None
    if record.get("seed_hash") and seed_hash(server_seed) != record["seed_hash"]:
        result.fail(0, "the server seed does not match the published seed hash")
    if record.get("seed") and record["seed"] != seed:
        result.fail(0, "the seed is not the one derived from the server seed and the "
                       "players' entropy")
    return seed


def verify(record: dict) -> Verification:
    """Check a game record {id, server_seed?, seed, seed_hash?, contributions?, events}
    draw by draw (a record without server_seed is of a game keyed by its seed alone)."""
    result = Verification()
    seed = derived_seed(record, result)
    if seed is None:
        return result
    dice = FairDice(seed, str(record["id"]))
    state = None
    for number, raw in enumerate(record["events"], start=1):
        event = raw if isinstance(raw, Event) else Event.from_dict(raw)
        if event.seq != number:
            result.fail(event.seq, f"the record's events are not numbered 1, 2, 3 … (#{number})")
            return result
        impossible = audit(state, event)
        if impossible:
            # The state after an impossible event means nothing: stop at the first one.
            result.fail(event.seq, f"{event.type} the rules would not produce: {impossible}")
            return result
        try:
            pair = _expected(state, event, dice)
        except (KeyError, IndexError, TypeError, ValueError) as error:
            result.fail(event.seq, f"malformed {event.type} ({error.__class__.__name__})")
            return result
        if pair is not None:
            result.checked_draws += 1
            actual, expected = pair
            if actual != expected:
                result.fail(event.seq, f"{event.type} does not match the seed's draws")
        state = evolve(state, event)
    return result

"""The clock's own changes of a deadline (players on vacation): events that change no board,
refused where no clock runs, checked by the audit of a record."""

from __future__ import annotations

from engine import Event, Moderate, MoveDeadline
from engine import events as ev
from engine.audit import CHECKS, audit
from engine.commands import PULL_BACK, STRETCH
from engine.evolve import HANDLERS
from tests.engine.support import ALICE, BOB, CAROL, given, position, refused, when

UNTIL, WAS = "2026-06-13T10:00:00+00:00", "2026-06-11T10:00:00+00:00"


def board_of(state) -> dict:
    return {**state.to_dict(), "version": None}


def test_it_waits_for_the_owing_seat_on_vacation_and_changes_no_board():
    state = given(*position(players=3))

    outcome = when(state, None, MoveDeadline(STRETCH, (ALICE,), UNTIL, WAS))

    assert outcome == [("deadline_stretched", {"seats": [ALICE], "until": UNTIL, "was": WAS})]
    assert outcome.events[0].actor is None  # the clock, not a player
    assert board_of(outcome.state) == board_of(state)
    assert outcome.state.version == state.version + 1


def test_it_runs_again_for_a_seat_back_early_whoever_owes_the_decision():
    state = given(*position(players=3))

    outcome = when(state, None, MoveDeadline(PULL_BACK, (CAROL,), UNTIL, WAS))

    assert outcome == [("deadline_pulled_back", {"seat": CAROL, "until": UNTIL, "was": WAS})]
    assert board_of(outcome.state) == board_of(state)


def test_it_never_waits_for_a_seat_that_owes_nothing():
    state = given(*position(players=3))

    refused(state, None, MoveDeadline(STRETCH, (ALICE, BOB), UNTIL, WAS), "not_your_turn")
    refused(state, None, MoveDeadline(STRETCH, (), UNTIL, WAS), "bad_command")
    refused(state, None, MoveDeadline(STRETCH, (7,), UNTIL, WAS), "bad_command")
    refused(state, None, MoveDeadline("postpone", (ALICE,), UNTIL, WAS), "bad_command")


def test_it_moves_no_deadline_while_no_clock_runs():
    state = given(*position(players=3))
    paused = when(state, None, Moderate("pause", "maud")).state
    over = when(state, None, Moderate("abort", "maud")).state

    refused(paused, None, MoveDeadline(STRETCH, (ALICE,), UNTIL, WAS), "game_paused")
    refused(over, None, MoveDeadline(PULL_BACK, (ALICE,), UNTIL, WAS), "game_not_active")
    refused(None, None, MoveDeadline(PULL_BACK, (ALICE,), UNTIL, WAS), "game_not_active")


def test_each_is_replayed_and_audited_explicitly():
    for kind in (ev.DEADLINE_STRETCHED, ev.DEADLINE_PULLED_BACK):
        assert kind in HANDLERS and kind in CHECKS


def test_the_audit_refuses_a_forged_deadline_change():
    state = given(*position(players=3))
    paused = when(state, None, Moderate("pause", "maud")).state

    def problem(state, kind, **data):
        return audit(state, Event(state.version + 1, kind, data))

    assert problem(state, ev.DEADLINE_STRETCHED, seats=[ALICE], until=UNTIL, was=WAS) is None
    assert "owes no decision" in problem(state, ev.DEADLINE_STRETCHED, seats=[BOB],
                                         until=UNTIL, was=None)
    assert "owes no decision" in problem(state, ev.DEADLINE_STRETCHED, seats=ALICE,
                                         until=UNTIL, was=None)
    assert "no date" in problem(state, ev.DEADLINE_STRETCHED, seats=[ALICE], until="soon",
                                was=None)
    assert "without a zone" in problem(state, ev.DEADLINE_PULLED_BACK, seat=BOB,
                                       until="2026-06-13T10:00:00", was=None)
    assert "names no seat" in problem(state, ev.DEADLINE_PULLED_BACK, seat=9, until=UNTIL,
                                      was=None)
    assert "paused" in problem(paused, ev.DEADLINE_PULLED_BACK, seat=BOB, until=UNTIL,
                               was=None)


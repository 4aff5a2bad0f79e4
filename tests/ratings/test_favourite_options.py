"""A player's favourite options count the options whose choice is a taste, as the options'
declarations say (engine.options: Option.taste), never how a table was set up."""

from __future__ import annotations

from engine.options import OPTION
from ratings.standings import favourite_options


def test_it_counts_a_taste_and_leaves_out_how_the_table_was_set_up():
    table = {"deadline_seconds": 3600, "max_missed_turns": 5, "placement_batch": 3,
             "fixed_values": {"infantry": 5, "cavalry": 7, "artillery": 9, "mixed": 11}}
    assert all(not OPTION[name].taste for name in table)

    found = favourite_options([({**table, "fog": True}, 2), (table, 5)])

    assert found == [{"option": "fog", "value": True, "games": 2}]


def test_an_option_left_at_its_default_is_no_favourite():
    assert favourite_options([({"fog": False, "objective": "domination"}, 4)]) == []

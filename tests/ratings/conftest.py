"""Fixtures of the ratings tests: a small leaderboard threshold, every player established."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def small_leaderboard(settings):
    """Two rated games are enough here to be listed."""
    settings.CONQUEST_LEADERBOARD_MIN_GAMES = 2


@pytest.fixture(autouse=True)
def everyone_established(settings):
    """Most tests here rate players new to the site and look at the openskill numbers;
    test_established.py turns the newcomers' rule back on to test it."""
    settings.CONQUEST_RATING_ESTABLISHED_GAMES = 0

"""Which random games a test run plays: a different sample each run, drawn from one seed
that the run prints at its end; CONQUEST_TEST_SEED=<that seed> plays the same games again."""

from __future__ import annotations

import os
import random

SEED_VARIABLE = "CONQUEST_TEST_SEED"


def choose_seed() -> int:
    """The run's seed: CONQUEST_TEST_SEED if set, else a fresh one, put in the environment
    so that the workers pytest-xdist starts afterwards draw the same sample."""
    if not os.environ.get(SEED_VARIABLE):
        os.environ[SEED_VARIABLE] = str(random.SystemRandom().randrange(10**9))
    return int(os.environ[SEED_VARIABLE])


def game_numbers(kind: str, count: int) -> list[int]:
    """`count` distinct game numbers for `kind` (the property games, the bots' games...),
    the same in every worker of a run and different from one run to the next."""
    rnd = random.Random(f"{choose_seed()}:{kind}")
    return rnd.sample(range(10**9), count)

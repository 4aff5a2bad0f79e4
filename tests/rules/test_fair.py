"""The fair dice of CONTRACT.md: the published test vectors, and verify() catching tampering."""

from __future__ import annotations

import copy
import hashlib
import hmac

import pytest

from games.rules import FairDice, seed_hash, verify
from games.rules.fair import DrawStream
from tests.rules.test_properties import play_game

ZERO_SEED = "00" * 32


def test_it_gives_the_published_dice():
    assert FairDice(ZERO_SEED, "g1").at(5).dice(5) == [1, 4, 2, 2, 1]


def test_it_gives_the_published_shuffle():
    assert FairDice(ZERO_SEED, "g1").at(1).shuffle(list(range(10))) == [1, 3, 9, 2, 0, 7, 6, 4, 8, 5]


def test_it_reads_hmac_blocks_as_contract_says():
    key = bytes(32)
    stream = b"".join(
        hmac.new(key, f"g1:5:{k}".encode(), hashlib.sha256).digest() for k in range(2)
    )
    words = [int.from_bytes(stream[i:i + 4], "big") for i in range(0, 64, 4)]
    expected = [w % 6 + 1 for w in words if w < (2**32 // 6) * 6][:10]
    assert FairDice(ZERO_SEED, "g1").at(5).dice(10) == expected


def test_it_rejects_words_above_the_largest_multiple():
    class Words(DrawStream):
        def __init__(self, words):
            self.words = list(words)

        def _next4(self):
            return self.words.pop(0)

    top = (2**32 // 6) * 6
    assert Words([top, top + 3, 7]).randbelow(6) == 1


def test_it_publishes_the_hash_of_the_seed_bytes():
    assert seed_hash(ZERO_SEED) == hashlib.sha256(bytes(32)).hexdigest()


def test_it_never_shows_the_seed_in_its_repr():
    assert "00" * 8 not in repr(FairDice(ZERO_SEED, "g1"))


@pytest.fixture(scope="module")
def record():
    return play_game(3, timeouts=0.05)[2]


def test_it_verifies_an_honest_game(record):
    result = verify(record)
    assert result.ok, result.problems
    battles = sum(1 for e in record["events"] if e.type == "battle")
    assert result.checked_draws >= battles + 3


def test_it_rejects_altered_dice(record):
    forged = copy.deepcopy(record)
    battle = next(e for e in forged["events"] if e.type == "battle")
    battle.data["attacker_dice"] = [6] * len(battle.data["attacker_dice"])
    battle.data["defender_dice"] = [1] * len(battle.data["defender_dice"])
    result = verify(forged)
    assert not result.ok and f"event {battle.seq}" in result.problems[0]


def test_it_rejects_an_altered_deal(record):
    forged = copy.deepcopy(record)
    dealt = next(e for e in forged["events"] if e.type == "deck_shuffled")
    dealt.data["cards"] = sorted(dealt.data["cards"])
    assert not verify(forged).ok


def test_it_rejects_a_wrong_seed(record):
    forged = dict(record, seed="11" * 32)
    assert not verify(forged).ok


def test_it_rejects_a_seed_that_does_not_match_its_hash(record):
    forged = dict(record, seed_hash=seed_hash("22" * 32))
    assert not verify(forged).ok


def test_it_rejects_a_record_without_the_seed(record):
    assert not verify(dict(record, seed=None)).ok

"""The fair dice of docs/players/fair-dice.md: the published test vectors, and verify() catching tampering."""

from __future__ import annotations

import copy
import hashlib
import hmac

import pytest

from engine import FairDice, Rules, StartGame, decide, seed_hash, verify
from engine.errors import BadCommand
from engine.fair import DrawStream, entropy_problem, game_seed
from tests.engine.test_properties import play_game

ZERO_SEED = "00" * 32
# HMAC-SHA256(key=32 zero bytes, msg="alice\nbob"): the seed of the players' entropy vector.
ALICE_BOB_SEED = "c313a82e195e2ba0b88c34551a6eccfed723afa93d5b69e83cad9847ded5ac53"


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


def test_it_keys_the_stream_with_the_server_seed_when_nobody_contributed():
    assert game_seed(ZERO_SEED, []) == ZERO_SEED
    assert game_seed(ZERO_SEED, None) == ZERO_SEED


def test_it_derives_the_seed_from_the_contributions_in_seat_order():
    expected = hmac.new(bytes(32), b"alice\nbob", hashlib.sha256).hexdigest()
    assert game_seed(ZERO_SEED, ["alice", "bob"]) == expected == ALICE_BOB_SEED
    assert game_seed(ZERO_SEED, ["bob", "alice"]) != expected
    assert game_seed("11" * 32, ["alice", "bob"]) != expected


def test_it_gives_the_dice_of_the_entropy_vector():
    dice = FairDice(game_seed(ZERO_SEED, ["alice", "bob"]), "g1")
    assert dice.at(5).dice(5) == [5, 1, 6, 2, 6]
    assert dice.at(1).shuffle(list(range(10))) == [2, 9, 0, 6, 3, 7, 1, 8, 4, 5]


def test_it_will_not_let_one_contribution_pose_as_two():
    with pytest.raises(ValueError):
        game_seed(ZERO_SEED, ["alice\nbob"])


@pytest.mark.parametrize("value", ["x", "~" * 64, "a b", " lead and trail ",
                                   "!#$%&'()*+,-./:;<=>?@[\\]^_`{|}0aZ"])
def test_it_takes_printable_ascii_entropy(value):
    assert entropy_problem(value) is None


@pytest.mark.parametrize("value", ["", "x" * 65, "tab\there", "line\nbreak", "caf\u00e9",
                                   "\x7f", "nul\x00", 12, 1.5, True, None, ["x"], {"a": "b"}])
def test_it_refuses_what_is_not_entropy(value):
    assert isinstance(entropy_problem(value), str)


def test_it_lists_the_contributions_in_game_started():
    dice = FairDice(game_seed(ZERO_SEED, ["alice", "carol"]), "g1")
    events = decide(None, StartGame("g1", 3, Rules(), ((0, "alice"), (2, "carol"))), dice)
    started = events[0].data
    assert started["contributions"] == ["alice", "carol"]
    assert started["contributors"] == [0, 2]
    assert started["order"] == dice.at(1).shuffle([0, 1, 2])


def test_it_lists_no_contributions_when_nobody_sent_any():
    events = decide(None, StartGame("g1", 3, Rules()), FairDice(ZERO_SEED, "g1"))
    assert "contributions" not in events[0].data and "contributors" not in events[0].data


@pytest.mark.parametrize("entropy", [((3, "x"),), ((1, "x"), (0, "y")), ((1, "x"), (1, "y")),
                                     ((0, ""),), ((0, "a\nb"),), ((0, 7),)])
def test_it_refuses_to_start_with_entropy_that_is_not_the_seats(entropy):
    with pytest.raises(BadCommand):
        decide(None, StartGame("g1", 3, Rules(), entropy), FairDice(ZERO_SEED, "g1"))


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


# ---- a game with the players' entropy ------------------------------------------------------
SERVER_SEED = "5e" * 32
ENTROPY = ((0, "alice's own words"), (2, "0f3c9a"))


@pytest.fixture(scope="module")
def contributed():
    record = play_game(4, timeouts=0.05, seed=SERVER_SEED, entropy=ENTROPY)[2]
    contributions = [text for _, text in ENTROPY]
    return dict(record, server_seed=SERVER_SEED, seed_hash=seed_hash(SERVER_SEED),
                contributions=contributions, seed=game_seed(SERVER_SEED, contributions))


def test_it_verifies_an_honest_game_with_contributions(contributed):
    assert contributed["events"][0].data["contributions"] == contributed["contributions"]
    result = verify(contributed)
    assert result.ok, result.problems
    assert result.checked_draws >= 3


def test_it_verifies_it_from_the_server_seed_alone(contributed):
    result = verify({k: v for k, v in contributed.items() if k not in ("seed", "contributions")})
    assert result.ok, result.problems


def test_it_rejects_the_server_seed_offered_as_the_seed(contributed):
    forged = dict(contributed, seed=SERVER_SEED)
    assert any("derived" in p for p in verify(forged).problems)


def test_it_rejects_a_record_that_shows_other_contributions(contributed):
    forged = dict(contributed, contributions=["alice's own words"])
    assert not verify(forged).ok


def test_it_rejects_a_game_started_with_other_contributions(contributed):
    forged = copy.deepcopy(contributed)
    forged["events"][0].data["contributions"][1] = "0f3c9b"
    forged["contributions"] = list(forged["events"][0].data["contributions"])
    forged["seed"] = game_seed(SERVER_SEED, forged["contributions"])
    assert not verify(forged).ok


def test_it_rejects_a_server_seed_that_does_not_match_its_hash(contributed):
    other = "77" * 32
    forged = dict(contributed, server_seed=other, seed=game_seed(other, contributed["contributions"]))
    assert any("hash" in p for p in verify(forged).problems)


def test_it_rejects_a_contribution_that_is_not_entropy(contributed):
    forged = copy.deepcopy(contributed)
    forged["events"][0].data["contributions"][1] = "0f3c\n9a"
    forged["contributions"] = forged["events"][0].data["contributions"]
    assert not verify(forged).ok

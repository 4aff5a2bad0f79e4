"""Card sets: which three cards form a set and what a set is worth."""

from __future__ import annotations

from itertools import combinations

from .maps import classic
from .options import Rules
from .pieces import SYMBOLS, WILD


# Each function takes the game's deck (board.cards); None reads the classic map's, for the
# callers that have not been handed a game's board.
def _deck(deck) -> tuple:
    return classic().cards if deck is None else deck


def set_kinds(cards, deck=None) -> list[str]:
    """The kinds a trio can count as: a symbol (three of a kind) or 'mixed'; [] if no set."""
    deck = _deck(deck)
    symbols = [deck[c][1] for c in cards]
    wilds = symbols.count(WILD)
    real = [s for s in symbols if s != WILD]
    kinds = []
    for symbol in SYMBOLS:
        if real.count(symbol) + wilds == 3:
            kinds.append(symbol)
    if len(set(real)) == len(real):  # no symbol twice, wilds fill the gaps
        kinds.append("mixed")
    return kinds


def is_set(cards, deck=None) -> bool:
    return len(cards) == 3 and bool(set_kinds(cards, deck))


def escalating_value(nth: int) -> int:
    """The value of the nth set traded in the game (1-based): 4 6 8 10 12 15 20 25 ..."""
    if nth <= 5:
        return 2 * nth + 2
    return 15 + 5 * (nth - 6)


def set_value(rules: Rules, cards, sets_traded_before: int, deck=None) -> int:
    if rules.card_values == "escalating":
        return escalating_value(sets_traded_before + 1)
    # A wild lets the player count the set as whichever kind is worth most.
    return max(rules.fixed_values[kind] for kind in set_kinds(cards, deck))


def next_set_value(rules: Rules, sets_traded: int) -> int | None:
    """The next set's value when it does not depend on the cards (escalating), else None."""
    if rules.card_values == "escalating":
        return escalating_value(sets_traded + 1)
    return None


def find_sets(hand, deck=None) -> list[tuple[int, int, int]]:
    deck = _deck(deck)
    return [trio for trio in combinations(sorted(hand), 3) if set_kinds(trio, deck)]


def best_set(rules: Rules, hand, sets_traded: int, deck=None) -> tuple[int, int, int] | None:
    """The set a player who is not there trades: the most valuable, then the lowest ids."""
    sets = find_sets(hand, deck)
    if not sets:
        return None
    return max(sets, key=lambda trio: (set_value(rules, trio, sets_traded, deck), [-c for c in trio]))

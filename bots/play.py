"""A computer player's decision: which phase's move a seat owes, asked of that phase's module
(setup, reinforce, attack, fortify); the levels themselves are settings in styles.py. The
game asks again until the seat owes nothing."""

from __future__ import annotations

import random

from .attack import attack, occupy
from .fortify import fortify
from .reinforce import mass_setup, reinforce, trade, wants_trade
from .setup import choose_capital, claim, place_neutral, setup_place
from .styles import STYLES
from .table import Table
from .worth import Player


def decide(player: Player) -> dict:
    """One JSON command of docs/bots/contract.md among those the seat may send now."""
    t = player.t
    commands = t.commands
    if "claim" in commands:
        return claim(player)
    if "choose_capital" in commands:
        return choose_capital(player)
    if "place_neutral" in commands:
        return place_neutral(player)
    if t.phase == "setup_place" and "place" in commands:
        return mass_setup(player) if player.style.plans else setup_place(player)
    if "trade" in commands and wants_trade(player):
        return trade(player)
    if "place" in commands:
        return reinforce(player)
    if "occupy" in commands:
        return occupy(player)
    if "attack" in commands:
        command = attack(player)
        if command:
            return command
    if "fortify" in commands:
        command = fortify(player)
        if command:
            return command
    if "end_turn" in commands:
        return {"type": "end_turn"}
    if "end_attack" in commands:
        return {"type": "end_attack"}
    raise LookupError(f"nothing to do for seat {t.me} in phase {t.phase}")


def choose(view: dict, rules: dict, level: str, rnd: random.Random | None = None) -> dict:
    """The command `level` plays for the seat whose view this is."""
    player = Player(Table(view, rules), STYLES[level], rnd or random.Random(0))
    return decide(player)

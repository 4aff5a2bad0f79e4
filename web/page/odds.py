"""The attack form's odds: the one odds model's figures (games.odds) for the chosen pair and
dice, in the reader's words, and what the page's script needs to say the same as the player
changes the pair (static/js/odds.js computes, these sentences tell)."""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import odds
from games.rules.pieces import NEUTRAL
from games.vocabulary import percent

# The sentences, shared with the script: %(name)s is filled in by both.
TAKE = gettext_noop(
    "Chance to take it: %(repeat)s repeating until it falls, %(one)s with one roll.")
LOSSES = gettext_noop("Armies each side should expect to lose, repeating: you %(attacker)s, "
                      "the defender %(defender)s.")
MOVE_IN = gettext_noop("If it falls: %(mean)s armies on average left to move in, at least "
                       "%(median)s half of the time.")
FOG = gettext_noop("The defender's armies are hidden by fog: no odds without them.")
CHOOSE = gettext_noop("Choose where to attack from and what to attack: the odds show here.")


def texts() -> dict:
    """The sentences in the reader's language, for the script."""
    return {"take": _(TAKE), "losses": _(LOSSES), "move_in": _(MOVE_IN), "fog": _(FOG),
            "choose": _(CHOOSE)}


def defenses(view: dict) -> dict:
    """{owner as the board's data-owner says it: the standing order its dice follow}."""
    owners = [p["seat"] for p in view["players"]] + [NEUTRAL]
    return {str(owner): odds.defense_in_view(view, owner) for owner in owners}


def armies(count: float) -> str:
    return formats.number_format(count, 1, use_l10n=True)


def attack_odds(view: dict, source: str | None, target: str | None,
                dice: str | None) -> dict:
    """{lines: the sentences for this pair} ({fog: True} for a target out of sight, {} for
    no pair): what the attacker may know only, as the view shows it to them."""
    territories = view["territories"]
    if source not in territories or target not in territories:
        return {}
    attackers, defenders = territories[source]["armies"], territories[target]["armies"]
    if defenders is None or territories[target].get("fog"):
        return {"fog": True, "lines": [_(FOG)]}
    if not attackers or attackers < 2 or defenders < 1:
        return {}
    defense = odds.defense_in_view(view, territories[target]["owner"])
    figures = odds.summary(min(attackers, odds.MOST_ARMIES), min(defenders, odds.MOST_ARMIES),
                           int(dice) if dice in ("1", "2", "3") else 3, defense)
    repeat, move_in = figures["repeat"], figures["repeat"]["move_in"]
    lines = [_(TAKE) % {"repeat": percent(repeat["conquer"]),
                        "one": percent(figures["one_roll"]["conquer"])},
             _(LOSSES) % {"attacker": armies(repeat["attacker_losses"]),
                          "defender": armies(repeat["defender_losses"])}]
    if repeat["conquer"] > 0:
        lines.append(_(MOVE_IN) % {"mean": armies(move_in["expected"]),
                                   "median": move_in["median"]})
    return {"lines": lines, "figures": figures}

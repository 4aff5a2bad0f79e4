"""The odds the play forms tell, in the reader's words: the attack form's for the chosen pair
and dice, and the move-in and fortify forms' chance that the border left behind holds
against its strongest enemy neighbour (engine.odds; static/js/odds.js computes the same on
the page as the player changes the form, these sentences tell)."""

from __future__ import annotations

from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import odds, odds_dice
from engine.pieces import ATTACK_DICE, DEFENCE_DICE, NEUTRAL
from games.boards import board_of_view
from words.vocabulary import percent, territory_name

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
            "choose": _(CHOOSE), "dice": DICE}


# The most dice a battle rolls, for static/js/odds.js (engine.pieces names them once).
DICE = {"attack": ATTACK_DICE, "defence": DEFENCE_DICE}
DICE_CHOICES = tuple(str(n) for n in range(1, ATTACK_DICE + 1))


def defenses(view: dict) -> dict:
    """{owner as the board's data-owner says it: the standing order its dice follow}."""
    owners = [p["seat"] for p in view["players"]] + [NEUTRAL]
    return {str(owner): odds_dice.defense_in_view(view, owner) for owner in owners}


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
    defense = odds_dice.defense_in_view(view, territories[target]["owner"])
    figures = odds.summary(min(attackers, odds_dice.MOST_ARMIES), min(defenders, odds_dice.MOST_ARMIES),
                           int(dice) if dice in DICE_CHOICES else ATTACK_DICE, defense)
    repeat, move_in = figures["repeat"], figures["repeat"]["move_in"]
    lines = [_(TAKE) % {"repeat": percent(repeat["conquer"]),
                        "one": percent(figures["one_roll"]["conquer"])},
             _(LOSSES) % {"attacker": armies(repeat["attacker_losses"]),
                          "defender": armies(repeat["defender_losses"])}]
    if repeat["conquer"] > 0:
        lines.append(_(MOVE_IN) % {"mean": armies(move_in["expected"]),
                                   "median": move_in["median"]})
    return {"lines": lines, "figures": figures}


# ---- what a border keeps ------------------------------------------------------------------
KEEPS = gettext_noop(
    "%(source)s keeps %(kept)s against %(enemy)s (%(armies)s), its strongest enemy "
    "neighbour: it holds %(hold)s of the time against an all-out attack.")


def friends(view: dict, seat: int) -> list[str]:
    """The owners (as the board's data-owner says them) whose armies are no threat: the
    seat and its teammates."""
    team = view["players"][seat].get("team")
    return [str(p["seat"]) for p in view["players"]
            if p["seat"] == seat or (team is not None and p.get("team") == team)]


def strongest_enemy(view: dict, seat: int, source: str) -> tuple[str, int] | None:
    """The enemy neighbour of `source` with most armies, among those in sight."""
    ours = friends(view, seat)
    territories = view["territories"]
    enemies = [(territories[n]["armies"], n) for n in sorted(board_of_view(view).neighbours[source])
               if territories[n]["owner"] is not None and str(territories[n]["owner"]) not in ours
               and territories[n]["armies"]]
    if not enemies:
        return None
    armies, enemy = max(enemies, key=lambda pair: pair[0])
    return enemy, armies


def border_line(view: dict, seat: int, source: str, kept: int) -> str | None:
    """What `source` keeps against its strongest enemy neighbour, with `kept` armies left on
    it: the chance it holds against an all-out attack from there (None without an enemy)."""
    threat = strongest_enemy(view, seat, source)
    if threat is None or kept < 1:
        return None
    enemy, armies = threat
    taken = odds.assault(min(armies, odds_dice.MOST_ARMIES), min(kept, odds_dice.MOST_ARMIES),
                         ATTACK_DICE,
                         odds_dice.defense_in_view(view, seat)).conquer if armies >= 2 else 0.0
    board = board_of_view(view)
    return _(KEEPS) % {"source": territory_name(source, board), "kept": kept,
                       "enemy": territory_name(enemy, board), "armies": armies,
                       "hold": percent(1.0 - taken)}


def border_texts(view: dict, seat: int) -> dict:
    """What the page's script needs to retell border_line as the armies moved change."""
    return {"text": _(KEEPS), "friends": friends(view, seat),
            "defense": odds_dice.defense_in_view(view, seat), "dice": DICE}

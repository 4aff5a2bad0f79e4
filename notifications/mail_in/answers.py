"""Moves by mail, explained and answered: the turn mail's two example commands made from
the reader's own position, and the answer to a reply telling what each command did (the
narrator's sentences for the events it produced, as the player's seat may see them, and
the state of each attacked territory afterwards)."""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine import events as ev
from engine import odds, odds_dice
from engine.pieces import ATTACK_DICE
from games import seat_views
from games.boards import board_of_view
from games.standing_orders import neutral_on_borders
from games.store.states import load_state
from words import narrator
from words.vocabulary import percent, territory_name

# A mail answer shows at most this many sentences a command ("attack … repeat" may fight
# a dozen battles): the first few and the last ones, which say how it ended.
MOST_SENTENCES = 12


def _word(territory: str) -> str:
    """A territory as the mail's command language reads it (notifications.mail_in.commands
    takes ids and names, forgiving case and spaces): its id in words, or the id itself
    where words would read as the command's own ("trinidad and tobago", "a, b")."""
    words = territory.replace("_", " ")
    if re.search(r"\b(and|from|with|to|on|in|bonus|repeat|dice)\b|[,;:]", words):
        return territory
    return words


def examples(view: dict) -> list[str]:
    """Up to two commands the reader could send now, from their own position: real
    territories they hold, can attack or can move between. In the reinforce phase the
    second is the attack the placement prepares."""
    return suggested(view)[0]


def attack_chance(view: dict) -> str | None:
    """The sentence under the examples giving the chance that their attack takes its
    territory, repeating (engine.odds, from the counts the reader sees); None without one."""
    attack = suggested(view)[1]
    if attack is None:
        return None
    source, target, dice, attackers = attack
    defenders = ((view.get("territories") or {}).get(target) or {}).get("armies")
    if not defenders or attackers < 2:  # out of sight under fog: no count, no odds
        return None
    owner = view["territories"][target].get("owner")
    figures = odds.summary(min(attackers, odds_dice.MOST_ARMIES), min(defenders, odds_dice.MOST_ARMIES),
                           dice, odds_dice.defense_in_view(view, owner))
    board = board_of_view(view)
    return _("Chance that the attack above takes %(target)s from %(source)s: %(repeat)s "
             "repeating until it falls, %(one)s with one roll.") % {
        "target": territory_name(target, board), "source": territory_name(source, board),
        "repeat": percent(figures["repeat"]["conquer"]),
        "one": percent(figures["one_roll"]["conquer"])}


def suggested(view: dict) -> tuple[list[str], tuple[str, str, int, int] | None]:
    """The examples, and the attack among them: (source, target, dice, armies on the source
    once the reinforcements are placed), or None."""
    you = view.get("you") or {}
    may = you.get("may") or {}
    commands = may.get("commands") or []
    spots = view.get("territories") or {}
    seat = you.get("seat")
    neighbours = board_of_view(view).neighbours
    own = sorted(t for t, spot in spots.items() if spot.get("owner") == seat)
    enemies = {t: sorted(n for n in neighbours[t] if spots[n].get("owner") not in (seat, None)
                         and not spots[n].get("fog")) for t in own}
    border = [t for t in own if enemies[t]]
    strongest = max(border or own, key=lambda t: spots[t].get("armies") or 0, default=None)
    owed = (view.get("pending") or {}).get("reinforcements") or 0
    found: list[str] = []
    attack = None
    if "claim" in commands:
        free = sorted(t for t, spot in spots.items()
                      if spot.get("owner") is None and not spot.get("fog"))
        found += [f"claim {_word(t)}" for t in free[:2]]
    if "choose_capital" in commands and own:
        found += [f"capital {_word(t)}" for t in own[:2]]
    if "place_neutral" in commands:
        # The neutral's armies as the automatic choice would place them (games.standing_orders).
        placed = neutral_on_borders(view)
        if placed:
            found.append("neutral " + ", ".join(f"{n} {_word(t)}" for t, n in placed.items()))
        if len(placed) > 1 or sum(placed.values()) > 1:
            first = next(iter(placed))
            found.append(f"neutral {sum(placed.values())} {_word(first)}")
    if "place" in commands and strongest:
        if owed >= 2 and len(own) >= 2 and not border:
            found.append(f"place {owed - 1} {_word(own[0])}, 1 {_word(own[-1])}")
        else:
            found.append(f"place {max(owed, 1)} {_word(strongest)}")
    attacks = may.get("attack") or {}
    if attacks:
        source = max(sorted(attacks), key=lambda t: spots[t].get("armies") or 0)
        target = min(sorted(attacks[source]), key=lambda t: spots[t].get("armies") or 0)
        dice = min(ATTACK_DICE, (spots[source].get("armies") or 2) - 1)
        found.append(f"attack {_word(target)} from {_word(source)} with {dice} repeat")
        attack = (source, target, dice, spots[source].get("armies") or 2)
    elif "place" in commands and view.get("phase") == "reinforce" and border:
        # What the armies just placed make possible.
        target = min(enemies[strongest], key=lambda t: spots[t].get("armies") or 0)
        dice = min(ATTACK_DICE, (spots[strongest].get("armies") or 1) + owed - 1)
        if dice >= 1:
            found.append(f"attack {_word(target)} from {_word(strongest)} with {dice} repeat")
            attack = (strongest, target, dice, (spots[strongest].get("armies") or 1) + owed)
    if "occupy" in commands:
        occupy = (view.get("pending") or {}).get("occupy") or {}
        found.append(f"occupy {occupy.get('max') or occupy.get('min') or 1}")
    fortify = may.get("fortify") or {}
    if fortify and len(found) < 2:
        source = max(sorted(fortify), key=lambda t: spots[t].get("armies") or 0)
        found.append(f"fortify 1 from {_word(source)} to {_word(sorted(fortify[source])[0])}")
    if "end_attack" in commands and len(found) < 2:
        found.append("end attack")
    if "end_turn" in commands and len(found) < 2:
        found.append("end")
    line = f"attack {_word(attack[1])} from {_word(attack[0])} with {attack[2]} repeat" \
        if attack else None
    return found[:2], attack if line in found[:2] else None


def answer(game, seat: int | None, payload: dict, view: dict, names: dict) -> list[dict]:
    """Per command of the reply that was applied: {line, told: [sentences], after: [the
    attacked territories now]}. Replies from before commands kept their events' numbers
    (`payload["seqs"]`) get their lines alone."""
    applied = payload.get("applied") or []
    spans = payload.get("seqs") or []
    if not spans or seat is None:
        return [{"line": line, "told": [], "after": []} for line in applied]
    first = min(span[0] for span in spans if span)
    last = max(span[1] for span in spans if span)
    # As the player's seat may see them (fog, others' cards), once for all the commands.
    seen = {e["seq"]: e for e in seat_views.event_dicts(game, seat, after=first - 1, upto=last)}
    owners = narrator.OwnerTracker(board_of_view(view))
    state = load_state(game, first - 1) if first > 1 else None
    if state is not None:
        # The defenders' names: who held the attacked territories before (next to the
        # player's own, so in their sight under fog as well).
        owners.owner.update(state.owner)
    answers = []
    for line, span in zip(applied, spans + [None] * len(applied), strict=False):
        events = [seen[s] for s in range(span[0], span[1] + 1) if s in seen] if span else []
        told, attacked = [], []
        for event in events:
            if event["type"] != ev.DECK_SHUFFLED:
                told.append(narrator.describe(event, names, owners))
            owners.see(event)
            target = event["data"].get("to") if event["type"] == ev.BATTLE else None
            if target and target not in attacked:
                attacked.append(target)
        if len(told) > MOST_SENTENCES:
            told = told[:4] + ["…"] + told[-(MOST_SENTENCES - 5):]
        answers.append({"line": line, "told": told,
                        "after": [territory_now(t, view, names, owners.board)
                                  for t in attacked]})
    return answers


def territory_now(territory: str, view: dict, names: dict, board=None) -> str:
    spot = view["territories"][territory]
    if spot.get("fog"):
        return _("%(territory)s: out of sight") % {
            "territory": territory_name(territory, board)}
    return _("%(territory)s now: %(owner)s, %(armies)s") % {
        "territory": territory_name(territory, board),
        "owner": narrator.seat_name(spot["owner"], names) if spot["owner"] is not None
        else "-", "armies": ngettext("%(count)d army", "%(count)d armies", spot["armies"]) % {
            "count": spot["armies"]}}

"""The fair draw of every round: the players shuffled by the tournament's stream, cut into
legal tables (2 to `seats` players each), and who sits out when no such cut exists.

Counts that always cut legally are cut exactly as before byes existed (as few tables as hold
everyone, their sizes as even as possible), so the draws of older tournaments stay the same.
Only with two seats and an odd count is there no cut: one player then sits out the round
(a bye), as in chess and tennis knockouts; seating three at a table made for two would
change the game the organiser chose (its rules are checked for 2 to `seats` players).
"""

from __future__ import annotations

import engine as rules


def table_plan(players: int, seats: int) -> tuple[list[int], int]:
    """(table sizes, byes): as few tables as hold everyone, their sizes as even as possible
    and each from 2 to `seats`; only when no such cut exists do the fewest possible sit
    out (one, and only with two seats and an odd count)."""
    for byes in range(players + 1):
        left = players - byes
        if left < 2:
            break
        tables = -(-left // seats)
        if left >= 2 * tables:
            base, extra = divmod(left, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    return [], players


def drawn(seed: str, draw_id: str, user_ids: list[int], round_number: int) -> list[int]:
    """The players in the order the fair stream shuffles them for this round: the ids
    sorted, then Fisher-Yates with the draws of HMAC(seed, "tournament-{id}:{round}:{k}")."""
    order = sorted(user_ids)
    rules.FairDice(seed, draw_id).at(round_number).shuffle(order)
    return order


def cut(order: list[int], sizes: list[int]) -> list[list[int]]:
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start:start + size])
        start += size
    return tables


def knockout(order: list[int], seats: int,
             byes_so_far: dict[int, int]) -> tuple[list[list[int]], list[int]]:
    """(tables, sitting out) of a knockout round from its drawn order. A bye goes to the
    last drawn of those who sat out least, so nobody sits out twice while another has not;
    the others are cut in their drawn order."""
    sizes, byes = table_plan(len(order), seats)
    position = {user: index for index, user in enumerate(order)}
    out = sorted(order, key=lambda user: (byes_so_far.get(user, 0), -position[user]))[:byes]
    return cut([user for user in order if user not in out], sizes), out


def groups(order: list[int], seats: int) -> list[list[int]]:
    """Round robin's groups from the first draw: the plan's tables, and a player who would
    sit out joins the last group, whose members then take turns sitting out."""
    sizes, byes = table_plan(len(order), seats)
    grouped = cut(order, sizes)
    if byes and grouped:
        grouped[-1].extend(order[len(order) - byes:])
    return grouped


def round_robin(grouped: list[list[int]], seats: int,
                round_number: int) -> tuple[list[list[int]], list[int]]:
    """(tables, sitting out) of a round robin round: each group's seating turns by one a
    round, so the first seat goes round; its first `seats` play, the rest sit out."""
    tables, out = [], []
    for members in grouped:
        shift = (round_number - 1) % len(members)
        turned = members[shift:] + members[:shift]
        tables.append(turned[:seats])
        out.extend(turned[seats:])
    return tables, out

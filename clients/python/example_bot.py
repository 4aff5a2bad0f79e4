"""An example bot on conquest_client (docs/bots/index.md): it plays legal moves, simply
and aggressively, in every game its account is seated in (or the one named), until the
game ends.

    python example_bot.py --url http://127.0.0.1:8000 --token TOKEN [--game ID] [--until-over]

Its choices come from the view's `you.may` (the commands the seat may send now, and for
attack and fortify each source with its targets); where a command is refused anyway (a rule
the bot does not know), it tries its next idea, and if none is taken it leaves the decision
to the game's deadline, as a person who walks away would.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from conquest_client import ALWAYS, OVER, ApiError, Conquest, owes_decision

# Commands the bot sends for one decision at most (a long turn of attacks is a few dozen).
MOST_COMMANDS = 500


class ExampleBot:
    """Choices for one seat from its game view: a list of commands, best first."""

    def __init__(self, seed: int | None = None):
        self.random = random.Random(seed)
        self.boards: dict[str, dict[str, list[str]]] = {}

    def neighbours(self, client: Conquest, map_id: str) -> dict[str, list[str]]:
        if map_id not in self.boards:
            found: dict[str, list[str]] = {}
            for a, b in client.board(map_id)["borders"]:
                found.setdefault(a, []).append(b)
                found.setdefault(b, []).append(a)
            self.boards[map_id] = found
        return self.boards[map_id]

    def choices(self, view: dict, near: dict[str, list[str]]) -> list[dict]:
        you, pending = view["you"], view.get("pending") or {}
        me, land = you["seat"], view["territories"]
        may = you.get("may") or {"commands": [], "attack": {}, "fortify": {}}
        can = [c for c in may.get("commands", []) if c not in ALWAYS]
        own = [t for t, spot in land.items() if spot["owner"] == me]

        def armies(t):
            return land[t]["armies"] or 0

        def enemies(t):
            return [n for n in near.get(t, []) if land.get(n, {}).get("owner") not in (me, None)
                    or land.get(n, {}).get("fog")]

        front = [t for t in own if enemies(t)] or own
        front.sort(key=lambda t: (-armies(t), t))
        found: list[dict] = []
        if "claim" in can:
            free = [t for t, spot in land.items() if spot["owner"] is None and not spot.get("fog")]
            self.random.shuffle(free)
            found += [{"type": "claim", "territory": t} for t in free[:5]]
        if "choose_capital" in can and own:
            found += [{"type": "choose_capital", "territory": t} for t in front[:3]]
        if "trade" in can and you.get("tradeable_sets"):
            found.append({"type": "trade", "cards": list(you["tradeable_sets"][0])})
        owed = pending.get("reinforcements") or 0
        if "place" in can and owed > 0 and own:
            found.append({"type": "place", "placements": {front[0]: owed}})
            found.append({"type": "place", "placements": {own[0]: 1}})  # a cap per territory
        if "place_neutral" in can and owed > 0:
            neutral = [t for t, spot in land.items() if spot["owner"] == "neutral"]
            if neutral:
                found.append({"type": "place_neutral", "placements": {neutral[0]: owed}})
        if "occupy" in can and pending.get("occupy"):
            found.append({"type": "occupy", "armies": pending["occupy"]["max"]})
            found.append({"type": "occupy", "armies": pending["occupy"]["min"]})
        if "attack" in can:
            options = [(armies(src) - armies(dst), src, dst)
                       for src, targets in (may.get("attack") or {}).items() for dst in targets]
            good = sorted((o for o in options if o[0] >= 2), reverse=True)
            found += [{"type": "attack", "from": src, "to": dst, "repeat": True}
                      for _, src, dst in good[:3]]
        for last in ("end_turn", "end_attack"):
            if last in can:
                found.append({"type": last})
        return found


def play_decision(client: Conquest, game_id: int, bot: ExampleBot, log=print) -> dict:
    """Play the decision the game owes this seat, to its end (a whole turn); the view after."""
    view = client.game(game_id)
    near = bot.neighbours(client, view.get("map", "classic"))
    for _ in range(MOST_COMMANDS):
        if view["status"] in OVER or not owes_decision(view):
            return view
        for command in bot.choices(view, near):
            try:
                view = client.command(game_id, command, view["version"])["game"]
                break
            except ApiError as refused:
                if refused.status == 409:  # moved on meanwhile (the clock, another seat)
                    view = client.game(game_id)
                    break
                if refused.status not in (400, 403):
                    raise
                log(f"game {game_id}: {command['type']} refused ({refused.code}): trying "
                    "the next idea")
        else:
            log(f"game {game_id}: no idea was taken; the deadline will decide")
            return view
    return view


def run(client: Conquest, game_ids=None, until_over: bool = False, poll_every: float = 2.0,
        seed: int | None = None, log=print) -> dict[int, dict]:
    """Follow the account's notices and play each decision owed; with `until_over`,
    return once every game named (`game_ids`) is over, with their last views."""
    bot = ExampleBot(seed)
    wanted = None if game_ids is None else {int(g) for g in game_ids}
    finished: dict[int, dict] = {}
    for notice in client.follow(wanted, poll_every,
                                on_fallback=lambda: log("no event stream here: polling")):
        if notice.kind == "your_move" and notice.game is not None:
            view = play_decision(client, notice.game, bot, log)
            if view["status"] in OVER:
                finished[notice.game] = view
        elif notice.kind == "game_finished" and notice.game is not None:
            finished[notice.game] = client.game(notice.game)
        if until_over and wanted is not None and wanted <= set(finished):
            return finished
    return finished


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--token", help="the bot account's API token")
    parser.add_argument("--username", help="or sign in with a username and password")
    parser.add_argument("--password")
    parser.add_argument("--stream-url", help="the user stream's URL, if served apart")
    parser.add_argument("--game", type=int, action="append", help="play only this game "
                        "(repeatable); default: every game of the account")
    parser.add_argument("--until-over", action="store_true",
                        help="exit once the games named with --game are over")
    parser.add_argument("--poll", type=float, default=2.0,
                        help="seconds between polls where there is no stream")
    parser.add_argument("--seed", type=int)
    options = parser.parse_args(argv)
    if options.token:
        client = Conquest(options.url, options.token, stream_url=options.stream_url)
    elif options.username and options.password:
        client = Conquest.sign_in(options.url, options.username, options.password,
                                  stream_url=options.stream_url)
    else:
        parser.error("give --token, or --username and --password")
    started = time.monotonic()
    finished = run(client, options.game, options.until_over, options.poll, options.seed,
                   log=lambda text: print(text, flush=True))
    for game_id, view in sorted(finished.items()):
        you = view.get("you") or {}
        won = view.get("winner") is not None and view.get("winner") == you.get("seat")
        print(f"game {game_id}: {view['status']}, winner seat {view.get('winner')}"
              f"{' (us)' if won else ''}, turn {view.get('turn')}, "
              f"{time.monotonic() - started:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Check a finished Conquest game's record with Python's standard library alone.

    curl -s https://HOST/api/v1/games/ID/record/ > record.json
    python3 verify_record.py record.json        (or - to read standard input)

    # a game on another map than classic: the map version it was played on, too
    curl -s https://HOST/api/v1/maps/MAP/versions/MAP_HASH/ > map.json
    python3 verify_record.py --map map.json record.json

Exit status 0: every check passed; 1: a check failed (each problem is printed); 2: nothing
could be checked: the file is not the record of a finished game (no revealed seed, or not
JSON of that shape), or the game's map is not at hand (a map other than classic needs its
file: `map` and `map_hash` of the record name it, and the file given must be that version,
its SHA-256 content hash the record's `map_hash`).

The map: the classic board is built in (the record's map `classic`, or no `map` at all, as
in records from before there were other maps). For any other map, or another version of the
classic one, `--map FILE` gives the map file (format 1, as `GET /api/v1/maps/{id}/versions/
{map_hash}/` serves it, or a shipped `engine/maps/<id>.json`); its content hash is the
SHA-256 of its JSON written with sorted keys, no spaces and UTF-8, and it must be the
record's `map_hash`. The draws then use that board's territory order, deck and missions.

What it checks, as docs/players/fair-dice.md "The draws" defines the draws:

1. The commitment: `seed_hash` is the SHA-256 of the 32 bytes of the revealed `server_seed`.
2. The seed: the players' entropy that the log's `game_started` lists (`contributions`,
   each 1 to 64 printable ASCII characters) is what the record lists, and `seed` is
   HMAC-SHA256(key=server_seed, msg=the contributions joined by "\\n"), or server_seed
   itself if nobody contributed. A record without `server_seed` (from before players could
   contribute) is checked with `seed` as the server's seed.
3. The log: events numbered 1, 2, 3 ... with `game_started` first.
4. Every random draw, recomputed from HMAC-SHA256(seed, "{id}:{seq}:{k}") of its event:
   - `game_started`: the turn order (a shuffle of the seats);
   - `territories_dealt`: the deal (a shuffle of the map's territories in its order, dealt
     round robin from the first in turn order, with the neutral as a further hand in a
     two-player game with the neutral; under `claim` setup only the neutral's share);
   - `deck_shuffled`: the first, a shuffle of the map's cards (classic: 44; by default a card
     a territory and two wilds); a later one, the shuffle of the cards it lists (the traded
     pile, in card order);
   - `missions_dealt`: a shuffle of the table's mission cards (the map's missions, then a
     `destroy_<colour>` card for each colour in play if it has a destroy mission), dealt in
     turn order;
   - `play_order_drawn`: the first player drawn among the seats still in, the others
     following in the order they sat in;
   - `territory_claimed`, `capital_chosen` and `armies_placed` marked `random` (a missed
     setup decision, or `random` setup): the territory or the placement drawn, from the
     board as the setup events before it built it;
   - `battle`: every die, the attacker's drawn before the defender's in the numbers the
     event lists, and the losses those dice inflict.

What it does not check: whether each move was one the rules allowed (whose turn it was,
the phase, armies, cards, how many dice a battle should have had, whether it conquered,
which cards a later reshuffle should have held). That needs the whole rules engine: the
service's own check (`python manage.py verify_game ID`, and the game page once the game is
over) replays every event through it.
"""

from __future__ import annotations

import argparse
import hashlib
import hmac
import json
import sys

# The classic board in board order, its 44 cards (42 territories and 2 wild) and the
# fourteen mission cards, as the service's rules define them (engine/maps/classic.json and
# missions.py; the service's tests check that these copies agree).
TERRITORIES = (
    "alaska", "northwest_territory", "greenland", "alberta", "ontario", "quebec",
    "western_united_states", "eastern_united_states", "central_america",
    "venezuela", "peru", "brazil", "argentina",
    "iceland", "scandinavia", "great_britain", "northern_europe", "western_europe",
    "southern_europe", "ukraine",
    "north_africa", "egypt", "east_africa", "congo", "south_africa", "madagascar",
    "ural", "siberia", "yakutsk", "kamchatka", "irkutsk", "mongolia", "japan", "afghanistan",
    "china", "middle_east", "india", "siam",
    "indonesia", "new_guinea", "western_australia", "eastern_australia",
)
CARD_COUNT = 44
COLORS = ("red", "blue", "green", "yellow", "black", "white")
MISSIONS = (
    "north_america_africa", "north_america_australia", "asia_south_america", "asia_africa",
    "europe_south_america_plus_one", "europe_australia_plus_one", "occupy_18_with_2",
    "occupy_24", *(f"destroy_{color}" for color in COLORS),
)
NEUTRAL = "neutral"
# The content hash of the classic map these copies are (engine/maps/classic.json).
CLASSIC_HASH = "4ae6117114616dfd0272c965a5f128227b7e2b1d89bed95e111cd1896d6b46e9"


class Board:
    """What the draws read of a map: its territories in map order, how many cards its deck
    holds and its mission cards (in the map's order)."""

    def __init__(self, territories, card_count: int, missions):
        self.territories = tuple(territories)
        self.card_count = card_count
        self.missions = tuple(missions)


CLASSIC = Board(TERRITORIES, CARD_COUNT, MISSIONS)


# ---- the draws (docs/players/fair-dice.md "The draws") ------------------------------------------------
class Stream:
    """The bytes HMAC-SHA256(seed, "{game_id}:{seq}:{k}") for k = 0, 1, ... and draws."""

    def __init__(self, seed: bytes, game_id: str, seq: int):
        self.seed, self.prefix = seed, f"{game_id}:{seq}:"
        self.block, self.buffer = 0, b""

    def word(self) -> int:
        while len(self.buffer) < 4:
            message = f"{self.prefix}{self.block}".encode()
            self.buffer += hmac.new(self.seed, message, hashlib.sha256).digest()
            self.block += 1
        word, self.buffer = int.from_bytes(self.buffer[:4], "big"), self.buffer[4:]
        return word

    def randbelow(self, n: int) -> int:
        limit = (2**32 // n) * n
        while True:
            word = self.word()
            if word < limit:
                return word % n

    def dice(self, count: int) -> list[int]:
        return [self.randbelow(6) + 1 for _ in range(count)]

    def shuffle(self, items: list) -> list:
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        return items


def entropy_problem(text) -> str | None:
    if not isinstance(text, str) or not 1 <= len(text) <= 64:
        return "a contribution must be 1 to 64 characters of text"
    if any(not " " <= char <= "~" for char in text):
        return "a contribution must be printable ASCII characters only"
    return None


def derive_seed(server_seed: bytes, contributions: list[str]) -> bytes:
    if not contributions:
        return server_seed
    message = "\n".join(contributions).encode("ascii")
    return hmac.new(server_seed, message, hashlib.sha256).digest()


def losses(attacker: list[int], defender: list[int]) -> tuple[int, int]:
    """Highest against highest, second against second; ties go to the defender."""
    pairs = zip(sorted(attacker, reverse=True), sorted(defender, reverse=True), strict=False)
    won = sum(1 for a, d in pairs if a > d)
    return min(len(attacker), len(defender)) - won, won


# ---- the board, as far as the draws need it -----------------------------------------------
class Table:
    """What the draws depend on: seats, turn order, who is still in, and during setup the
    owner and armies of each territory."""

    def __init__(self, started: dict, board: Board):
        rules = started.get("rules") or {}
        self.board = board
        self.players = started["players"]
        self.order = list(started["order"])
        self.claim = rules.get("setup") == "claim"
        self.has_neutral = self.players == 2 and rules.get("neutral", True)
        self.cap = rules.get("initial_max_per_territory")
        self.out: set = set()
        self.owner: dict = dict.fromkeys(board.territories)
        self.armies: dict = dict.fromkeys(board.territories, 0)
        self.setup = True  # until the first turn starts
        self.decks = 0

    def own(self, seat) -> list[str]:
        return [t for t in self.board.territories if self.owner[t] == seat]

    def follow(self, kind: str, data: dict) -> None:
        """Keep the table up to date with an event (after its draws are checked)."""
        if kind == "territories_dealt":
            for territory, owner in data["owners"].items():
                self.owner[territory] = owner
                self.armies[territory] = 2 if owner == NEUTRAL and self.has_neutral else 1
        elif kind == "territory_claimed":
            self.owner[data["territory"]], self.armies[data["territory"]] = data["seat"], 1
        elif kind == "armies_placed" and self.setup:
            for territory, count in data["placements"].items():
                self.armies[territory] += count
        elif kind in ("player_eliminated", "player_dropped"):
            self.out.add(data["seat"])
            if kind == "player_dropped":
                for territory in self.own(data["seat"]):
                    self.owner[territory] = NEUTRAL
        elif kind == "play_order_drawn":
            self.order = list(data["order"])
        elif kind == "turn_started":
            self.setup = False
        elif kind == "deck_shuffled":
            self.decks += 1


def random_placement(table: Table, seat, count: int, stream: Stream) -> dict:
    own, placed = table.own(seat), {}
    for _ in range(count):
        room = [t for t in own
                if table.cap is None or table.armies[t] + placed.get(t, 0) < table.cap]
        if not room:
            break
        territory = room[stream.randbelow(len(room))]
        placed[territory] = placed.get(territory, 0) + 1
    return placed


def expected_draws(table: Table, kind: str, data: dict, stream: Stream):
    """(what the event says, what the seed draws) for an event that carries draws, a
    problem's text for a random draw where the rules make none, or None."""
    if kind == "game_started":
        return data["order"], stream.shuffle(list(range(table.players)))
    if kind == "territories_dealt":
        hands = table.order + ([NEUTRAL] if table.has_neutral else [])
        dealt = stream.shuffle(list(table.board.territories))
        owners = {t: hands[i % len(hands)] for i, t in enumerate(dealt)}
        if table.claim:
            owners = {t: o for t, o in owners.items() if o == NEUTRAL}
        return data["owners"], owners
    if kind == "deck_shuffled":
        pile = list(range(table.board.card_count)) if table.decks == 0 else sorted(
            data["cards"])
        return data["cards"], stream.shuffle(pile)
    if kind == "missions_dealt":
        present = set(COLORS[:table.players])
        deck = stream.shuffle([m for m in table.board.missions
                               if not m.startswith("destroy_") or m[8:] in present])
        missions = [None] * table.players
        for i, seat in enumerate(table.order):
            missions[seat] = deck[i]
        return data["missions"], missions
    if kind == "play_order_drawn":
        living = [s for s in table.order if s not in table.out]
        at = table.order.index(living[stream.randbelow(len(living))])
        return data["order"], table.order[at:] + table.order[:at]
    if kind == "battle":
        attacker = stream.dice(len(data["attacker_dice"]))
        defender = stream.dice(len(data["defender_dice"]))
        said = (data["attacker_dice"], data["defender_dice"],
                [data["attacker_losses"], data["defender_losses"]])
        return said, (attacker, defender, list(losses(attacker, defender)))
    if not data.get("random") or kind not in (
            "territory_claimed", "capital_chosen", "armies_placed"):
        return None
    if not table.setup:
        return f"{kind} drawn at random after the setup, where the rules draw none"
    if kind == "territory_claimed":
        free = [t for t in table.board.territories if table.owner[t] is None]
        return data["territory"], free[stream.randbelow(len(free))]
    if kind == "capital_chosen":
        own = table.own(data["seat"])
        return data["territory"], own[stream.randbelow(len(own))]
    count = sum(data["placements"].values())
    return data["placements"], random_placement(table, data["seat"], count, stream)


# ---- the record and its map -----------------------------------------------------------------
class CannotCheck(Exception):
    """Nothing can be checked: the input is no finished game's record, or its map is not
    at hand."""


class NotARecord(CannotCheck):
    """The input is not the record of a finished game: nothing to check."""


def content_hash(data) -> str:
    """A map file's content hash: the SHA-256 of its JSON with sorted keys, no spaces, UTF-8
    (the service's engine.maps.content_hash)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def board_of_file(data) -> Board:
    """The draws' view of a map file: territories in order, the deck (its own, else a card a
    territory and two wilds) and the mission cards (each mission but the destroy one by id,
    then with a destroy mission one `destroy_<colour>` card a colour)."""
    try:
        territories = [t["id"] for t in data["territories"]]
        deck = data.get("deck")
        cards = len(deck["cards"]) if deck else len(territories) + 2
        missions = data.get("missions") or []
        ids = list(dict.fromkeys(m["id"] for m in missions if m["kind"] != "destroy"))
        if any(m["kind"] == "destroy" for m in missions):
            ids += [f"destroy_{color}" for color in COLORS]
    except (KeyError, TypeError, AttributeError) as error:
        raise CannotCheck(f"the map file is not a map ({error.__class__.__name__}: "
                          f"{error})") from None
    if not territories or not all(isinstance(t, str) for t in territories):
        raise CannotCheck("the map file lists no territories")
    return Board(territories, cards, ids)


def board_of(record: dict, map_file, problems: list[str]) -> Board:
    """The board the record's game was played on: the classic one built in, or `map_file`
    (a map's data) if it is the version the record names by its hash."""
    started = (record["events"][0].get("data") or {}) if record["events"] else {}
    map_id = record.get("map") or started.get("map") or "classic"
    map_hash = record.get("map_hash") or started.get("map_hash")
    if started.get("map_hash") and map_hash != started["map_hash"]:
        problems.append("the record's map_hash is not the one game_started names")
    if map_file is None:
        where = f"GET /api/v1/maps/{map_id}/versions/{map_hash}/ gives it"
        if map_id != "classic":
            raise CannotCheck(f"a game on the map {map_id!r}: give the map version it was "
                              f"played on with --map FILE ({where})")
        if map_hash not in (None, CLASSIC_HASH):
            raise CannotCheck(f"a game on a version of the classic map ({map_hash}) this "
                              f"script does not carry: give it with --map FILE ({where})")
        return CLASSIC
    found = content_hash(map_file)
    # A record from before games named their map played the first classic version.
    if found != (map_hash or CLASSIC_HASH):
        raise CannotCheck(f"the map file is not the version the game was played on: its "
                          f"content hash is {found}, the record's map_hash "
                          f"{map_hash or CLASSIC_HASH}")
    if isinstance(map_file, dict) and map_file.get("id", map_id) != map_id:
        raise CannotCheck(f"the map file is the map {map_file['id']!r}, the game's is "
                          f"{map_id!r}")
    return board_of_file(map_file)


def seed_of(record: dict, problems: list[str]) -> bytes:
    """The draws' key, derived again from the server seed and the players' entropy."""
    server_hex = record.get("server_seed") or record.get("seed")
    if not isinstance(server_hex, str) or not server_hex:
        raise NotARecord("the seed is not revealed: the game is not over")
    try:
        server_seed = bytes.fromhex(server_hex)
    except ValueError:
        raise NotARecord("the server seed is not hex") from None
    if len(server_seed) != 32:
        problems.append("the server seed is not 32 bytes")
    if hashlib.sha256(server_seed).hexdigest() != record.get("seed_hash"):
        problems.append("seed_hash is not the SHA-256 of the server seed")
    events = record.get("events") or [{}]
    contributions = list((events[0].get("data") or {}).get("contributions") or [])
    if record.get("contributions") is not None and record["contributions"] != contributions:
        problems.append("the record's contributions are not those game_started lists")
    for text in contributions:
        problem = entropy_problem(text)
        if problem:
            problems.append(f"{problem}: {text!r}")
            return server_seed
    seed = derive_seed(server_seed, contributions)
    if record.get("seed") and record["seed"] != seed.hex():
        problems.append("seed is not HMAC-SHA256(server seed, the contributions joined by "
                        "line breaks)" if contributions else "seed is not the server seed")
    return seed


def check(record: dict, map_file=None) -> tuple[list[str], dict]:
    """(problems, how many draws of each kind were recomputed) for a record; `map_file`:
    the data of the map file it was played on (None: the classic map)."""
    if not isinstance(record, dict) or not isinstance(record.get("events"), list) or not all(
            isinstance(event, dict) for event in record["events"]):
        raise NotARecord("not a game record: no list of events")
    problems: list[str] = []
    seed = seed_of(record, problems)
    board = board_of(record, map_file, problems)
    game_id = str(record.get("id"))
    counts: dict = {}
    table = None
    for number, event in enumerate(record["events"], start=1):
        try:
            seq, kind, data = event["seq"], event["type"], event["data"]
            if seq != number:
                problems.append(f"event {number}: numbered {seq}, not {number}")
                break
            if table is None:
                if kind != "game_started":
                    problems.append("event 1: the log does not start with game_started")
                    break
                if str(data.get("game_id", game_id)) != game_id:
                    problems.append(f"event 1: game_started names game {data['game_id']}")
                table = Table(data, board)
            pair = expected_draws(table, kind, data, Stream(seed, game_id, seq))
            if isinstance(pair, str):
                problems.append(f"event {seq}: {pair}")
            elif pair is not None:
                counts[kind] = counts.get(kind, 0) + 1
                if pair[0] != pair[1]:
                    problems.append(f"event {seq}: {kind} is not what the seed draws")
            table.follow(kind, data)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            problems.append(f"event {number}: malformed ({error.__class__.__name__}: {error})")
            break
    return problems, counts


def read_json(name: str):
    if name == "-":
        return json.load(sys.stdin)
    with open(name, encoding="utf-8") as source:
        return json.load(source)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="verify_record.py", description="Check a finished Conquest game's record.",
        epilog="Exit status: 0 passed, 1 a check failed, 2 nothing could be checked.")
    parser.add_argument("record", help="the game's record/ JSON (- reads standard input)")
    parser.add_argument("--map", metavar="FILE", dest="map_file",
                        help="the map version the game was played on (GET /api/v1/maps/"
                             "{map}/versions/{map_hash}/); not needed for the classic map")
    arguments = parser.parse_args(argv[1:])
    try:
        record = read_json(arguments.record)
        map_file = None if arguments.map_file is None else read_json(arguments.map_file)
        problems, counts = check(record, map_file)
    except (OSError, ValueError, CannotCheck) as error:
        print(f"cannot check: {error}", file=sys.stderr)
        return 2
    if problems:
        for problem in problems:
            print(f"FAIL {problem}")
        print(f"game {record.get('id')}: {len(problems)} problem(s)")
        return 1
    contributions = len((record["events"][0].get("data") or {}).get("contributions") or [])
    drawn = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
    print(f"game {record.get('id')} on the map {record.get('map') or 'classic'}: OK. "
          f"seed_hash commits to the server seed; the seed is "
          f"derived from it and {contributions} player contribution(s); "
          f"{sum(counts.values())} events' draws recomputed ({drawn}).")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

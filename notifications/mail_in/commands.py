"""The little command language of moves by mail, e.g.

    place 3 ukraine, 2 siam        trade                 trade 4 17 43
    attack ukraine from scandinavia with 3 repeat        occupy 5
    attack scandinavia ukraine 3   (two territories: yours attacks the other's)
    end attack                     fortify 4 from ural to siberia
    end                            claim peru            capital peru
    neutral 2 peru                 defense one           resign
    neutral defense one            (the neutral's dice, when the rules let you choose them)

Territories are those of the game's map, by id or by name in any language the site speaks
(the reader's own first); names forgive case, spaces, dots, dashes and accents ("Německo",
"nemecko"), and on the classic map know the common short names.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from django.conf import settings
from django.utils import translation

from engine.cards import best_set
from engine.maps import DEFAULT_MAP, Board, board_by_hash, classic
from notifications.mail_in.reply_text import reply_lines
from words.vocabulary import territory_name


class MailCommandError(ValueError):
    pass


# Letters that do not decompose into a base letter and an accent.
_PLAIN = str.maketrans({"ł": "l", "ø": "o", "đ": "d", "ß": "ss", "æ": "ae", "œ": "oe",
                        "ı": "i", "þ": "th", "ð": "d"})


def _key(text: str) -> str:
    # Digits stay: "place 3 4 ukraine" is a typo to report, not 3 armies on Ukraine.
    plain = unicodedata.normalize("NFKD", text.lower().translate(_PLAIN))
    return re.sub(r"[^a-z0-9]", "", plain.encode("ascii", "ignore").decode())


ALIASES = {
    "nwt": "northwest_territory", "northwest": "northwest_territory",
    "wus": "western_united_states", "westernus": "western_united_states",
    "westus": "western_united_states", "westernusa": "western_united_states",
    "eus": "eastern_united_states", "easternus": "eastern_united_states",
    "eastus": "eastern_united_states", "easternusa": "eastern_united_states",
    "camerica": "central_america", "centralam": "central_america",
    "gb": "great_britain", "britain": "great_britain", "uk": "great_britain",
    "neurope": "northern_europe", "weurope": "western_europe", "seurope": "southern_europe",
    "nafrica": "north_africa", "eafrica": "east_africa", "safrica": "south_africa",
    "waustralia": "western_australia", "eaustralia": "eastern_australia",
    "wa": "western_australia", "ea": "eastern_australia", "png": "new_guinea",
    "mideast": "middle_east", "me": "middle_east", "kamchatca": "kamchatka",
    "yakutia": "yakutsk", "madagaskar": "madagascar",
}


@lru_cache(maxsize=32)
def _names(map_hash: str) -> tuple[dict, dict]:
    """A map's territories by the key of each id and each name: (ids, {language: names})."""
    board = board_by_hash(map_hash)
    ids = {_key(t): t for t in board.territories}
    names = {}
    for code, _ in settings.LANGUAGES:
        with translation.override(code):
            names[code] = {_key(territory_name(t, board)): t for t in board.territories}
    return ids, names


def territory(text: str, board: Board | None = None) -> str:
    """The territory of the game's map (`board`, default classic) that `text` names."""
    board = board or classic()
    key = _key(text)
    ids, names = _names(board.hash)
    language = (translation.get_language() or "en").split("-")[0]
    found = ids.get(key) or names.get(language, {}).get(key) or names.get("en", {}).get(key)
    for by_name in names.values():
        found = found or by_name.get(key)
    if found is None and board.id == DEFAULT_MAP:
        found = ALIASES.get(key)
    if found is None:
        raise MailCommandError(f"no territory called '{text.strip()}'")
    return found


# Numbers in mailed commands have at most six digits: no board holds more armies, and
# int() of a 5,000-digit string would raise instead of answering the player.
def _placements(text: str, board: Board | None = None) -> dict:
    placements: dict[str, int] = {}
    for part in re.split(r",|;|\band\b", text):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,6})\s+(?:on\s+|in\s+|to\s+)?(.+)", part)
        if not match:
            raise MailCommandError(f"write placements as '3 ukraine, 2 siam' (got '{part}')")
        where = territory(match[2], board)
        placements[where] = placements.get(where, 0) + int(match[1])
    if not placements:
        raise MailCommandError("say how many armies go where, e.g. 'place 3 ukraine'")
    return placements


def _board(state) -> Board | None:
    """The game's map (classic before the game has a state)."""
    return state.board if state is not None else None


def _trade(m, state, seat) -> dict:
    command = {}
    if m[1]:
        command["cards"] = [int(m[1]), int(m[2]), int(m[3])]
    else:
        trio = best_set(state.rules, state.players[seat].cards, state.sets_traded,
                        state.board.cards) if (
            state is not None and seat is not None) else None
        if trio is None:
            raise MailCommandError("you hold no set of cards to trade")
        command["cards"] = list(trio)
    if m[4]:
        command["bonus_territory"] = territory(m[4], _board(state))
    return command


def _attack(m, state, seat) -> dict:
    board = _board(state)
    command = {"from": territory(m[2], board), "to": territory(m[1], board),
               "repeat": bool(m[4])}
    if m[3]:
        command["dice"] = int(m[3])
    return command


def _attack_between(m, state, seat) -> dict:
    """"attack A B [N]" without "from": the two territories, whichever order they come in,
    the player's own attacking the other (names of several words are split where both
    halves name a territory)."""
    board = _board(state)
    words = m[1].split()
    pairs = []
    for cut in range(1, len(words)):
        try:
            pairs.append((territory(" ".join(words[:cut]), board),
                          territory(" ".join(words[cut:]), board)))
        except MailCommandError:
            continue
    owner = state.owner if state is not None else {}
    attacks = {(a, b) for x, y in pairs for a, b in ((x, y), (y, x))
               if owner.get(a) == seat and owner.get(b) != seat}
    if len(attacks) != 1:
        raise MailCommandError(f"write which territory attacks which, e.g. 'attack "
                               f"{words[-1]} from {words[0]}' (got '{m[0]}')")
    (source, target), = attacks
    command = {"from": source, "to": target, "repeat": bool(m[3])}
    if m[2]:
        command["dice"] = int(m[2])
    return command


# The phrases of each command a player may send (engine.commands.COMMAND_TYPES; the
# tests hold the two lists together), tried in this order: (type, phrase, the command's
# fields from the phrase's match, the game's state and the seat).
PHRASES = [
    ("place", r"(?:place|put|reinforce)\s+(.+)",
     lambda m, state, seat: {"placements": _placements(m[1], _board(state))}),
    # `neutral_dice: opponent`: the neutral's dice when the other player attacks it.
    ("set_defense", r"neutral\s+defen[cs]e\s+(max|one)",
     lambda m, state, seat: {"policy": m[1], "neutral": True}),
    ("place_neutral", r"neutral\s+(.+)",
     lambda m, state, seat: {"placements": _placements(m[1], _board(state))}),
    ("claim", r"claim\s+(.+)",
     lambda m, state, seat: {"territory": territory(m[1], _board(state))}),
    ("choose_capital", r"capital\s+(.+)",
     lambda m, state, seat: {"territory": territory(m[1], _board(state))}),
    ("trade", r"trade(?:\s+(\d{1,6})\s+(\d{1,6})\s+(\d{1,6}))?(?:\s+bonus\s+(.+))?", _trade),
    ("attack", r"attack\s+(.+?)\s+from\s+(.+?)(?:\s+with\s+(\d{1,6})(?:\s+dice)?)?"
               r"(\s+(?:repeat|until done|until conquered|all out|blitz))?", _attack),
    ("attack", r"attack\s+(\S+\s+.+?)(?:\s+(?:with\s+)?(\d{1,6})(?:\s+dice)?)?"
               r"(\s+(?:repeat|until done|until conquered|all out|blitz))?", _attack_between),
    ("occupy", r"(?:occupy|move)\s+(\d{1,6})", lambda m, state, seat: {"armies": int(m[1])}),
    ("end_attack", r"end attack|stop attack|stop attacking|no more attacks",
     lambda m, state, seat: {}),
    ("fortify", r"fortify\s+(\d{1,6})\s+from\s+(.+?)\s+to\s+(.+)",
     lambda m, state, seat: {"from": territory(m[2], _board(state)),
                             "to": territory(m[3], _board(state)), "armies": int(m[1])}),
    ("fortify", r"fortify\s+from\s+(.+?)\s*:\s*(.+)",
     lambda m, state, seat: {"from": territory(m[1], _board(state)), "moves": [
         {"to": t, "armies": n} for t, n in _placements(m[2], _board(state)).items()]}),
    ("end_turn", r"end|end turn|done|pass|end my turn", lambda m, state, seat: {}),
    ("set_defense", r"defen[cs]e\s+(max|one)", lambda m, state, seat: {"policy": m[1]}),
    ("resign", r"resign", lambda m, state, seat: {}),
]
_PHRASES = [(kind, re.compile(phrase), fields) for kind, phrase, fields in PHRASES]


def parse_line(line: str, state=None, seat=None) -> dict | None:
    """The JSON command of one line (None for a blank line); raises MailCommandError."""
    text = " ".join(line.strip().lower().split())
    if not text:
        return None
    for kind, phrase, fields in _PHRASES:
        if m := phrase.fullmatch(text):
            return {"type": kind, **fields(m, state, seat)}
    raise MailCommandError(f"did not understand '{line.strip()}'")


def command_lines(body: str) -> list[str]:
    """The lines of a reply that are meant as commands: those the player wrote above the
    quoted mail, the signature and whatever their mail client added
    (notifications.mail_in.reply_text)."""
    return reply_lines(body)

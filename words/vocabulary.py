"""The game's own words for the pages, translatable: territories, continents, colours, card
symbols, phases, missions, rule options and the rules' error codes."""

from __future__ import annotations

import re
from functools import lru_cache

from django.utils import formats
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext_lazy as _

from engine.maps import DEFAULT_MAP, board_by_hash, classic
from engine.pieces import COLORS, NEUTRAL

TERRITORY_NAMES = {
    "alaska": _("Alaska"),
    "northwest_territory": _("Northwest Territory"),
    "greenland": _("Greenland"),
    "alberta": _("Alberta"),
    "ontario": _("Ontario"),
    "quebec": _("Quebec"),
    "western_united_states": _("Western United States"),
    "eastern_united_states": _("Eastern United States"),
    "central_america": _("Central America"),
    "venezuela": _("Venezuela"),
    "peru": _("Peru"),
    "brazil": _("Brazil"),
    "argentina": _("Argentina"),
    "iceland": _("Iceland"),
    "scandinavia": _("Scandinavia"),
    "great_britain": _("Great Britain"),
    "northern_europe": _("Northern Europe"),
    "western_europe": _("Western Europe"),
    "southern_europe": _("Southern Europe"),
    "ukraine": _("Ukraine"),
    "north_africa": _("North Africa"),
    "egypt": _("Egypt"),
    "east_africa": _("East Africa"),
    "congo": _("Congo"),
    "south_africa": _("South Africa"),
    "madagascar": _("Madagascar"),
    "ural": _("Ural"),
    "siberia": _("Siberia"),
    "yakutsk": _("Yakutsk"),
    "kamchatka": _("Kamchatka"),
    "irkutsk": _("Irkutsk"),
    "mongolia": _("Mongolia"),
    "japan": _("Japan"),
    "afghanistan": _("Afghanistan"),
    "china": _("China"),
    "middle_east": _("Middle East"),
    "india": _("India"),
    "siam": _("Siam"),
    "indonesia": _("Indonesia"),
    "new_guinea": _("New Guinea"),
    "western_australia": _("Western Australia"),
    "eastern_australia": _("Eastern Australia"),
}

CONTINENT_NAMES = {
    "north_america": _("North America"),
    "south_america": _("South America"),
    "europe": _("Europe"),
    "africa": _("Africa"),
    "asia": _("Asia"),
    "australia": _("Australia"),
}

COLOR_NAMES = {
    "red": _("Red"),
    "blue": _("Blue"),
    "green": _("Green"),
    "yellow": _("Yellow"),
    "black": _("Black"),
    "white": _("White"),
    NEUTRAL: _("Neutral"),
}

SYMBOL_NAMES = {
    "infantry": _("infantry"),
    "cavalry": _("cavalry"),
    "artillery": _("artillery"),
    "wild": _("wild card"),
    "mixed": _("one of each"),
}

PHASE_NAMES = {
    "claim": _("claiming territories"),
    "setup_place": _("placing starting armies"),
    "capital": _("choosing capitals"),
    "reinforce": _("reinforcing"),
    "attack": _("attacking"),
    "occupy": _("moving into a conquered territory"),
    "fortify": _("fortifying"),
    "neutral_place": _("placing the neutral's reinforcements"),
}

STATUS_NAMES = {
    "open": _("waiting for players"),
    "active": _("in play"),
    "paused": _("paused"),
    "finished": _("finished"),
    "aborted": _("aborted"),
}

FINISH_REASONS = {
    "domination": _("every other player is out"),
    "mission": _("secret mission fulfilled"),
    "capitals": _("holds enough capitals"),
    "round_limit": _("held the most territories when the round limit was reached"),
}

_CONTINENT_MISSIONS = {
    "north_america_africa": ("north_america", "africa", False),
    "north_america_australia": ("north_america", "australia", False),
    "asia_south_america": ("asia", "south_america", False),
    "asia_africa": ("asia", "africa", False),
    "europe_south_america_plus_one": ("europe", "south_america", True),
    "europe_australia_plus_one": ("europe", "australia", True),
}

# Each rules error code, as a player reads it.
ERROR_CODES = {
    "not_your_turn": _("It is not your move."),
    "wrong_phase": _("That cannot be done in this phase."),
    "unknown_territory": _("There is no such territory."),
    "not_owner": _("That territory is not yours."),
    "bad_target": _("You cannot attack your own territory."),
    "not_adjacent": _("Those territories do not border each other."),
    "not_enough_armies": _("Not enough armies."),
    "bad_dice": _("That number of dice is not allowed."),
    "bad_cards": _("Those cards cannot be traded."),
    "must_trade": _("You hold five or more cards: trade a set first."),
    "reinforcements_left": _("Place all your reinforcements first."),
    "bad_placement": _("Those placements do not add up."),
    "game_not_active": _("The game is not running."),
    "bad_command": _("That move was not understood."),
    "bad_rules": _("Those rules do not work together."),
    "not_seated": _("You do not play in this game."),
    "not_authenticated": _("Sign in to play."),
    "version_conflict": _("The game moved on."),
    "game_not_open": _("The game is not open for joining."),
    "already_seated": _("You already play in this game."),
    "not_creator": _("Only the game's creator can start it."),
    "not_enough_players": _("At least two players must be seated."),
    "bad_team": _("There is no such team in this game."),
    "team_full": _("Every seat of that team is taken."),
    "bad_seats": _("The seats cannot be arranged so."),
    "bad_request": _("That request was not understood."),
    "game_not_finished": _("The game is not over yet."),
    "rematch_declined": _("The rematch was declined: it is off."),
    "rematch_started": _("The rematch has already started."),
    "no_rematch": _("Nobody has offered a rematch of this game."),
    "not_a_bot_account": _("There is no bot account of that name."),
    "bots_not_allowed": _("This game does not take bot accounts."),
    "not_your_bot": _("Only its owner seats a bot account."),
}


def territory_name(territory: str | None, board=None) -> str:
    """A territory's name in the reader's language. The classic board's names are in the
    catalogues; any other map carries its own (a map file's `name`, and `names` by language
    code: engine.maps)."""
    if territory is None:
        return ""
    if board is not None and board.id != DEFAULT_MAP:
        return map_name(board, territory)
    return str(TERRITORY_NAMES.get(territory, territory))


def continent_name(continent: str, board=None) -> str:
    if board is not None and board.id != DEFAULT_MAP:
        return map_name(board, continent)
    return str(CONTINENT_NAMES.get(continent, continent))


def map_name(board, key: str | None = None) -> str:
    """A name a map file gives, in the active language: the map's own (key None), or a
    territory's or continent's; the file's English `name` where it has no translation. The
    classic map's own name is in the catalogues, as its territories' are."""
    if key is None and board.id == DEFAULT_MAP:
        return str(CLASSIC_MAP_NAME)
    return _map_names(board.hash, get_language() or "en").get(key, board.names.get(key, key))


CLASSIC_MAP_NAME = _("Classic")


@lru_cache(maxsize=64)
def _map_names(map_hash: str, language: str) -> dict:
    data = board_by_hash(map_hash).data
    code = language.split("-")[0].lower()
    names = {None: (data.get("names") or {}).get(code) or data["name"]}
    for item in (*data["territories"], *data["continents"]):
        names[item["id"]] = (item.get("names") or {}).get(code) or item["name"]
    return names


def color_name(color: str) -> str:
    return str(COLOR_NAMES.get(color, color))


def seat_color(seat) -> str:
    """The colour of a seat number, or 'neutral'."""
    if seat == NEUTRAL:
        return NEUTRAL
    if isinstance(seat, int) and 0 <= seat < len(COLORS):
        return COLORS[seat]
    return ""


def seat_name(seat) -> str:
    """A seat as the log calls it: its colour (Red, Blue ... Neutral)."""
    return color_name(seat_color(seat)) if seat is not None else ""


def symbol_name(symbol: str) -> str:
    return str(SYMBOL_NAMES.get(symbol, symbol))


def phase_name(phase: str | None) -> str:
    return str(PHASE_NAMES.get(phase, phase or ""))


def mission_text(mission: str | None, board=None) -> str:
    """A secret mission in words (engine.missions.describe, translated): the classic
    map's fourteen as the catalogues word them, any other map's from its definitions."""
    if not mission:
        return ""
    if mission.startswith("destroy_"):
        return str(_("Destroy all armies of %(color)s") % {"color": color_name(mission[8:])})
    if board is not None and board.id != DEFAULT_MAP:
        return _map_mission_text(mission, board)
    if mission in _CONTINENT_MISSIONS:
        first, second, extra = _CONTINENT_MISSIONS[mission]
        names = {"first": continent_name(first), "second": continent_name(second)}
        if extra:
            return str(_("Conquer %(first)s and %(second)s and one more continent of your choice")
                       % names)
        return str(_("Conquer %(first)s and %(second)s") % names)
    if mission == "occupy_18_with_2":
        return str(_("Occupy 18 territories with at least 2 armies on each"))
    if mission == "occupy_24":
        return str(_("Occupy 24 territories"))
    return mission


def _map_mission_text(mission: str, board) -> str:
    definition = next((m for m in board.missions if m["id"] == mission), None)
    if definition is None:
        return mission
    if definition["kind"] == "conquer":
        continents = ", ".join(continent_name(c, board) for c in definition["continents"])
        extra = definition.get("extra", 0)
        if extra:
            return str(ngettext(
                "Conquer %(continents)s and %(count)d more continent of your choice",
                "Conquer %(continents)s and %(count)d more continents of your choice",
                extra) % {"continents": continents, "count": extra})
        return str(_("Conquer %(continents)s") % {"continents": continents})
    count, armies = definition["territories"], definition.get("armies", 1)
    if armies > 1:
        return str(ngettext(
            "Occupy %(count)d territory with at least %(armies)d armies on each",
            "Occupy %(count)d territories with at least %(armies)d armies on each",
            count) % {"count": count, "armies": armies})
    return str(ngettext("Occupy %(count)d territory", "Occupy %(count)d territories", count)
               % {"count": count})


def error_text(code: str) -> str:
    return str(ERROR_CODES.get(code, _("That move is not allowed.")))


# A map's territory ids: lower case words joined by "_" (digits allowed after the first letter).
_TERRITORY_ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)*\b")


def detail_words(detail: str, board=None) -> str:
    """A refusal's detail as players read it: territories of the game's map (`board`,
    default classic) by their names in the active language, never their ids ("alaska is
    not yours" -> "Alaska is not yours"). The API keeps the ids, for programs."""
    board = board or classic()

    def name(match: re.Match) -> str:
        word = match.group(0)
        return str(territory_name(word, board)) if word in board.index else word

    return _TERRITORY_ID.sub(name, str(detail)).replace(" territory id", " territory")


# Computer players' levels (bots.LEVELS).
BOT_LEVELS = {
    "easy": _("easy"),
    "normal": _("normal"),
    "hard": _("hard"),
}


def level_name(level) -> str:
    return str(BOT_LEVELS.get(level, level))

DEFENSE_NAMES = {
    "max": _("defend with as many dice as possible"),
    "one": _("always defend with one die"),
}


def percent(chance: float) -> str:
    """A chance as the pages and the mail write it, in the reader's language (the attack
    form's script, static/js/attack_odds.js, writes it the same way): one decimal, and never
    0 or 100 for what is merely unlikely or likely."""
    if 0.0 < chance < 0.001:
        return "< " + formats.number_format(0.1, 1, use_l10n=True) + " %"
    if 0.999 < chance < 1.0:
        return "> " + formats.number_format(99.9, 1, use_l10n=True) + " %"
    return formats.number_format(chance * 100, 1, use_l10n=True) + " %"

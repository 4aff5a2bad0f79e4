"""How a refused move reads to a player: each detail the rules give (in English, with the
map's ids, for programs) as a sentence in the reader's language, territories by name. A
detail no sentence here covers reads as it was written when it was written for people (the
lobby's reasons), and as its code's words alone when written for programs (a malformed
command, which only a program sends): a player never sees a field's name."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from engine.maps import classic

from .rules import RULE_LABELS
from .vocabulary import error_text, territory_name

# Each detail a player can meet through a page or a mail, as the rules word it (a regex:
# `t`-groups are territory ids, `n`-groups numbers), and as the player reads it.
SENTENCES = (
    (r"'(?:from|to|territory)' must be a territory id", _("Choose a territory first.")),
    (r"no territory '.*' on the map .*", _("There is no such territory on this map.")),
    (r"(?P<t>\S+) is not yours", _("%(t)s is not yours.")),
    (r"(?P<t>\S+) is yours", _("%(t)s is yours: attack a territory of another player.")),
    (r"(?P<t>\S+) belongs to your teammate", _("%(t)s belongs to your teammate.")),
    (r"(?P<t>\S+) does not border (?P<u>\S+)", _("%(t)s does not border %(u)s.")),
    (r"no chain of your territories links (?P<t>\S+) and (?P<u>\S+)",
     _("No chain of your territories links %(t)s and %(u)s.")),
    (r"(?P<t>\S+) needs at least 2 armies to attack",
     _("%(t)s needs at least 2 armies to attack.")),
    (r"roll 1 to (?P<n>\d+) dice from (?P<t>\S+)", "dice"),
    (r"(?P<t>\S+) is already taken", _("%(t)s is already taken.")),
    (r"(?P<t>\S+) is out of your sight", _("%(t)s is out of your sight.")),
    (r"(?P<t>\S+) is not neutral", _("%(t)s is not neutral.")),
    (r"(?P<t>\S+) is not one of your traded territories",
     _("%(t)s is not one of the territories on your traded cards.")),
    (r"(?P<t>\S+) is not another territory of .*",
     _("%(t)s is not another territory of yours.")),
    (r"only (?P<n>\d+) (?:neutral )?armies to place \(got (?P<m>\d+)\)", "place"),
    (r"only (?P<n>\d+) to place this turn \(got (?P<m>\d+)\)", "place"),
    (r"place all your remaining (?P<n>\d+) armies at once \(got (?P<m>\d+)\)", "place_all"),
    (r"at most (?P<n>\d+) armies on a territory during setup", "cap"),
    (r"'placements' names no territory", _("Put at least one army on a territory.")),
    (r"armies for (?P<t>\S+) must be at least 1",
     _("Put at least one army on %(t)s, or none.")),
    (r"place your (?P<n>\d+) armies before you .*", "owed"),
    (r"you hold more than (?P<n>\d+) cards: trade a set first", "hand"),
    (r"you hold five or more cards: trade a set first",
     _("You hold five or more cards: trade a set first.")),
    (r"move armies into the conquered territory first \(occupy\)",
     _("Move armies into the territory you conquered first.")),
    (r"move at least (?P<n>\d+) armies", "at_least"),
    (r"move at most (?P<n>\d+) armies: one must stay behind", "at_most"),
    (r"move at most (?P<n>\d+): one must stay", "at_most"),
    (r"armies must be at least 1", _("Move at least one army.")),
    (r"trade three different cards from your hand",
     _("Pick three different cards from your hand.")),
    (r"those cards are not a set: three of a kind or one of each",
     _("Those cards are not a set: three of a kind or one of each.")),
    (r"cards are traded only in the reinforce phase",
     _("Cards are traded only before you place your reinforcements.")),
    (r"it is another player's turn", _("It is another player's turn.")),
    (r"it is not yours to .* now|another player (?:claims|places) now",
     _("It is another player's turn.")),
    (r"you cannot .* now|the turn cannot end now|the attack phase is (?:already )?over",
     _("That cannot be done at this point of your turn.")),
    (r"wait for the neutral's reinforcements to be placed|"
     r"the neutral's reinforcements are being placed",
     _("Wait for the neutral's reinforcements to be placed.")),
    (r"there are no reinforcements to place now|the neutral has no reinforcements to place now",
     _("There are no reinforcements to place now.")),
    (r"there is no conquered territory to occupy",
     _("There is no conquered territory to move into.")),
    (r"the neutral defends with the most dice in this game",
     _("The neutral defends with the most dice in this game.")),
    (r"your placement is already in", _("Your placement is already in.")),
    (r"your capital is already chosen", _("Your capital is already chosen.")),
    (r"you are out of this game", _("You are out of this game.")),
    (r"a moderator has paused the game", _("A moderator has paused the game.")),
    (r"the game is still being set up", _("The game is still being set up.")),
    (r"the game has not started", _("The game has not started yet.")),
    (r"the game is not running|the game has already started", _("The game is not running.")),
    # the lobby's rules (engine.options), a rule by its name in the rules panel
    (r"rules\.initial_max_per_territory must be at least (?P<n>\d+) with (?P<m>\d+) players, "
     r"or the starting armies do not fit",
     _("With %(m)s players the starting armies do not fit: allow at least %(n)s armies on a "
       "territory during setup.")),
    (r"rules\.preset \S+ is for (?P<lo>\w+) to (?P<hi>\w+) players, as its rulebook says; "
     r"this game has (?P<k>\d+)",
     _("This rulebook is for %(lo)s to %(hi)s players; this game has %(k)s.")),
    (r"rules\.team_size (?P<n>\d+) needs a multiple of \d+ players and at least two teams.*",
     _("Teams of %(n)s need a number of players that is a multiple of %(n)s, and at least two "
       "teams.")),
    (r"\S+ are not played with teams: a team wins by domination",
     _("That objective is not played with teams: a team wins by domination.")),
    (r"fog is not played with setup claim: .*",
     _("Fog of war is not played with claiming territories: claiming needs the whole board in "
       "sight, so deal them or place them at random.")),
    (r"the map \S+ is for (?P<lo>\d+) to (?P<hi>\d+) players; this game has (?P<k>\d+)",
     _("This map is for %(lo)s to %(hi)s players; this game has %(k)s.")),
    (r"the map \S+ has no missions: choose another objective",
     _("This map has no secret missions: choose another objective.")),
    (r"rules\.(?P<rule>\w+) must be at least (?P<n>\d+)",
     _("%(rule)s: at least %(n)s.")),
    (r"rules\.(?P<rule>\w+) must be .*", _("%(rule)s: that value is not allowed.")),
)
_NUMBERS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6"}
_COMPILED = tuple((re.compile(pattern), words) for pattern, words in SENTENCES)


def _counted(kind: str, n: int, m: int | None, t: str) -> str:
    """The sentences whose words depend on a count (plural forms differ by language)."""
    if kind == "dice":
        return ngettext("Roll 1 die from %(t)s.", "Roll 1 to %(n)d dice from %(t)s.", n) % {
            "n": n, "t": t}
    if kind == "place":
        return ngettext("You have %(n)d army to place, not %(m)d.",
                        "You have %(n)d armies to place, not %(m)d.", n) % {"n": n, "m": m}
    if kind == "place_all":
        return ngettext("Place your remaining %(n)d army at once, not %(m)d.",
                        "Place all your remaining %(n)d armies at once, not %(m)d.", n) % {
            "n": n, "m": m}
    if kind == "cap":
        return ngettext("At most %(n)d army on a territory during setup.",
                        "At most %(n)d armies on a territory during setup.", n) % {"n": n}
    if kind == "owed":
        return ngettext("Place your %(n)d army first.", "Place your %(n)d armies first.",
                        n) % {"n": n}
    if kind == "hand":
        return ngettext("You hold more than %(n)d card: trade a set first.",
                        "You hold more than %(n)d cards: trade a set first.", n) % {"n": n}
    if kind == "at_least":
        return ngettext("Move at least %(n)d army.", "Move at least %(n)d armies.", n) % {
            "n": n}
    return ngettext("Move at most %(n)d army: one must stay behind.",
                    "Move at most %(n)d armies: one must stay behind.", n) % {"n": n}


def detail_sentence(detail: str, board=None) -> str | None:
    """The rules' `detail` as a sentence in the reader's language, on the game's map
    (`board`, default classic); None where no sentence covers it."""
    board = board or classic()

    def name(territory: str | None) -> str:
        return str(territory_name(territory, board)) if territory in board.index else \
            (territory or "")

    for pattern, words in _COMPILED:
        found = pattern.fullmatch(str(detail).strip())
        if found is None:
            continue
        groups = found.groupdict()
        t, u = name(groups.get("t")), name(groups.get("u"))
        if isinstance(words, str):
            m = groups.get("m")
            return _counted(words, int(groups["n"]), int(m) if m else None, t)
        values = {key: _NUMBERS.get(value, value) for key, value in groups.items()}
        if "rule" in values:
            values["rule"] = str(RULE_LABELS.get(values["rule"], _("That rule")))
        return str(words) % {**values, "t": t, "u": u}
    return None


def refusal_words(code: str, detail: str, board=None) -> str:
    """A refusal as a player reads it: the words of its code, then the detail's sentence
    where there is one ("Those territories do not border each other. Alaska does not border
    Brazil.")."""
    lead = error_text(code)
    sentence = detail_sentence(detail, board) if detail else None
    if sentence is None and detail:
        sentence = _as_written(str(detail))
    return f"{lead} {sentence}" if sentence and sentence != lead else lead


# What a program's mistake looks like: a field's name quoted, an id, a list or a mapping
# (an apostrophe alone, "bob's", is a person's word).
_FOR_PROGRAMS = re.compile(r"'[^']*'|[\"_{}\[\]()<>=]")


def _as_written(detail: str) -> str | None:
    """A detail no sentence covers, as the sentence it was written as: the lobby's and the
    services' details are written for people ("the game has started: resign to leave it"), and a
    player who is refused needs the reason more than its translation. None for a detail
    written for programs, which a player never sees."""
    detail = detail.strip().rstrip(".")
    if not detail or _FOR_PROGRAMS.search(detail):
        return None
    return detail[0].upper() + detail[1:] + "."


def too_fast(seconds: int) -> str:
    """A command refused by the command limit (accounts.throttles.COMMAND), on a page or in
    a mail's answer."""
    return ngettext("Too fast: wait %(seconds)s second before the next command.",
                    "Too fast: wait %(seconds)s seconds before the next command.",
                    seconds) % {"seconds": seconds}

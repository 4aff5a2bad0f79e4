"""Mail, moves by mail and the narrator on a map other than classic (tests/maps.py: isles):
its territories and continents by its own names in the reader's language (en, cs, pl), its
names taken in mailed commands, nothing of the classic board."""

from __future__ import annotations

import re
import unicodedata
from types import SimpleNamespace

import pytest
from django.core import mail
from django.utils import translation

from accounts.models import Preferences
from engine import Rules, view
from engine import board as classic_board
from engine.maps import build, classic, remember
from games import seat_views
from games.standing_orders import neutral_on_borders
from games.store.states import load_state
from notifications import delivery, links
from notifications.mail_in.commands import MailCommandError, parse_line, territory
from notifications.models import InboundMail, Notification
from tests.maps import CONTINENTS, DATA, TERRITORIES, name
from tests.notifications.support import (
    act,
    at_first_reinforce,
    place_setup,
    rows,
    seat_of,
    started,
    user_at,
)
from web import mail_moves
from words import narrator
from words.vocabulary import detail_words, mission_text

LANGUAGES = ("en", "cs", "pl")
# Classic names in each language, none of which may show in a mail about the isles.
CLASSIC_WORDS = ("Ukraine", "Ukrajina", "Ukraina", "Siam", "Kamchatka", "Kamčatka",
                 "North America", "Severní Amerika", "Ameryka Północna")


@pytest.fixture
def game(alice, bob, charlie, clock, isles_map):
    """Three players on the isles at the first turn's reinforce phase."""
    return at_first_reinforce(alice, bob, charlie, map_id="isles", placement_batch=50)


def speaks(game, language: str) -> None:
    for seat in range(game.players):
        Preferences.objects.update_or_create(user=user_at(game, seat),
                                             defaults={"language": language})


def sent(row):
    assert delivery.send_one(row.pk) == "sent"
    return mail.outbox[-1]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_turn_mail_shows_the_isles_in_the_readers_language(game, language):
    speaks(game, language)
    row = rows(game, kind=Notification.TURN)[-1]
    state = load_state(game, row.event_seq)

    body = sent(row).body

    index = 1 + LANGUAGES.index(language)
    for continent, row_words in CONTINENTS.items():
        assert f"{row_words[index]} (+{row_words[0]})" in body, continent
    for t in TERRITORIES:
        line = re.search(rf"^  {re.escape(name(t, language))} +(.+?) +(\d+)$", body,
                         re.MULTILINE)
        assert line and int(line[2]) == state.armies[t], t
    assert not [word for word in CLASSIC_WORDS if word in body]
    # The example commands are the isles', and the mail parser takes them back.
    examples = body.split("\n\n")
    lines = [line.strip() for part in examples for line in part.splitlines()
             if line.strip().startswith(("place ", "attack "))]
    assert lines
    for line in lines:
        command = parse_line(line, state, state.current)
        assert set(command.get("placements", {})) | {command.get("from"), command.get(
            "to")} - {None} <= set(TERRITORIES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_mailed_moves_take_the_isles_names_and_the_reply_tells_them(game, language):
    speaks(game, language)
    state = load_state(game)
    seat = state.current
    user = user_at(game, seat)
    source = max(state.border_territories(seat), key=lambda t: state.armies[t])
    target = min((n for n in state.board.neighbours[source] if state.owner[n] != seat),
                 key=lambda t: state.armies[t])
    written = {t: name(t, language) for t in (source, target)}
    if language == "cs":  # without the accents, as a keyboard without them writes it
        written[target] = unicodedata.normalize("NFKD", written[target]).encode(
            "ascii", "ignore").decode()
    body = (f"place {state.reinforcements} {written[source].upper()}\n"
            f"attack {written[target]} from {written[source]} with 3 repeat\n")

    received = mail_moves.receive(user.email, [links.reply_address(
        game.pk, seat_of(game, user), user.pk, game.turn)], "<isles@example.com>", body)

    assert received.status == InboundMail.APPLIED, received.detail
    after = load_state(game)
    assert after.armies[source] != state.armies[source] or after.owner[target] == seat
    reply = sent(Notification.objects.get(key=f"reply:{received.pk}")).body
    told = name(target, language)
    assert told in reply and not [word for word in CLASSIC_WORDS if word in reply]


def test_a_mailed_classic_territory_is_refused_in_the_readers_words(game):
    speaks(game, "cs")
    state = load_state(game)
    user = user_at(game, state.current)

    received = mail_moves.receive(user.email, [links.reply_address(
        game.pk, state.current, user.pk, game.turn)], "<classic@example.com>",
        "place 3 ukraine\n")

    assert received.status == InboundMail.FAILED
    assert "ukraine" in received.detail.lower()
    assert load_state(game).version == state.version


def test_the_command_language_knows_every_name_of_the_map(isles_map):
    state = SimpleNamespace(board=isles_map, rules=Rules(), sets_traded=0,
                            players=[SimpleNamespace(cards=[])])
    for language in LANGUAGES:
        with translation.override(language):
            for t in TERRITORIES:
                for spoken in LANGUAGES:  # every language's name, the reader's first
                    assert territory(name(t, spoken), isles_map) == t
                assert territory(t, isles_map) == t
                assert territory(t.replace("_", " ").upper(), isles_map) == t
    assert parse_line("attack Mroźny Przylądek from port polnocny with 2", state, 0) == {
        "type": "attack", "from": "north_harbour", "to": "frost_point", "dice": 2,
        "repeat": False}
    # Without "from": the player's own territory attacks the other, in either order.
    held = SimpleNamespace(**vars(state), owner={t: (0 if t == "north_harbour" else 1)
                                                 for t in TERRITORIES})
    for line in ("attack Port Północny Mroźny Przylądek 3", "attack frost point north harbour 3",
                 "Attack Mrazivý mys Severní přístav with 3 dice"):
        assert parse_line(line, held, 0) == {"type": "attack", "from": "north_harbour",
                                             "to": "frost_point", "dice": 3, "repeat": False}
    assert parse_line("attack whale bay north harbour repeat", held, 0)["repeat"] is True
    with pytest.raises(MailCommandError, match="which territory attacks which"):
        parse_line("attack frost point whale bay", held, 0)  # neither is the player's
    assert parse_line("place 2 Velrybí zátoka, 1 velrybi zatoka", state, 0) == {
        "type": "place", "placements": {"whale_bay": 3}}
    assert parse_line("fortify 2 from Maják to Mlžná slať", state, 0)["to"] == "misty_fen"
    for classic_only in ("ukraine", "Ukrajina", "nwt"):  # nor the classic map's aliases
        with pytest.raises(MailCommandError, match="no territory called"):
            territory(classic_only, isles_map)
    # The classic map takes its catalogue names in every language, and its aliases.
    with translation.override("cs"):
        assert territory("Ukrajina") == "ukraine" and territory("nwt") == "northwest_territory"
        assert territory("Kamčatka") == "kamchatka" == territory("kamcatka")
    assert territory("Severní Afrika", classic()) == "north_africa"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_narrator_names_the_isles_in_the_readers_language(game, language):
    events = seat_views.event_dicts(game, None)
    battle = {"seq": 99, "type": "battle", "actor": 0, "data": {
        "seat": 0, "from": "frost_point", "to": "whale_bay", "defender": 1,
        "attacker_dice": [6, 2], "defender_dice": [3], "attacker_losses": 0,
        "defender_losses": 1, "conquered": True}}
    with translation.override(language):
        owners = narrator.OwnerTracker()
        for event in events:
            owners.see(event)
        assert owners.board.id == "isles"  # learnt from the game's start
        told = narrator.describe(battle, owners=owners)
        assert name("whale_bay", language) in told and name("frost_point", language) in told
        dealt = narrator.describe({"seq": 5, "type": "armies_placed", "data": {
            "seat": 1, "placements": {"lighthouse": 2}}}, board=owners.board)
        assert name("lighthouse", language) in dealt
        card = narrator.card_text(0, owners.board)
        assert card.startswith(name(owners.board.cards[0][0], language))
        line = narrator.line(battle, {}, owners.board)
        assert name("whale_bay", language) in line
        turn = narrator.describe({"seq": 7, "type": "turn_started", "data": {
            "seat": 0, "turn": 2, "total": 6, "base": 3, "continents": {"north": 3}}},
            board=owners.board)
        assert CONTINENTS["north"][1 + LANGUAGES.index(language)] in turn
        assert "frost_point" not in detail_words("frost_point is not yours", owners.board)
        assert name("frost_point", language) in detail_words("frost_point is not yours",
                                                             owners.board)
        # The classic board stays the default, and the isles' ids mean nothing there.
        assert detail_words("frost_point is not yours") == "frost_point is not yours"


def test_a_maps_own_missions_are_told_in_words():
    data = {**DATA, "id": "isles_missions", "missions": [
        {"id": "north_east", "kind": "conquer", "continents": ["north", "east"]},
        {"id": "north_plus", "kind": "conquer", "continents": ["north"], "extra": 1},
        {"id": "hold_8", "kind": "occupy", "territories": 8, "armies": 2},
        {"id": "hold_9", "kind": "occupy", "territories": 9},
    ]}
    board = remember(build(data))
    with translation.override("pl"):
        assert "Wyspy Północne, Wyspy Wschodnie" in mission_text("north_east", board)
        assert "Wyspy Północne" in mission_text("north_plus", board)
        assert "8" in mission_text("hold_8", board) and "2" in mission_text("hold_8", board)
        assert mission_text("hold_9", board) == "Zajmij 9 terytoriów"
        assert mission_text("north_east", board) == "Podbij Wyspy Północne, Wyspy Wschodnie"
    with translation.override("en"):
        assert mission_text("north_plus", board) == (
            "Conquer North Isles and 1 more continent of your choice")
        assert mission_text("hold_9", board) == "Occupy 9 territories"
        assert mission_text("destroy_red", board) == "Destroy all armies of Red"
        # The classic map's are the catalogues' still.
        assert mission_text("asia_africa") == "Conquer Asia and Africa"


@pytest.mark.usefixtures("neutral_by_hand")  # the rulebooks' way, chosen
def test_the_borders_standing_order_places_the_neutral_on_the_isles(alice, bob, isles_map):
    game = started(alice, bob, map_id="isles", placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover = state.current
    act(game, user_at(game, mover), {"type": "place", "placements": {
        state.territories_of(mover)[0]: state.reinforcements}})
    state = load_state(game)
    assert state.phase == "neutral_place"
    placed = neutral_on_borders(view(state, state.current))
    assert placed and set(placed) <= set(TERRITORIES)
    assert sum(placed.values()) == state.reinforcements
    assert all(state.owner[t] == "neutral" for t in placed)
    assert not set(placed) & set(classic_board.TERRITORIES)

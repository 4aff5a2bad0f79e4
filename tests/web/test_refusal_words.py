"""Every refusal a player can meet on a game page, in English, Czech and Polish, reads in
the player's words: a sentence of its own, territories by name, no field's name in quotes
or parentheses (a tap that selected nothing once read "That move was not understood.
('from' must be a territory)")."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from engine import errors
from engine.board import NEIGHBOURS, TERRITORIES
from engine.maps import shipped
from tests.people import client_for, with_password
from tests.play import play_until
from tests.web.support import post_play, started_game
from words.refusals import detail_sentence, refusal_words

# Each refusal a player can meet playing through the pages, as the rules word its detail
# (engine: setup, turn, decide) and as the page's form reader does (web/commands.py).
REFUSALS = [
    (errors.BadCommand, "'from' must be a territory id"),
    (errors.BadCommand, "'to' must be a territory id"),
    (errors.BadCommand, "'territory' must be a territory id"),
    (errors.UnknownTerritory, "no territory 'atlantis' on the map classic"),
    (errors.NotOwner, "alaska is not yours"),
    (errors.BadTarget, "alaska is yours"),
    (errors.BadTarget, "alaska belongs to your teammate"),
    (errors.NotAdjacent, "alaska does not border brazil"),
    (errors.NotAdjacent, "no chain of your territories links alaska and brazil"),
    (errors.NotEnoughArmies, "alaska needs at least 2 armies to attack"),
    (errors.BadDice, "roll 1 to 2 dice from alaska"),
    (errors.BadDice, "roll 1 to 1 dice from alaska"),
    (errors.BadPlacement, "alaska is already taken"),
    (errors.NotOwner, "alaska is out of your sight"),
    (errors.NotOwner, "alaska is not neutral"),
    (errors.BadCards, "alaska is not one of your traded territories"),
    (errors.NotOwner, "alaska is not another territory of yours"),
    (errors.BadPlacement, "only 3 armies to place (got 5)"),
    (errors.BadPlacement, "only 3 neutral armies to place (got 5)"),
    (errors.BadPlacement, "only 1 to place this turn (got 2)"),
    (errors.BadPlacement, "place all your remaining 21 armies at once (got 20)"),
    (errors.BadPlacement, "at most 4 armies on a territory during setup"),
    (errors.BadPlacement, "'placements' names no territory"),
    (errors.BadPlacement, "armies for alaska must be at least 1"),
    (errors.ReinforcementsLeft, "place your 5 armies before you attack"),
    (errors.MustTrade, "you hold more than 4 cards: trade a set first"),
    (errors.MustTrade, "you hold five or more cards: trade a set first"),
    (errors.WrongPhase, "move armies into the conquered territory first (occupy)"),
    (errors.NotEnoughArmies, "move at least 3 armies"),
    (errors.NotEnoughArmies, "move at most 4 armies: one must stay behind"),
    (errors.NotEnoughArmies, "move at most 4: one must stay"),
    (errors.NotEnoughArmies, "armies must be at least 1"),
    (errors.BadCards, "trade three different cards from your hand"),
    (errors.BadCards, "those cards are not a set: three of a kind or one of each"),
    (errors.WrongPhase, "cards are traded only in the reinforce phase"),
    (errors.NotYourTurn, "it is another player's turn"),
    (errors.NotYourTurn, "it is not yours to attack now"),
    (errors.NotYourTurn, "another player claims now"),
    (errors.NotYourTurn, "another player places now"),
    (errors.WrongPhase, "you cannot fortify now"),
    (errors.WrongPhase, "the turn cannot end now"),
    (errors.WrongPhase, "the attack phase is over"),
    (errors.WrongPhase, "the attack phase is already over"),
    (errors.WrongPhase, "wait for the neutral's reinforcements to be placed"),
    (errors.WrongPhase, "the neutral's reinforcements are being placed"),
    (errors.WrongPhase, "there are no reinforcements to place now"),
    (errors.WrongPhase, "the neutral has no reinforcements to place now"),
    (errors.WrongPhase, "there is no conquered territory to occupy"),
    (errors.BadCommand, "the neutral defends with the most dice in this game"),
    (errors.NotYourTurn, "your placement is already in"),
    (errors.NotYourTurn, "your capital is already chosen"),
    (errors.NotYourTurn, "you are out of this game"),
    (errors.GamePaused, "a moderator has paused the game"),
    (errors.WrongPhase, "the game is still being set up"),
    (errors.GameNotActive, "the game has not started"),
    (errors.GameNotActive, "the game is not running"),
    # the lobby's form, refused by the rules
    (errors.BadRules, "rules.initial_max_per_territory must be at least 3 with 2 players, "
     "or the starting armies do not fit"),
    (errors.BadRules, "rules.preset czech is for three to six players, as its rulebook says; "
     "this game has 2"),
    (errors.BadRules, "rules.team_size 2 needs a multiple of 2 players and at least two teams "
     "(4 or 6 players)"),
    (errors.BadRules, "missions are not played with teams: a team wins by domination"),
    (errors.BadRules, "fog is not played with setup claim: claiming needs the whole board in "
     "sight (use deal or random)"),
    (errors.BadRules, "the map isles is for 2 to 4 players; this game has 5"),
    (errors.BadRules, "the map isles has no missions: choose another objective"),
    (errors.BadRules, "rules.max_cards must be at least 5"),
    (errors.BadRules, "rules.fortify must be one of: adjacent, connected"),
]

FIELD_NAME = re.compile(r"'[a-z_]+'|[()_]")


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
@pytest.mark.parametrize(("kind", "detail"), REFUSALS, ids=[d for _k, d in REFUSALS])
def test_it_words_every_refusal_in_the_player_s_language(kind, detail, language):
    error = kind(detail)
    with translation.override("en"):
        english = detail_sentence(detail)
    with translation.override(language):
        words = refusal_words(error.code, error.detail)
    assert english, f"no sentence for {detail!r}"
    assert words.endswith((".", "!")) and words[0].isupper(), words
    assert not FIELD_NAME.search(words), words
    assert "alaska" not in words and "brazil" not in words, words
    if language != "en":
        assert words != english, f"{detail!r} is not translated into {language}: {words}"


def test_it_names_the_territories_of_the_game_s_own_map():
    europe = shipped("europe")
    territory = europe.territories[0]
    with translation.override("en"):
        words = detail_sentence(f"{territory} is not yours", europe)
    assert words.startswith(europe.names.get(territory, territory)), words


def test_a_malformed_command_reads_as_its_code_alone():
    with translation.override("en"):
        assert refusal_words("bad_command", "'repeat' must be true or false") == (
            "That move was not understood.")


def test_a_reason_written_for_people_follows_its_code_s_words():
    """The lobby's reasons are written for people: dropping them left "The game is not
    open for joining." for a leave refused because the game had started."""
    with translation.override("en"):
        assert refusal_words("game_not_open", "the game has started: resign to leave it") == (
            "The game is not open for joining. The game has started: resign to leave it.")


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "words"), [
    ("en", "Choose the territory to attack from."),
    ("cs", "Vyberte území, ze kterého chcete útočit."),
    ("pl", "Wybierz terytorium, z którego chcesz atakować."),
])
def test_it_asks_for_the_territory_a_tap_did_not_select(language, words):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob], setup="random")
    state = play_until(game, [alice, bob], lambda s: s.phase == "attack")
    mover = [alice, bob][state.current]
    target = next(t for t in TERRITORIES if state.owner[t] != state.current)
    client = client_for(mover)
    client.cookies["django_language"] = language
    response = post_play(client, game, {"type": "attack", "from": "", "to": target})
    html = response.content.decode()
    assert response.status_code == 400
    assert words in html, html[:3000]
    assert "must be a territory" not in html and "(&#x27;" not in html
    source = next(t for t in TERRITORIES if state.owner[t] == state.current
                  and any(state.owner[n] == state.current for n in NEIGHBOURS[t]))
    mine = next(n for n in NEIGHBOURS[source] if state.owner[n] == state.current)
    response = post_play(client, game, {"type": "attack", "from": source, "to": mine})
    assert "(" not in re.search(r'role="alert"[^>]*>(.*?)<', response.content.decode(),
                                re.S).group(1)

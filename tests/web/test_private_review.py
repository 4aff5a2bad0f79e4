"""An attacker's look at private games on the pages: a player who may not know of a
private game learns nothing of it, not even that it exists, from any button's answer."""

from __future__ import annotations

from games import service
from games.models import Game, Rematch
from tests.people import client_for, with_password
from tests.web.support import started_game


def _finished_private(alice, bob):
    game = started_game([alice, bob])
    Game.objects.filter(pk=game.pk).update(private=True)
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED and game.private
    return game


def test_the_rematch_buttons_of_a_private_game_answer_strangers_as_a_missing_game(alice, bob):
    game = _finished_private(alice, bob)
    stranger = client_for(with_password("mallory"))
    missing = game.pk + 1000
    for action in ("rematch/", "rematch/decline/"):
        assert stranger.post(f"/games/{missing}/{action}").status_code == 404
        answer = stranger.post(f"/games/{game.pk}/{action}")
        assert answer.status_code == 404, (action, answer.status_code)
    assert not Rematch.objects.filter(game=game).exists()
    # Its players still offer it.
    assert client_for(alice).post(f"/games/{game.pk}/rematch/").status_code == 302
    assert Rematch.objects.filter(game=game).exists()

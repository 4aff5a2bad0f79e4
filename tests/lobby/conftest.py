"""People of the lobby's API tests are API clients that signed up, as the games' API tests'
(tests/games/conftest.py): alice creates, bob and charlie join."""

from tests.games.conftest import anonymous, person  # noqa: F401 - the same two fixtures

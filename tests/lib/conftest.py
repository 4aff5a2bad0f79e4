"""People of lib's tests are API clients that signed up, as the games' API tests'
(tests/games/conftest.py): the plumbing is met through the API's doors."""

from tests.games.conftest import anonymous, person  # noqa: F401 - the same two fixtures

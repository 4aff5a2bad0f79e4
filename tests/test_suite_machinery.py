"""The suite's own machinery: the random games a run samples, and which tests each pass of
.ci/run keeps."""

from __future__ import annotations

import random
import socket
from types import SimpleNamespace

import pytest

from tests import conftest
from tests.ports import LOWEST, ephemeral_ports_start, free_port
from tests.sample import SEED_VARIABLE, game_numbers


def test_a_seed_draws_the_same_games_again_and_another_seed_others(monkeypatch):
    monkeypatch.setenv(SEED_VARIABLE, "12345")
    drawn = game_numbers("property", 50)
    assert game_numbers("property", 50) == drawn and len(set(drawn)) == 50
    assert game_numbers("bots", 50) != drawn  # each kind its own sample
    monkeypatch.setenv(SEED_VARIABLE, "12346")
    assert game_numbers("property", 50) != drawn


def item(nodeid: str, *fixtures: str, marks: tuple = ()):
    found = SimpleNamespace(nodeid=nodeid, fixturenames=list(fixtures),
                            get_closest_marker=lambda name: object() if name in marks else None)
    if "[" in nodeid:
        found.callspec = SimpleNamespace(id=nodeid.split("[", 1)[1].rstrip("]"))
    return found


ITEMS = [item("tests/engine/test_board.py::test_a"),
         item("tests/games/test_store.py::test_b", "db"),
         item("tests/web/test_pages.py::test_c", "alice", marks=("django_db",)),
         item("tests/web/e2e/test_board.py::test_d", "live_server"),
         item("tests/tournaments/test_knockout.py::test_e", "transactional_db")]
SIZED = [item("tests/web/e2e/test_board.py::test_f[laptop]", "live_server"),
         item("tests/web/e2e/test_board.py::test_f[phone]", "live_server"),
         item("tests/web/e2e/test_board.py::test_g[3-phone]", "live_server"),
         item("tests/tournaments/test_form_browser.py::test_h[laptop]", "live_server"),
         item("tests/tournaments/test_form_browser.py::test_h[phone]", "live_server"),
         item("tests/engine/test_board.py::test_i[phone]")]


def kept(monkeypatch, ci_pass: str, among=ITEMS) -> list[str]:
    monkeypatch.setenv("CONQUEST_CI_PASS", ci_pass)
    items = list(among)
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: None))
    conftest.pytest_collection_modifyitems(config, items)
    return [i.nodeid.split("::")[1] for i in items]


def test_every_test_runs_in_one_pass_at_least_and_the_store_s_in_both(monkeypatch):
    embedded, server = kept(monkeypatch, "embedded"), kept(monkeypatch, "server")
    assert embedded == ["test_a", "test_b", "test_d"]
    assert server == ["test_b", "test_c", "test_d", "test_e"]
    assert kept(monkeypatch, "") == ["test_a", "test_b", "test_c", "test_d", "test_e"]
    with pytest.raises(pytest.UsageError):
        kept(monkeypatch, "sqlite")


def test_a_slow_database_test_runs_once_on_the_server_pass(monkeypatch):
    """A whole game over the API (marked slow) in a folder of both passes: the server's only;
    a slow test that reaches no database stays on the first pass, the only one it has."""
    among = [item("tests/games/test_api_play.py::test_j", "alice", "db", marks=("slow",)),
             item("tests/games/test_api_play.py::test_k", "db"),
             item("tests/engine/test_maps.py::test_l", marks=("slow",))]
    assert kept(monkeypatch, "embedded", among) == ["test_k", "test_l"]
    assert kept(monkeypatch, "server", among) == ["test_j", "test_k"]


def test_a_browser_test_on_both_passes_runs_each_screen_size_on_one(monkeypatch):
    embedded = kept(monkeypatch, "embedded", SIZED)
    server = kept(monkeypatch, "server", SIZED)
    assert embedded == ["test_f[laptop]", "test_i[phone]"]
    # A browser test CI runs only on the server keeps both of its sizes there.
    assert server == ["test_f[phone]", "test_g[3-phone]", "test_h[laptop]", "test_h[phone]"]
    assert kept(monkeypatch, "", SIZED) == [i.nodeid.split("::")[1] for i in SIZED]


def test_any_other_browser_test_on_both_passes_runs_once_on_the_pass_its_name_picks(
        monkeypatch):
    """Sixteen unsized browser tests of a folder of both passes: each on exactly one pass,
    the same one every run, and some on each; a database test of the same folder that
    drives no browser stays on both."""
    among = [item(f"tests/web/e2e/test_board.py::test_m{n}", "browser", "live_server")
             for n in range(16)] + [item("tests/web/e2e/test_board.py::test_n", "db")]
    embedded, server = kept(monkeypatch, "embedded", among), kept(monkeypatch, "server", among)
    assert "test_n" in embedded and "test_n" in server
    embedded.remove("test_n")
    server.remove("test_n")
    assert sorted(embedded + server) == sorted(f"test_m{n}" for n in range(16))
    assert embedded and server
    assert kept(monkeypatch, "embedded", among) == embedded + ["test_n"]
    assert len(kept(monkeypatch, "", among)) == 17


def test_a_pool_loss_test_meets_each_broker_on_the_pass_that_deploys_it(monkeypatch):
    brokers = [item(f"tests/ops/test_pool_loss.py::test_j[{broker}]", "transactional_db")
               for broker in ("filesystem", "redis")]
    assert kept(monkeypatch, "embedded", brokers) == ["test_j[filesystem]"]
    assert kept(monkeypatch, "server", brokers) == ["test_j[redis]"]
    assert kept(monkeypatch, "", brokers) == ["test_j[filesystem]", "test_j[redis]"]


def test_the_tests_mirror_the_packages():
    """Each top-level package has its folder of tests, where a reader of the package looks
    for them (tests/lobby/ for lobby/, tests/config/ for config/...)."""
    root = conftest.ROOT
    packages = {path.parent.name for path in root.glob("*/__init__.py")} - {"tests"}
    missing = sorted(name for name in packages
                     if not list((root / "tests" / name).glob("test_*.py")))
    assert packages and missing == []


def test_a_server_s_port_lies_below_the_ports_outgoing_connections_are_given():
    """tests/ports.py: a port the kernel would hand an outgoing connection meanwhile is never
    chosen, the port is free, and the tests' seeded `random` stream is left where it was."""
    random.seed(7)
    expected = random.Random(7).random()
    ports = {free_port() for _ in range(20)}
    assert random.random() == expected
    assert all(LOWEST <= port < ephemeral_ports_start() for port in ports), ports
    with socket.socket() as server:
        server.bind(("127.0.0.1", ports.pop()))

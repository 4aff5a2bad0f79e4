"""GET /metrics: refused without the token or an allowed address; its figures move after a
command accepted, a command refused, a race lost and a mail queued."""

from __future__ import annotations

import base64
import random
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from engine.moves import seats_to_act
from games.models import Game
from lib import publish
from notifications.models import Notification
from ops import checks, metrics
from tests import people
from tests.config.test_settings import setting
from tests.engine.players import bot_command
from tests.games.api_support import assert_error, send, state_of
from tests.games_in_states import new_game
from tests.notifications.real_parts import RedisServer, publishing_to

pytestmark = pytest.mark.django_db

TOKEN = "scrape-token-of-the-tests-0123456789"


@pytest.fixture
def person(db):
    """alice and bob (tests/conftest.py) are API clients that signed up, here."""
    return people.signed_up


@pytest.fixture
def scraper(settings):
    settings.CONQUEST_METRICS_TOKEN = TOKEN
    settings.CONQUEST_METRICS_ADDRESSES = []


def scrape(client) -> dict:
    """Every sample of /metrics, by (name, sorted labels)."""
    answer = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert answer.status_code == 200, answer.content
    assert answer["Content-Type"].startswith("text/plain; version=")
    return {(sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in text_string_to_metric_families(answer.content.decode())
            for sample in family.samples}


def figure(samples: dict, name: str, **labels) -> float:
    """The sum of the samples called `name` that carry `labels` (0 when there is none)."""
    wanted = set(labels.items())
    return sum(value for (found, pairs), value in samples.items()
               if found == name and wanted <= set(pairs))


def test_it_refuses_a_scraper_without_the_token(client, scraper):
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token").status_code == 401
    assert client.get("/metrics").headers["WWW-Authenticate"] == 'Bearer realm="metrics"'


def test_it_answers_the_token_as_bearer_or_as_the_password_of_basic_auth(client, scraper):
    basic = base64.b64encode(f"prometheus:{TOKEN}".encode()).decode()

    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Basic {basic}").status_code == 200
    wrong = base64.b64encode(b"prometheus:guess").decode()
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Basic {wrong}").status_code == 401


def test_it_answers_over_plain_http_on_an_address_with_debug_off(client, scraper, settings):
    settings.DEBUG, settings.SECURE_SSL_REDIRECT = False, True
    settings.ALLOWED_HOSTS = ["conquest.example"]

    answer = client.get("/metrics", HTTP_HOST="10.0.0.7:8000",
                        HTTP_AUTHORIZATION=f"Bearer {TOKEN}")

    assert answer.status_code == 200


def test_it_is_off_with_neither_token_nor_address(client, settings):
    settings.CONQUEST_METRICS_TOKEN, settings.CONQUEST_METRICS_ADDRESSES = "", []

    assert client.get("/metrics").status_code == 404


def test_it_lets_an_allowed_address_in_without_the_token(client, settings):
    settings.CONQUEST_METRICS_TOKEN = ""
    settings.CONQUEST_METRICS_ADDRESSES = ["10.1.0.0/16"]

    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="10.2.2.3").status_code == 401
    # A forwarded address counts only behind a proxy the settings declare.
    assert client.get("/metrics", REMOTE_ADDR="198.51.100.7",
                      HTTP_X_FORWARDED_FOR="10.1.2.3").status_code == 401
    settings.CONQUEST_NUM_PROXIES = 1
    assert client.get("/metrics", REMOTE_ADDR="198.51.100.7",
                      HTTP_X_FORWARDED_FOR="10.1.2.3").status_code == 200


def test_only_loopback_may_scrape_by_default_and_nobody_with_debug_off():
    expression = "settings.CONQUEST_METRICS_ADDRESSES"
    unset = ("CONQUEST_METRICS_ADDRESSES", "DEBUG")

    assert setting(expression, *unset) == "['127.0.0.1', '::1']"
    assert setting(expression, *unset, DEBUG="0", SECRET_KEY="k" * 50) == "[]"


def test_check_deploy_refuses_metrics_open_to_the_internet(settings):
    settings.SECRET_KEY = "a-deployment's-own-key-" * 3
    # As a deployment without a VAPID key computes it (DEBUG off at start-up): push off.
    settings.CONQUEST_PUSH = False
    settings.CONQUEST_METRICS_TOKEN = ""
    settings.CONQUEST_METRICS_ADDRESSES = ["0.0.0.0/0"]
    assert [e.id for e in checks.metrics_are_protected(None)] == ["conquest.E012"]

    with pytest.raises(SystemCheckError, match="conquest.E012"):
        call_command("check", "--deploy", "--fail-level", "ERROR")

    settings.CONQUEST_METRICS_ADDRESSES = ["10.0.0.0/8", "::1"]
    assert checks.metrics_are_protected(None) == []
    call_command("check", "--deploy", "--fail-level", "ERROR")

    settings.CONQUEST_METRICS_TOKEN = "short"
    assert [e.id for e in checks.metrics_are_protected(None)] == ["conquest.E010"]


def test_the_figures_move_after_commands_accepted_refused_and_lost(client, scraper, alice, bob):
    game_id = new_game(alice, bob)
    clients = {0: alice, 1: bob}
    before = scrape(client)
    mine = {code: metrics.COMMANDS.labels("api", "refused", code)._value.get()
            for code in ("version_conflict", "bad_command")}

    state = state_of(game_id)
    seat = seats_to_act(state)[0]
    command = bot_command(state, seat, random.Random(1)) | {"expected_version": state.version}
    assert send(clients[seat], game_id, command).status_code == 201
    assert_error(send(clients[seat], game_id, command), 409, "version_conflict")
    assert_error(send(clients[seat], game_id, {"type": "no-such-command"}), 400, "bad_command")
    after = scrape(client)

    def moved(name, **labels):
        return figure(after, name, **labels) - figure(before, name, **labels)

    assert moved("conquest_commands_total", route="api", outcome="accepted") >= 1
    assert moved("conquest_commands_total", route="api", code="version_conflict") >= 1
    assert moved("conquest_commands_total", route="api", code="bad_command") >= 1
    assert moved("conquest_command_seconds_count", route="api") >= 3
    assert moved("conquest_http_responses_total", status="409") >= 1
    # This process's own counts (other test processes may scrape the same files): one each.
    assert metrics.COMMANDS.labels("api", "refused", "version_conflict")._value.get() == (
        mine["version_conflict"] + 1)
    assert metrics.COMMANDS.labels("api", "refused", "bad_command")._value.get() == (
        mine["bad_command"] + 1)


def test_the_web_forms_commands_count_too(client, scraper, alice, bob):
    game_id = new_game(alice, bob)
    refused = metrics.COMMANDS.labels("web", "refused", "http_400")
    before = refused._value.get()
    client.force_login(Game.objects.get(pk=game_id).creator)

    # A page's refusal carries no error code: its status stands for it.
    answer = client.post(f"/games/{game_id}/play/", {"type": "no-such-form", "version": "1"})

    assert answer.status_code == 400
    assert refused._value.get() == before + 1

    # A visitor's post is sent to sign in: a redirect, and no move accepted.
    client.logout()
    accepted = metrics.COMMANDS.labels("web", "accepted", "")
    before = accepted._value.get()
    answer = client.post(f"/games/{game_id}/play/", {"type": "end_phase", "version": "1"})
    assert answer.status_code == 302
    assert accepted._value.get() == before


@pytest.mark.django_db(transaction=True)
def test_the_outbox_and_the_queues_show_a_queued_mail(client, scraper, alice, bob):
    def unsent():
        return list(Notification.objects.filter(sent_at__isnull=True, digest=False)
                    .values_list("pk", flat=True))

    before = scrape(client)
    assert figure(before, "conquest_outbox_backlog") == len(unsent())  # (sign-up mails)
    assert figure(before, "conquest_scrape_source_up", source="database") == 1

    # The sign-up mails go to the broker of their time before this test's own starts: one
    # published while it is still starting would pause publishing to it (lib.publish).
    publish.wait_for_publishing()
    server = RedisServer()
    server.start()
    try:
        with publishing_to(server.url):
            waiting = figure(scrape(client), "conquest_celery_queue_depth", queue="mail")
            new_game(alice, bob)  # its start mails both players, in one task after commit
            publish.wait_for_publishing()
            queued = unsent()
            after = scrape(client)
    finally:
        server.stop()

    assert len(queued) > figure(before, "conquest_outbox_backlog")
    assert figure(after, "conquest_outbox_backlog") == len(queued)
    assert figure(after, "conquest_outbox_oldest_age_seconds") > 0
    assert figure(after, "conquest_celery_queue_depth", queue="mail") == waiting + 1
    assert figure(after, "conquest_celery_queue_depth", queue="deadlines") == 0
    assert figure(after, "conquest_scrape_source_up", source="broker") == 1


def test_a_late_deadline_shows_as_lateness_and_backlog(client, scraper, alice, bob):
    game_id = new_game(alice, bob)
    Game.objects.filter(pk=game_id).update(deadline=timezone.now() - timedelta(minutes=5))

    samples = scrape(client)

    assert figure(samples, "conquest_deadline_sweep_backlog") == 1
    assert 300 <= figure(samples, "conquest_deadline_sweep_lateness_seconds") < 400
    assert figure(samples, "conquest_deadline_sweep_last_completed_age_seconds") == -1


def test_a_process_file_not_yet_sized_is_left_out_not_a_500(client, scraper, settings,
                                                              tmp_path):
    """A process creates its file, then sizes it: a scrape between the two found an empty
    file and answered 500."""
    from prometheus_client.mmap_dict import MmapedDict, mmap_key

    settings.CONQUEST_METRICS_DIR = tmp_path
    (tmp_path / "histogram_4242.db").write_bytes(b"")  # created, not yet sized
    sized = MmapedDict(str(tmp_path / "counter_4243.db"))  # another process's, whole
    sized.write_value(mmap_key("conquest_test_sized", "conquest_test_sized_total", [], [],
                               "A count in a sized file."), 3.0, 0.0)
    sized.close()

    samples = scrape(client)

    assert figure(samples, "conquest_test_sized_total") == 3


def test_clear_metrics_empties_the_folder_a_run_starts_with(settings, tmp_path):
    settings.CONQUEST_METRICS_DIR = tmp_path
    (tmp_path / "counter_4242.db").write_bytes(b"left by the previous run")

    call_command("clear_metrics", verbosity=0)

    assert list(tmp_path.iterdir()) == []


def test_a_process_that_exits_leaves_no_live_gauge(monkeypatch, tmp_path):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    for name in ("gauge_livesum_4242.db", "gauge_liveall_4242.db", "counter_4242.db"):
        (tmp_path / name).write_bytes(b"")

    metrics.process_exited(pid=4242)

    assert [path.name for path in tmp_path.iterdir()] == ["counter_4242.db"]

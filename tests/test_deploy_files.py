"""deploy/ and scripts/run.sh cannot rot: every command they start names an importable app,
a Celery queue the settings route tasks to, or a manage.py command that exists; together
they consume every queue; whatever stops the web tier waits out gunicorn's grace."""

from __future__ import annotations

import importlib
import re
import shlex
from pathlib import Path

import yaml
from django.conf import settings
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
LONG_RUNNING = ("conquest-web@.service", "conquest-streams@.service",
                "conquest-worker-deadlines.service",
                "conquest-worker-mail.service", "conquest-worker-analysis.service",
                "conquest-beat.service")


def procfile() -> dict[str, str]:
    """deploy/Procfile's processes: name -> command line."""
    entries = {}
    for line in (DEPLOY / "Procfile").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, command = line.split(":", 1)
            entries[name.strip()] = command.strip()
    return entries


def unit(name: str) -> dict[str, list[str]]:
    """A systemd unit's keys (of every section) -> their values, in order."""
    keys: dict[str, list[str]] = {}
    for line in (UNITS / name).read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            keys.setdefault(key.strip(), []).append(value.strip())
    return keys


def gunicorn_grace() -> int:
    return importlib.import_module("config.gunicorn_conf").graceful_timeout


def checked(argv: list[str]) -> dict:
    """What one command starts, after checking that everything it names exists: the program
    (gunicorn, celery or manage.py), the app, the queues, the management command."""
    program = Path(argv[0]).name
    if program == "gunicorn":
        apps = [a for a in argv[1:] if re.fullmatch(r"[a-z_][\w.]*:[a-z_]\w*", a)]
        assert len(apps) == 1, argv
        module, attribute = apps[0].split(":")
        assert callable(getattr(importlib.import_module(module), attribute)), argv
        config = argv[argv.index("-c") + 1]
        assert config.startswith("python:"), argv
        importlib.import_module(config.removeprefix("python:"))
        assert "--bind" in argv, argv
        return {"kind": "web"}
    if program == "celery":
        assert argv[1:3] == ["--app", "config"], argv
        assert importlib.import_module("config.celery").app.main == "conquest"
        if argv[3] == "beat":
            return {"kind": "beat"}
        assert argv[3] == "worker", argv
        queues = argv[argv.index("--queues") + 1].split(",") if "--queues" in argv \
            else list(settings.CELERY_TASK_QUEUES)
        assert set(queues) <= set(settings.CELERY_TASK_QUEUES), (queues, argv)
        return {"kind": "worker", "queues": set(queues),
                "hostname": argv[argv.index("--hostname") + 1]}
    if Path(argv[0]).name.startswith("python") and argv[1] == "manage.py":
        assert argv[2] in get_commands(), argv
        return {"kind": "manage", "command": argv[2]}
    raise AssertionError(f"unknown program in {argv}")


def commands(line: str) -> list[list[str]]:
    return [shlex.split(part) for part in line.split("&&")]


def assert_a_whole_topology(started: list[dict]):
    kinds = [s["kind"] for s in started]
    assert "web" in kinds and kinds.count("beat") == 1, kinds
    workers = [s for s in started if s["kind"] == "worker"]
    # Every queue a task is routed to has a worker; deadlines and computer players have one
    # that takes neither mail nor analysis, and analysis one of its own (config.celery
    # budgets it by its host name).
    assert set().union(*(w["queues"] for w in workers)) == set(settings.CELERY_TASK_QUEUES)
    assert any({"deadlines", "celery"} <= w["queues"] and not w["queues"] & {"mail", "analysis"}
               for w in workers)
    assert any(w["queues"] == {"analysis"} and w["hostname"].startswith("analysis@")
               for w in workers)
    hostnames = [w["hostname"] for w in workers]
    assert len(set(hostnames)) == len(hostnames), hostnames


def test_it_checks_every_procfile_command():
    entries = procfile()
    started = [checked(argv) for line in entries.values() for argv in commands(line)]
    assert_a_whole_topology([s for s in started if s["kind"] != "manage"])
    assert {s["command"] for s in started if s["kind"] == "manage"} == {
        "clear_metrics", "migrate", "collectstatic"}
    assert "${PORT" in entries["web"]


def test_it_checks_every_systemd_unit():
    started = []
    for name in sorted(p.name for p in UNITS.glob("*.service")):
        keys = unit(name)
        assert keys["EnvironmentFile"] == ["/etc/conquest/conquest.env"], name
        assert keys["WorkingDirectory"] == ["/srv/conquest"], name
        for line in keys["ExecStart"]:
            # systemd writes a literal % as %%; %i is the instance (the web unit's port).
            argv = shlex.split(line.replace("%%", "%"))
            if argv[0] == "/srv/conquest/deploy/backup.sh":  # a script of the checkout's
                assert (DEPLOY / "backup.sh").stat().st_mode & 0o111, line
                continue
            assert argv[0].startswith("/srv/conquest/.venv/bin/"), line
            started.append(checked(argv))
        if name in LONG_RUNNING:
            assert keys["Restart"] == ["always"], name
            assert int(keys["TimeoutStopSec"][0]) > gunicorn_grace(), name
            assert keys["WantedBy"] == ["conquest.target"], name
    assert_a_whole_topology([s for s in started if s["kind"] != "manage"])
    assert "--bind 0.0.0.0:%i" in unit("conquest-web@.service")["ExecStart"][0]
    assert (UNITS / "conquest.target").exists()
    assert "DATABASE_URL=postgres://" in (UNITS / "conquest.env.example").read_text()


def seconds(duration: str) -> int:
    number, unit_ = re.fullmatch(r"(\d+)(s|m)", duration).groups()
    return int(number) * (60 if unit_ == "m" else 1)


def test_it_checks_the_compose_topology_and_the_image():
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert {"postgres", "redis", "release", "worker-deadlines", "worker-mail",
            "worker-analysis", "beat"} \
        <= set(services)
    webs = [name for name in services if name.startswith("web-")]
    assert len(webs) >= 2
    started = []
    for name, service in services.items():
        if name in ("postgres", "redis"):
            continue
        assert service["image"] == "localhost/conquest:latest", name
        assert service["build"]["dockerfile"] == "deploy/Containerfile", name
        assert (DEPLOY / service["build"]["context"] / "pyproject.toml").exists()
        environment = service["environment"]
        assert environment["DATABASE_URL"].startswith("postgres://")
        assert environment["CELERY_BROKER_URL"].startswith("redis://redis:")
        started.append(checked(service["command"]))
        if name in webs:
            assert seconds(service["stop_grace_period"]) > gunicorn_grace(), name
        if name != "release":
            assert services[name]["depends_on"]["release"]["condition"] == \
                "service_completed_successfully"
    assert_a_whole_topology([s for s in started if s["kind"] != "manage"])
    assert [s["command"] for s in started if s["kind"] == "manage"] == ["migrate"]
    ports = [p for name in webs for p in services[name]["ports"]]
    assert len(set(ports)) == len(ports)

    image = (DEPLOY / "Containerfile").read_text()
    assert re.search(r"^ARG BASE=\S*debian:bookworm", image, re.M)
    # Every dependency from the lock, by hash; the project itself in place, on top.
    assert "pip install --require-hashes --no-deps -r requirements/runtime.lock" in image
    assert "pip install --no-deps --editable ." in image
    cmd = re.search(r"^CMD (\[.*?\])$", image, re.M | re.S).group(1)
    assert checked(yaml.safe_load(cmd.replace("\\\n", ""))) == {"kind": "web"}


def test_it_checks_what_make_run_starts():
    script = (ROOT / "scripts" / "run.sh").read_text()
    started = []
    # Each runs through `guarded` (scripts/ends_with_parent.py: it ends with run.sh).
    assert 'exec "$BIN/python" scripts/ends_with_parent.py "$$" "$@"' in script
    for match in re.finditer(r'guarded "\$BIN/(\w+)" ((?:.*\\\n)*.*)', script):
        line = match.group(2).replace("\\\n", " ")
        argv = [match.group(1), *shlex.split(line)]
        started.append(checked(argv))
    assert_a_whole_topology(started)
    # Its stop waits out gunicorn's grace: the one it gives gunicorn, and 2 s more.
    assert re.search(r'GRACE_SECONDS="\$\{CONQUEST_STOP_GRACE_SECONDS:-(\d+)\}"', script) \
        .group(1) == str(gunicorn_grace())
    assert '--graceful-timeout "$GRACE_SECONDS"' in script
    assert "$(((GRACE_SECONDS + 2) * 10))" in script



def test_the_analysis_worker_runs_within_the_operators_budget(settings, monkeypatch):
    from types import SimpleNamespace

    from config import celery

    settings.CONQUEST_ANALYSIS_CONCURRENCY, settings.CONQUEST_ANALYSIS_NICE = 3, 12
    niced = []
    monkeypatch.setattr(celery.os, "nice", lambda by: niced.append(by) or 2)
    analysis, clock = SimpleNamespace(worker_concurrency=None), SimpleNamespace(
        worker_concurrency=None)

    celery.budget_the_analysis_worker(sender="analysis@host", conf=analysis)
    celery.budget_the_analysis_worker(sender="deadlines@host", conf=clock)

    assert analysis.worker_concurrency == 3 and niced == [0, 10]  # from nice 2 to 12
    assert clock.worker_concurrency is None


def enabled_units(text: str) -> set[str]:
    """The units the first `systemctl enable` line (continued with backslashes) names,
    instances written as their templates (conquest-web@8000 -> conquest-web@.service)."""
    joined = re.sub(r"\\\n[#\s]*", " ", text)
    line = re.search(r"systemctl enable (.*)", joined).group(1)
    names = [n for n in line.split() if n.startswith("conquest")]
    return {n if n.endswith(".target") else re.sub(r"@.*", "@", n) + ".service"
            for n in names}


def test_the_enable_lines_name_every_unit_the_target_starts():
    """Whatever names `systemctl enable` (the target's comment, the self-hosting guide)
    names every long-running unit and the metrics clearing: a unit left out never starts."""
    wanted = set(LONG_RUNNING) | {"conquest-clear-metrics.service"}
    guide = Path(__file__).resolve().parent.parent / "docs/operators/selfhost.md"
    for text in ((UNITS / "conquest.target").read_text(), guide.read_text()):
        assert wanted <= enabled_units(text), wanted - enabled_units(text)


def test_every_process_waits_for_the_metrics_folder_to_be_emptied():
    for name in LONG_RUNNING:
        keys = unit(name)
        assert "conquest-clear-metrics.service" in " ".join(keys["After"]), name
        assert "conquest-clear-metrics.service" in " ".join(keys["Wants"]), name
    assert unit("conquest-clear-metrics.service")["ExecStart"][0].endswith("clear_metrics")

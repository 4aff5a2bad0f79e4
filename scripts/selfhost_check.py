"""`make selfhost-check`: follows docs/operators/selfhost.md where this machine allows, so the
guide cannot rot. It runs the guide's blocks marked `<!-- selfhost-check: NAME -->` with
throw-away names put in for the guide's (the table REPLACED), starts the processes from the
systemd units' own ExecStart lines, runs nginx with deploy/nginx/conquest.conf on high ports,
and probes through it. Needs PostgreSQL (as `postgres` on SELFHOST_PG_HOST), Redis and nginx.
Environment: SELFHOST_PREFIX (role and database prefix, `guide_`), SELFHOST_REDIS_DB (9),
SELFHOST_PORT (first of five ports, 8181). Prints `selfhost-check: ...` lines; exit 0 = passed.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs/operators/selfhost.md"
UNITS = ROOT / "deploy/systemd"
PROCESSES = ("conquest-web@.service", "conquest-streams@.service",
             "conquest-worker-deadlines.service", "conquest-worker-mail.service",
             "conquest-worker-analysis.service", "conquest-beat.service")
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
# What the host's env file says, or its processes derive from it, and not the environment
# this check runs in: its metrics folder too (the clear-metrics unit empties it), which
# inside a test run is the test process's own.
NOT_THE_HOSTS = ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "CONQUEST_VAR_DIR", "DEBUG",
                 "SECRET_KEY", "PROMETHEUS_MULTIPROC_DIR")


def say(text: str) -> None:
    print(f"selfhost-check: {text}", flush=True)


def blocks(text: str) -> dict[str, str]:
    """The guide's checked blocks: NAME -> the shell of the fenced block after the marker."""
    found = re.findall(r"<!-- selfhost-check: ([\w-]+) -->\n```sh\n(.*?)\n```", text, re.S)
    return dict(found)


class Sandbox:
    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.prefix = os.environ.get("SELFHOST_PREFIX", "guide_")
        self.redis_db = os.environ.get("SELFHOST_REDIS_DB", "9")
        self.pg_host = os.environ.get("SELFHOST_PG_HOST", "127.0.0.1")
        first = int(os.environ.get("SELFHOST_PORT", "8181"))
        self.https, self.web, self.streams, self.http = first, first + 1, first + 2, first + 3
        self.name = "play.example.test"
        self.database = f"{self.prefix}conquest"
        self.processes: list[subprocess.Popen] = []

    # The guide's names -> this run's, in this order (longer ones first).
    def replaced(self, shell: str) -> str:
        t, db = self.tmp, self.database
        table = [
            ("runuser -u postgres -- psql",
             f"psql -h {self.pg_host} -U postgres -d postgres"),
            ("CREATE ROLE conquest ", f"CREATE ROLE {db} "),
            ("CREATE DATABASE conquest OWNER conquest", f"CREATE DATABASE {db} OWNER {db}"),
            ("conquest:choose-a-password@127.0.0.1:5432/conquest",
             f"{db}:choose-a-password@{self.pg_host}:5432/{db}"),
            ("redis-cli -n 0", f"redis-cli -n {self.redis_db}"),
            # "/1" before "/0": "/0" made "/14" would then read as "/1" and "4"
            ("redis://127.0.0.1:6379/1", f"redis://127.0.0.1:6379/{self.redis_db}"),
            ("redis://127.0.0.1:6379/0", f"redis://127.0.0.1:6379/{self.redis_db}"),
            ("install -d -o conquest -g conquest", "install -d"),
            ("runuser -u conquest -- ", ""),
            ("/etc/conquest", f"{t}/etc"),
            ("/var/lib/conquest", f"{t}/var"),
            ("/var/backups/conquest", f"{t}/backups"),
            ("cd /srv/conquest", f"cd {ROOT}"),
            ("https://play.example.org", f"https://{self.name}:{self.https}"),
            ("http://play.example.org", f"http://{self.name}:{self.http}"),
            ("play.example.org", self.name),
            ("conquest-manage ", f"{ROOT}/deploy/conquest-manage "),
            ("curl ", f"curl --cacert {t}/cert.pem --resolve {self.name}:{self.https}:127.0.0.1 "
                      f"--resolve {self.name}:{self.http}:127.0.0.1 "),
        ]
        for guide, here in table:
            shell = shell.replace(guide, here)
        return shell

    def run(self, name: str, shell: str) -> str:
        say(f"running the guide's block {name!r}")
        env = {**os.environ, "CONQUEST_ENV_FILE": f"{self.tmp}/etc/conquest.env",
               "CONQUEST_HOME": str(ROOT), "CONQUEST_USER": os.environ.get("USER") or
               subprocess.run(["id", "-un"], capture_output=True, text=True).stdout.strip()}
        for key in NOT_THE_HOSTS:
            env.pop(key, None)
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", self.replaced(shell)],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        if done.returncode:
            raise SystemExit(f"selfhost-check: block {name!r} failed ({done.returncode}):\n"
                             f"{self.replaced(shell)}\n{done.stdout}{done.stderr}")
        return done.stdout

    def settings(self) -> dict[str, str]:
        values = {}
        for line in Path(self.tmp, "etc/conquest.env").read_text().splitlines():
            if "=" in line and not line.startswith("#"):
                key, value = line.split("=", 1)
                values[key] = value.strip('"')
        return values

    def start_units(self) -> None:
        """What `systemctl enable --now ...` starts: the clear-metrics unit, then every
        long-running unit's ExecStart, /srv/conquest being this checkout."""
        env = {**{k: v for k, v in os.environ.items() if k not in NOT_THE_HOSTS},
               **self.settings(), "PYTHONDONTWRITEBYTECODE": "1"}
        ports = {"conquest-web@.service": self.web, "conquest-streams@.service": self.streams}
        for name in ("conquest-clear-metrics.service", *PROCESSES):
            line = exec_start(UNITS / name)
            line = line.replace("/srv/conquest", str(ROOT)).replace("%%", "%")
            line = line.replace("%i", str(ports.get(name, ""))).replace("0.0.0.0:", "127.0.0.1:")
            line = re.sub(r"--control-socket \S+", "--no-control-socket", line)
            line = line.replace("@%h", f"@{self.prefix}selfhost")
            argv = shlex.split(line)
            say(f"starting {name}: {' '.join(argv[:3])} ...")
            if name == "conquest-clear-metrics.service":
                subprocess.run(argv, cwd=ROOT, env=env, check=True, timeout=120)
                continue
            self.processes.append(subprocess.Popen(
                argv, cwd=ROOT, env=env, start_new_session=True,
                stdout=open(self.tmp / f"{name}.log", "w"), stderr=subprocess.STDOUT))

    def start_nginx(self) -> None:
        conf = (ROOT / "deploy/nginx/conquest.conf").read_text()
        for guide, here in [
            ("listen 80;", f"listen 127.0.0.1:{self.http};"),
            ("listen 443 ssl http2;", f"listen 127.0.0.1:{self.https} ssl http2;"),
            ("127.0.0.1:8000;", f"127.0.0.1:{self.web};"),
            ("127.0.0.1:8100;", f"127.0.0.1:{self.streams};"),
            ("play.example.org", self.name),
            ("/etc/letsencrypt/live/play.example.test/fullchain.pem", f"{self.tmp}/cert.pem"),
            ("/etc/letsencrypt/live/play.example.test/privkey.pem", f"{self.tmp}/key.pem"),
            ("root /var/www/html;", f"root {self.tmp};"),
        ]:
            assert guide in conf or guide.startswith("/etc/letsencrypt"), guide
            conf = conf.replace(guide, here)
        conf = "\n".join(line for line in conf.splitlines() if "listen [::]" not in line)
        (self.tmp / "conquest.conf").write_text(conf)
        t = self.tmp
        (t / "nginx.conf").write_text(
            f"pid {t}/nginx.pid;\nerror_log {t}/nginx-error.log;\nevents {{}}\n"
            f"http {{\n access_log {t}/nginx-access.log;\n client_body_temp_path {t}/body;\n"
            f" proxy_temp_path {t}/proxy;\n fastcgi_temp_path {t}/fastcgi;\n"
            f" uwsgi_temp_path {t}/uwsgi;\n scgi_temp_path {t}/scgi;\n"
            f" include {t}/conquest.conf;\n}}\n")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                        "-subj", f"/CN={self.name}", "-addext", f"subjectAltName=DNS:{self.name}",
                        "-keyout", f"{t}/key.pem", "-out", f"{t}/cert.pem"],
                       check=True, capture_output=True)
        subprocess.run([NGINX, "-t", "-q", "-c", f"{t}/nginx.conf"], check=True)
        say(f"starting nginx with deploy/nginx/conquest.conf on {self.https} (https), "
            f"{self.http} (http)")
        self.processes.append(subprocess.Popen(
            [NGINX, "-c", f"{t}/nginx.conf", "-g", "daemon off;"], start_new_session=True))

    def answer(self, path: str, port: int | None = None, scheme: str = "https") -> int:
        """The status a GET of PATH gets through nginx (or straight from PORT, as nginx
        would ask it)."""
        url = f"{scheme}://{self.name}:{port or self.https}{path}"
        argv = ["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", "--max-time", "5",
                "-H", "X-Forwarded-Proto: https",
                "--cacert", f"{self.tmp}/cert.pem", "--resolve", f"{self.name}:{port or self.https}:127.0.0.1",
                url]
        return int(subprocess.run(argv, capture_output=True, text=True).stdout or 0)

    def wait_for(self, path: str, port: int, scheme: str, seconds: float = 90) -> None:
        end = time.monotonic() + seconds
        while self.answer(path, port, scheme) != 200:
            if time.monotonic() > end:
                raise SystemExit(f"selfhost-check: {path} on {port} never answered 200")
            time.sleep(1)

    def stop(self) -> None:
        for process in reversed(self.processes):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=45)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)

    def drop(self) -> None:
        psql = ["psql", "-h", self.pg_host, "-U", "postgres", "-d", "postgres", "-q", "-c"]
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS {self.database} WITH (FORCE)"],
                       capture_output=True)
        subprocess.run([*psql, f"DROP ROLE IF EXISTS {self.database}"], capture_output=True)
        subprocess.run(["redis-cli", "-n", self.redis_db, "flushdb"], capture_output=True)


def exec_start(path: Path) -> str:
    return next(line.split("=", 1)[1] for line in path.read_text().splitlines()
                if line.startswith("ExecStart="))


def check() -> None:
    guide = blocks(GUIDE.read_text())
    expected = ["database", "redis", "settings", "release", "probes", "backup"]
    assert list(guide) == expected, f"the guide's checked blocks are {list(guide)}"
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="selfhost-") as tmp:
        box = Sandbox(Path(tmp))
        box.drop()
        try:
            for name in ("database", "redis", "settings", "release"):
                box.run(name, guide[name])
            box.start_units()
            box.wait_for("/healthz", box.web, "http")
            box.start_nginx()
            box.wait_for("/readyz", box.https, "https")
            probes = box.run("probes", guide["probes"])
            assert probes.startswith("ok") and '"ready": true' in probes, probes
            assert probes.rstrip().endswith("301"), probes
            say(f"the guide's probes answered: {' '.join(probes.split())}")
            routes(box)
            box.run("backup", guide["backup"])
            dumps = list(Path(tmp, "backups").glob("conquest-*.dump"))
            assert len(dumps) == 1, dumps
            subprocess.run(["pg_restore", "--list", str(dumps[0])], check=True,
                           capture_output=True)
            say(f"backup {dumps[0].name} reads back ({dumps[0].stat().st_size} bytes)")
        except BaseException:
            for log in sorted(Path(tmp).glob("*.log")):
                sys.stderr.write(f"--- {log.name} (last lines)\n")
                sys.stderr.write("\n".join(log.read_text().splitlines()[-15:]) + "\n")
            raise
        finally:
            box.stop()
            box.drop()
    say(f"passed in {time.monotonic() - started:.0f} s")


def routes(box: Sandbox) -> None:
    """Through the proxy: an API call is answered, not sent to https again (the 301 loop of
    a missing X-Forwarded-Proto); the streams reach the streams process (a web process
    answers them 503 whatever else is wrong, the streams process 401/403 to a stranger)."""
    api = box.answer("/api/v1/games/")
    assert api not in (301, 302, 308, 0) and api < 500, api
    for path in ("/api/v1/stream/", "/api/v1/games/1/stream/"):
        assert box.answer(path, box.web, "http") == 503, path  # the web process: wrong place
        through = box.answer(path)
        assert through not in (503, 0, 301) and through < 500, (path, through)
        say(f"{path} through nginx: {through} (the web process alone: 503)")
    say(f"/api/v1/games/ through nginx: {api}")


if __name__ == "__main__":
    check()

# make run | make test | make bench | make lint | make docs | make screenshots — each sets up
# .venv first if needed.
# make messages re-extracts and compiles the translations (the compiled .mo files are
# committed, so nothing else needs GNU gettext).

VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# The suite runs on this many worker processes (pytest-xdist); 0 runs it without xdist.
# Three on a 2-core machine: two processes kept its cores only 55% busy (a test waits on
# subprocesses, a browser's polls, live servers a good part of its time); a third fills
# that wait. A fourth made the embedded pass slower (318 s against 270 s). On a slower
# machine three keep both cores busy throughout (idle 11 s of a 446 s pass).
PYTEST_WORKERS ?= 3
# apt-get needs root: use sudo when make runs as someone else.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: run test bench lint browser nginx messages lock docs docs-serve screenshots selfhost-check

# uv installs (the same pinned versions as pip would) in about 5 s where pip took 30 s of
# every fresh clone's CI; pip only brings uv itself, at the version pinned here.
UV_VERSION := 0.13.9
UV := $(BIN)/uv pip install --python $(BIN)/python
# Every package, direct or not, at the version and with the hashes the locks hold (make lock
# writes them again from pyproject.toml, for the Python the image and CI run: Debian
# bookworm's 3.11). The project itself is installed in place, on top, without dependencies.
PYTHON_VERSION := 3.11
COMPILE := $(BIN)/uv pip compile pyproject.toml --python-version $(PYTHON_VERSION) \
	--generate-hashes --custom-compile-command "make lock" --quiet

$(BIN)/uv:
	python3 -m venv $(VENV)
	$(BIN)/pip install --no-compile uv==$(UV_VERSION)

# Running needs the service's own packages only; the tests and the bench add the dev tools
# (pytest, playwright, schemathesis, ...).
$(VENV)/.runtime: requirements/runtime.lock pyproject.toml | $(BIN)/uv
	$(UV) --require-hashes -r requirements/runtime.lock
	$(UV) --no-deps -e .
	touch $@

# uv compiles nothing: the suite imports a part of what is installed, and compiles that part
# once, as it first imports it (compiling everything cost a fresh clone's CI ~20 s).
$(VENV)/.installed: requirements/dev.lock pyproject.toml | $(BIN)/uv
	$(UV) --require-hashes -r requirements/dev.lock
	$(UV) --no-deps -e .
	touch $(VENV)/.runtime $@

# After changing a pin in pyproject.toml: the dev lock takes the runtime lock's versions, so
# the tests run what the service runs. `make lock UPGRADE=--upgrade` moves every indirect
# dependency to its newest version.
UPGRADE ?=
lock: | $(BIN)/uv
	$(COMPILE) $(UPGRADE) -o requirements/runtime.lock
	$(COMPILE) $(UPGRADE) --extra dev -c requirements/runtime.lock -o requirements/dev.lock

# The browser tests drive Debian's chromium (never a downloaded browser build).
browser:
	@command -v chromium >/dev/null 2>&1 || \
		($(SUDO) apt-get update && $(SUDO) apt-get install -y chromium)

messages: $(VENV)/.installed
	@command -v msgfmt >/dev/null 2>&1 || \
		($(SUDO) apt-get update && $(SUDO) apt-get install -y gettext)
	$(BIN)/python manage.py makemessages -l cs -l pl --no-obsolete \
		--ignore=.venv --ignore=var --ignore=tests --ignore=benchmarks --ignore=scripts
	$(BIN)/python manage.py compilemessages --ignore=.venv

# CONQUEST_VAR_DIR (default var/) holds what the embedded default writes.
# Each step says what it does (the first migration takes a while on a slow machine), and
# scripts/run.sh prints the address once the site answers there.
run: $(VENV)/.runtime
	@mkdir -p -m 700 "$${CONQUEST_VAR_DIR:-var}"
	@echo "make run: applying the database's migrations"
	@$(BIN)/python manage.py migrate --noinput
	@echo "make run: collecting static files"
	@$(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@$(BIN)/python manage.py clear_metrics --verbosity 0
	@scripts/run.sh

# Python may cache compiled modules (in var/pycache, out of the source tree) even where the
# environment says PYTHONDONTWRITEBYTECODE: the suite starts hundreds of Python processes
# (pytest's workers, manage.py, celery, gunicorn), each of which would otherwise compile
# Django and the project again (1.4 s of CPU for django.setup() alone, 12 s for each
# worker's collection).
test: export PYTHONDONTWRITEBYTECODE=
test: export PYTHONPYCACHEPREFIX=$(CURDIR)/var/pycache
test: $(VENV)/.installed browser
	$(BIN)/ruff check .
	$(BIN)/pytest -n $(PYTEST_WORKERS) $(PYTEST_ARGS)

bench: $(VENV)/.installed
	$(BIN)/python -m benchmarks

lint: $(VENV)/.installed
	$(BIN)/ruff check .

# The documentation site (mkdocs.yml, docs/) into site/: strict, so a broken link, anchor or
# include fails it; offline (no web fonts or plugin that fetches). Its API reference is made
# from the OpenAPI schema and its settings table from config/ as it builds (docs/hooks.py).
docs: export NO_MKDOCS_2_WARNING=1
docs: $(VENV)/.installed
	$(BIN)/mkdocs build --strict --quiet

# The same site served with its search (a search box needs the pages served, not opened as
# files): http://127.0.0.1:$${DOCS_PORT:-8001}/
docs-serve: export NO_MKDOCS_2_WARNING=1
docs-serve: $(VENV)/.installed
	$(BIN)/mkdocs serve --strict --dev-addr 127.0.0.1:$${DOCS_PORT:-8001}

# docs/operators/selfhost.md followed as far as this machine allows (scripts/selfhost_check.py):
# needs PostgreSQL, Redis and nginx (Debian's package; installed if missing).
selfhost-check: $(VENV)/.installed nginx
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/python scripts/selfhost_check.py

# Debian's nginx, which the self-hosting check (and its test on the PostgreSQL pass) runs with
# deploy/nginx/conquest.conf; never started as a service.
nginx:
	@command -v nginx >/dev/null 2>&1 || test -x /usr/sbin/nginx || \
		($(SUDO) apt-get update && $(SUDO) apt-get install -y --no-install-recommends nginx-light)

# The documentation's pictures (docs/images/), taken from a site the script starts and fills
# with games (scripts/screenshots.py), in Debian's chromium.
screenshots: $(VENV)/.installed browser
	@command -v pngquant >/dev/null 2>&1 || \
		($(SUDO) apt-get update && $(SUDO) apt-get install -y pngquant)
	$(BIN)/python scripts/screenshots.py

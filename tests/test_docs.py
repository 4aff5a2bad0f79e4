"""The documentation (docs/, README.md, CHANGELOG.md) against the code it describes: the
generated API and settings pages list every operation and every setting, every rule option
has its words, the versions agree, and nothing cites a document the repository lacks."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
import sys
import tomllib
from dataclasses import fields
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def hooks():
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def page(path: str) -> str:
    """A page's Markdown as the site builds it (its generated parts filled in)."""
    return hooks().on_page_markdown((DOCS / path).read_text(), None, None, None)


def tracked_files() -> list[Path]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    return [ROOT / name for name in names if name and (ROOT / name).is_file()]


def test_no_tracked_file_cites_the_documents_that_were_never_in_the_repository():
    # Spelled in two parts, so that this file does not find itself.
    gone = re.compile("(RULES|CONTRACT)" + r"\.md")
    citing = [str(path.relative_to(ROOT)) for path in tracked_files()
              if gone.search(path.read_bytes().decode("utf-8", "replace"))]

    assert citing == []


def test_the_api_reference_lists_every_operation_of_the_served_schema(client):
    served = json.loads(client.get("/api/v1/schema/?format=json").content)
    reference = page("bots/api.md")

    operations = [f"`{method.upper()} {path}`" for path, item in served["paths"].items()
                  for method in item if method in ("get", "post", "put", "patch", "delete")]
    missing = [operation for operation in operations if operation not in reference]

    assert len(operations) > 40
    assert missing == []
    assert "<!-- generated" not in reference


def environment_the_settings_read() -> set[str]:
    """Every variable config.settings (and config.workers through it) asks the environment
    for as it is imported, recorded in a process of its own."""
    program = """
import json, os, sys
asked = set()
def note(key):  # what the project's own settings modules ask, not the libraries they import
    if "/config/" in sys._getframe(2).f_code.co_filename:
        asked.add(key)
class Recording(dict):
    def get(self, key, default=None):
        note(key); return super().get(key, default)
    def __getitem__(self, key):
        note(key); return super().__getitem__(key)
    def __contains__(self, key):
        note(key); return super().__contains__(key)
    def setdefault(self, key, default=None):
        note(key); return super().setdefault(key, default)
os.environ = Recording(os.environ)
import config.settings, config.gunicorn_conf
print(json.dumps(sorted(asked)))
"""
    result = subprocess.run([sys.executable, "-c", program], cwd=ROOT, capture_output=True,
                            text=True, check=True)
    return set(json.loads(result.stdout.splitlines()[-1]))


def test_the_settings_page_lists_every_variable_the_settings_read():
    table = page("operators/settings.md")
    documented = set(re.findall(r"^\| `([A-Z][A-Z0-9_]*)`", table, re.M)) | set(
        re.findall(r", `([A-Z][A-Z0-9_]*)`", table))

    missing = environment_the_settings_read() - documented

    assert missing == set()
    assert {"DATABASE_URL", "SECRET_KEY", "PORT", "CONQUEST_STOP_GRACE_SECONDS"} <= documented


def test_a_setting_the_code_reads_but_nobody_described_stops_the_build(monkeypatch):
    module = hooks()
    read = module.settings_read()
    monkeypatch.setattr(module, "settings_read", lambda: {**read, "CONQUEST_NEW": ["x.py"]})

    with pytest.raises(module.Undocumented, match="CONQUEST_NEW"):
        module.settings_markdown()


def test_the_settings_page_gives_the_shipped_rate_limits():
    from config.settings import CONQUEST_THROTTLE_RATES

    rows = yaml.safe_load((DOCS / "operators" / "settings.yaml").read_text())
    documented = [rate for row in rows if row["names"][0].startswith("CONQUEST_THROTTLE_")
                  for rate in re.findall(r"`([^`]+)`", row["default"])]

    assert sorted(documented) == sorted(CONQUEST_THROTTLE_RATES.values())
    # The API's command limits, which bot writers plan around.
    assert (CONQUEST_THROTTLE_RATES["command_user"], CONQUEST_THROTTLE_RATES["command_ip"]) == (
        "300/minute", "600/minute")


def test_every_rule_option_is_explained_to_players():
    from engine.options import Rules

    words = (DOCS / "players" / "rules.md").read_text() + (
        DOCS / "players" / "rulebooks.md").read_text()
    unexplained = [f.name for f in fields(Rules) if f"`{f.name}`" not in words]

    assert unexplained == []


def test_the_changelog_names_the_versions_the_code_carries():
    from config.settings import SPECTACULAR_SETTINGS
    from engine.state import ENGINE_VERSION

    package = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    heading = re.search(r"^## (\d+\.\d+\.\d+)\b.*$", (ROOT / "CHANGELOG.md").read_text(), re.M)

    assert heading is not None
    assert heading[1] == package
    assert f"engine {ENGINE_VERSION}" in heading[0]
    assert f"API v{SPECTACULAR_SETTINGS['VERSION']}" in heading[0]


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)

    assert len(readme.splitlines()) < 200
    assert [t for t in targets if not (ROOT / t).exists()] == []
    assert "docs/images/game-classic.png" in targets

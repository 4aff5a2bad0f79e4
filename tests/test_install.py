"""The project installs as a package (not only in place, as `make run` and the image do),
from the lock files, whose pins agree with pyproject.toml's."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCKS = {"runtime": ROOT / "requirements" / "runtime.lock", "dev": ROOT / "requirements" / "dev.lock"}
UV = Path(sys.executable).parent / "uv"


def pins(lines) -> dict[str, str]:
    found = {}
    for line in lines:
        if match := re.match(r"^\s*([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?==([^\s;\\]+)", line):
            found[re.sub(r"[-_.]+", "-", match[1]).lower()] = match[2]
    return found


def test_the_locks_hold_every_pin_of_pyproject_at_its_version():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = pins(project["dependencies"])
    dev = pins(project["optional-dependencies"]["dev"])

    locked = {name: pins(path.read_text().splitlines()) for name, path in LOCKS.items()}

    assert runtime.items() <= locked["runtime"].items()
    assert {**runtime, **dev}.items() <= locked["dev"].items()
    # What runs is what was tested: the dev lock runs the runtime lock's versions.
    assert locked["runtime"].items() <= locked["dev"].items()
    for path in LOCKS.values():
        entries = path.read_text().split("\n    # via")
        assert all("--hash=sha256:" in entry for entry in entries[:-1]), path


def test_make_run_and_make_test_install_from_the_locks():
    makefile = (ROOT / "Makefile").read_text()

    for target, lock in ((".runtime", "runtime"), (".installed", "dev")):
        recipe = re.search(rf"^\$\(VENV\)/{re.escape(target)}:(.*?)\n\n", makefile, re.M | re.S)[1]
        assert f"requirements/{lock}.lock" in recipe.splitlines()[0]  # reinstalled on a change
        assert f"--require-hashes -r requirements/{lock}.lock" in recipe
        assert "--no-deps -e ." in recipe


def test_every_package_of_the_service_is_installed_and_compiled_in_the_image():
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "benchmarks"}
    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"]["find"]["include"]
    image = (ROOT / "deploy" / "Containerfile").read_text()
    compiled = re.search(r"compileall -q ((?:.*\\\n)*.*)", image)[1].replace("\\\n", " ")

    assert {name.removesuffix("*") for name in listed} == packages
    assert set(compiled.split()) == packages


@pytest.mark.skipif(not UV.exists(), reason="uv is installed with the suite's tools (make test)")
def test_it_installs_as_a_package_into_a_fresh_environment_and_starts(tmp_path):
    """Every package the service imports is in the built wheel: a package left out of
    pyproject.toml's list shows only here, as every other install is in place. uv installs
    from the lock, out of the cache `make test` filled."""
    environment = {k: v for k, v in os.environ.items()
                   if not k.startswith(("VIRTUAL_ENV", "PYTHON", "DJANGO_"))}
    venv = tmp_path / "venv"
    python = venv / "bin" / "python"

    def run(*command, cwd=tmp_path):
        result = subprocess.run(command, cwd=cwd, env=environment, text=True,
                                capture_output=True, timeout=300)
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    run(str(UV), "venv", "--quiet", "--python", sys.executable, str(venv))
    run(str(UV), "pip", "install", "--quiet", "--offline", "--python", str(python),
        "--require-hashes", "-r", str(LOCKS["runtime"]))
    # A copy of the checkout without what was built or run in place (build/, *.egg-info).
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "var", "build", "*.egg-info", "__pycache__", "tests", "node_modules",
        # what the suite's other processes write meanwhile (make docs beside the first pass)
        "site", ".hypothesis", ".pytest_cache"))
    run(str(UV), "pip", "install", "--quiet", "--offline", "--no-deps", "--python", str(python),
        str(source))
    shutil.rmtree(source)
    # manage.py alone, away from the checkout: everything it imports comes from the install.
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    environment.update(CONQUEST_VAR_DIR=str(tmp_path / "var"), DJANGO_SETTINGS_MODULE="config.settings")

    result = run(str(python), "manage.py", "check")

    # Started, with no error (its warning: the checkout's static/ is not beside the wheel).
    assert "System check identified" in result.stderr + result.stdout
    assert "ERRORS" not in result.stderr + result.stdout
    shown = run(str(python), "-c", "import config, lib, live, conversations; print(config.__file__)")
    assert str(venv) in shown.stdout

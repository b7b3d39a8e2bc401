"""Install and identity (issue 14, items 1-2): the distribution's name and metadata, the
licence file, ``stops --version`` and ``python -m stops``."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import stops

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_distribution_has_a_name_of_its_own() -> None:
    assert PROJECT["name"] == "stops-cards"
    assert PROJECT["scripts"] == {"stops": "stops.__main__:run"}  # the command stays `stops`


def test_every_install_line_names_the_distribution() -> None:
    """No doc, hint or example tells anyone to install the unrelated ``stops`` project."""
    bad = re.compile(r"pip install [\"']?stops(\[|[\"']?\s|[\"']?$)|[\"']stops\[")
    places = [ROOT / "README.md", *(ROOT / "docs").rglob("*.md"), *(ROOT / "src").rglob("*.py"),
              *(ROOT / "examples").glob("*.py"), *(ROOT / "tests").glob("*.py")]
    for path in places:
        if path.name == "test_identity.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bad.search(line), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"


def test_licence_urls_and_classifiers() -> None:
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert licence.startswith("MIT License") and PROJECT["license"] == "MIT"
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(PROJECT["urls"])
    classifiers = set(PROJECT["classifiers"])
    for minor in (11, 12, 13):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    assert any(c.startswith("Development Status ::") for c in classifiers)
    assert PROJECT["requires-python"] == ">=3.11"


def test_version_option_and_module_entry_point() -> None:
    for argv in (["-m", "stops", "--version"], ["-m", "stops.apps.cli", "--version"]):
        done = subprocess.run([sys.executable, *argv], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == (1 if argv[0] == "diff" else 0), done.stderr   # diff: differ
        assert done.stdout.startswith(f"stops {stops.__version__} (distribution stops-cards")
    done = subprocess.run([sys.executable, "-m", "stops", "variants"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "boodle" in done.stdout


def test_a_terminal_that_is_not_utf8_never_gets_a_traceback() -> None:
    import os

    for argv in (["diff", "three-in-one", "boodle"], ["rules", "three-in-one"],
                 ["simulate", "boodle", "--deals", "20", "--compare", "boodle-change-suit"]):
        done = subprocess.run([sys.executable, "-m", "stops", *argv], capture_output=True,
                              timeout=120, env={**os.environ, "PYTHONIOENCODING": "cp1252"})
        assert done.returncode == (1 if argv[0] == "diff" else 0), done.stderr   # diff: differ
        assert b"Traceback" not in done.stderr

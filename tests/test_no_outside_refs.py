"""What a user reads cites only the repository's own files or public sources (issue 21).

The built-in games were made from three rule texts and a rules catalogue that live outside the
repository, beside the specs the project was written against (``DESIGN.md``, ``RULINGS.md``,
``FAMILY-RULINGS*.md``). A reader has none of them: the README, ``docs/``, ``examples/``,
``variants/`` (each file's ``source:`` included), the printed rules of every built-in, and the
docstrings and option texts of ``src/`` and ``benchmarks/`` must name ``docs/rulings.md``,
``docs/family-rulings.md`` or a public page instead. Tests may keep their internal notes, so
``tests/`` is not scanned.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import stops
from stops.rules.loader import builtin_names
from stops.rules.prose import rules_text

ROOT = Path(__file__).resolve().parent.parent

#: Each pattern names a way an outside file has been cited. Case matters where the repository
#: has a file of the same name in lower case (``docs/rulings.md``, ``docs/family-rulings.md``).
OUTSIDE = {
    "a seed text by number": re.compile(r"\bseeds? 00[0-9]", re.I),
    "the seeds folder": re.compile(r"seeds/"),
    "a seed file name": re.compile(r"(?<!\w)00[0-9]_[0-9a-f.]"),
    "the rules catalogue": re.compile(r"rules[- ]catalogue", re.I),
    "the shared folder": re.compile(r"shared/|/work/"),
    "an outside spec": re.compile(r"\bDESIGN\.md|\bRULINGS\.md|FAMILY-RULINGS"),
}

SUFFIXES = {".md", ".py", ".yaml", ".yml", ".json", ".toml", ".txt", ".cfg"}


def _files() -> list[Path]:
    found = [ROOT / "README.md"]
    for top in ("docs", "examples", "variants", "src", "benchmarks"):
        found += sorted(p for p in (ROOT / top).rglob("*")
                        if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    return found


def _hits(text: str) -> list[str]:
    return [f"line {n}: {what}: {line.strip()[:120]}"
            for n, line in enumerate(text.splitlines(), 1)
            for what, pattern in OUTSIDE.items() if pattern.search(line)]


def test_the_patterns_find_what_they_are_for() -> None:
    """The check can fail: each way the old texts cited an outside file is caught, and the
    repository's own names and ordinary numbers are not."""
    for old in ('source: "seed 003_d85c13ce319f634a.txt"', "Boodle (seed 001)",
                "**Source:** `seeds/000_c616fd3e23e3d5a8.txt`",
                "as summarised in the rules catalogue, section 2.7",
                "see /work/shared/reference/rules-catalogue.md",
                "a winner's exemption, FAMILY-RULINGS F33",
                "FAMILY-RULINGS-2 G.0 item 5", "RULINGS.md item 4", "DESIGN.md section 3"):
        assert _hits(old), old
    for fine in ("docs/rulings.md ruling 29", "docs/family-rulings.md F33",
                 "[rulings.md](../rulings.md), text 001", "MAX_INT = 1_000_000",
                 "a 2_000_000 chip bound", "--seed 1", "the seed deals them",
                 "https://www.pagat.com/stops/3in1.html"):
        assert not _hits(fine), fine


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_cites_a_file_outside_the_repository(path: Path) -> None:
    hits = _hits(path.read_text(encoding="utf-8"))
    assert not hits, f"{path.relative_to(ROOT)} cites a file outside the repository:\n" + \
        "\n".join(hits)


@pytest.mark.parametrize("name", builtin_names())
def test_the_printed_rules_cite_nothing_outside(name: str) -> None:
    text = rules_text(stops.load_variant(name))
    hits = _hits(text)
    assert not hits, f"stops rules {name} cites a file outside the repository:\n" + \
        "\n".join(hits)
    assert "\nSource: " in text, f"stops rules {name} prints no source"

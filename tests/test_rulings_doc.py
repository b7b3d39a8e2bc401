"""The decisions the built-in games follow live in the repository (issue 14, item 3):
``docs/rulings.md``, numbered, each option linked to ``docs/reference.md``, and no doc, error
message, variant file or test cites a file that is not in the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import stops
from stops.rules.model import Rules

ROOT = Path(__file__).resolve().parents[1]
RULINGS = ROOT / "docs" / "rulings.md"
REFERENCE = ROOT / "docs" / "reference.md"


def _anchors(markdown: str) -> set[str]:
    out = set()
    for line in markdown.splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower().replace("`", "")
            out.add(re.sub(r"[^\w\- ]", "", title).replace(" ", "-"))
    return out


def test_rulings_are_numbered_one_to_forty_seven() -> None:
    text = RULINGS.read_text(encoding="utf-8")
    numbers = [int(m) for m in re.findall(r"^(\d+)\. \*\*", text, flags=re.M)]
    assert numbers == list(range(1, 48))


def _home(name: str) -> str | None:
    """Where reference.md documents a rule: its slot's or phase's section, or the table of
    rules (a flat name is documented with the policy or phase that owns it)."""
    from stops.rules.model import slot_names
    from stops.rules.registry import default_registry

    if name in slot_names():
        return name
    if name in {f.name for f in Rules.__attrs_attrs__}:  # type: ignore[attr-defined]
        return "rules"
    owners = default_registry().options().get(name)
    if owners:
        return owners[0].slot or owners[0].name
    return None


def test_every_option_links_to_its_reference_entry() -> None:
    text = RULINGS.read_text(encoding="utf-8")
    reference = REFERENCE.read_text(encoding="utf-8")
    anchors = _anchors(reference)
    links = re.findall(r"\[`(\w+)`\]\(reference\.md#([\w-]+)\)", text)
    assert len(links) > 40
    for name, anchor in links:
        assert anchor in anchors, (name, anchor)
        assert _home(name) == anchor, (name, anchor)
        assert f"`{name}`" in reference, name


def test_built_in_choices_are_the_ones_the_rulings_name() -> None:
    three = stops.load_variant("three-in-one").rules
    boodle = stops.load_variant("boodle").rules
    pk = stops.load_variant("pot-and-kitty").rules
    assert three.after_stop.use == "must_change_suit"     # ruling 25
    assert boodle.after_stop.use == "any_suit"            # ruling 28
    assert pk.going_out_reward.use == "kitty_only"        # ruling 44
    assert three.block_outcome.use == "kitty_per_card"    # ruling 26


@pytest.mark.parametrize("folder", ["src", "docs", "tests", "variants", "examples"])
def test_nothing_cites_files_outside_the_repository(folder: str) -> None:
    bad = re.compile(r"\b(DESIGN|RULINGS)\.md\b|/work/shared")
    for path in (ROOT / folder).rglob("*"):
        if path.suffix not in {".py", ".md", ".yaml", ".json"} or not path.is_file():
            continue
        if path.name in {"test_rulings_doc.py", "test_no_outside_refs.py"}:  # they name them
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not bad.search(line), f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not bad.search(readme)

"""Every Python and YAML snippet in README.md and docs/ runs, in document order.

YAML blocks whose first line is ``# NAME.yaml`` are written to that file (in a temporary
working directory) for later snippets to use; other YAML blocks with a ``name`` are loaded as
variants; fragments are loaded on top of a built-in. ``sh`` blocks are not run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

import stops
from stops.io.reference import reference_markdown
from stops.rules.variant import variant_from_mapping

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w+)\n(.*?)^```", re.S | re.M)


def blocks(path: Path) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(path.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_snippets_run(path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {"__name__": f"docs_{path.stem}"}
    for lang, code in blocks(path):
        if lang == "python":
            exec(compile(code, f"{path.name}", "exec"), namespace)
        elif lang == "yaml":
            first = code.splitlines()[0].strip()
            m = re.fullmatch(r"#\s*([\w.-]+\.ya?ml)", first)
            if m:
                (tmp_path / m.group(1)).write_text(code, encoding="utf-8")
                continue
            data = yaml.safe_load(code)
            if not isinstance(data, dict):  # a list of decisions, say: parsed, nothing to load
                continue
            if "name" in data:
                variant_from_mapping(data, label=f"{path.name} snippet")
            else:
                base = "three-in-one" if "flow" in data else "boodle"
                variant_from_mapping({"name": "snippet", "extends": base, **data},
                                     label=f"{path.name} snippet")


def test_reference_is_generated_from_the_registry() -> None:
    committed = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    assert committed == reference_markdown(), (
        "docs/reference.md is stale: run `python -m stops.io.reference > docs/reference.md`")


def test_every_registered_name_is_documented() -> None:
    text = (ROOT / "docs" / "reference.md").read_text(encoding="utf-8")
    reg = stops.default_registry()
    for (_slot, name) in reg.policies:
        assert f"`{name}`" in text
    for name in reg.phases:
        assert f"`{name}`" in text

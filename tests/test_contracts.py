"""Issue 20: the import contracts say something, and what they cannot see is listed here.

``lint-imports`` checks the layers and the independence of games and of policies from the
``import`` statements. An import by module-name string (``import_module(NAME)``) is invisible
to it, so every such call in the package is listed below with its reason, and a new one fails
until it is listed (or removed). The contracts' own lists are checked too: the independence
contracts name every module of their package, and every import the layers contract ignores
is a type-only import (under ``if TYPE_CHECKING:``) that still exists.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "stops"

STRING_IMPORTS: dict[tuple[str, str], str] = {
    ("__init__.py", "_HOME[name]"):
        "a lazy `import stops`: the home of a public name is imported on first use, so "
        "`stops --version` loads no game",
    ("engine/resolver.py", "_RULES"):
        "stops.rules.variant installs the variant loader into the engine (dependency "
        "inversion); the engine never imports the layer above at module level",
    ("engine/vocabulary.py", "_BUILTINS"):
        "stops.rules.registry, asked for the default registry, installs the built-in phases "
        "and so their verbs and event kinds: a verb not yet known is looked for there once "
        "before it is refused (Action(0, 'keep') in a program that loaded no variant yet)",
    ("rules/registry.py", "_BUILTINS"):
        "stops.builtins (three layers up) registers the built-ins into the default registry "
        "the first time it is asked for",
    ("apps/plugins.py", "spec"):
        "the plug-in module a user names with --plugins",
    ("apps/cli.py", "'tqdm'"):
        "the optional progress bar extra, when asked for",
    ("apps/cli.py", "'distributed'"):
        "the optional dask extra, for simulations on a cluster",
}
"""Every ``import_module(...)`` (or ``__import__(...)``) call of the package, by file and the
source text of its argument, with why it imports by name."""


def _string_imports() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(
                f, ast.Attribute) else ""
            if name in ("import_module", "__import__"):
                found.add((rel, ast.unparse(node.args[0])))
    return found


def test_every_import_by_name_is_listed_with_its_reason() -> None:
    found = _string_imports()
    assert found - set(STRING_IMPORTS) == set(), (
        "an import by module name that lint-imports cannot see: list it in STRING_IMPORTS "
        "(and in pyproject's contract comments) with its reason, or import it plainly")
    assert set(STRING_IMPORTS) - found == set(), "listed but gone: drop it from the list"


def test_the_guard_sees_an_import_by_name() -> None:
    # the scanner must be able to fail: a module with one call of each form
    source = "from importlib import import_module\nimport importlib\n" \
             "import_module('stops.games.comet')\nimportlib.import_module(x)\n__import__('y')\n"
    calls = [ast.unparse(n.args[0]) for n in ast.walk(ast.parse(source))
             if isinstance(n, ast.Call) and n.args]
    assert calls == ["'stops.games.comet'", "x", "'y'"]


def _contracts() -> list[dict[str, Any]]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    contracts: list[dict[str, Any]] = data["tool"]["importlinter"]["contracts"]
    return contracts


def test_independence_contracts_name_every_module_of_their_package() -> None:
    independent = {}
    for c in _contracts():
        if c["type"] == "independence":
            modules = [str(m) for m in c["modules"]]
            independent[modules[0].rsplit(".", 1)[0]] = sorted(modules)
    for package in ("stops.games", "stops.policies"):
        folder = SRC / package.split(".", 1)[1]
        want = sorted(f"{package}.{p.stem}" for p in folder.glob("*.py")
                      if p.stem != "__init__")
        assert independent.get(package) == want, package


def _type_only_imports(path: Path) -> set[str]:
    """The modules imported under ``if TYPE_CHECKING:`` in a source file."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for sub in node.body:
                if isinstance(sub, ast.ImportFrom) and sub.module:
                    out.add(sub.module)
                elif isinstance(sub, ast.Import):
                    out.update(a.name for a in sub.names)
    return out


def test_the_layers_contract_ignores_only_type_only_imports() -> None:
    layers = [c for c in _contracts() if c["type"] == "layers"]
    assert len(layers) == 1
    ignored = [str(i) for i in layers[0].get("ignore_imports", [])]
    assert ignored, "expected the engine's type-only imports of the rules layer"
    for line in ignored:
        importer, imported = (s.strip() for s in line.split("->"))
        assert "*" not in line, f"{line}: name each ignored import"
        path = SRC.joinpath(*importer.split(".")[1:]).with_suffix(".py")
        assert imported in _type_only_imports(path), (
            f"{line}: not a type-only import (or gone): the layers contract must not hide it")

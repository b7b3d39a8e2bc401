"""Loading variant files: safe YAML, ``extends``, options, strict structuring, key paths.

Every failure becomes a :class:`~stops.engine.errors.VariantError` naming the file, the key path and
what was expected; nothing from deep inside PyYAML or cattrs reaches the user. YAML is read
with ``yaml.safe_load`` under size and alias limits, and can only *name* registered code.
"""

from __future__ import annotations

import contextlib
import contextvars
import copy
import gc
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import attrs
import cattrs
import yaml

from stops.engine.cards import Card, parse_card
from stops.engine.errors import VariantError
from stops.engine.structure import (
    STRUCTURE_FAILURES,
    shape_problems,
    strict_converter,
    structure_errors,
    suggest,
)
from stops.engine.structure import TypeProblem as _TypeProblem
from stops.engine.structure import show as _show
from stops.engine.structure import strict_int as _strict_int
from stops.rules.model import PolicyRef, RankName, Rules, VariantSpec

MAX_FILE_BYTES = 256 * 1024
"""A variant file larger than this is refused before parsing."""
MAX_ALIASES = 64
"""YAML aliases allowed in one file: enough for sharing, too few for an alias bomb."""
MAX_EXTENDS_DEPTH = 16
MAX_NESTING = 32
"""YAML collections nested deeper than this are refused (a variant needs about five)."""
MAX_PRESETS = 64
"""Named presets in one variant (each is checked at load, so they are bounded)."""
MAX_LAYOUT_SPACES = 256
"""Layout spaces in one variant (the built-in games have at most nine)."""
VARIANT_SUFFIXES = (".yaml", ".yml")
"""A variant file named by ``extends`` (or by a record) must end in one of these."""

BUILTIN_SUFFIX = ".yaml"


class LoadNotes:
    """What one ``collecting()`` call keeps for its caller: the problems a load stepped over
    (a duplicate key, an unknown top-level key), so that ``stops check`` reports them with
    everything else, and the line of each key path of each file read (for ``file:line``).

    Notes live exactly as long as the ``with collecting()`` block that made them: nothing of
    a load outlives it, and a load outside such a block keeps no lines at all.
    """

    def __init__(self) -> None:
        self.problems: list[tuple[str, str, str]] = []
        self.lines: dict[str, dict[str, int]] = {}

    def line_of(self, label: str, path: str) -> int | None:
        """The line of ``path`` in the file ``label`` (or of the nearest enclosing key)."""
        lines = self.lines.get(label)
        if not lines:
            return None
        p = path.split(" -> ")[-1] if " -> " in path else path
        while p:
            if p in lines:
                return lines[p]
            cut = max(p.rfind("."), p.rfind("["))
            p = p[:cut] if cut > 0 else ""
        return None


_NOTES: contextvars.ContextVar[LoadNotes | None] = contextvars.ContextVar(
    "stops_load_notes", default=None)
"""The notes of the innermost ``collecting()`` of *this* thread (or task): a context
variable, so that one thread checking a file never makes another thread's load step over
its problems, nor sees them."""


@contextlib.contextmanager
def collecting() -> Iterator[LoadNotes]:
    """``with collecting() as notes:`` gathers, for loads in this block and this thread only,
    the problems a load can step over (``notes.problems``) and each key's line
    (``notes.line_of``)."""
    notes = LoadNotes()
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)


def _step_over(problems: list[tuple[str, str, str]]) -> bool:
    """Note ``problems`` if collecting (and go on), else the caller raises them."""
    notes = _NOTES.get()
    if notes is not None:
        notes.problems.extend(problems)
        return True
    return False


class _Scan:
    """One pass over a composed YAML node graph, each node visited once.

    An alias is the very node its anchor names, so it is *not* followed again: the scan
    takes time linear in the text, however the aliases chain. From each node's size and
    height it knows what the constructed data will be once aliases are expanded (as every
    later reader sees it), and refuses more than :data:`MAX_ALIASES` aliases, data of more
    than ``budget`` values, collections nested more than :data:`MAX_NESTING` deep, and an
    alias inside the collection it names (data that would contain itself). On the way it
    notes every duplicated key and, when ``lines`` is given, the line of each key path.
    """

    def __init__(self, budget: int, lines: dict[str, int] | None) -> None:
        self.budget = budget
        self.lines = lines
        self.dups: list[tuple[str, str, int, int]] = []
        self.done: dict[int, tuple[int, int]] = {}   # id(node) -> (values, height)
        self.open: set[int] = set()
        self.aliases = 0
        self.path: list[str] = []

    def _alias(self, hit: tuple[int, int], depth: int) -> tuple[int, int]:
        self.aliases += 1
        if self.aliases > MAX_ALIASES:
            raise yaml.YAMLError(f"more than {MAX_ALIASES} YAML aliases")
        if depth + hit[1] > MAX_NESTING:
            raise yaml.YAMLError(f"collections nested more than {MAX_NESTING} deep "
                                 "(counting what the aliases stand for)")
        return hit

    def visit(self, node: Any, depth: int) -> tuple[int, int]:
        """``(values, height)`` of ``node`` expanded; ``depth`` collections enclose it. (The
        caller compares the root's values with the budget: every count is memoized, so even
        an astronomical one costs nothing to reach, and an alias bomb is reported as too
        many aliases when it has them.)"""
        key = id(node)
        hit = self.done.get(key)
        if hit is not None:
            return self._alias(hit, depth)
        if node.__class__ is yaml.ScalarNode or not isinstance(node, yaml.CollectionNode):
            self.done[key] = (1, 0)
            return (1, 0)
        if key in self.open:
            raise yaml.YAMLError("an alias stands for a collection that contains it")
        if depth >= MAX_NESTING:
            raise yaml.YAMLError(f"collections nested more than {MAX_NESTING} deep")
        self.open.add(key)
        values, height = 1, 0
        lines, path, done = self.lines, self.path, self.done
        scalar = yaml.ScalarNode
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, v in node.value:
                if k.__class__ is scalar and id(k) not in done:
                    done[id(k)] = (1, 0)
                    values += 1
                    name = k.value
                    if name != "<<":
                        line = k.start_mark.line + 1
                        if name in seen:
                            where = "".join(path) + ("." if path else "") + name
                            self.dups.append((where, name, seen[name], line))
                        else:
                            seen[name] = line
                            if lines is not None:
                                lines.setdefault("".join(path) + ("." if path else "")
                                                 + name, line)
                    piece = ("." if path else "") + str(name)
                else:
                    kv, kh = self.visit(k, depth + 1)
                    values += kv
                    height = max(height, kh)
                    piece = "[?]"
                if v.__class__ is scalar and id(v) not in done:
                    done[id(v)] = (1, 0)
                    values += 1
                    continue
                path.append(piece)
                vv, vh = self.visit(v, depth + 1)
                path.pop()
                values += vv
                height = max(height, vh)
        else:
            for i, item in enumerate(node.value):
                if item.__class__ is scalar and id(item) not in done:
                    done[id(item)] = (1, 0)
                    values += 1
                    if lines is not None:
                        lines.setdefault(f"{''.join(path)}[{i}]", item.start_mark.line + 1)
                    continue
                path.append(f"[{i}]")
                if lines is not None:
                    lines.setdefault("".join(path), item.start_mark.line + 1)
                iv, ih = self.visit(item, depth + 1)
                path.pop()
                values += iv
                height = max(height, ih)
        self.open.discard(key)
        out = self.done[key] = (values, height + 1)
        return out


def builtin_dir() -> Path:
    """Where the built-in variant files are: inside the wheel, or the checkout's ``variants/``."""
    package = Path(__file__).resolve().parent.parent  # src/stops (or site-packages/stops)
    packaged = package / "_variants"
    if packaged.is_dir():
        return packaged
    return package.parent.parent / "variants"


def builtin_names() -> list[str]:
    d = builtin_dir()
    if not d.is_dir():
        return []
    return sorted(p.stem for p in d.glob("*" + BUILTIN_SUFFIX))


def is_path(ref: str) -> bool:
    """Whether ``ref`` names a file (a ``.yaml`` name or one with a folder) rather than a
    built-in variant."""
    return ref.endswith((".yaml", ".yml")) or os.sep in ref or "/" in ref


def resolve_ref(ref: str, relative_to: Path | None = None) -> Path:
    """A built-in name or a file path to the file it means."""
    if is_path(ref):
        p = Path(ref)
        if not p.is_absolute() and relative_to is not None:
            p = relative_to / p
        return p
    p = builtin_dir() / (ref + BUILTIN_SUFFIX)
    return p


class _LimitedLoader(yaml.SafeLoader):
    """``SafeLoader`` that counts aliases, so an alias bomb is refused, not expanded, and
    bounds how deeply collections nest."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._aliases = 0
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self._aliases += 1
            if self._aliases > MAX_ALIASES:
                raise yaml.YAMLError(f"more than {MAX_ALIASES} YAML aliases")
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise yaml.YAMLError(f"collections nested more than {MAX_NESTING} deep")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class FileProblem(Exception):
    """Why :func:`read_bounded` could not read a file (the message quotes no content)."""


def read_bounded(path: Path, limit: int) -> str:
    """The UTF-8 text of a *regular* file of at most ``limit`` bytes.

    Devices, FIFOs, sockets and directories are refused before reading (opening never
    blocks), and at most ``limit + 1`` bytes are ever read, whatever ``st_size`` says.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else "bad file name"
        raise FileProblem(f"cannot open the file ({why})") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileProblem("not a regular file (a device, pipe or directory is refused)")
        if st.st_size > limit:
            raise FileProblem(f"file is {st.st_size} bytes; at most {limit}")
        chunks: list[bytes] = []
        got = 0
        while got <= limit:
            chunk = os.read(fd, min(65536, limit + 1 - got))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise FileProblem(f"file is larger than {limit} bytes")
    except OSError as e:
        raise FileProblem(f"cannot read the file ({e.strerror or 'I/O error'})") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        raise FileProblem("not UTF-8 text") from None


def read_yaml(path: Path, label: str | None = None) -> Any:
    """Parse one YAML file safely; any problem is a VariantError for that file."""
    label = label or str(path)
    try:
        text = read_bounded(path, MAX_FILE_BYTES)
    except FileProblem as e:
        raise VariantError.one(label, "", str(e)) from None
    return parse_yaml_text(text, label)


VALUE_BUDGET = 65_536
"""YAML data may stand for at most this many values *plus one per byte of its text* once its
aliases are expanded: every later reader of the data then takes time linear in the text."""


def _libyaml_bounds_nesting() -> bool:
    """Does the installed libyaml refuse deep nesting itself (0.2.6 and later stop at 1,000
    levels)? An older one would recurse, in C, as deep as the text nests."""
    global _LIBYAML_SAFE
    if _LIBYAML_SAFE is None:
        try:
            yaml.CSafeLoader("[" * 1100).get_single_node()
        except yaml.YAMLError as e:
            _LIBYAML_SAFE = "nesting" in str(e)
        else:  # pragma: no cover - no such libyaml accepts unclosed brackets
            _LIBYAML_SAFE = False
    return _LIBYAML_SAFE


_LIBYAML_SAFE: bool | None = None
FAST_YAML: bool = bool(getattr(yaml, "__with_libyaml__", False)) and hasattr(yaml, "CSafeLoader")
"""PyYAML was built with libyaml (every PyYAML wheel is): YAML is parsed in C, about 20 times
faster than PyYAML's pure-Python parser."""


def _too_deep_events(text: str) -> bool:
    """For a libyaml that does not bound nesting: does ``text`` nest too deeply? Read as a
    flat stream of events (no recursion), before anything is composed."""
    depth = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return False


def _loader(text: str) -> Any:
    """A safe loader for ``text``: libyaml's when PyYAML has it, else the pure-Python one
    (which counts aliases and nesting as it composes)."""
    if FAST_YAML:
        if not _libyaml_bounds_nesting() and _too_deep_events(text):
            raise yaml.YAMLError(f"collections nested more than {MAX_NESTING} deep")
        return yaml.CSafeLoader(text)
    return _LimitedLoader(text)


def parse_yaml_text(text: str, label: str, limit: int = MAX_FILE_BYTES) -> Any:
    """Parse YAML text of at most ``limit`` bytes (a VariantError for anything wrong).

    Time and memory are linear in the text's bytes, aliases included (see :class:`_Scan`).
    Inside ``collecting()`` the line of each key path is noted for the caller.
    """
    if not isinstance(text, str):
        raise VariantError.one(label, "", "expected YAML text")
    if len(text) > limit or len(text.encode("utf-8", "replace")) > limit:
        raise VariantError.one(label, "", f"text is larger than {limit} bytes")
    notes = _NOTES.get()
    loader = None
    # building a large node graph and its data creates objects by the million; the cyclic
    # collector would walk them again and again (a 4 MiB record: 16 s instead of 3)
    collect = gc.isenabled()
    try:
        if collect:
            gc.disable()
        loader = _loader(text)
        node = loader.get_single_node()
        if node is None:
            return None
        lines: dict[str, int] | None = {} if notes is not None else None
        scan = _Scan(VALUE_BUDGET + len(text), lines)
        values, _ = scan.visit(node, 0)
        if values > scan.budget:
            raise yaml.YAMLError(f"the aliases stand for more than {scan.budget:,} values "
                                 "in all; write the data out, or share less")
        if notes is not None and lines is not None:
            notes.lines[label] = lines
        if scan.dups:
            found = [(label, path, f"duplicate key {key!r}: it is on line {first} and again "
                      f"on line {again}; keep one") for path, key, first, again in scan.dups]
            if not _step_over(found):
                raise VariantError(found)
        del scan
        return loader.construct_document(node)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else "somewhere"
        raise VariantError.one(label, "", f"not valid YAML at {where}: {e.problem}") from None
    except yaml.YAMLError as e:
        raise VariantError.one(label, "", f"not valid YAML: {e}") from None
    except RecursionError:
        raise VariantError.one(label, "", "nested too deeply") from None
    except VariantError:
        raise   # duplicate keys (a VariantError is also a ValueError)
    except (ValueError, OverflowError, MemoryError):
        # e.g. an integer of more than 4,300 digits (Python refuses to convert it)
        raise VariantError.one(label, "", "a value is far too large to read") from None
    finally:
        if loader is not None:
            loader.dispose()
        if collect:
            gc.enable()


def check_plain(data: Any, label: str, path: str = "", budget: int | None = None) -> None:
    """Data handed over as Python objects (a mapping, a record's embedded variant) must be
    what a YAML file within the limits could give: collections nested at most
    :data:`MAX_NESTING` deep and, counting every value each time it is reached, at most
    ``budget`` values (by default what a variant file of :data:`MAX_FILE_BYTES` may hold).
    Walked without recursion, and never further than the budget, so a structure that
    contains itself, nests thousands deep or shares one list a billion times is refused at
    once, before anything copies it (else a RecursionError) or walks it (else hours)."""
    limit = VALUE_BUDGET + MAX_FILE_BYTES if budget is None else budget
    seen = 0   # values counted; each one on the stack will be counted too
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        seen += 1
        if isinstance(node, Mapping):
            size = 2 * len(node)
        elif isinstance(node, list | tuple):
            size = len(node)
        else:
            continue
        if seen + len(stack) + size > limit:
            raise VariantError.one(label, path, f"more than {limit:,} values in all")
        if depth >= MAX_NESTING:
            raise VariantError.one(label, path, f"collections nested more than {MAX_NESTING} "
                                   "deep")
        items: Iterable[Any] = (x for kv in node.items() for x in kv) if isinstance(
            node, Mapping) else node
        stack.extend((x, depth + 1) for x in items)


# -- strict cattrs converter ---------------------------------------------------------------


def _card(v: Any, _: Any) -> Card:
    if isinstance(v, int) and not isinstance(v, bool):
        raise _TypeProblem(f"expected a card such as AH or 10S, got {v!r}")
    try:
        return parse_card(v)
    except ValueError as e:
        raise _TypeProblem(str(e)) from None


def _rank_text(v: Any, _: Any) -> RankName:
    from stops.engine.cards import RANKS

    s = str(v).upper() if isinstance(v, int | str) and not isinstance(v, bool) else None
    if s == "10":
        s = "T"
    if s is None or len(s) != 1 or s not in RANKS:
        raise _TypeProblem(f"expected a rank (2-10, J, Q, K, A), got {_show(v)}")
    return RankName(s)


def _policy_ref(v: Any, _: Any) -> PolicyRef:
    if isinstance(v, str):
        return PolicyRef(v, {})
    if isinstance(v, Mapping):
        if "use" not in v:
            raise _TypeProblem("a policy given as a mapping needs 'use: <policy name>'")
        use = v["use"]
        if not isinstance(use, str):
            raise _TypeProblem(f"'use' must name a policy, got {_show(use)}")
        return PolicyRef(use, {str(k): x for k, x in v.items() if k != "use"})
    raise _TypeProblem(f"expected a policy name or {{use: name, ...}}, got {_show(v)}")


def _counts_by_number(v: Any, _: Any) -> dict[int, int]:
    """A table of whole numbers by whole number (``hand_sizes: {3: 15}``). Its keys may come
    as decimal text: JSON has no other keys, so a record written as JSON reads back."""
    if not isinstance(v, Mapping):
        raise _TypeProblem(f"expected a mapping of number: number, got {_show(v)}")
    out: dict[int, int] = {}
    for k, x in v.items():
        key = int(k) if isinstance(k, str) and k.isascii() and k.isdecimal() and len(k) < 6 \
            else k
        out[_strict_int(key, int)] = _strict_int(x, int)
    return out


def make_converter() -> cattrs.Converter:
    c = strict_converter()
    c.register_structure_hook(Card, _card)
    c.register_structure_hook(PolicyRef, _policy_ref)
    c.register_structure_hook(RankName, _rank_text)
    c.register_structure_hook_func(lambda t: t == dict[int, int], _counts_by_number)
    return c


CONVERTER = make_converter()


def structure(data: Any, cls: type[Any], label: str, path: str = "") -> Any:
    """Structure ``data`` into ``cls``, turning every failure into a VariantError."""
    shape = shape_problems(data, cls, path)
    found = [(label, p, m) for p, m in shape]
    try:
        result = CONVERTER.structure(data, cls)
    except STRUCTURE_FAILURES as e:
        problems = structure_errors(e)
        bad = {p for _, p, _ in found}
        for p, m in problems:
            full = path + "." + p if path and p else path or p
            # a shape problem already explains everything under its key
            if not any(full == b or full.startswith((b + ".", b + "[")) for b in bad):
                found.append((label, full, m))
        raise VariantError(found or [(label, path, "cannot be read")]) from None
    if found:
        raise VariantError(found)
    return result


# -- extends and options ------------------------------------------------------------------

TOP_KEYS = ("name", "extends", "title", "description", "source", "players", "deck", "layout",
            "flow", "rules", "presets")
PRESET_KEYS = ("title", "description", "players", "deck", "layout", "add_layout", "flow", "rules")
"""What a named preset may change (``presets: {four-kings: {layout: [...]}}``). ``add_layout``
appends spaces to the layout in force instead of replacing it, so that two presets can each
add their own spaces (Royal Rummy's ``ace_bet`` and ``with-poker``)."""


ORIGIN = "__origin__"
"""Private key of a merged mapping: which file (or ``<options>``) set each key."""
LAYER = "__layer__"
"""Private key of a merged mapping: for each ``rules.KEY``, how late in the chain of files
(base first, options last) it was set. A policy parameter given both inline
(``after_stop: {use: must_change_suit, fallback: pass_left}``) and flat
(``change_suit_fallback: same_suit``) takes the value set later; in one file, the inline one."""


def _origins(data: dict[str, Any], label: str) -> dict[str, str]:
    out = {k: label for k in data if k not in (ORIGIN, LAYER)}
    rules = data.get("rules")
    if isinstance(rules, dict):
        out.update({f"rules.{k}": label for k in rules})
    return out


def _layers(parent: dict[str, Any], child_rules: Any) -> dict[str, int]:
    """The parent's rule layers, with the child's rules one layer later."""
    layers = dict(parent.get(LAYER) or {})
    top = max(layers.values(), default=0) + 1
    if isinstance(child_rules, dict):
        layers.update({k: top for k in child_rules})
    return layers


def attribute(problems: list[tuple[str, str, str]], origin: dict[str, str]
              ) -> list[tuple[str, str, str]]:
    """Blame each problem on the file that set the key it is about."""
    out = []
    for f, path, msg in problems:
        head = path.split(".")[0].split("[")[0]
        if head == "rules" and path.count(".") >= 1:
            key = ".".join(path.split(".")[:2]).split("[")[0]
            f = origin.get(key, origin.get("rules", f))
        elif head in origin:
            f = origin[head]
        out.append((f, path, msg))
    return out


def load_raw(ref: str | os.PathLike[str], *, _seen: tuple[Path, ...] = (),
             relative_to: Path | None = None, referrer: str | None = None,
             confine: Path | None = None) -> tuple[dict[str, Any], Path]:
    """Read a file and everything it ``extends``; return the merged mapping and the file path.

    The mapping carries, under :data:`ORIGIN`, which file set each key, so that a problem is
    reported against the file that contains it. ``referrer`` is the file whose ``extends``
    named this one. A file named by ``extends`` must be a built-in or a ``.yaml`` / ``.yml``
    file; with ``confine`` (a directory) it must also lie directly in that directory.
    """
    if not isinstance(ref, str | os.PathLike):
        raise VariantError.one(referrer or "<argument>", "extends" if referrer else "",
                               f"expected a built-in variant name or a file path, got "
                               f"{type(ref).__name__}")
    text_ref = os.fspath(ref)
    if not isinstance(text_ref, str) or not text_ref or "\x00" in text_ref:
        raise VariantError.one(referrer or "<argument>", "extends" if referrer else "",
                               "expected a built-in variant name or a file path")
    path = Path(ref) if isinstance(ref, os.PathLike) else resolve_ref(ref, relative_to)
    label = str(path)
    builtin = not isinstance(ref, os.PathLike) and not is_path(ref)
    if referrer is not None and not builtin and not text_ref.endswith(VARIANT_SUFFIXES):
        raise VariantError.one(referrer, "extends", "a file named by extends must end in "
                               ".yaml or .yml")
    if confine is not None and not builtin:
        try:
            outside = path.resolve().parent != confine.resolve()
        except OSError:
            outside = True
        if outside:
            raise VariantError.one(referrer or label, "extends" if referrer else "",
                                   "a variant read for a record may extend only built-ins "
                                   "and files beside the record")
    try:
        exists = path.exists()
    except (OSError, ValueError):
        exists = False
    if not exists:
        where, key = (referrer, "extends") if referrer else (str(ref), "")
        if not is_path(str(ref)):
            names = builtin_names()
            near = suggest(str(ref), names) or suggest(str(ref).replace("_", "-"), names)
            raise VariantError.one(where, key, f"no built-in variant named {ref!r}{near}; "
                                   f"built-ins are: {', '.join(names)}")
        raise VariantError.one(where, key, f"no such file: {label}")
    real = path.resolve()
    if real in _seen:
        chain = " -> ".join(str(p) for p in (*_seen, real))
        raise VariantError.one(label, "extends", f"circular extends: {chain}")
    if len(_seen) >= MAX_EXTENDS_DEPTH:
        raise VariantError.one(label, "extends", f"extends is nested more than "
                               f"{MAX_EXTENDS_DEPTH} deep")
    data = check_top(read_yaml(path, label), label, trusted=referrer is None)
    base = data.get("extends")
    if base is None:
        data[ORIGIN] = _origins(data, label)
        data[LAYER] = _layers({}, data.get("rules"))
        return data, path
    if not isinstance(base, str):
        raise VariantError.one(label, "extends", f"expected a built-in name or a file path, "
                               f"got {_show(base)}")
    parent, _ = load_raw(base, _seen=(*_seen, real), relative_to=path.parent, referrer=label,
                         confine=confine)
    return merge(parent, data, label), path


def _kind(v: Any) -> str:
    """What a value is, never what it says (for messages about files we may not quote)."""
    if isinstance(v, Mapping):
        return "a mapping"
    if isinstance(v, list | tuple):
        return "a list"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, str):
        return "text"
    if v is None:
        return "nothing (an empty file)"
    return "a number" if isinstance(v, int | float) else "a value"


def check_top(data: Any, label: str, *, trusted: bool = True) -> dict[str, Any]:
    """A variant is a mapping with text keys, each one of :data:`TOP_KEYS`.

    No message quotes the file's content; for a file the user did not name (``trusted`` is
    false: it was reached through ``extends`` or a record) not even an unknown key's name,
    since it may not be a variant file at all.
    """
    if not isinstance(data, dict):
        raise VariantError.one(label, "", f"a variant file must be a mapping of keys, got "
                               f"{_kind(data)}")
    for k in data:
        if not isinstance(k, str):
            raise VariantError.one(label, "", f"keys must be text, got {_kind(k)}")
    unknown = [k for k in data if k not in TOP_KEYS]
    if unknown:
        if not trusted:
            raise VariantError.one(label, "", "not a variant file: it has top-level keys "
                                   "other than " + ", ".join(TOP_KEYS))

        def shown(k: str) -> str:
            return k if len(k) <= 40 and k.isprintable() else "?"

        found = [(label, shown(k), f"unknown key {shown(k)!r}" + (
            suggest(k, TOP_KEYS) or "; allowed top-level keys: " + ", ".join(TOP_KEYS)))
            for k in unknown]
        if not _step_over(found):
            raise VariantError(found)
        for k in unknown:
            del data[k]
    presets = data.get("presets")
    if isinstance(presets, Mapping) and len(presets) > MAX_PRESETS:
        raise VariantError.one(label, "presets", f"{len(presets)} presets; at most "
                               f"{MAX_PRESETS}")
    layout = data.get("layout")
    if isinstance(layout, list) and len(layout) > MAX_LAYOUT_SPACES:
        raise VariantError.one(label, "layout", f"{len(layout)} spaces; at most "
                               f"{MAX_LAYOUT_SPACES}")
    if isinstance(presets, Mapping):
        for name, body in presets.items():
            inner = body.get("layout") if isinstance(body, Mapping) else None
            more = body.get("add_layout") if isinstance(body, Mapping) else None
            if isinstance(more, list) and len(more) > MAX_LAYOUT_SPACES:
                raise VariantError.one(label, f"presets.{name}.add_layout", f"{len(more)} "
                                       f"spaces; at most {MAX_LAYOUT_SPACES}")
            if isinstance(inner, list) and len(inner) > MAX_LAYOUT_SPACES:
                raise VariantError.one(label, f"presets.{name}.layout", f"{len(inner)} "
                                       f"spaces; at most {MAX_LAYOUT_SPACES}")
    return data


def merge(parent: dict[str, Any], child: dict[str, Any], label: str) -> dict[str, Any]:
    """A child file overrides its parent key by key; ``rules`` merge one rule at a time."""
    out = copy.deepcopy(parent)
    out.pop("extends", None)
    origin = dict(parent.get(ORIGIN) or {})
    origin.update(_origins({k: v for k, v in child.items() if k != "extends"}, label))
    out[ORIGIN] = origin
    out[LAYER] = _layers(parent, child.get("rules"))
    for k, v in child.items():
        if k in ("extends", ORIGIN, LAYER):
            continue
        if k == "presets":
            if not isinstance(v, dict):
                raise VariantError.one(label, "presets", "expected a mapping of preset "
                                       f"name: changes, got {_show(v)}")
            out["presets"] = {**(out.get("presets") or {}), **copy.deepcopy(v)}
            continue
        if k == "rules":
            if not isinstance(v, dict):
                raise VariantError.one(label, "rules", f"expected a mapping of rule: choice, "
                                       f"got {_show(v)}")
            base_rules = out.get("rules") or {}
            if not isinstance(base_rules, dict):
                base_rules = {}
            out["rules"] = {**base_rules, **copy.deepcopy(v)}
        else:
            out[k] = copy.deepcopy(v)
    return out


def presets_of(data: dict[str, Any], label: str) -> dict[str, dict[str, Any]]:
    """The variant's named presets, checked for shape."""
    presets = data.get("presets") or {}
    if not isinstance(presets, dict):
        raise VariantError.one(label, "presets", "expected a mapping of preset name: changes")
    for name, body in presets.items():
        if not isinstance(name, str) or not isinstance(body, dict):
            raise VariantError.one(label, f"presets.{name}", "expected a mapping of changes "
                                   "(layout, flow, rules, players, deck, title)")
        bad = [k for k in body if k not in PRESET_KEYS]
        if bad:
            raise VariantError.one(label, f"presets.{name}.{bad[0]}", "a preset may change "
                                   "only: " + ", ".join(PRESET_KEYS))
    return presets


def apply_preset(data: dict[str, Any], name: str, label: str) -> dict[str, Any]:
    """``data`` with the preset ``name`` applied, as a child file would apply it."""
    body = dict(presets_of(data, label)[name])
    added = body.pop("add_layout", None)
    out = merge(data, body, label)
    if added is not None:
        if not isinstance(added, list):
            raise VariantError.one(label, f"presets.{name}.add_layout", "expected a list of "
                                   f"layout spaces, got {_show(added)}")
        base = out.get("layout")
        out["layout"] = [*(base if isinstance(base, list) else []), *copy.deepcopy(added)]
    out["presets"] = data.get("presets")
    origin = dict(data.get(ORIGIN) or {})
    origin.update(_origins(body, label))
    out[ORIGIN] = origin
    return out


def presets_elsewhere(name: str) -> list[str]:
    """The built-in variants whose own file declares a preset ``name`` (an option one
    variant refuses may belong to another: Tripoley's ``home-table`` is
    ``tripoley-colours``'). Read only when an option is refused."""
    out = []
    for variant in builtin_names():
        try:
            data = read_yaml(resolve_ref(variant))
        except VariantError:
            continue
        presets = data.get("presets") if isinstance(data, dict) else None
        if isinstance(presets, dict) and name in presets:
            out.append(variant)
    return out


def apply_options(data: dict[str, Any], options: Mapping[str, Any] | None,
                  flat_names: Iterable[str] = ()) -> dict[str, Any]:
    """Option overrides: rule choices (``{"after_stop": "must_change_suit"}``), flat names of
    policy parameters and phase settings (``flat_names``, from the registry), and named
    presets of the variant switched on (``{"four-kings": True}``)."""
    if not options:
        return data
    if not isinstance(options, Mapping):
        raise VariantError.one("<options>", "", f"options must be a mapping, got {_show(options)}")
    known = {f.name for f in attrs.fields(Rules)} | set(flat_names)
    presets = presets_of(data, "<options>")
    rules: dict[str, Any] = {}
    out = dict(data)
    for k, v in options.items():
        if k in presets:
            if not isinstance(v, bool):
                raise VariantError.one("<options>", str(k), f"preset {k!r} takes true or "
                                       f"false, got {_show(v)}")
            if v:
                out = apply_preset(out, k, "<options>")
        elif k in known:
            rules[k] = v
        else:
            owners = presets_elsewhere(k) if isinstance(k, str) else []
            if owners:
                name = data.get("name", "this variant")
                raise VariantError.one("<options>", str(k), f"{name} has no preset {k!r}; it "
                                       "is a preset of " + " and ".join(owners) + ": play "
                                       + " or ".join(owners) + " with it")
            near = suggest(k, sorted(known | set(presets)))
            if near:   # a typo: name the one rule meant, not the hundred there are
                raise VariantError.one("<options>", str(k), f"unknown rule {str(k)!r}{near}")
            extra = f"; presets: {', '.join(presets)}" if presets else ""
            raise VariantError.one("<options>", str(k), "unknown rule; known rules: "
                                   + ", ".join(sorted(known)) + extra)
    out[LAYER] = _layers(out, rules)
    out["rules"] = {**(out.get("rules") or {}), **rules}
    origin = dict(out.get(ORIGIN) or {})
    origin.update({f"rules.{k}": "<options>" for k in rules})
    out[ORIGIN] = origin
    return out


RULE_FIELDS: frozenset[str] = frozenset(f.name for f in attrs.fields(Rules))
"""The rules every variant has (shared settings and policy slots); any other key under
``rules`` is the flat name of a policy parameter or phase setting."""


def split_rules(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``data`` without flat parameter names under ``rules``, and those flat names."""
    rules = data.get("rules")
    if not isinstance(rules, dict):
        return data, {}
    flat = {k: v for k, v in rules.items() if k not in RULE_FIELDS}
    if not flat:
        return data, {}
    out = dict(data)
    out["rules"] = {k: v for k, v in rules.items() if k in RULE_FIELDS}
    return out, flat


def structure_spec(data: dict[str, Any], label: str) -> VariantSpec:
    data, _ = split_rules(data)
    clean = {k: v for k, v in data.items() if k not in ("extends", ORIGIN, LAYER, "presets")}
    try:
        spec: VariantSpec = structure(clean, VariantSpec, label)
    except VariantError as e:
        raise VariantError(attribute(e.problems, data.get(ORIGIN) or {})) from None
    return spec

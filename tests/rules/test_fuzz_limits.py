"""Fuzzing the limits: YAML with anchors and aliases, and variants embedded in records.

Whatever the text or the data, reading costs bounded time and gives either data within the
limits (nesting, values after aliases are expanded) or the library's own error.
"""

from __future__ import annotations

import contextlib
import json
import random
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stops
from stops.io import records
from stops.rules.loader import MAX_NESTING, VALUE_BUDGET, parse_yaml_text
from stops.rules.untrusted import resolved_mapping
from tiers import campaign

QUICK = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


def _yaml_with_aliases(rng: random.Random, anchors: int, width: int) -> str:
    """A document of ``anchors`` anchored nodes, each built from scalars and aliases to the
    nodes before it (so aliases chain, nest, merge and repeat), then a body naming them."""
    lines = []
    for i in range(anchors):
        parts = []
        for _ in range(rng.randrange(1, width + 1)):
            roll = rng.random()
            if i and roll < 0.6:
                parts.append(f"*a{rng.randrange(i)}")
            elif roll < 0.8:
                parts.append(str(rng.randrange(100)))
            else:
                parts.append("[" * (d := rng.randrange(1, 6)) + "x" + "]" * d)
        if rng.random() < 0.3 and i:
            body = "{" + ", ".join(f"k{j}: {p}" for j, p in enumerate(parts)) + "}"
            if rng.random() < 0.5:   # a merge key
                body = "{<<: *a" + str(rng.randrange(i)) + ", " + body[1:]
        else:
            body = "[" + ", ".join(parts) + "]"
        lines.append(f"a{i}: &a{i} {body}")
    if anchors:
        lines.append("top: " + "[" + ", ".join(f"*a{rng.randrange(anchors)}"
                                                for _ in range(rng.randrange(1, 4))) + "]")
    return "\n".join(lines) + "\n"


def _size_and_depth(data: Any) -> tuple[int, int]:
    """Values and nesting of ``data`` expanded, counted without recursion."""
    count, deepest = 0, 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if isinstance(node, dict):
            deepest = max(deepest, depth + 1)
            stack.extend((x, depth + 1) for kv in node.items() for x in kv)
        elif isinstance(node, list):
            deepest = max(deepest, depth + 1)
            stack.extend((x, depth + 1) for x in node)
    return count, deepest


@QUICK
@given(st.integers(0, 2**32), st.integers(1, 40), st.integers(1, 6))
def test_yaml_aliases_cost_linear_time_and_stay_within_the_limits(seed: int, anchors: int,
                                                                  width: int) -> None:
    text = _yaml_with_aliases(random.Random(seed), anchors, width)
    start = time.monotonic()
    try:
        data = parse_yaml_text(text, "fuzz.yaml")
    except stops.VariantError as e:
        assert e.problems and e.file == "fuzz.yaml"
    else:
        size, depth = _size_and_depth(data)
        assert size <= VALUE_BUDGET + len(text) and depth <= MAX_NESTING
    with contextlib.suppress(stops.RecordError):
        records.loads("format: stops.deal/1\n" + text)
    assert time.monotonic() - start < 2


@QUICK
@given(st.integers(0, 2**32), st.integers(0, 200), st.integers(0, 64))
def test_yaml_text_around_anchors_and_aliases(seed: int, length: int, marks: int) -> None:
    rng = random.Random(seed)
    alphabet = "&*ab01:[]{}-,<< \n"
    text = "".join(rng.choice(alphabet) for _ in range(length))
    text += "".join(rng.choice(["&a ", "*a ", "&b ", "*b "]) for _ in range(marks % 8))
    start = time.monotonic()
    with contextlib.suppress(stops.VariantError):
        data = parse_yaml_text(text, "fuzz.yaml")
        size, depth = _size_and_depth(data)
        assert size <= VALUE_BUDGET + len(text) and depth <= MAX_NESTING
    assert time.monotonic() - start < 2


BOODLE = resolved_mapping(stops.load_variant("boodle"))
RECORD = json.loads(json.dumps(stops.Table("boodle", seats=4, seed=3).new_deal().record()))


def _shared(rng: random.Random, depth: int, fan: int) -> Any:
    """Data that shares subtrees: small to hold, up to fan ** depth values once expanded."""
    node: Any = "x"
    for _ in range(depth):
        node = [node] * fan if rng.random() < 0.5 else {f"k{j}": node for j in range(fan)}
    return node


@campaign(120)
@given(st.integers(0, 2**32), st.integers(0, 60), st.integers(1, 40),
       st.sampled_from(["description", "presets", "rules", "layout", "options", "deck"]))
def test_embedded_variants_cost_bounded_time(seed: int, depth: int, fan: int,
                                             where: str) -> None:
    rng = random.Random(seed)
    variant = json.loads(json.dumps(BOODLE))
    junk = _shared(rng, depth, fan)
    if where == "presets":
        variant["presets"] = {f"p{i}": {"rules": {"bet_limit": junk}} for i in range(64)}
    elif where == "rules":
        variant["rules"][f"x{seed % 7}"] = junk
    elif where == "layout":
        variant["layout"] = variant["layout"] + [junk] * rng.randrange(1, 300)
    elif where == "deck":
        variant["deck"] = {"remove": junk}
    else:
        variant[where if where != "options" else "description"] = junk
    rec = {**RECORD, "variant": variant}
    if where == "options":
        rec["options"] = {"bet_limit": junk, "p1": True}
    start = time.monotonic()
    with contextlib.suppress(stops.RecordError, stops.VariantError):
        stops.replay(rec, partial=True)
    with contextlib.suppress(stops.RecordError, stops.VariantError):
        records.replay_session({"deals": [rec, rec]})
    assert time.monotonic() - start < 3

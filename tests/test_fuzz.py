"""Fuzzing: broken variant files, records and actions only ever give the library's own errors.

Variant data: only :class:`stops.VariantError` (with a file and key path); records: only
:class:`stops.RecordError` or ``VariantError`` (a record can name a broken variant); action
dicts: only :class:`stops.IllegalAction`.
"""

from __future__ import annotations

import contextlib
import copy
import random
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

import stops
from stops.rules.loader import MAX_FILE_BYTES, ORIGIN, load_raw, parse_yaml_text
from stops.rules.variant import variant_from_mapping
from tiers import campaign

FUZZ = campaign(1500)
BASES = {name: {k: v for k, v in load_raw(name)[0].items() if k != ORIGIN}
         for name in stops.list_variants()}

junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=True)
    | st.text(max_size=12) | st.sampled_from(["AH", "10h", "pot", "kitty", "free", "deal",
                                              "must_change_suit", "-1", "1e9"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=8,
)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


def _mutate(data: dict[str, Any], rng: random.Random, value: Any) -> dict[str, Any]:
    data = copy.deepcopy(data)
    paths = [p for p in _paths(data) if p]
    path = rng.choice(paths)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    op = rng.randrange(4)
    if op == 0:
        parent[path[-1]] = value
    elif op == 1 and isinstance(parent, dict):
        del parent[path[-1]]
    elif op == 2 and isinstance(parent, dict):
        parent[f"x_{rng.randrange(99)}"] = value
    else:
        parent[path[-1]] = rng.choice([None, [], {}, "", -1, 10**9, True, "??"])
    return data


@FUZZ
@given(st.sampled_from(sorted(BASES)), st.integers(0, 2**32), junk, st.integers(1, 3))
def test_mutated_variants_only_raise_variant_error(base: str, seed: int, value: Any,
                                                   rounds: int) -> None:
    rng = random.Random(seed)
    data = BASES[base]
    for _ in range(rounds):
        data = _mutate(data, rng, value)
    try:
        v = variant_from_mapping(data, label="fuzz.yaml")
    except stops.VariantError as e:
        assert e.problems
        for file, path, message in e.problems:
            assert file and message
            assert isinstance(path, str)
        return
    # it loaded: then it must also play
    lo, _ = v.players
    table = stops.Table(v, seats=lo, chips=10, seed=seed)
    if table.is_over:  # e.g. until_short: 10 chips cannot pay Nain Jaune's 15-chip stake
        assert table.end_reason()
        with pytest.raises(stops.SessionOver):
            table.new_deal()
        return
    deal = table.new_deal()
    steps = 0
    while not deal.is_terminal and steps < 3000:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
        steps += 1


@campaign(400)
@given(st.text(max_size=300))
def test_random_text_only_raises_variant_error(text: str) -> None:
    try:
        data = parse_yaml_text(text, "fuzz.yaml")
        variant_from_mapping(data, label="fuzz.yaml")
    except stops.VariantError:
        pass


def test_huge_file_and_absurd_numbers_are_refused(tmp_path: Any) -> None:
    big = tmp_path / "big.yaml"
    big.write_text("name: big\n" + "# filler\n" * (MAX_FILE_BYTES // 9 + 10))
    with pytest.raises(stops.VariantError, match="bytes"):
        stops.load_variant(big)
    for rules in ({"players": {"min": 3, "max": 1_000_000}},
                  {"rules": {"stake_rule": {"use": "each_space", "chips": -3}}},
                  {"rules": {"bet_limit": 10**15}},
                  {"rules": {"stake_rule": {"use": "free", "chips": 0}}},
                  {"rules": {"exchange_fee": -1}}):
        with pytest.raises(stops.VariantError):
            variant_from_mapping({"name": "x", "extends": "pot-and-kitty", **rules})
    with pytest.raises(stops.TableError):
        stops.Table("boodle", seats=1_000_000)


RECORDS: list[dict[str, Any]] = []
for _name in ("boodle", "three-in-one", "pot-and-kitty", "boodle-free-stakes", "pope-joan",
              "spinado", "nain-jaune", "comet", "newmarket", "tripoley"):
    _t = stops.Table(_name, seats=4, chips=30, seed=3)
    _d = _t.new_deal()
    _r = random.Random(1)
    while not _d.is_terminal:
        _la = _d.legal_actions()
        _d.apply(_la[_r.randrange(len(_la))])
    RECORDS.append(_d.record())


@FUZZ
@given(st.sampled_from(range(len(RECORDS))), st.integers(0, 2**32), junk, st.integers(1, 3))
def test_mutated_records_only_raise_record_errors(which: int, seed: int, value: Any,
                                                  rounds: int) -> None:
    rng = random.Random(seed)
    rec = RECORDS[which]
    for _ in range(rounds):
        rec = _mutate(rec, rng, value)
    with contextlib.suppress(stops.RecordError, stops.VariantError):
        stops.replay(rec)


#: Loaded once: the fuzzing is of ``deal.apply``, and loading by name each time took half of
#: every example's time
THREE_IN_ONE = stops.load_variant("three-in-one")


@FUZZ
@given(st.dictionaries(st.sampled_from(["seat", "action", "card", "chips", "space", "cards",
                                        "extra"]), junk, max_size=5),
       st.sampled_from(["lead", "keep", "bid", "stake", "select", "raise", None]),
       st.integers(0, 10))
def test_random_action_dicts_only_raise_illegal_action(data: dict[str, Any], verb: Any,
                                                       steps: int) -> None:
    table = stops.Table(THREE_IN_ONE, seats=4, chips=30, seed=steps)
    deal = table.new_deal()
    rng = random.Random(steps)
    for _ in range(steps):
        if deal.is_terminal:
            break
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    if verb is not None:
        data = {**data, "action": verb}
    before = (len(deal.events), deal.stacks, deal.current_seat)
    try:
        deal.apply(data)
    except stops.IllegalAction as e:
        assert e.code
        assert (len(deal.events), deal.stacks, deal.current_seat) == before


def test_yaml_tags_never_run_code(tmp_path: Any) -> None:
    evil = tmp_path / "evil.yaml"
    marker = tmp_path / "ran"
    evil.write_text(f"name: !!python/object/apply:os.system ['touch {marker}']\n")
    with pytest.raises(stops.VariantError):
        stops.load_variant(evil)
    assert not marker.exists()
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(evil.read_text())

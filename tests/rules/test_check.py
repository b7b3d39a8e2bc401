"""``stops check`` and the schema (issue 14, item 11): every problem at once with
``file:line``, the nearest name for a misspelling, duplicate keys refused, and the JSON Schema
and the loader giving the same verdict on every built-in and every fuzzed file."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import stops
from stops.apps import cli
from stops.engine.errors import VariantError
from stops.io.schema import variant_schema
from stops.rules.loader import check_top, load_raw, split_rules, structure_spec
from stops.rules.model import slot_names
from stops.rules.registry import default_registry
from stops.rules.variant import (
    _bind,
    _flat_problems,
    _settings,
    bound_problems,
    variant_from_mapping,
)
from tiers import examples


def check(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, list[str]]:
    code = cli.main(["check", str(path)])
    got = capsys.readouterr()
    return code, (got.out + got.err).splitlines()


BAD = """\
name: club
extends: boodle
rules:
  afterstop: must_change_suit
  going_out_reward: per_crd
  bet_limit: x
  stake_unit: -3
flow: [stake, deal, spare_hand, play, setle]
colour: red
"""


def test_every_problem_at_once_with_file_and_line(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "club.yaml"
    f.write_text(BAD, encoding="utf-8")
    code, lines = check(capsys, f)
    assert code == 1
    assert lines == [
        f"{f}:4: rules.afterstop: unknown key 'afterstop' (did you mean after_stop?)",
        f"{f}:5: rules.going_out_reward: unknown policy 'per_crd' for going_out_reward "
        "(did you mean per_card?); expected one of: "
        + ", ".join(stops.default_registry().policy_names("going_out_reward")) + " "
        "(a plug-in's policy must be registered first: stops ... --plugins MODULE_OR_FILE)",
        f"{f}:6: rules.bet_limit: expected a whole number, got 'x'",
        f"{f}:7: rules.stake_unit: expected a number >= 1, got -3",
        f"{f}:8: flow[4]: unknown phase 'setle' (did you mean settle?); expected one of: "
        "claim_held, deal, held_bonus, play, poker, settle, spare_hand, stake, turn_up, vying",
        f"{f}:8: flow: expected a 'settle' phase after 'play': without it nobody is paid at the "
        "end of a deal",
        f"{f}:9: colour: unknown key 'colour'; allowed top-level keys: name, extends, title, "
        "description, source, players, deck, layout, flow, rules, presets",
    ]


def test_bounds_and_a_misspelt_policy(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "club.yaml"
    f.write_text("name: club\nextends: boodle\nrules:\n  stake_unit: -3\n"
                 "  after_stop: must_chnge_suit\n", encoding="utf-8")
    code, lines = check(capsys, f)
    assert code == 1
    assert lines[0] == f"{f}:4: rules.stake_unit: expected a number >= 1, got -3"
    assert lines[1].startswith(f"{f}:5: rules.after_stop: unknown policy 'must_chnge_suit' "
                               "for after_stop (did you mean must_change_suit?)")


def test_duplicate_keys_are_an_error(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "dup.yaml"
    f.write_text("name: dup\nextends: boodle\nrules:\n  after_stop: any_suit\n"
                 "  after_stop: must_change_suit\n", encoding="utf-8")
    with pytest.raises(VariantError, match="duplicate key 'after_stop'"):
        stops.load_variant(str(f))
    code, lines = check(capsys, f)
    assert code == 1
    assert lines == [f"{f}:4: rules.after_stop: duplicate key 'after_stop': it is on line 4 "
                     "and again on line 5; keep one"]


def test_a_problem_in_a_parent_file_names_the_parent(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    (tmp_path / "base.yaml").write_text("name: base\nextends: boodle\nrules:\n"
                                        "  bet_limit: 0\n", encoding="utf-8")
    child = tmp_path / "child.yaml"
    child.write_text("name: child\nextends: base.yaml\n", encoding="utf-8")
    code, lines = check(capsys, child)
    assert code == 1
    assert lines == [f"{tmp_path / 'base.yaml'}:4: rules.bet_limit: expected a number >= 1, "
                     "got 0"]


# -- the schema and the loader agree --------------------------------------------------------

VALIDATOR = jsonschema.Draft202012Validator(variant_schema())
REGISTRY = default_registry()
BASES = {name: {k: v for k, v in load_raw(name)[0].items() if not k.startswith("__")}
         for name in stops.list_variants()}


def schema_ok(data: Any) -> bool:
    return VALIDATOR.is_valid(data)


def loader_ok(data: Any) -> bool:
    try:
        variant_from_mapping(copy.deepcopy(data), label="fuzz.yaml")
    except VariantError:
        return False
    return True


def loader_structure_ok(data: Any) -> bool:
    """What the loader accepts before its cross-field checks (the pack against the players,
    the order of phases, what a policy needs from the layout), which no JSON Schema states."""
    try:
        d = check_top(copy.deepcopy(data), "fuzz.yaml")
        spec = structure_spec(d, "fuzz.yaml")
    except VariantError:
        return False
    _, flat = split_rules(d)
    problems = _flat_problems(REGISTRY, flat, "fuzz.yaml")
    for slot in slot_names():
        _bind(REGISTRY, slot, getattr(spec.rules, slot), "fuzz.yaml", problems, flat, {})
    for name in spec.flow:
        ph = REGISTRY.phases.get(name)
        if ph is not None and ph.settings is not None:
            _settings(ph.settings, name, flat, "fuzz.yaml", problems)
    unknown_phase = any(p not in REGISTRY.phases for p in spec.flow)
    return not problems and not bound_problems(spec) and not unknown_phase


@pytest.mark.parametrize("name", sorted(BASES))
def test_every_builtin_passes_both(name: str) -> None:
    assert schema_ok(BASES[name]) and loader_ok(BASES[name])
    own = load_raw(name)[0]   # the file as written, extends and all
    assert VALIDATOR.is_valid({k: v for k, v in own.items() if not k.startswith("__")})


VALUES: list[Any] = [
    None, True, False, -3, -1, 0, 1, 2, 3, 5, 8, 12, 60, 2_000_000, "", " ", "x", "AH", "10h",
    "ah", "♧2", "T", "t", "pot", "kitty", "free", "deal", "settle", "must_change_suit",
    "any_suit", "per_card", "kitty_only", "same_suit", "pass_left", "each_space",
    [], ["AH"], ["AH", "KH"], [8, 9, 10], ["deal", "play"], {}, {"use": "free"},
    {"use": "free", "chips": 3}, {"use": "free", "chips": -1}, {"use": "deals", "count": 0},
    {"use": "nope"}, {"chips": 2}, {"min": 3, "max": 6}, {"remove": ["8D"]},
]
KEYS = ["name", "title", "players", "deck", "layout", "flow", "rules", "colour",
        "afterstop", *(f.name for f in __import__("attrs").fields(
            __import__("stops.rules.model", fromlist=["Rules"]).Rules))]


def _mutants(count: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    out = []
    names = sorted(BASES)
    for _ in range(count):
        data = copy.deepcopy(BASES[rng.choice(names)])
        for _ in range(rng.choice((1, 1, 2))):
            key = rng.choice(KEYS)
            value = copy.deepcopy(rng.choice(VALUES))
            where = rng.random()
            if key in BASES["boodle"] or key in ("colour", "deck"):
                if where < 0.15:
                    data.pop(key, None)
                else:
                    data[key] = value
            elif where < 0.2 and isinstance(data.get("layout"), list) and data["layout"]:
                space = rng.choice(data["layout"])
                space[rng.choice(["id", "kind", "card", "cards", "ranks", "label", "x"])] = value
            elif isinstance(data.get("rules"), dict):
                if where < 0.3:
                    data["rules"].pop(key, None)
                else:
                    data["rules"][key] = value
        out.append(data)
    return out


@pytest.mark.campaign
def test_fuzzed_files_get_the_same_verdict_from_both() -> None:
    disagree = []
    # the first mutants of the one seeded stream: a bigger profile only adds to them
    for data in _mutants(examples(1500), seed=14):
        s, structural, full = schema_ok(data), loader_structure_ok(data), loader_ok(data)
        if s != structural or (full and not s):
            disagree.append((s, structural, full, data))
    assert not disagree, disagree[:3]

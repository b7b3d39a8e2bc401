"""House rules as data: rules prose, schema, diff (issue: house rules as data)."""

from __future__ import annotations

import json
import typing
from pathlib import Path
from typing import Any

import attrs
import jsonschema
import pytest
import yaml

import stops
from stops.apps.cli import main
from stops.io.schema import schema_text, variant_schema
from stops.rules.diff import diff_lines, diff_text
from stops.rules.model import PolicyRef, Rules
from stops.rules.prose import rules_text

ROOT = Path(__file__).resolve().parents[2]
CONTEXTS = ["boodle", "three-in-one", "pot-and-kitty", "three-in-one-on-play",
            "boodle-change-suit", str(Path(__file__).parents[1] / "data" / "rotation.yaml"),
            "pope-joan", "spinado", "spinado-parlett", "nain-jaune", "comet", "newmarket",
            "tripoley", "tripoley-colours", "newmarket-peel", "poch",
            "play-or-pay", "spin", "epsom",
            "royal-rummy", "rummoli", "pink-nines"]
NEEDS = {("first_leader", "opening_card"): {"opening_cards": ["2H", "2C"]},
         ("successor", "rank_only"): {"turn_order": "rotation"},
         ("turn_order", "rotation"): {"after_stop": "any_card"},
         ("deal_shape", "table"): {"hand_sizes": {n: 52 // n - 1 for n in range(2, 9)}},
         ("going_out_reward", "comet"): {"wild_card": "comet"},
         # pot-and-kitty's 3 players cannot cover its 4 key cards without the dealer's extra
         ("cover_all", ""): {"dealer_extra": 1}}
"""Options a choice cannot load without."""
SINGLE_VALUED = {"auction_tie", "final_remainder"}


def _alternatives(field: attrs.Attribute[Any]) -> list[Any]:
    t = typing.get_type_hints(Rules)[field.name]
    default = field.default
    if isinstance(default, PolicyRef):
        names = stops.default_registry().policy_names(field.name)
        return [n for n in names if n != default.use] + (
            [{"use": default.use, **{k: v + 1 for k, v in default.params.items()}}]
            if default.params else [])
    if typing.get_origin(t) is typing.Literal:
        return [x for x in typing.get_args(t) if x != default]
    if isinstance(default, bool):
        return [not default]
    if isinstance(default, int):
        return [default + 2]
    if field.name == "opening_cards":
        return [["3S", "2D"]]
    return []


def _option_alternatives(owner: Any) -> list[Any]:
    reg = stops.default_registry()
    cls = (reg.policies[(owner.slot, owner.name)].params if owner.slot is not None
           else reg.phases[owner.name].settings)
    f = attrs.fields_dict(cls)[owner.field]
    t = typing.get_type_hints(cls)[owner.field]
    if typing.get_origin(t) is typing.Literal:
        return [x for x in typing.get_args(t) if x != f.default]
    if isinstance(f.default, bool):
        return [not f.default]
    if isinstance(f.default, int):
        return [f.default + 2]
    if owner.field == "cards":
        return [["3S", "2D"]]
    return []


def _cases() -> list[tuple[str, Any]]:
    out = []
    for f in attrs.fields(Rules):
        if f.name in SINGLE_VALUED:
            continue
        for alt in _alternatives(f):
            out.append((f.name, alt))
    for name, owners in stops.default_registry().options().items():
        if name in SINGLE_VALUED or name in {"alternation", "colour_alternation", "auction_tie",
                                             "split_remainder", "space", "run_space"}:
            continue  # single-valued, or naming a space (tested with its own layout)
        for alt in _option_alternatives(owners[0]):
            out.append((name, alt))
    return out


@pytest.mark.parametrize(("rule", "value"), _cases(), ids=lambda x: str(x))
def test_every_option_changes_the_rules_text(rule: str, value: Any) -> None:
    """For each rule and each alternative, some built-in where the rule is in effect prints
    different rules when the option is chosen."""
    tried = []
    for base in CONTEXTS:
        v = stops.load_variant(base)
        current = getattr(v.rules, rule, None)
        if str(getattr(current, "use", current)) == str(value):
            continue
        extra = NEEDS.get((rule, value if isinstance(value, str) else ""), {})
        try:
            changed = stops.load_variant(base, options={rule: value, **extra})
        except stops.VariantError:
            continue
        tried.append(base)
        if rules_text(changed) != rules_text(v):
            return
    pytest.fail(f"{rule}={value!r} did not change the rules text in {tried}")


def test_rules_text_covers_every_phase_of_every_builtin() -> None:
    for name in stops.list_variants():
        text = rules_text(stops.load_variant(name))
        for heading in ("Stakes", "The deal", "The play", "Claims", "End of the deal",
                        "End of the session"):
            assert heading in text, (name, heading)


def test_committed_schema_is_current_and_valid() -> None:
    committed = (ROOT / "variants" / "variant.schema.json").read_text(encoding="utf-8")
    assert committed == schema_text(), "run: stops schema -O variants/variant.schema.json"
    jsonschema.Draft202012Validator.check_schema(variant_schema())


@pytest.mark.parametrize("path", sorted((ROOT / "variants").glob("*.yaml")),
                         ids=lambda p: p.name)
def test_builtin_files_validate_and_name_the_schema(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=variant.schema.json")
    validator = jsonschema.Draft202012Validator(variant_schema())
    assert list(validator.iter_errors(yaml.safe_load(text))) == []


@pytest.mark.parametrize("broken", [
    {"name": "x", "extends": "boodle", "rules": {"after_stop": "sideways"}},
    {"name": "x", "extends": "boodle", "rules": {"stake_rule": {"use": "free", "chips": "4"}}},
    {"name": "x", "extends": "boodle", "rules": {"stake_rule": {"use": "free", "colour": 1}}},
    {"name": "x", "extends": "boodle", "rules": {"bet_limit": "ten"}},
    {"name": "x", "extends": "boodle", "colour": "red"},
    {"name": "x", "layout": [{"id": "AH", "kind": "card", "card": "AH"}], "flow": ["dance"]},
    {"name": "x", "layout": [{"id": "AH", "kind": "card", "card": "1Z"}], "flow": ["play"]},
    {"name": "x"},
])
def test_schema_rejects_broken_files(broken: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(variant_schema())
    assert list(validator.iter_errors(broken))


def test_schema_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "stops variant file"
    out = tmp_path / "s.json"
    assert main(["schema", "-O", str(out)]) == 0
    assert json.loads(out.read_text())["then"]["required"] == ["name", "layout", "flow"]


def test_diff_lists_exactly_the_changed_rules(capsys: pytest.CaptureFixture[str]) -> None:
    a = stops.load_variant("boodle")
    b = stops.load_variant("boodle-change-suit-pass")
    lines = diff_lines(a, b)
    # the fallback is a parameter of must_change_suit: one difference, shown with it
    assert [x.split(" ")[0] for x in lines] == ["after_stop"]
    assert "after a stop the next lead must be of another suit" in lines[0]
    assert "fallback: pass_left" in lines[0]
    assert "passes the lead to the left" in lines[0]
    assert diff_text(a, a) == "boodle and boodle have the same rules.\n"
    assert main(["diff", "boodle", "pot-and-kitty-four-kings"]) == 1   # they differ
    out = capsys.readouterr().out
    assert "layout: only pot-and-kitty-four-kings has KS (paid by KS)" in out
    assert "going_out_reward" in out


def test_diff_of_layouts_and_flows() -> None:
    lines = diff_lines(stops.load_variant("three-in-one"),
                       stops.load_variant("three-in-one-on-play"))
    assert lines[0].startswith("phases: three-in-one stake → deal → spare_hand → claim_held")
    assert any(x.startswith("pay_collection") for x in lines)


def test_stakes_on_a_space_that_does_not_exist_are_reported(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    f = tmp_path / "club.yaml"
    f.write_text("name: club\nextends: boodle\n"
                 "rules:\n  stake_rule: {use: free, chips: 3, spaces: [AH, KH]}\n")
    assert main(["check", str(f)]) == 1
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"{f}:4: rules.stake_rule: stakes on 'KH', which is not a layout")
    assert "expected some of: AH, KC, QD, JS" in line


def test_stakes_limited_to_named_spaces() -> None:
    v = stops.load_variant("boodle", options={
        "stake_rule": {"use": "dealer_two_others_one", "spaces": ["AH", "JS"]}})
    deal = stops.Table(v, seats=3, chips=20, seed=1).new_deal()
    assert deal.layout == {"AH": 4, "KC": 0, "QD": 0, "JS": 4}
    assert "on AH, JS" in rules_text(v)


def test_variations_combine() -> None:
    """Free stakes with the spare auction: both rules at once, and the result conforms."""
    from stops.testing import check_variant

    v = stops.load_variant("boodle-free-stakes", options={
        "spare_protocol": "dealer_options", "spare_sell_old_hand": False})
    deal = stops.Table(v, seats=3, chips=20, seed=4).new_deal()
    assert deal.phase == "stake"
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])
    assert deal.phase == "spare_hand"
    assert {a.action for a in deal.legal_actions()} == {"keep", "swap", "auction"}
    check_variant(v, seats=[3, 5], deals=2, leak_samples=2)


def test_presets_are_options_that_change_whole_parts(tmp_path: Path) -> None:
    """pot-and-kitty's `four-kings` preset (the four-kings option)."""
    plain = stops.load_variant("pot-and-kitty")
    kings = stops.load_variant("pot-and-kitty", options={"four-kings": True})
    assert plain.space_ids == ("KH", "QC", "JD", "TS", "pot", "kitty")
    assert kings.space_ids == ("KH", "KC", "KD", "KS", "pot", "kitty")
    assert kings.space_ids == stops.load_variant("pot-and-kitty-four-kings").space_ids
    assert stops.load_variant("pot-and-kitty", options={"four-kings": False}).space_ids == \
        plain.space_ids
    # a record of a deal played with the preset replays with it
    table = stops.Table("pot-and-kitty", seats=3, seed=2, options={"four-kings": True})
    deal = table.new_deal()
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])
    assert stops.replay(deal.record()).variant.space_ids == kings.space_ids
    with pytest.raises(stops.VariantError, match="takes true or false"):
        stops.load_variant("pot-and-kitty", options={"four-kings": "yes"})
    # a broken preset is refused at load, even when nobody switches it on
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nextends: boodle\npresets:\n  odd:\n"
                   "    rules: {after_stop: sideways}\n")
    with pytest.raises(stops.VariantError) as info:
        stops.load_variant(bad)
    assert info.value.problems[0][1] == "presets.odd -> rules.after_stop"
    worse = tmp_path / "worse.yaml"
    worse.write_text("name: worse\nextends: boodle\npresets:\n  odd: {name: other}\n")
    with pytest.raises(stops.VariantError, match=r"presets\.odd\.name"):
        stops.load_variant(worse)

"""Issue 11: every rule has one home; the engine core names no game.

Hand-written expectations: the flat (old) and inline (new) forms of a policy parameter load
to the same parameters; between the two, the one set later in the chain of files wins;
phase results travel through ``deal.publish`` / ``deal.result``; the ledger tracks
contributions only when a rule needs them.
"""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path
from typing import Any

import pytest

import stops
from stacking import poker_winners
from stops.engine.eventkind import EventKind
from stops.phases.poker import PokerResult
from stops.policies.leads import ChangeSuitParams, ColourParams
from stops.rules.checks import hint_lines, static_problems
from stops.rules.contracts import AFTER_STOP, SLOTS
from stops.rules.variant import variant_from_mapping

ROOT = Path(__file__).resolve().parents[1]
ENGINE = ROOT / "src" / "stops" / "engine"


def _file(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


# -- one home per policy: parameters, flat aliases, precedence -----------------------------

def test_flat_and_inline_forms_give_the_same_parameters(tmp_path: Path) -> None:
    flat = _file(tmp_path, "flat.yaml", "name: flat\nextends: boodle\nrules:\n"
                 "  after_stop: must_change_suit\n  change_suit_fallback: pass_left\n"
                 "  pass_lead_keeps_forbidden_suit: false\n")
    inline = _file(tmp_path, "inline.yaml", "name: inline\nextends: boodle\nrules:\n"
                   "  after_stop: {use: must_change_suit, fallback: pass_left,"
                   " passed_lead_keeps_suit: false}\n")
    want = ChangeSuitParams(fallback="pass_left", passed_lead_keeps_suit=False)
    assert stops.load_variant(flat).policy(AFTER_STOP).params == want
    assert stops.load_variant(inline).policy(AFTER_STOP).params == want


def test_a_later_flat_rule_overrides_an_earlier_inline_parameter(tmp_path: Path) -> None:
    # pot-and-kitty says inline switch_card: lowest_of_colour; a child file says it flat
    child = _file(tmp_path, "child.yaml", "name: child\nextends: pot-and-kitty\nrules:\n"
                  "  switch_card: lowest_in_chosen_suit\n")
    assert stops.load_variant(child).policy(AFTER_STOP).params.switch_card == \
        "lowest_in_chosen_suit"
    # an option is later than every file
    v = stops.load_variant("pot-and-kitty", options={"colour_tie": "suit_order_HCDS"})
    assert v.policy(AFTER_STOP).params == ColourParams(colour_tie="suit_order_HCDS")
    # in one file, inline beats flat
    both = _file(tmp_path, "both.yaml", "name: both\nextends: pot-and-kitty\nrules:\n"
                 "  switch_card: lowest_in_chosen_suit\n"
                 "  after_stop: {use: opposite_colour, switch_card: lowest_of_colour}\n")
    assert stops.load_variant(both).policy(AFTER_STOP).params.switch_card == "lowest_of_colour"


def test_a_flat_rule_waits_for_the_policy_that_has_it(tmp_path: Path) -> None:
    # change_suit_fallback set while after_stop is any_suit takes effect once a child file
    # switches to must_change_suit
    base = _file(tmp_path, "base.yaml", "name: base\nextends: boodle\nrules:\n"
                 "  change_suit_fallback: pass_left\n")
    child = _file(tmp_path, "child.yaml", "name: child\nextends: base.yaml\nrules:\n"
                  "  after_stop: must_change_suit\n")
    assert stops.load_variant(child).policy(AFTER_STOP).params.fallback == "pass_left"
    hints = hint_lines(base)
    assert len(hints) == 1 and "has no effect here" in hints[0]


def test_stops_check_suggests_the_inline_form(tmp_path: Path) -> None:
    f = _file(tmp_path, "f.yaml", "name: f\nextends: boodle\nrules:\n"
              "  after_stop: must_change_suit\n  change_suit_fallback: pass_left\n")
    assert hint_lines(f) == [
        f"{f}:5: rules.change_suit_fallback: this is a parameter of after_stop must_change_suit; "
        "you may write it as after_stop: {use: must_change_suit, fallback: pass_left}"]
    for name in stops.list_variants():
        assert hint_lines(ROOT / "variants" / f"{name}.yaml") == [], name


@pytest.mark.parametrize(("rules", "path", "words"), [
    ({"change_suit_fallbak": "pass_left"}, "rules.change_suit_fallbak", "unknown key"),
    ({"change_suit_fallback": "sideways"}, "rules.change_suit_fallback", "sideways"),
    ({"exchange_fee": -1}, "rules.exchange_fee", ">= 0"),
    ({"after_stop": {"use": "must_change_suit", "fallback": 3}}, "rules.after_stop", ""),
])
def test_bad_parameters_name_their_key(rules: dict[str, Any], path: str, words: str) -> None:
    with pytest.raises(stops.VariantError) as e:
        variant_from_mapping({"name": "x", "extends": "boodle", "rules": rules})
    problems = e.value.problems
    assert any(p.startswith(path) and words in m for _, p, m in problems), problems


def test_every_slot_has_a_protocol_and_its_policies_their_text() -> None:
    reg = stops.default_registry()
    assert [s.name for s in SLOTS] == list(reg.slots)
    # these have nothing to tell the players with their defaults: no card goes down with
    # another, none is wild, runs win nothing, an empty stake pattern stakes nothing, and a
    # failed lead costs nothing (the lead rule itself says the lead passes to the left)
    silent = {("companion", "none"), ("wild_card", "none"), ("run_rule", "none"),
              ("stake_rule", "pattern"), ("failed_lead", "pass_left")}
    for (slot, name), spec in reg.policies.items():
        params = spec.params() if spec.params is not None else None
        assert spec.text is not None, (slot, name)
        assert bool(spec.text(params)) == ((slot, name) not in silent), (slot, name)
        assert spec.pays is not None or slot not in (
            "pay_collection", "run_rule", "going_out_reward", "block_outcome"), (slot, name)


def test_poker_settings_belong_to_the_poker_phase() -> None:
    v = stops.load_variant("three-in-one", options={"bet_limit": 4, "poker_hand_size": 6})
    s = v.settings("poker")
    assert (s.bet_limit, s.hand_size, s.selection) == (4, 6, "free")
    assert not hasattr(v.rules, "bet_limit")
    assert stops.load_variant("boodle").settings("poker") is None


# -- typed channel, ledger contributions ----------------------------------------------------

def test_phase_results_travel_by_type() -> None:
    t = stops.Table("three-in-one", seats=4, chips=50, seed=3)
    d = t.new_deal()
    assert d.result(PokerResult) is None
    while d.phase != "play" and not d.is_terminal:
        d.apply(d.legal_actions()[0])
    got = d.result(PokerResult)
    assert got is not None and got.winners == poker_winners(d) and got.winners
    assert d.result(int) is None  # nothing of that type was published


def test_contributions_are_tracked_only_when_a_rule_needs_them() -> None:
    plain = stops.Table("pot-and-kitty", seats=3, chips=20, seed=1).new_deal()
    assert plain.ledger.contributed is None
    t = stops.Table("pot-and-kitty", seats=3, chips=20, seed=1,
                    options={"final_share": "refund_by_contribution"})
    d = t.new_deal()
    while d.phase == "stake":
        d.apply(d.legal_actions()[0])
    # every seat staked a key card, the pot and the kitty: one chip each
    contributed = d.ledger.contributed
    assert contributed is not None
    assert contributed["pot"] == [1, 1, 1] and contributed["kitty"] == [1, 1, 1]
    assert sum(sum(row) for row in contributed.values()) == 9


# -- typed events ---------------------------------------------------------------------------

def test_events_carry_typed_kinds_and_keep_their_json_form() -> None:
    t = stops.Table("three-in-one", seats=4, chips=50, seed=5)
    d = t.new_deal()
    while not d.is_terminal:
        d.apply(d.legal_actions()[0])
    for e in d.events:
        assert isinstance(e.kind, EventKind)
        assert e.to_dict()["kind"] == e.kind.value and type(e.to_dict()["kind"]) is str
    assert any(e.kind is EventKind.SHOWDOWN or e.kind is EventKind.CLAIMED for e in d.events)
    assert d.events[0].kind == "deal_started"  # plain strings still compare equal


# -- the engine names no game, stage or space kind ------------------------------------------

FORBIDDEN = ("boodle", "michigan", "newmarket", "three-in-one", "pope", "joan", "nain",
             "jaune", "spinado", "comet", "tripoley", "poker", "stage", "kitty", "pot",
             "suit_run", "combo", "trump", "matrimony", "intrigue", "horse")


def _code_words(path: Path) -> list[tuple[int, str]]:
    """Every name and string literal of a module's code (docstrings and comments excluded)."""
    source = path.read_text(encoding="utf-8")
    docstrings = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(first.lineno)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            docstrings.add(node.lineno)  # attribute docstrings
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in (tokenize.NAME, tokenize.STRING) and tok.start[0] not in docstrings:
            out.append((tok.start[0], tok.string.lower()))
    return out


def test_the_engine_core_names_no_game_stage_or_space_kind() -> None:
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        for line, word in _code_words(path):
            for bad in FORBIDDEN:
                if bad in word.replace('"', " ").replace("'", " ").split() or \
                        word == bad or word.startswith(bad + "_") or word.endswith("_" + bad):
                    found.append(f"{path.name}:{line}: {word}")
    assert found == []


def test_static_checks_give_no_false_warning_for_a_plugin_claim() -> None:
    from stops.policies.claims import ClaimPolicy

    reg = stops.default_registry().copy()
    reg.register_policy("pay_collection", "mystery")(ClaimPolicy())  # declares nothing paid
    v = stops.load_variant("boodle", options={"pay_collection": "mystery"}, registry=reg)
    assert static_problems(v) == []
    none = stops.load_variant("boodle", options={"pay_collection": "none"})
    assert [p for p, _ in static_problems(none)] == [f"layout[{i}]" for i in range(4)]

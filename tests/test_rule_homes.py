"""Issue 11: every rule has one home; the engine core names no game.

Hand-written expectations: the flat (old) and inline (new) forms of a policy parameter load
to the same parameters; between the two, the one set later in the chain of files wins;
phase results travel through ``deal.publish`` / ``deal.result``; the ledger tracks
contributions only when a rule needs them.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

import stops
from stacking import poker_winners
from stops.engine.eventkind import EventKind
from stops.engine.vocabulary import EVENT_TYPES
from stops.phases.poker import SHOWDOWN, PokerResult
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
    # the engine's own kinds are EventKind members; a phase's are its registered strings
    for e in d.events:
        assert e.kind in EVENT_TYPES
        assert isinstance(e.kind, EventKind) == (e.kind in EventKind.__members__.values())
        assert e.to_dict()["kind"] == e.kind and type(e.to_dict()["kind"]) is str
    assert any(e.kind is SHOWDOWN or e.kind is EventKind.CLAIMED for e in d.events)
    assert d.events[0].kind == "deal_started"  # plain strings still compare equal


# -- the engine imports no higher layer; only phases and games import the poker -------------
# The guards ban imports, not words: a docstring may well say "poker" to explain why, and a
# word in the code is no dependency; an import is. lint-imports checks the layers too (with
# the type-only imports it lets through named in pyproject.toml); these guards say it in the
# terms of issue 11 and also see imports made inside functions.

HIGHER = ("stops.rules", "stops.policies", "stops.phases", "stops.games", "stops.builtins",
          "stops.io", "stops.interop", "stops.apps", "stops.testing")
"""Every layer above the engine."""

ENGINE_TYPE_ONLY = {
    ("table.py", "stops.rules.variant"), ("deal.py", "stops.rules.variant"),
    ("recording.py", "stops.rules.variant"), ("saving.py", "stops.rules.registry"),
}
"""Type-only imports (under ``if TYPE_CHECKING:``) of the rules layer: the engine annotates
the variant and registry it is handed (pyproject.toml's layers contract names them too)."""

GAME_WORDS = ("poker", "auction", "bid", "showdown")

GAME_IMPORTERS = {
    "builtins.py": "installs every built-in phase and game: it lists their modules",
    "apps/simulate.py": "tallies the poker phase's PokerResult for `stops simulate`",
    "apps/terminal.py": "shows the bet to call and the hand chosen, from the poker phase's "
                        "PokerState (deal.peek_state)",
}
"""Modules outside phases/ and games/ allowed to import a game's vocabulary, and why."""


def _imports(source: str) -> list[tuple[int, str, bool]]:
    """``(line, dotted name, type-only)`` for every module and name a source imports, at any
    depth (imports inside functions too)."""
    tree = ast.parse(source)
    type_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            type_only.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name, id(node) in type_only) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append((node.lineno, node.module, id(node) in type_only))
            out += [(node.lineno, f"{node.module}.{a.name}", id(node) in type_only)
                    for a in node.names]
    return out


def _words(dotted: str) -> set[str]:
    """The words of a dotted name: by dots, underscores and capitals (``PokerResult``)."""
    spaced = "".join(f" {ch}" if ch.isupper() else ch for ch in dotted.replace(".", " ")
                     .replace("_", " "))
    return set(spaced.lower().split())


def _engine_violations(name: str, source: str) -> list[str]:
    return [f"{name}:{line}: {mod}" for line, mod, type_only in _imports(source)
            if mod.startswith(HIGHER) and not (type_only and any(
                name == n and (mod == m or mod.startswith(m + ".")) for n, m in ENGINE_TYPE_ONLY))]


def _game_word_violations(name: str, source: str) -> list[str]:
    return [f"{name}:{line}: {mod}" for line, mod, _ in _imports(source)
            if _words(mod) & set(GAME_WORDS)]


def test_the_engine_imports_no_higher_layer() -> None:
    found = []
    for path in sorted(ENGINE.glob("*.py")):
        found += _engine_violations(path.name, path.read_text(encoding="utf-8"))
    assert found == []


def test_only_phases_and_games_import_a_games_vocabulary() -> None:
    src = ENGINE.parent
    found = []
    for path in sorted(src.rglob("*.py")):
        rel = path.relative_to(src).as_posix()
        if rel.startswith(("phases/", "games/")) or rel in GAME_IMPORTERS:
            continue
        found += _game_word_violations(rel, path.read_text(encoding="utf-8"))
    assert found == []


def test_the_import_guards_can_fail() -> None:
    # a run-time import of the rules layer, and one inside a function, are refused; the
    # listed type-only import is not, but the same import at run time is
    source = ("from typing import TYPE_CHECKING\nfrom stops.engine.cards import CARDS\n"
              "if TYPE_CHECKING:\n    from stops.rules.variant import Variant\n"
              "def f():\n    from stops.policies import claims\n")
    assert _engine_violations("deal.py", source) == [
        "deal.py:6: stops.policies", "deal.py:6: stops.policies.claims"]
    assert _engine_violations("cards.py", source) == [
        "cards.py:4: stops.rules.variant", "cards.py:4: stops.rules.variant.Variant",
        "cards.py:6: stops.policies", "cards.py:6: stops.policies.claims"]
    # a game's word as a word of an imported name, not inside another word (forbidden)
    assert _game_word_violations("x.py", "from stops.phases.poker import PokerResult\n"
                                 "from a import ForbiddenError, bid_of\n") == [
        "x.py:1: stops.phases.poker", "x.py:1: stops.phases.poker.PokerResult",
        "x.py:2: a.bid_of"]


def test_static_checks_give_no_false_warning_for_a_plugin_claim() -> None:
    from stops.policies.claims import ClaimPolicy

    reg = stops.default_registry().copy()
    reg.register_policy("pay_collection", "mystery")(ClaimPolicy())  # declares nothing paid
    v = stops.load_variant("boodle", options={"pay_collection": "mystery"}, registry=reg)
    assert static_problems(v) == []
    none = stops.load_variant("boodle", options={"pay_collection": "none"})
    assert [p for p, _ in static_problems(none)] == [f"layout[{i}]" for i in range(4)]

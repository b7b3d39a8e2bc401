"""What the two builds (pure Python and ``STOPS_COMPILE=1``) must agree on.

CI runs the whole suite against the pure build and the tests of the compiled modules
(``tests/tiers.py``, this file among them) against the compiled one. These tests pin the
pieces written with the compiled build in mind: the hand-written ``Action``, docstrings read
from source, ``explain=`` on ``after_stop`` policies, the deal states' copy and equality,
and the map of the tests the compiled pass runs.
"""

from __future__ import annotations

import copy
import pickle
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import stops
from stops import Action, IllegalAction, parse_card
from stops.engine.rng import Rng
from stops.phases.play import PlayState
from stops.phases.poker import PokerState
from stops.phases.spare import SpareState
from stops.rules.registry import doc_of


def test_compiled_flag_is_a_bool() -> None:
    assert isinstance(stops.COMPILED, bool)


def test_action_is_a_value() -> None:
    a = Action(1, "lead", card=parse_card("7H"))
    b = Action(1, "lead", card=parse_card("7H"))
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Action(2, "lead", card=parse_card("7H"))
    assert a != Action(1, "lead", card=parse_card("8H"))
    assert a != "lead 7H" and (a == "lead 7H") is False
    assert {a: 1}[b] == 1
    assert repr(a) == ("Action(seat=1, action='lead', card=Card('7H'), chips=None, "
                       "space=None, cards=None)")
    assert str(Action(0, "stake", chips=2, space="AH")) == "seat 0 stake AH 2"


def test_action_is_immutable_and_copies_to_itself() -> None:
    a = Action(0, "bid", chips=3)
    with pytest.raises(AttributeError):
        a.chips = 4  # type: ignore[misc]
    assert copy.copy(a) is a and copy.deepcopy(a) is a
    back = pickle.loads(pickle.dumps(a))
    assert back == a and back.chips == 3 and back.action == "bid"


def test_action_match_args() -> None:
    match Action(2, "raise", chips=5):
        case Action(seat, "raise", chips=chips):
            assert (seat, chips) == (2, 5)
        case _:  # pragma: no cover
            pytest.fail("Action did not match its own pattern")


def test_doc_of_reads_the_source_when_the_docstring_is_gone(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    # what the compiled build looks like to the registry: objects with no __doc__
    (tmp_path / "nodoc_mod.py").write_text(textwrap.dedent('''
        def rule(deal, seat, params):
            """Lead anything.

            Really anything."""
            return []


        class Proto:
            """A protocol object."""
    '''))
    monkeypatch.syspath_prepend(str(tmp_path))
    import nodoc_mod

    try:
        nodoc_mod.rule.__doc__ = None
        nodoc_mod.Proto.__doc__ = None
        assert doc_of(nodoc_mod.rule) == "Lead anything.\n\n    Really anything."
        assert doc_of(nodoc_mod.Proto()) == "A protocol object."
        assert doc_of(nodoc_mod.Proto) == "A protocol object."
    finally:
        sys.modules.pop("nodoc_mod", None)


def test_builtin_docs_are_present_in_either_build() -> None:
    reg = stops.default_registry()
    assert reg.phases["stake"].doc.startswith("Places every seat's fixed stakes")
    assert reg.policy("spare_protocol", "dealer_options").doc.startswith("The dealer's options")
    assert reg.policy("after_stop", "any_suit").doc.startswith("The lowest card")


def _hearts_first(deal: stops.Deal, seat: int, broken: int | None, params: Any) -> list[int]:
    """The lowest heart if the leader holds one; otherwise the lowest card of any suit."""
    masks = deal.masks[seat]
    suits = [2] if masks[2] else [0, 1, 2, 3]
    return [s * 13 + (masks[s] & -masks[s]).bit_length() - 1 for s in suits if masks[s]]


def _hearts_first_why(deal: stops.Deal, seat: int, card: int, broken: int | None,
                      allowed: list[int]) -> IllegalAction | None:
    return IllegalAction("hearts_first", "lead your lowest heart", rule="hearts first")


def test_after_stop_explain_is_used_for_a_refused_lead() -> None:
    # declared with the register_policy keyword (issue 20: no function attributes)
    reg = stops.default_registry().copy()
    reg.register_policy("after_stop", "hearts_first", explain=_hearts_first_why)(_hearts_first)
    v = stops.load_variant("boodle", options={"after_stop": "hearts_first"}, registry=reg)
    rng = Rng(3)
    for seed in range(50):
        table = stops.Table(v, seats=4, chips=100, seed=seed)
        deal = table.new_deal()
        while deal.to_act is not None:
            seat = deal.to_act
            legal = deal.legal_actions()
            play = deal.peek_state(PlayState)
            if deal.masks[seat][2] and deal.phase == "play" and play is not None and \
                    play.opening is None:
                others = [c for s in (0, 1, 3) if (m := deal.masks[seat][s])
                          for c in [s * 13 + (m & -m).bit_length() - 1]]
                if others:
                    before = len(deal.events)
                    with pytest.raises(IllegalAction) as err:
                        deal.apply(Action(seat, "lead", card=stops.CARDS[others[0]]))
                    assert err.value.code == "hearts_first"
                    assert len(deal.events) == before
                    return
            deal.apply(legal[rng.below(len(legal))])
    pytest.fail("no refused lead was tried")  # pragma: no cover


def test_deal_states_copy_deeply_and_compare_by_value() -> None:
    p = PokerState([1, 2, 3])
    p.hands[1] = (1, 2, 3, 4, 5)
    p.need.add(2)
    q = p.copy()
    assert q == p and q is not p
    q.need.add(3)
    q.hands[2] = (6, 7, 8, 9, 10)
    assert q != p and p.need == {2} and 2 not in p.hands
    s = SpareState()
    s.bids[1] = 4
    t = s.copy()
    assert t == s
    t.bids[2] = 5
    assert t != s and s.bids == {1: 4}
    assert "PokerState" in repr(p) and "SpareState" in repr(s)


def _compiled_modules(root: Path) -> list[str]:
    """``hatch_build.COMPILED``, read from the file (hatchling need not be installed)."""
    import ast

    tree = ast.parse((root / "hatch_build.py").read_text(encoding="utf-8"))
    return list(next(ast.literal_eval(node.value) for node in tree.body
                     if isinstance(node, ast.Assign)
                     and any(isinstance(t, ast.Name) and t.id == "COMPILED"
                             for t in node.targets)))


def test_the_compiled_pass_covers_every_compiled_module() -> None:
    """CI's compiled pass runs the tests ``tiers.COMPILED_TESTS`` names, module by module: a
    module added to ``hatch_build.COMPILED`` without tests there would never be tested
    compiled, and a renamed test file would silently drop out of the pass."""
    import ast

    from tiers import COMPILED_PASS, COMPILED_TESTS

    root = Path(__file__).resolve().parent.parent
    compiled = _compiled_modules(root)
    assert sorted(COMPILED_TESTS) == sorted(compiled)
    assert all(COMPILED_TESTS.values())
    for entry in sorted(COMPILED_PASS):
        path, _, name = entry.partition("::")
        source = root / "tests" / path
        assert source.is_file(), f"{entry}: no such test file"
        if name:
            tests = {node.name for node in ast.parse(source.read_text(encoding="utf-8")).body
                     if isinstance(node, ast.FunctionDef)}
            assert name in tests, f"{entry}: no such test"


def test_the_compiled_build_binds_its_own_calls_directly(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """The compiled build's C flags: ``-fno-semantic-interposition`` after the caller's own
    ``CFLAGS`` (calls between compiled functions bound directly), never on Windows, and left
    out on request; ``-O3`` unless ``MYPYC_OPT_LEVEL`` says otherwise."""
    import importlib.util
    import types

    hooks = types.ModuleType("hatchling.builders.hooks.plugin.interface")
    hooks.BuildHookInterface = object  # type: ignore[attr-defined]
    for name in ("hatchling", "hatchling.builders", "hatchling.builders.hooks",
                 "hatchling.builders.hooks.plugin"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(sys.modules, hooks.__name__, hooks)
    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("hatch_build_under_test",
                                                  root / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hb = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hb)
    env = hb.compile_env({"PATH": "/bin"}, "linux")
    assert env["CFLAGS"] == "-fno-semantic-interposition" and env["MYPYC_OPT_LEVEL"] == "3"
    env = hb.compile_env({"CFLAGS": "-g0 ", "MYPYC_OPT_LEVEL": "2"}, "darwin")
    assert env["CFLAGS"] == "-g0 -fno-semantic-interposition" and env["MYPYC_OPT_LEVEL"] == "2"
    assert "CFLAGS" not in hb.compile_env({}, "win32")
    assert "CFLAGS" not in hb.compile_env({"STOPS_NO_EXTRA_CFLAGS": "1"}, "linux")


def test_compiled_modules_write_an_items_update_out() -> None:
    """mypyc compiles ``a[i] |= b`` on a list or dict of ints as a generic in-place call on
    boxed objects, ``a[i] = a[i] | b`` natively (docs/performance.md, "Idioms the compiled
    build needs"): the modules in ``hatch_build.COMPILED`` write an item's update out."""
    import ast

    root = Path(__file__).resolve().parent.parent
    compiled = _compiled_modules(root)
    found = [f"{module}:{node.lineno}: {ast.unparse(node)}"
             for module in compiled
             for node in ast.walk(ast.parse((root / "src" / module).read_text(encoding="utf-8")))
             if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Subscript)]
    assert not found, "\n".join(found)

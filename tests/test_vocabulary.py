"""The open vocabulary (issue 20): verbs and event kinds are registered by the phase that owns
them (``register_phase(verbs=..., events=...)``), and everything that reads decisions or
events reads the tables: ``Action`` validation, records, narration, the docs.

The plug-in of ``examples/plugin_decision.py`` (Boodle with a card shown) adds a phase with a
decision of its own, ``declare`` with one ``card``, and an event ``declared``. Its rule: after
the deal, before the first lead, each player in turn from the dealer's left shows the table
one card of their hand; the card stays in the hand.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import stops
from stops import Action, IllegalAction, parse_card
from stops.engine import vocabulary as vocab
from stops.engine.eventkind import EventKind
from stops.engine.vocabulary import EVENT_TYPES, VERBS, EventType, Verb
from stops.phases.base import Phase
from stops.phases.poker import SHOWDOWN
from stops.rules.registry import RegistryError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


plugin = _load("plugin_decision")
SHOW_CARD_YAML = EXAMPLES / "boodle-show-card.yaml"


@pytest.fixture
def clean_tables() -> Iterator[None]:
    """The global tables as they were before the test (a test's own verbs leave no trace)."""
    saved = (dict(VERBS), dict(EVENT_TYPES), dict(vocab._VERB_OWNER),
             dict(vocab._EVENT_OWNER), set(vocab.SHOWS), set(vocab.SWAPS_SPARE),
             set(vocab.IN_ACCOUNT))
    yield
    for table, old in zip((VERBS, EVENT_TYPES, vocab._VERB_OWNER, vocab._EVENT_OWNER,
                           vocab.SHOWS, vocab.SWAPS_SPARE, vocab.IN_ACCOUNT), saved,
                          strict=True):
        table.clear()
        table.update(old)  # type: ignore[attr-defined]


class _Idle(Phase):
    """A phase that offers nothing (the registrations below are what is tested)."""

    name = "idle"


# -- the tables -------------------------------------------------------------------------------

def test_the_engine_and_the_phases_own_their_verbs_and_kinds() -> None:
    stops.default_registry()
    assert {v: vocab.owner_of_verb(v) for v in ("stake", "lead", "play", "follow", "pass")} \
        == dict.fromkeys(("stake", "lead", "play", "follow", "pass"), "engine")
    assert {v: vocab.owner_of_verb(v) for v in ("keep", "swap", "auction", "bid")} == \
        dict.fromkeys(("keep", "swap", "auction", "bid"), "spare_hand")
    assert {v: vocab.owner_of_verb(v) for v in ("select", "check", "call", "fold", "bet",
                                                "raise")} == dict.fromkeys(
        ("select", "check", "call", "fold", "bet", "raise"), "poker")
    assert vocab.owner_of_event("showdown") == "poker"
    assert vocab.owner_of_event("spare_swapped") == "spare_hand"
    assert vocab.owner_of_event("led") == "engine"
    # the engine's own kinds stay EventKind members; the phases' are plain strings
    assert {k.value for k in EventKind} == {k for k, o in vocab._EVENT_OWNER.items()
                                           if o == "engine"}
    assert not hasattr(EventKind, "SHOWDOWN")


def test_old_kind_names_still_compare_as_strings() -> None:
    deal = stops.Table("three-in-one", seats=4, chips=50, seed=5).new_deal()
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])
    kinds = [e.kind for e in deal.events]
    assert "kept" in kinds or "spare_swapped" in kinds or "sold" in kinds
    shown = [e for e in deal.events if e.kind == "showdown"]
    assert shown and all(e.kind is SHOWDOWN for e in shown)
    assert all(e.to_dict()["kind"] == e.kind for e in deal.events)


def test_a_name_another_owner_registered_differently_is_refused(clean_tables: None) -> None:
    reg = stops.default_registry().copy()
    before = (VERBS["bid"], dict(VERBS), dict(EVENT_TYPES))
    # another phase's ``bid`` with other fields: refused, naming the owner; nothing added
    with pytest.raises(RegistryError, match="'bid' is already registered by 'spare_hand'"):
        reg.register_phase("rival", verbs=(Verb("tender"), Verb("bid", ("card",))))(_Idle)
    # all or nothing: a good verb with a clashing event kind adds neither
    with pytest.raises(RegistryError, match="event kind 'showdown'"):
        reg.register_phase("rival", verbs=(Verb("tender"),),
                           events=(EventType("showdown", "a clash"),))(_Idle)
    assert "rival" not in reg.phases
    assert (VERBS["bid"], dict(VERBS), dict(EVENT_TYPES)) == before
    # one name twice, differently, in one registration
    with pytest.raises(ValueError, match="given twice"):
        vocab.register_verbs(Verb("tender"), Verb("tender", ("chips",)), owner="rival")


def test_the_same_spec_again_is_harmless_and_an_owner_may_replace_its_own(
        clean_tables: None) -> None:
    reg = stops.default_registry().copy()
    # another phase that offers the engine's ``pass`` and the poker phase's ``fold`` lists
    # the very specs: no clash, and its PhaseSpec records them
    fold = VERBS["fold"]
    reg.register_phase("sharer", verbs=(vocab.PASS, fold))(_Idle)
    assert reg.phases["sharer"].verbs == (vocab.PASS, fold)
    assert vocab.owner_of_verb("fold") == "poker"
    # an owner registering its own name again (a reloaded module) replaces it
    vocab.register_verbs(Verb("tender", doc="first"), owner="mine")
    vocab.register_verbs(Verb("tender", doc="second"), owner="mine")
    assert VERBS["tender"].doc == "second"


def test_a_verb_spec_names_only_decision_fields() -> None:
    with pytest.raises(ValueError, match="among card, cards, chips, space, as_rank"):
        Verb("paint", ("colour",))
    with pytest.raises(ValueError, match="must be among its fields"):
        Verb("paint", ("card",), optional=("chips",))
    with pytest.raises(ValueError, match="one_of names two fields"):
        Verb("paint", ("card",), one_of=("card",))
    with pytest.raises(ValueError, match="lower-case word"):
        Verb("seat")
    with pytest.raises(ValueError, match="lower-case word"):
        EventType("not a word", "doc")


def test_an_unknown_verb_is_refused_naming_the_registered_ones() -> None:
    with pytest.raises(IllegalAction) as e:
        Action.from_dict({"seat": 0, "action": "frob"})
    msg = e.value.message
    assert msg.startswith("unknown action 'frob'; expected one of stake, lead, play, follow, "
                          "pass")
    for verb in ("keep", "bid", "select", "raise"):
        assert verb in msg
    with pytest.raises(IllegalAction, match="expected one of stake, lead"):
        Action(0, "frob")


def test_a_decisions_fields_are_checked_against_its_verb(clean_tables: None) -> None:
    vocab.register_verbs(Verb("tender", ("chips", "space"), optional=("space",)), owner="t")
    ok = Action.from_dict({"seat": 1, "action": "tender", "chips": 3})
    assert (ok.chips, ok.space) == (3, None)
    cases = [
        ({"seat": 1, "action": "tender"}, "tender: missing field 'chips'"),
        ({"seat": 1, "action": "tender", "chips": 3, "card": "5D"},
         "tender: unexpected field(s) ['card']; it takes ['chips', 'space']"),
        ({"seat": 1, "action": "tender", "chips": "3"}, "'chips' must be a whole number"),
        ({"seat": 1, "action": "lead", "card": "5D", "cards": ["5D"]},
         "lead: give exactly one of 'card' or 'cards'"),
        ({"seat": 1, "action": "select", "cards": "5D"}, "'cards' must be a list of cards"),
    ]
    for data, why in cases:
        with pytest.raises(IllegalAction) as e:
            Action.from_dict(data)
        assert e.value.code == "malformed_action"
        assert why in e.value.message


# -- the plug-in phase with a decision of its own ----------------------------------------------

@pytest.fixture(scope="module")
def show_card() -> stops.Variant:
    return stops.load_variant(SHOW_CARD_YAML, registry=plugin.plugin_registry())


HANDS = [["2C", "3C", "4C", "5C"], ["2D", "3D", "4D"], ["2H", "3H", "AH"]]
"""Seat 0 deals; the spare hand takes the other 42 cards (Boodle's spare is not used)."""


def _stacked(variant: stops.Variant) -> stops.Deal:
    table = stops.Table(variant, seats=3, chips=50, seed=1, dealer=0)
    used = {c for h in HANDS for c in h}
    return table.new_deal(hands=HANDS, spare=[str(c) for c in stops.CARDS
                                              if str(c) not in used])


def test_the_plugin_phase_offers_validates_and_tells_its_decision(
        show_card: stops.Variant) -> None:
    # By hand: Boodle's stakes are fixed and its spare hand is not used, so the first decision
    # is the card shown by the dealer's left, seat 1, who may show any of 2D 3D 4D; then
    # seat 2, then the dealer, seat 0; then the play, led from the dealer's left (seat 1).
    deal = _stacked(show_card)
    assert (deal.phase, deal.current_seat) == ("show_card", 1)
    assert [a.to_dict() for a in deal.legal_actions()] == [
        {"seat": 1, "action": "declare", "card": c} for c in ("2D", "3D", "4D")]
    assert deal.legal_actions().verbs == ("declare",)
    said = deal.explain({"seat": 1, "action": "declare", "card": "2D"})
    assert said.legal and said.message == ("declare 2♦: you show this card of your hand to "
                                           "everyone; it stays in your hand")
    # malformed or not allowed: refused with a reason, the deal unchanged
    before = (len(deal.events), deal.current_seat, list(deal.actions))
    for bad, code, why in [
        ({"seat": 1, "action": "declare"}, "malformed_action", "declare: missing field 'card'"),
        ({"seat": 1, "action": "declare", "card": "3D", "chips": 2}, "malformed_action",
         "unexpected field(s) ['chips']"),
        ({"seat": 1, "action": "declare", "card": "AH"}, "not_in_hand",
         "you can show only a card of your hand, not AH"),
        ({"seat": 2, "action": "declare", "card": "2H"}, "not_your_turn", "seat 1's decision"),
        ({"seat": 1, "action": "pass"}, "wrong_action", "possible: declare"),
    ]:
        with pytest.raises(IllegalAction) as e:
            deal.apply(bad)
        assert (e.value.code, why in e.value.message) == (code, True), e.value
    assert (len(deal.events), deal.current_seat, list(deal.actions)) == before
    deal.apply({"seat": 1, "action": "declare", "card": "3D"})
    deal.apply(Action(2, "declare", card=parse_card("AH")))
    deal.apply({"seat": 0, "action": "declare", "card": "5C"})
    shown = [e for e in deal.events if e.kind == "declared"]
    assert [(e.seat, [str(c) for c in e.cards], e.visible_to) for e in shown] == [
        (1, ["3D"], None), (2, ["AH"], None), (0, ["5C"], None)]
    assert [e.describe() for e in shown] == ["seat 1 shows 3D to the table",
                                             "seat 2 shows AH to the table",
                                             "seat 0 shows 5C to the table"]
    assert shown[0].describe(lambda s: "you" if s == 1 else f"P{s}") == \
        "you shows 3D to the table"
    assert (deal.phase, deal.current_seat) == ("play", 1)
    assert deal.hand(2) == [parse_card(c) for c in ("2H", "3H", "AH")]  # the card stays
    # a card shown is known to be in its hand: an imagined deal for seat 0 keeps it there
    for seed in range(5):
        imagined = deal.clone_for(0, random.Random(seed))
        assert parse_card("AH") in imagined.hand(2) and parse_card("3D") in imagined.hand(1)


def test_the_plugin_decision_is_recorded_and_replayed(show_card: stops.Variant) -> None:
    deal = _stacked(show_card)
    rng = random.Random(4)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    rec = deal.record()
    declared = [a for a in rec["actions"] if a["action"] == "declare"]
    assert [a["seat"] for a in declared] == [1, 2, 0]
    assert all(set(a) == {"seat", "action", "card"} for a in declared)
    again = stops.replay(rec, show_card)
    assert again.events == deal.events and again.actions == deal.actions
    one = Action(1, "declare", card=parse_card("3D"))
    assert Action.from_dict(one.to_dict()) == one and one.to_dict() == {
        "seat": 1, "action": "declare", "card": "3D"}
    # a record whose decision is malformed for the verb is refused, naming it
    bad = dict(rec, actions=[dict(declared[0], card="ZZ"), *rec["actions"][1:]])
    with pytest.raises(stops.RecordError, match="declare: not a card"):
        stops.replay(bad, show_card)


def test_the_plugin_phase_reads_in_the_rules_and_the_variants_verbs(
        show_card: stops.Variant, capsys: pytest.CaptureFixture[str]) -> None:
    from stops.apps.cli import main

    assert [v.name for v in show_card.verbs()] == [
        "stake", "keep", "swap", "auction", "pass", "bid", "declare", "lead", "play",
        "follow"]
    assert [t.kind for t in show_card.event_types()][-1] == "declared"
    code = main(["rules", "--plugins", str(EXAMPLES / "plugin_decision.py"),
                 str(SHOW_CARD_YAML)])
    out = capsys.readouterr().out
    assert code == 0
    assert "Showing a card\nBefore the first lead each player in turn, from the dealer's " \
        "left, shows one\ncard of their hand to everyone." in out


def test_the_plugin_variant_simulates_and_plays_from_the_command_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    import io

    from stops.apps.cli import main
    from stops.apps.terminal import play_terminal

    code = main(["simulate", "--plugins", str(EXAMPLES / "plugin_decision.py"),
                 str(SHOW_CARD_YAML), "--deals", "20", "--bots", "heuristic,random"])
    assert code == 0, capsys.readouterr()
    assert "20 deals" in capsys.readouterr().out
    # stops play: the menu offers the cards to show; 'declare zz' is not understood; the
    # card typed alone (2c) is the decision that shows it
    variant = stops.load_variant(SHOW_CARD_YAML, registry=plugin.plugin_registry())
    out = io.StringIO()
    code = play_terminal(variant, inp=io.StringIO("declare zz\n2c\n" + "1\n" * 200 + "q\n"),
                         out=out, players=4, seed=3, deals=1, seat=0)
    text = out.getvalue()
    assert "1) declare 2♣ (show it to the table)" in text
    assert "Not understood: declare: not a card: 'zz'" in text
    assert "you shows 2♣ to the table" in text


def test_the_pettingzoo_codec_numbers_a_plugin_verb(show_card: stops.Variant) -> None:
    pytest.importorskip("pettingzoo")
    from stops.interop.pettingzoo import ActionCodec

    codec = ActionCodec(show_card, 3)
    base = codec.card_base["declare"]
    a = Action(1, "declare", card=parse_card("3D"))
    assert codec.encode(a) == base + int(parse_card("3D"))
    assert codec.decode(1, codec.encode(a)) == a
    assert codec.labels[base] == "declare 2C"

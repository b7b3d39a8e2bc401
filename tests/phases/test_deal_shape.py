"""The deal phase owns the deal's shape (issue 20): hand sizes, the sizes a stacked deal keeps
and the spare's name come from the ``deal`` phase, which declares its shape when registered;
the variant holds the shape (``deal_shape``) and the spare's name (``spare_name``) and
computes neither itself."""

from __future__ import annotations

import inspect

import pytest

import stops
from stops.phases.dealing import Shape, shape_of
from stops.rules import variant as variant_module
from stops.rules.prose import rules_text
from stops.rules.registry import default_registry
from stops.rules.variant import Variant, variant_from_mapping
from support import spare_of


def test_variant_has_no_deal_shape_logic() -> None:
    # Removed, not kept as delegates: a delegate would leave two ways to ask (and the
    # variant naming the deal's shapes); callers ask ``variant.deal_shape`` instead.
    assert not hasattr(Variant, "hand_sizes") and not hasattr(Variant, "stacked_sizes")
    source = inspect.getsource(variant_module)
    for word in ("equal_plus_dead", "n_plus_one", "as_dealt", "divmod"):
        assert word not in source, word
    # the deal phase declares its shape on the registry; the variant builds it from there
    assert default_registry().phases["deal"].shape is not None
    assert isinstance(stops.load_variant("boodle").deal_shape, Shape)


def test_the_shape_answers_sizes_by_hand() -> None:
    # Boodle: 52 cards, n_plus_one, spare dealt after the dealer. 5 players: 6 hands,
    # 52 = 6 * 8 + 4, so the first four recipients from the dealer's left get 9:
    # seats [9, 9, 9, 9, 8] and the spare 8. Boodle stacks any sizes (None).
    boodle = stops.load_variant("boodle")
    shape = shape_of(boodle)
    assert shape.sizes(5) == [9, 9, 9, 9, 8, 8]
    assert shape.stacked_sizes(5) is None
    # as_dealt with the spare first in each round: the spare is dealt the first card of
    # each round, so it takes one of the four odd cards: seats [9, 9, 9, 8, 8], spare 9.
    first = stops.load_variant("boodle", options={"stacked_sizes": "as_dealt",
                                                  "deal_spare_position": "first"})
    assert shape_of(first).stacked_sizes(5) == [9, 9, 9, 8, 8, 9]
    # a table of sizes: 4 players of 12 = 48, the spare the other 4
    table = stops.load_variant("boodle", options={
        "deal_shape": "table", "hand_sizes": {3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}})
    assert shape_of(table).stacked_sizes(4) == [12, 12, 12, 12, 4]


def test_the_table_checks_stacked_sizes_through_the_deal_shape() -> None:
    # as_dealt, 4 players, spare after the dealer: 5 hands, 52 = 5 * 10 + 2, so the two
    # seats nearest the dealer's left hold 11 and the rest 10 (spare 10). Dealer 0: seat 1
    # is first; giving seat 1 a single card is refused, naming the 11 it must hold.
    v = stops.load_variant("boodle", options={"stacked_sizes": "as_dealt"})
    hands = [["2C"], ["3C"], ["4C"], ["5C"]]
    with pytest.raises(stops.TableError, match="seat 1 holds 1 cards; this deal gives it 11"):
        stops.Table(v, seats=4, seed=1).new_deal(hands=hands, spare=spare_of(hands))


def test_a_house_spare_name_shows_in_its_rules() -> None:
    # A house Boodle calling the spare hand "widow": Boodle's deal text "plus a spare hand
    # that belongs to nobody" reads "plus a widow ...", its section "The spare hand" is "The
    # widow", and the play's stops ("next card is in the spare hand") name the widow. Only
    # the line naming the house's change (spare_name's own help) still says "spare hand".
    house = variant_from_mapping({"name": "house", "extends": "boodle",
                                  "rules": {"spare_name": "widow"}})
    assert house.spare_name == "widow"
    assert stops.load_variant("boodle").spare_name == "spare hand"
    lines = rules_text(house, width=1000).splitlines()
    body = "\n".join(line for line in lines if not line.startswith("- spare_name:"))
    assert "into a hand for each player plus a widow that belongs to nobody" in body
    assert "\nThe widow\n" in body
    assert "next card is in the widow or already played" in body
    assert "spare hand" not in body.lower()


def test_a_flow_whose_dealing_declares_no_shape() -> None:
    # A plug-in's dealing (here the built-in phase re-registered without ``shape``): the
    # variant has no deal shape, so stacked hands of any sizes that make up the pack are
    # taken even under stacked_sizes: as_dealt (which only the deal phase's shape reads),
    # the spare is the "spare hand", and texts still get the plain deal's sizes: 4 players
    # and a spare, 52 = 5 * 10 + 2 -> [11, 11, 10, 10] and the spare 10.
    from stops.phases.dealing import DealPhase, DealSettings

    reg = default_registry().copy()
    reg.register_phase("deal", settings=DealSettings, replace=True)(DealPhase)
    v = stops.load_variant("boodle", options={"stacked_sizes": "as_dealt",
                                              "spare_name": "widow"}, registry=reg)
    assert v.deal_shape is None and v.spare_name == "spare hand"
    assert shape_of(v).sizes(4) == [11, 11, 10, 10, 10]
    hands = [["2C"], ["3C"], ["4C"], ["5C"]]
    d = stops.Table(v, seats=4, seed=1).new_deal(hands=hands, spare=spare_of(hands))
    assert [len(h) for h in d.dealt_hands] == [1, 1, 1, 1]

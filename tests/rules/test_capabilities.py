"""Issue 20: a policy's optional capabilities are declared, never probed.

A function policy declares them with ``register_policy`` keywords (``before_first_deal``,
``why``, ``tracks_contributions``, ...); an attribute set on the function is not read. A
policy object has every member of its slot's protocol (a base class gives the defaults), and
one that lacks a member is refused when it is registered, naming the member.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.phases.rotation import WildCardPolicy
from stops.rules.registry import RegistryError


def _below_five(table: stops.Table, params: None) -> bool:
    """The session ends when some player has fewer than 5 chips."""
    return any(s < 5 for s in table.stacks)


def _why_below_five(table: stops.Table, params: None) -> str:
    return "a player has fewer than 5 chips"


def _registry() -> stops.Registry:
    reg = stops.default_registry().copy()
    reg.register_policy("match_end", "below_five", before_first_deal=True,
                        why=_why_below_five, text=lambda _: "")(_below_five)

    def late(table: stops.Table, params: None) -> bool:
        return _below_five(table, params)

    # an attribute on the function says nothing: only the keyword declares the capability
    setattr(late, "before_first_deal", True)  # noqa: B010
    reg.register_policy("match_end", "below_five_late", text=lambda _: "")(late)
    return reg


def test_a_match_end_declared_before_first_deal_is_asked_before_the_first_deal() -> None:
    # By hand: 4 seats of 3 chips each; 3 < 5, so the rule is met before any deal is dealt.
    # Declared before_first_deal: the table is over at once, for the reason its why gives.
    # Not declared (only a function attribute): the table asks the rule only after a deal,
    # so before the first deal it is not over.
    reg = _registry()
    early = stops.load_variant("boodle", options={"match_end": "below_five"}, registry=reg)
    table = stops.Table(early, seats=4, chips=3, seed=1)
    assert table.is_over
    assert table.end_reason() == "a player has fewer than 5 chips"
    late = stops.load_variant("boodle", options={"match_end": "below_five_late"}, registry=reg)
    assert not stops.Table(late, seats=4, chips=3, seed=1).is_over
    assert stops.Table(late, seats=4, chips=3, seed=1).end_reason() == "not over"


def _share_back(table: stops.Table, params: None) -> list[tuple[Any, ...]]:
    return [([space], [table.contributed.get(space, [0] * table.n)[s]
                       for s in range(table.n)]) for space in table.layout]


@pytest.mark.parametrize(("declared", "leftover", "tracks"), [
    (True, "share", True), (False, "share", False), (True, "stays", False)])
def test_a_final_share_declares_that_it_tracks_contributions(
        declared: bool, leftover: str, tracks: bool) -> None:
    # The ledger keeps who put what on each space only when the variant shares the leftover
    # chips at the end AND its final_share declared tracks_contributions.
    reg = stops.default_registry().copy()
    reg.register_policy("final_share", "back", tracks_contributions=declared,
                        text=lambda _: "")(_share_back)
    v = stops.load_variant("boodle", options={"final_share": "back",
                                              "leftover_at_match_end": leftover}, registry=reg)
    assert v.tracks_contributions is tracks


class _BareWild:
    """A wild card object that lacks ``on_turn``."""

    def card(self, params: Any) -> int:
        return int(stops.parse_card("9D"))

    def on_lay(self, deal: stops.Deal, seat: int, as_rank: Any, params: Any) -> str | None:
        return None


def test_a_policy_object_lacking_a_protocol_member_is_refused_when_registered() -> None:
    reg = stops.default_registry().copy()
    with pytest.raises(RegistryError) as err:
        reg.register_policy("wild_card", "bare", text=lambda _: "")(_BareWild())
    message = str(err.value)
    assert "'bare'" in message and "on_turn" in message and "WildCard" in message
    assert ("wild_card", "bare") not in reg.policies  # nothing changed

    class Inherits(WildCardPolicy):
        """The same card, inheriting ``on_turn`` from the base class."""

        def card(self, params: Any) -> int:
            return int(stops.parse_card("9D"))

        def on_lay(self, deal: stops.Deal, seat: int, as_rank: Any,
                   params: Any) -> str | None:
            return None

    reg.register_policy("wild_card", "inherits", text=lambda _: "")(Inherits())
    assert ("wild_card", "inherits") in reg.policies


def test_a_function_policy_is_not_checked_for_members() -> None:
    # after_stop's protocol is a call signature: nothing more to have
    reg = stops.default_registry().copy()
    reg.register_policy("after_stop", "anything", text=lambda _: "")(
        lambda deal, seat, broken, params: [])
    assert ("after_stop", "anything") in reg.policies


def test_the_comets_settlement_asks_for_the_comet_not_its_name() -> None:
    # By hand: settlement by the comet's points counts the comet's multipliers, so it needs
    # the comet as the wild card. With no wild card the variant is refused, naming the rule;
    # the same Comet object registered under a house name is still the comet, and loads.
    from stops.games.comet import Comet, CometParams

    with pytest.raises(stops.VariantError) as err:
        stops.load_variant("comet", options={"wild_card": "none"})
    assert "needs wild_card: comet" in str(err.value)
    reg = stops.default_registry().copy()
    reg.register_policy("wild_card", "house_comet", params=CometParams,
                        text=lambda _: "")(Comet())
    v = stops.load_variant("comet", options={"wild_card": "house_comet"}, registry=reg)
    assert v.policy("wild_card").name == "house_comet"

"""Registers every built-in slot, policy and phase into a registry.

This is the one list of names that variant files may use out of the box; ``docs/reference.md``
is generated from (and tested against) it.
"""

from __future__ import annotations

from typing import Any

from stops.phases.dealing import DealPhase
from stops.phases.play import PlayPhase
from stops.phases.settle import ClaimHeldPhase, SettlePhase
from stops.phases.stake import StakePhase
from stops.policies import claims, endings, leads, session, stakes
from stops.rules.registry import Registry, default_registry

SLOTS: dict[str, tuple[str, str]] = {
    "stake_rule": ("Who puts how many chips on which spaces before the deal.",
                   "(deal, seat, params) -> StakePlan"),
    "spare_protocol": ("What may be done with the spare hand before play.",
                       "a phase-like object: enter/legal/apply/explain"),
    "pay_collection": ("When card, combination and run spaces pay.",
                       "ClaimPolicy instance: watch/held/end"),
    "run_rule": ("A prize for a run played by one player.", "ClaimPolicy instance"),
    "first_leader": ("Who leads first.", "(deal, params) -> FirstLead | None"),
    "after_stop": ("What may be led, after a stop and at a free lead.",
                   "(deal, seat, broken_suit | None, params) -> list[card]"),
    "going_out_reward": ("What the first player out wins.", "(deal, winner, params) -> None"),
    "block_outcome": ("What happens when nobody can lead.", "(deal, params) -> 'rotate' | "
                      "'same_dealer'"),
    "match_end": ("When the session ends.", "(table, params) -> bool"),
}


def _text(s: str) -> Any:
    return lambda params: s


def install(reg: Registry) -> None:
    import attrs

    from stops.rules.model import PolicyRef, Rules

    defaults = {f.name: f.default.use for f in attrs.fields(Rules)
                if f.metadata.get("slot") and isinstance(f.default, PolicyRef)}
    for slot, (doc, proto) in SLOTS.items():
        reg.add_slot(slot, doc, proto, defaults[slot])

    p = reg.register_policy
    # stakes
    p("stake_rule", "each_space", params=stakes.EachSpaceParams, check=stakes.spaces_exist,
      text=stakes.each_space_text)(stakes.each_space)
    p("stake_rule", "dealer_two_others_one", params=stakes.DealerDoubleParams,
      check=stakes.spaces_exist, text=stakes.dealer_double_text)(stakes.dealer_two_others_one)
    p("stake_rule", "free", params=stakes.FreeParams, check=stakes.spaces_exist,
      text=stakes.free_text)(stakes.free)
    p("stake_rule", "choose_one_card", params=stakes.ChooseOneParams,
      text=stakes.choose_one_text)(stakes.choose_one_card)
    # spare hand
    from stops.phases import spare

    spare.register(reg)
    # claims
    p("pay_collection", "none", text=_text(
        "The card spaces never pay by themselves."))(claims.NoClaims())
    p("pay_collection", "on_play", text=_text(
        "A card space pays whoever plays its card, during the play. A combination space pays "
        "a player who plays all its cards. A run space pays the first player to play its "
        "ranks in one suit."))(claims.OnPlay())
    p("pay_collection", "stage_one", text=_text(
        "Before play, each card space pays the player who holds its card; a combination space "
        "pays a player who holds all its cards; a run space is shared equally by the players "
        "who hold its ranks in one suit, any remainder staying on the space. Cards in the "
        "spare hand claim nothing."))(claims.StageOne())
    p("run_rule", "none", text=_text("There is no prize for runs."))(claims.RunNone())
    p("run_rule", "same_suit_consecutive", text=_text(
        "A player who plays three cards of consecutive rank in one suit, one straight after "
        "another (the lead counts), wins the run space; only the first run of a deal "
        "collects."))(
        claims.SameSuitRun())
    p("run_rule", "any_three_consecutive_plays", text=_text(
        "A player who plays three cards one straight after another (any cards) wins the run "
        "space; only the first run of a deal collects."))(claims.AnyThreeRun())
    # leads
    p("first_leader", "dealers_left", text=_text(
        "The player to the dealer's left makes the first lead."))(leads.dealers_left)
    p("first_leader", "poker_winner", text=_text(
        "The winner of the poker pot makes the first lead; if the pot was split, the first "
        "of the winners clockwise from the dealer's left."))(leads.poker_winner)
    p("first_leader", "opening_card", text=leads.opening_text,
      check=_needs_opening_cards)(leads.opening_card)
    p("after_stop", "any_suit", explain=leads.EXPLAIN["any_suit"], text=_text(
        "A lead may be of any suit, the suit just stopped included, and must be the lowest "
        "card the player holds in that suit."))(leads.any_suit)
    p("after_stop", "must_change_suit", explain=leads.EXPLAIN["must_change_suit"], text=_text(
        "After a stop or an ace the next lead must be of another suit (the lowest card the "
        "player holds in it)."))(leads.must_change_suit)
    p("after_stop", "opposite_colour", explain=leads.EXPLAIN["opposite_colour"], text=_text(
        "After a break the player of the last card leads the lowest card of the opposite "
        "colour."))(leads.opposite_colour)
    # endings
    p("going_out_reward", "per_card", text=_text(
        "The first player out collects one chip per card still held from every other "
        "player."))(endings.per_card)
    p("going_out_reward", "kitty_plus_per_card", check=endings.needs_kitty, text=_text(
        "The first player out wins the kitty and one chip per card still held from every "
        "other player."))(endings.kitty_plus_per_card)
    p("going_out_reward", "kitty_only", check=endings.needs_kitty, text=_text(
        "The first player out wins the kitty; nobody pays for cards left."))(endings.kitty_only)
    p("block_outcome", "end_no_payment", text=_text(
        "If nobody can lead, the deal ends and nobody pays for the cards left."))(
        endings.end_no_payment)
    p("block_outcome", "kitty_per_card", check=endings.needs_kitty, text=_text(
        "If nobody can lead, the deal ends and every player puts one chip per card left into "
        "the kitty."))(endings.kitty_per_card)
    p("block_outcome", "redeal_next_round", text=_text(
        "If nobody can lead, the cards are gathered and the next round is dealt as usual; "
        "nothing is paid and all chips stay on the layout."))(endings.redeal_next_round)
    p("block_outcome", "redeal_same_round", text=_text(
        "If nobody can lead, the same dealer gathers the cards and deals again without new "
        "stakes; all chips stay on the layout."))(endings.redeal_same_round)
    # session
    p("match_end", "deals", params=session.DealsParams,
      text=lambda q: f"The session ends after {q.count} deals (or as many as agreed).")(
        session.deals)
    p("match_end", "never", text=_text(
        "The session goes on until the players stop."))(session.never)
    p("match_end", "all_spaces_retired", params=session.RetiredParams,
      text=lambda q: "The session ends when every space has been won and removed from the "
      "layout, or at an agreed last deal" + (f" (deal {q.max_deals} at the latest)."
                                              if q.max_deals else "."))(
        session.all_spaces_retired)
    # phases
    ph = reg.register_phase
    ph("stake", slots=("stake_rule",))(StakePhase)
    ph("deal")(DealPhase)
    ph("spare_hand", requires=("deal",), slots=("spare_protocol",))(spare.SparePhase)
    ph("claim_held", requires=("deal",), slots=("pay_collection",))(ClaimHeldPhase)
    ph("play", requires=("deal",), slots=("first_leader", "after_stop", "pay_collection",
                                          "run_rule"))(PlayPhase)
    ph("settle", requires=("play",), slots=("going_out_reward", "block_outcome"))(SettlePhase)
    from stops.phases import poker

    poker.register(reg)


def _needs_opening_cards(variant: Any, params: Any) -> list[str]:
    if not variant.rules.opening_cards:
        return ["opening_card needs rules.opening_cards, e.g. [2H, 2C, 2D, 2S]"]
    return []


install(default_registry())

"""How a deal ends: the going-out reward (slot ``going_out_reward``) and the block
(slot ``block_outcome``).

``going_out_reward`` policies are ``(deal, winner, params) -> None`` and move chips with
``deal.claim`` / ``deal.pay``. ``block_outcome`` policies are ``(deal, params) -> str``
returning what the table does next: ``"rotate"`` (the usual next deal) or ``"same_dealer"``
(the same dealer deals again, with no new stakes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


def _others(deal: Deal, seat: int) -> list[int]:
    return deal.order(seat, include_self=False)


def per_card(deal: Deal, winner: int, params: Any) -> None:
    """Every other player pays the winner one chip per card left in their hand."""
    for s in _others(deal, winner):
        deal.pay(s, winner, deal.counts[s], "1 per card left")


def kitty_plus_per_card(deal: Deal, winner: int, params: Any) -> None:
    """The winner takes the kitty, and every other player pays one chip per card left."""
    if deal.variant.kitty is not None:
        deal.claim(winner, deal.variant.kitty, "went out first")
    per_card(deal, winner, params)


def kitty_only(deal: Deal, winner: int, params: Any) -> None:
    """The winner takes the kitty; nobody pays for cards left."""
    if deal.variant.kitty is not None:
        deal.claim(winner, deal.variant.kitty, "went out first")


def needs_kitty(variant: Any, params: Any) -> list[str]:
    if variant.kitty is None:
        return ["this policy pays the kitty, but the layout has no space of kind kitty"]
    return []


def end_no_payment(deal: Deal, params: Any) -> str:
    """The deal ends; nobody pays for the cards left in their hands."""
    return "rotate"


def kitty_per_card(deal: Deal, params: Any) -> str:
    """The deal ends and every player puts one chip per card left into the kitty."""
    kitty = deal.variant.kitty
    if kitty is not None:
        for s in deal.order(deal.dealer):
            deal.pay(s, kitty, deal.counts[s],
                     "block: 1 per card left")
    return "rotate"


def redeal_next_round(deal: Deal, params: Any) -> str:
    """The cards are gathered and the next round is dealt as usual; nothing is paid and all
    chips stay on the layout."""
    return "rotate"


def redeal_same_round(deal: Deal, params: Any) -> str:
    """The same dealer gathers the cards and deals again, with no new stakes."""
    return "same_dealer"


def _text(s: str) -> Any:
    return lambda params: s


def _nothing(variant: Any, params: Any) -> tuple[str, ...]:
    return ()


def _kitty(variant: Any, params: Any) -> tuple[str, ...]:
    return (variant.kitty,) if variant.kitty is not None else ()


def register(reg: Registry) -> None:
    """The going-out rewards and block outcomes."""
    reg_p = reg.register_policy

    def p(slot: str, name: str, **kw: Any) -> Any:
        kw.setdefault("pays", _kitty if kw.get("check") is needs_kitty and slot ==
                      "going_out_reward" else _nothing)
        return reg_p(slot, name, **kw)

    p("going_out_reward", "per_card", text=_text(
        "The first player out collects one chip per card still held from every other "
        "player."))(per_card)
    p("going_out_reward", "kitty_plus_per_card", check=needs_kitty, text=_text(
        "The first player out wins the kitty and one chip per card still held from every "
        "other player."))(kitty_plus_per_card)
    p("going_out_reward", "kitty_only", check=needs_kitty, text=_text(
        "The first player out wins the kitty; nobody pays for cards left."))(kitty_only)
    p("block_outcome", "end_no_payment", text=_text(
        "If nobody can lead, the deal ends and nobody pays for the cards left."))(
        end_no_payment)
    p("block_outcome", "kitty_per_card", check=needs_kitty, text=_text(
        "If nobody can lead, the deal ends and every player puts one chip per card left into "
        "the kitty."))(kitty_per_card)
    p("block_outcome", "redeal_next_round", text=_text(
        "If nobody can lead, the cards are gathered and the next round is dealt as usual; "
        "nothing is paid and all chips stay on the layout."))(redeal_next_round)
    p("block_outcome", "redeal_same_round", text=_text(
        "If nobody can lead, the same dealer gathers the cards and deals again without new "
        "stakes; all chips stay on the layout."))(redeal_same_round)

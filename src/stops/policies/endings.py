"""How a deal ends: the going-out reward (slot ``going_out_reward``) and the block
(slot ``block_outcome``).

``going_out_reward`` policies are ``(deal, winner, params) -> None`` and move chips with
``deal.claim`` / ``deal.pay``. ``block_outcome`` policies are ``(deal, params) -> str``
returning what the table does next: ``"rotate"`` (the usual next deal) or ``"same_dealer"``
(the same dealer deals again, with no new stakes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from stops.engine.eventkind import EventKind
from stops.engine.events import event

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


def _others(deal: Deal, seat: int) -> list[int]:
    return deal.order(seat, include_self=False)


def per_card(deal: Deal, winner: int, params: Any) -> None:
    """Every other player pays the winner one chip per card left in their hand."""
    for s in _others(deal, winner):
        deal.pay(s, winner, deal.counts[s], "1 per card left")


def kitty_only(deal: Deal, winner: int, params: Any) -> None:
    """The winner takes the kitty; nobody pays for cards left."""
    if deal.variant.kitty is not None:
        deal.claim(winner, deal.variant.kitty, "went out first")


@attrs.frozen
class Excused:
    """Seats excused from paying for the cards they still hold when someone goes out, and
    why (published with ``deal.publish`` by the policy whose rule it is, before the going-out
    reward; Pope Joan's holder of the Pope, docs/family-rulings.md F19)."""

    seats: frozenset[int]
    why: str = ""


def _inline(default: Any, doc: str) -> Any:
    """An attrs field written only inline (``{use: ..., space: game}``: no flat rule name).
    Typed ``Any`` for the compiled build, as :func:`stops.rules.registry.param` is."""
    return attrs.field(default=default, metadata={"doc": doc})


@attrs.frozen
class SpaceParams:
    space: str = _inline("game", "The layout space the first player out takes (the Game "
                         "compartment).")


def game_plus_per_card(deal: Deal, winner: int, params: SpaceParams) -> None:
    """The winner takes the ``space`` compartment (the Game), and every other player pays one
    chip per card left, except seats a rule has excused (:class:`Excused`)."""
    deal.claim(winner, params.space, "went out first")
    excused = deal.result(Excused)
    for s in _others(deal, winner):
        if excused is not None and s in excused.seats:
            deal.emit(event(EventKind.EXCUSED, s, to_seat=winner, note=excused.why))
            continue
        deal.pay(s, winner, deal.counts[s], "1 per card left")


def _game_text(p: SpaceParams, space: str = "", excused: str = "") -> str:
    but = f" but {excused}" if excused else ""
    return (f"The first player out takes {space or 'the ' + p.space + ' space'}, and every "
            f"other player{but} pays him one chip per card still held.")


def space_name(variant: Any, space: str) -> str:
    """A layout space in a sentence: its label up to any colon ("the Game"), or its id."""
    s = variant.spaces.get(space)
    label = (s.label or "").split(":")[0].strip() if s is not None else ""
    return label or f"the {space} space"


def _game_describe(variant: Any, p: SpaceParams) -> str:
    """The Game and the per-card payment, naming whoever a rule in force excuses (the
    holder of the Pope: a policy that publishes :class:`Excused` declares ``excuses``)."""
    from stops.rules.prose import and_list, in_force

    who = [str(b.spec.excuses(variant, b.params)) for b in in_force(variant).values()
           if b.spec.excuses is not None]
    return _game_text(p, space_name(variant, p.space), and_list([w for w in who if w]))


def needs_space(variant: Any, p: SpaceParams) -> list[tuple[str, str]]:
    if p.space not in variant.spaces:
        return [("space", f"no layout space {p.space!r}; expected one of "
                 + ", ".join(variant.space_ids))]
    return []


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


def _kitty_named(text: str) -> Any:
    """A ``describe`` that calls the kitty by its space's name where the table has another
    (the pot of Play or Pay and of Royal Rummy is the kitty of their rules)."""
    def describe(variant: Any, params: Any) -> str:
        k = variant.kitty
        return text if k in (None, "kitty") else text.replace("the kitty", f"the {k}")
    return describe


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

    p("going_out_reward", "per_card", phrase="collects one chip per card still held",
      text=_text("The first player out collects one chip per card still held from every other "
                 "player."))(per_card)
    # kitty_plus_per_card is in stops.policies.points (its payment may be card points)
    only = "The first player out wins the kitty; nobody pays for cards left."
    p("going_out_reward", "kitty_only", check=needs_kitty, phrase="; nobody pays for cards left",
      text=_text(only), describe=_kitty_named(only))(kitty_only)
    p("going_out_reward", "game_plus_per_card", params=SpaceParams, check=needs_space,
      pays=lambda v, q: (q.space,), text=_game_text, describe=_game_describe,
      phrase="pays him one chip per card still held")(game_plus_per_card)
    p("block_outcome", "end_no_payment", phrase="the deal ends and nobody pays", text=_text(
        "If nobody can lead, the deal ends and nobody pays for the cards left."))(
        end_no_payment)
    p("block_outcome", "kitty_per_card", check=needs_kitty,
      phrase="per card left into the kitty", text=_text(
          "If nobody can lead, the deal ends and every player puts one chip per card left "
          "into the kitty."))(kitty_per_card)
    p("block_outcome", "redeal_next_round", phrase="the next round is dealt as usual",
      text=_text("If nobody can lead, the cards are gathered and the next round is dealt as "
                 "usual; nothing is paid and all chips stay on the layout."))(
        redeal_next_round)
    p("block_outcome", "redeal_same_round", phrase="the same dealer gathers the cards",
      text=_text("If nobody can lead, the same dealer gathers the cards and deals again "
                 "without new stakes; all chips stay on the layout."))(redeal_same_round)

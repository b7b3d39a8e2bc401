"""Issue 24, session 10: ``clone_for``'s view built for less, the same view (both builds).

The view groups the hidden cards by the places each may go to (``_View.order``, ``free``,
``allowed``) from one mark per card, and an opening still due is asked of the rule once per
placement of the cards (remembered per variant). These tests hold both to what they replace:
the grouping to the card-by-card one it replaced at every decision of a random deal of every
built-in, and the pending opening to a hand-derived deal and to the rule asked afresh.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import stops
from stops.engine.cards import CARDS
from stops.engine.determinize import _cached, knowledge
from stops.rules.variant import list_variants

RANKS = "23456789TJQKA"


def _grouped_card_by_card(view: Any) -> tuple[Any, Any, Any]:
    """The grouping as it was before session 10: each ruled-out card's places listed by
    asking every holder's set, the alike cards grouped by that list."""
    places, hidden, known = view.places, view.hidden, view.known
    holders = sorted(places)
    lacks = {h: got for h, got in known.lacks.items() if h in places and got}
    ruled_out: set[int] = set().union(*lacks.values()) if lacks else set()
    allowed: dict[int, list[int]] = dict.fromkeys(hidden, holders)
    if ruled_out:
        free = [c for c in hidden if c not in ruled_out]
        order = [c for c in hidden if c in ruled_out]
        for c in order:
            allowed[c] = [h for h in holders if c not in lacks.get(h, ())]
    else:
        free, order = list(hidden), []
    alike: dict[tuple[int, ...], list[int]] = {}
    for c in order:
        alike.setdefault(tuple(allowed[c]), []).append(c)
    return [(list(k), alike[k]) for k in sorted(alike, key=len)], free, allowed


@pytest.mark.parametrize("name", list_variants())
def test_the_view_groups_the_hidden_cards_as_card_by_card(name: str) -> None:
    # No hand derivation: the oracle is the card-by-card grouping the hand-derived deals of
    # test_determinize.py and test_clone.py were checked with; this holds the new one to it
    # (same groups, same order, same places per card) at every decision of a random deal.
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    deal = stops.Table(variant, seats=seats, seed=11, chips=100).new_deal()
    rng = random.Random(11)
    checked = 0
    while not deal.is_terminal:
        seat = deal.current_seat
        if seat is not None and deal.dealt_hands:
            deal.clone_for(seat, rng)
            view = _cached(deal, seat)
            assert view is not None
            order, free, allowed = _grouped_card_by_card(view)
            assert view.order == order, (name, len(deal.events))
            assert view.free == free, (name, len(deal.events))
            assert view.allowed == allowed, (name, len(deal.events))
            checked += 1
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    assert checked


def _suit(s: str) -> list[str]:
    return [r + s for r in RANKS]


def _pot_and_kitty_opening() -> stops.Deal:
    """Pot and kitty, three seats, dealer 0 (opening cards 2H, 2C, 2D, 2S in that order,
    ruling 39). Seat 0 holds 2D-KD and AS; seat 1 2C and 3H-AH; seat 2 3C-AC and KS; the
    spare hand AD, 2H and 2S-QS. Every seat stakes, nobody takes the spare hand, and seat 1
    is to open with 2C (2H lies in the spare hand)."""
    table = stops.Table("pot-and-kitty", seats=3, chips=50, seed=1, dealer=0)
    hands = [[*_suit("D")[:12], "AS"], ["2C", *_suit("H")[1:]], [*_suit("C")[1:], "KS"]]
    deal = table.new_deal(hands=hands, spare=["AD", "2H", *_suit("S")[:11]])
    while deal.phase != "play":
        acts = deal.legal_actions()
        keep = [a for a in acts if a.to_dict()["action"] == "keep"]
        deal.apply((keep or acts)[0])
    assert [a.to_dict() for a in deal.legal_actions()] == [
        {"seat": 1, "action": "lead", "card": "2C"}]
    return deal


def _lacks(deal: stops.Deal, seat: int) -> dict[int, set[str]]:
    return {h: {str(CARDS[c]) for c in cs}
            for h, cs in knowledge(deal, seat).lacks.items() if cs}


def test_an_opening_still_due_rules_out_only_the_cards_that_would_open_first() -> None:
    """By hand: seat 1 is to open. Seat 0 cannot see 2H, 2C or 2S, and asks the rule with
    each of them (and every other card it cannot see) in seat 2's hand, the rest in the
    opener's: with 2H there seat 2 would open instead (2H comes first), with 2C or 2S seat
    1 still opens (2H is with him). So seat 0 knows seat 2 lacks 2H, and nothing else; seat
    2 knows the same of seat 0. Asked again with the variant's memory of what rules prove
    cleared, the rule answers the same; and the memory keeps the two seats' answers apart
    (each seat's own cards are placed differently)."""
    deal = _pot_and_kitty_opening()
    assert _lacks(deal, 0) == {2: {"2H"}}
    assert _lacks(deal, 2) == {0: {"2H"}}
    cache = deal.variant.cache
    for k in [k for k in cache if isinstance(k, tuple) and k[:2] == ("knows", "pending")]:
        del cache[k]
    fresh = deal.clone()  # keeps no reading: read afresh
    assert _lacks(fresh, 2) == {0: {"2H"}}
    assert _lacks(fresh, 0) == {2: {"2H"}}
    assert any(isinstance(k, tuple) and k[:2] == ("knows", "pending") for k in cache)

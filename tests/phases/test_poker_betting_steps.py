"""The poker stage's betting steps and the spare auction's menus, held to the computation
they replace (issue 24, session 12).

Session 12 made a limit betting menu and a short bid menu a plain tuple of interned actions
(``FixedActions``) instead of a lazy set of parts, found the next bettor from a table of
the seats clockwise after the last one (``_RING``) instead of ``order.index`` and a modular
walk, and hands out each betting event from a table keyed by one integer instead of
``shared``'s tuple key. None of that may change a decision or an event. Here every decision
of random deals of every built-in with a poker stage or a spare auction, at every seat count
(and at deep stacks, where a no-limit menu of more than 64 amounts stays lazy), is checked
against the old computation written out plainly: the seat to bet next, the very event object
``shared`` gives, the legal set's actions in order, and the refusals with their codes.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.engine.actions import Action, with_chips
from stops.engine.events import shared
from stops.engine.legal import FixedActions, LegalActions
from stops.engine.rng import Rng
from stops.phases.poker import MENU_TUPLE_MAX, PokerState
from stops.phases.spare import SHORT_MENU
from support import refused_with

CASES: list[tuple[str, dict[str, Any] | None, int]] = [
    ("three-in-one", None, 40),
    ("three-in-one", {"poker_selection": "best"}, 40),
    ("three-in-one", {"poker_selection": "auto", "first_bettor": "dealer"}, 40),
    ("three-in-one-on-play", None, 40),
    ("rummoli", None, 40),
    ("tripoley", None, 40),
    ("tripoley", None, 150),  # no-limit at deep stacks: menus of more than 64 amounts
    ("tripoley-colours", None, 40),
    ("tripoley-home-table", None, 40),
    ("royal-rummy", {"with-poker": True}, 40),
    ("boodle-spare-auction", None, 150),
]

KIND: dict[str, str] = {"check": "checked", "fold": "folded", "call": "called",
                        "bet": "bet", "raise": "raised"}


def _old_next(st: PokerState, after: int) -> int | None:
    """The next bettor as ``_advance`` found it before: ``after``'s place in the order, then
    round the order to the first seat still to bet (``None``: the round is over)."""
    if len(st.active) == 1 or not st.need:
        return None
    i = st.order.index(after)
    n = len(st.order)
    for k in range(1, n + 1):
        s = st.order[(i + k) % n]
        if s in st.need:
            return s
    return None  # pragma: no cover



def _check_bet(deal: stops.Deal, decision: Action) -> None:
    """Apply a betting ``decision`` and hold what follows to the old computation."""
    st = deal.state(PokerState)
    seat = decision.seat
    pot = deal.variant.pot or ""
    legal = deal.legal_actions()
    amounts = sum(1 for a in legal if a.chips is not None)
    # a short menu is a tuple of actions; a long one stays lazy; the same actions either way
    assert (type(legal) is FixedActions) == (amounts <= MENU_TUPLE_MAX)
    assert type(legal) is FixedActions or isinstance(legal, LegalActions)
    s = deal.variant.settings("poker")
    if decision.action in ("bet", "raise") and s.betting == "limit":
        # one chip more than the menu offers: over the limit, or more than the stack holds
        refused_with(deal, with_chips(seat, decision.action, amounts + 1),
                 "over_limit" if amounts == s.bet_limit else "insufficient_chips")
    put = st.contrib[seat]
    start = len(deal.events)
    deal.apply(decision)
    amount = st.contrib[seat] - put  # what went into the pot (a showdown may pay it back)
    said = deal.events[start]
    kind = KIND[decision.action]
    if decision.action in ("check", "fold"):
        assert said is shared(kind, seat)
    else:
        assert said is shared(kind, seat, amount, pot)
    if deal.phase == "poker" and deal.current_seat is not None:
        assert deal.current_seat == _old_next(st, seat)
    else:
        assert _old_next(st, seat) is None


@pytest.mark.parametrize(("name", "options", "chips"), CASES,
                         ids=[f"{n}-{c}" + ("" if o is None else "-" + "-".join(o))
                              for n, o, c in CASES])
def test_betting_steps_are_the_old_computations_at_every_decision(
        name: str, options: dict[str, Any] | None, chips: int) -> None:
    variant = stops.load_variant(name, options=options)
    lo, hi = variant.players
    rng = Rng(5)
    bets = menus = 0
    for seats in range(lo, hi + 1):
        table = stops.Table(variant, seats=seats, chips=chips, seed=seats + 7)
        for _ in range(3):
            if table.is_over:
                break
            deal = table.new_deal()
            while deal.current_seat is not None:
                legal = deal.legal_actions()
                decision = legal[rng.below(len(legal))]
                if deal.phase == "spare_hand":
                    bids = [a for a in legal if a.action == "bid"]
                    assert (type(legal) is FixedActions) == (len(bids) <= SHORT_MENU)
                    assert decision in legal and list(legal) == [legal[i] for i in
                                                                 range(len(legal))]
                    menus += 1
                if deal.phase == "poker" and deal.state(PokerState).step == "bet":
                    _check_bet(deal, decision)
                    bets += 1
                else:
                    deal.apply(decision)
    assert bets + menus > 5

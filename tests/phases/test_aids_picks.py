"""The amounts the heuristic bot picks from a menu in the poker and spare-hand advice, found
in one pass since issue 24's sixteenth session: the very actions the list and ``min`` by a
key function they replace picked (the first on a tie), so the bot's decisions are the same."""

from __future__ import annotations

import random

from stops.engine.actions import Action, simple, with_chips
from stops.phases.poker_aids import _with_amount
from stops.phases.spare_aids import _lowest_bid


def _menus(seed: int) -> list[list[Action]]:
    """Menus of bets, raises, calls and bids in any order, with repeated amounts and amounts
    on spaces (the same amount twice: the first is the one picked)."""
    rng = random.Random(seed)
    menus: list[list[Action]] = [[], [simple(0, "pass")]]
    for _ in range(300):
        menu = [simple(0, "pass")] if rng.random() < 0.5 else []
        for _ in range(rng.randrange(0, 12)):
            verb = rng.choice(["bet", "raise", "bid", "call"])
            if verb == "call":
                menu.append(simple(0, "call"))
            else:
                menu.append(with_chips(0, verb, rng.randrange(0, 15),
                                       rng.choice([None, None, "pot"])))
        rng.shuffle(menu)
        menus.append(menu)
    return menus


def test_the_nearest_amount_is_the_one_min_picked() -> None:
    for menu in _menus(1):
        for verb in ("bet", "raise"):
            for chips in range(-1, 17):
                amounts = [a.chips for a in menu if a.action == verb and a.chips is not None]
                want = (None if not amounts else
                        with_chips(0, verb, min(amounts, key=lambda k: (abs(k - chips), k))))
                assert _with_amount(menu, 0, verb, chips) == want


def test_the_lowest_bid_is_the_one_min_picked() -> None:
    for menu in _menus(2):
        bids = [a for a in menu if a.action == "bid" and a.chips is not None]
        want = min(bids, key=lambda a: a.chips or 0) if bids else None
        assert _lowest_bid(menu) is want


def test_a_legal_sets_fewest_is_the_first_lowest_of_its_actions() -> None:
    """``LegalActions.fewest`` answers from its families of amounts (ascending, descending
    or any order, beside explicit actions) without expanding them: the very action a pass
    over every action finds (the first on a tie), so the spare advice bids as it did."""
    from stops.engine.legal import Amounts, Fixed, FixedActions, LegalActions, fewest

    rng = random.Random(3)
    for _ in range(400):
        parts: list[Amounts | Fixed] = []
        for _ in range(rng.randrange(0, 4)):
            verb = rng.choice(["bid", "bet", "bid"])
            if rng.random() < 0.5:
                lo = rng.randrange(0, 6)
                hi = lo + rng.randrange(0, 5)
                amounts = rng.choice([range(lo, hi), range(hi, lo - 1, -1),
                                      tuple(rng.randrange(0, 9) for _ in range(hi - lo))])
                parts.append(Amounts(0, verb, amounts, rng.choice([None, "pot"])))
            else:
                parts.append(Fixed(tuple(
                    rng.choice([simple(0, "pass"), with_chips(0, verb, rng.randrange(0, 9))])
                    for _ in range(rng.randrange(1, 4)))))
        legal = LegalActions(*parts)
        for verb in ("bid", "bet", "pass"):
            want = fewest(list(legal), verb)
            assert legal.fewest(verb) == want
            assert FixedActions(list(legal)).fewest(verb) == want
            assert _lowest_bid(legal) == fewest(list(legal), "bid")

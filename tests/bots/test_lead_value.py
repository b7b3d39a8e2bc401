"""The heuristic bot's lead value and what it knows at a decision (stops.bots.heuristic), made
cheaper in issue 24: the same numbers as the plain code they replace, to the last bit, so
the bot makes the very same decisions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING

import stops
from stops.bots import HeuristicBot
from stops.bots.heuristic import (
    ACE,
    L_CARD,
    L_KEEP,
    L_OPP_PAY,
    L_OUT,
    L_OUT_LINE,
    L_STUCK,
    _certain_out,
    _Knowledge,
    _knowledge,
    _lead_value,
    _Reader,
    _View,
    readers,
)
from stops.engine.cards import parse_card
from stops.rules.registry import default_registry

if TYPE_CHECKING:
    from stops.engine.observation import Observation


def _run_from(card: int, hand: frozenset[int]) -> list[int]:
    run = [card]
    while card % 13 != ACE and card + 1 in hand:
        card += 1
        run.append(card)
    return run


def reference_certain_out(hand: frozenset[int], dead: frozenset[int], broken: int | None,
                          depth: int) -> bool:
    """``_certain_out`` as the bot had it before issue 24's third turn."""
    if not hand:
        return True
    if depth <= 0:
        return False
    suits = sorted({c // 13 for c in hand})
    allowed = [s for s in suits if s != broken] or suits
    for s in allowed:
        low = min(c for c in hand if c // 13 == s)
        run = _run_from(low, hand)
        rest = hand.difference(run)
        if not rest:
            return True
        top = run[-1]
        if (top % 13 == ACE or top + 1 in dead) and reference_certain_out(
                rest, dead.union(run), s, depth - 1):
            return True
    return False


def reference_lead_value(card: int, kn: _Knowledge) -> float:
    """``_lead_value`` as the bot had it before issue 24's third turn (``p_dead`` a method,
    the pay a dict lookup per card)."""
    hand = kn.hand
    run = _run_from(card, hand)
    if len(run) == len(hand):
        return L_OUT + kn.kitty + len(run)
    value = L_CARD * len(run) + sum(kn.pay.get(c, 0) for c in run)
    suit = card // 13
    ranks = {c % 13 for c in run}
    for run_ranks, chips in kn.suit_runs:
        if all(r in ranks for r in run_ranks):
            value += chips
    if len(run) >= 3:
        value += kn.run_prize
    below = card - 1
    if card % 13 == 0 or below in kn.dead:
        value += L_STUCK
    top = run[-1]
    if top % 13 == ACE:
        value += L_KEEP
        if reference_certain_out(hand.difference(run), kn.dead.union(run), suit, 3):
            value += L_OUT_LINE
        return value
    p_stop = kn.p_dead(top + 1)
    value += L_KEEP * p_stop
    if p_stop >= 1.0 and reference_certain_out(hand.difference(run), kn.dead.union(run),
                                               suit, 3):
        value += L_OUT_LINE
    reach = 1.0 - p_stop
    y = top + 1
    while reach > 0.01:
        mine = y in hand
        if mine:
            value += reach * (L_CARD + kn.pay.get(y, 0))
        else:
            value -= reach * L_OPP_PAY * kn.pay.get(y, 0)
        if y % 13 == ACE:
            if mine:
                value += reach * L_KEEP
            break
        p_next = kn.p_dead(y + 1)
        if mine and y + 1 not in hand:
            value += reach * p_next * L_KEEP
        reach *= 1.0 - p_next
        y += 1
    return value


def test_a_lead_valued_by_hand() -> None:
    # Hand 9S TS 4H AC, nothing dead or shown, p_spare 0.25, no pay cards.
    hand = frozenset(int(parse_card(c)) for c in ("9S", "TS", "4H", "AC"))
    kn = _Knowledge(hand, frozenset(), frozenset(), 0.25, {}, (), 0, 0)
    # Lead 9S: the run 9S TS is ours (2 cards: 2.0); 8S is live: nothing stuck. JS after
    # it stops with p_dead 0.25: keeping the lead is worth 1.5 * 0.25 = 0.375, no sure
    # stop so no line out is looked for; reach 0.75. JS, QS, KS, AS are others' and pay
    # nothing: the reach loop adds nothing, and ends at the ace. 2.0 + 0.375 = 2.375.
    assert _lead_value(int(parse_card("9S")), kn) == 2.375
    # Lead AC: the ace alone (1.0), KC below it live; an ace keeps the lead (+1.5). A sure
    # line out after it? 4H needs 5H dead, 9S TS needs JS dead: none. 1.0 + 1.5 = 2.5.
    assert _lead_value(int(parse_card("AC")), kn) == 2.5
    # With JS dead: after AC, 9S TS stops on JS and 4H goes out: +60, 62.5. And 9S now
    # keeps the lead for sure (+1.5) with AC then 4H to go out (+60), and nothing is
    # passed on: 2.0 + 1.5 + 60 = 63.5.
    dead = frozenset({int(parse_card("JS"))})
    kn = _Knowledge(hand, dead, frozenset(), 0.25, {}, (), 0, 0)
    assert _lead_value(int(parse_card("AC")), kn) == 62.5
    assert _lead_value(int(parse_card("9S")), kn) == 63.5


def test_lead_values_are_the_reference_to_the_last_bit() -> None:
    rng = random.Random(24)
    runs = (((6, 7, 8), 3), ((10, 11), 2))
    checked = 0
    for t in range(800):
        cards = rng.sample(range(52), 52)
        hand = frozenset(cards[:rng.randrange(1, 14)])
        rest = cards[len(hand):]
        dead = frozenset(rest[:rng.randrange(0, 30)])
        rest = rest[len(dead):]
        shown = frozenset(rest[:rng.randrange(0, 6)])
        pay = {c: rng.randrange(1, 5) for c in rng.sample(range(52), rng.randrange(0, 6))}
        p_spare = rng.choice((0.0, 1.0, rng.random()))
        kn = _Knowledge(hand, dead, shown, p_spare, pay, runs[:t % 3], rng.randrange(0, 4),
                        rng.randrange(0, 9))
        for c in hand:
            assert _lead_value(c, kn).hex() == reference_lead_value(c, kn).hex()
            checked += 1
        broken = rng.choice((None, 0, 1, 2, 3))
        assert _certain_out(hand, dead, broken, 3) == reference_certain_out(hand, dead,
                                                                            broken, 3)
    assert checked > 2_500


def _facts(kn: _Knowledge) -> tuple[object, ...]:
    return (kn.hand, kn.dead, kn.held_elsewhere, kn.p_spare, kn.pay, kn.suit_runs,
            kn.run_prize, kn.kitty)


def test_knowledge_with_a_remembered_layout_is_knowledge_afresh() -> None:
    """A seat's reader remembers what the last layout paid; at every decision of several
    Three-in-One deals (chips won and the pot and kitty played for between them) what the
    bot knows is what a fresh reading of the observation gives, and the layout did
    change."""
    known = readers(default_registry())
    kept = [_Reader(known) for _ in range(4)]
    layouts = set()
    for obs, bot in _decisions(seed=5, deals=3):
        board = bot._board
        got = _knowledge(obs, known, board, kept[obs.seat])
        assert _facts(got) == _facts(_knowledge(obs, known, board, None))
        assert _facts(_knowledge(obs, known, None, kept[obs.seat])) == \
            _facts(_knowledge(obs, known, None, None))
        layouts.add(tuple(sorted(obs.layout.items())))
    assert len(layouts) > 3


def _decisions(seed: int, deals: int) -> Iterator[tuple[Observation, HeuristicBot]]:
    """Each decision of ``deals`` Three-in-One deals of heuristic bots at four seats: the
    observation of the seat to act and its bot, which then acts on it."""
    table = stops.Table("three-in-one", seats=4, chips=50, seed=seed)
    bots = [HeuristicBot(s, variant=table.variant) for s in range(4)]
    for _ in range(deals):
        deal = table.new_deal()
        while not deal.is_terminal:
            seat = deal.current_seat
            assert seat is not None
            obs = deal.observe(seat)
            yield obs, bots[seat]
            deal.apply(bots[seat].act(obs))


def test_unseen_is_every_card_neither_held_nor_out_of_play() -> None:
    """``unseen`` (taken from a frozenset of the deck since issue 24's session 14) is the
    plain set difference it replaced, in card order, at every decision of a few deals."""
    known = readers(default_registry())
    seen = 0
    for obs, bot in _decisions(seed=7, deals=2):
        view = _View(obs, obs.legal_actions, frozenset(), random.Random(0), known, bot._board)
        kn = view.knowledge()
        assert view.unseen() == sorted(set(range(52)) - kn.hand - kn.dead)
        seen += 1
    assert seen > 50

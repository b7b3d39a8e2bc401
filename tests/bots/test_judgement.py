"""The heuristic bot's hand score and its sampled mean (stops.bots.judgement): the same numbers
as the plain loop they replace, to the last bit, and the same draws of the bot's generator."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from stops.bots.judgement import hand_quality, mean_quality, pay_table
from stops.engine.cards import parse_card


def reference_quality(hand: Iterable[int], pay: dict[int, int] | None = None) -> float:
    """The score as the bot always worked it out (before issue 24): sort the hand, split it
    into runs of one suit, and add each run's steps in card order."""
    cards = sorted(int(c) for c in hand)
    pay = pay or {}
    groups: list[list[int]] = []
    for c in cards:
        if groups and groups[-1][-1] + 1 == c and c % 13 != 0:
            groups[-1].append(c)
        else:
            groups.append([c])
    score = -0.2 * len(cards)
    for g in groups:
        score -= 1.0
        if g[-1] % 13 == 12:
            score += 1.0
        if len(g) == 1 and g[0] % 13 <= 3:
            score -= 0.3
    score += 0.8 * sum(pay.get(c, 0) for c in cards)
    return score


def cards(*names: str) -> list[int]:
    return [int(parse_card(n)) for n in names]


def test_a_hand_scored_by_hand() -> None:
    # 2C 3C 4C | AS | 5D | KH, the king paying 2 chips:
    # six cards -1.2; four runs -4; the run to the ace +1; the lone 5 (a low card) -0.3;
    # the king's 2 chips +0.8 * 2 = 1.6. Total -1.2 - 4 + 1 - 0.3 + 1.6 = -2.9.
    hand = cards("2C", "3C", "4C", "AS", "5D", "KH")
    pay = {int(parse_card("KH")): 2}
    assert hand_quality(hand, pay) == pytest.approx(-2.9)
    # a lone 6 is no low card: 6D alone is -0.2 - 1 = -1.2
    assert hand_quality(cards("6D")) == pytest.approx(-1.2)
    # 10 J Q K A of one suit: -1.0 (five cards) - 1 (one run) + 1 (to the ace) = -1.0
    assert hand_quality(cards("TS", "JS", "QS", "KS", "AS")) == pytest.approx(-1.0)
    # the ace and the two of the next suit are no run: AC 2D is two runs, the two lone
    # and low: -0.4 - 2 + 1 - 0.3 = -1.7
    assert hand_quality(cards("AC", "2D")) == pytest.approx(-1.7)


def test_hand_quality_is_the_reference_to_the_last_bit() -> None:
    rng = random.Random(24)
    for t in range(5000):
        hand = rng.sample(range(52), rng.randrange(0, 20))
        pay = {c: rng.randrange(0, 4) for c in rng.sample(range(52), rng.randrange(0, 8))}
        given = pay if t % 3 else None
        assert hand_quality(hand, given).hex() == reference_quality(hand, given).hex()


@pytest.mark.parametrize(("pool_size", "size"), [(42, 10), (38, 13), (20, 10), (12, 5),
                                                 (50, 3), (10, 0), (12, 1), (9, 9), (1, 1)])
def test_mean_quality_draws_as_random_sample(pool_size: int, size: int) -> None:
    """Same picks, same sum, same generator state after as the loop over ``rng.sample``
    (50 cards, 3 drawn: the set branch of ``random.sample``, which is called as is; one card
    drawn, or the whole pool: the hand's last draw, made apart, at both ends)."""
    rng = random.Random(7)
    pay = {c: rng.randrange(0, 3) for c in rng.sample(range(52), 6)}
    table = pay_table(pay)
    for seed in range(40):
        pool = sorted(rng.sample(range(52), pool_size))
        mine, theirs = random.Random(seed), random.Random(seed)
        total = 0.0
        for _ in range(32):
            total += reference_quality(theirs.sample(pool, size), pay)
        assert mean_quality(mine, pool, size, 32, table).hex() == (total / 32).hex()
        assert mine.getstate() == theirs.getstate()


@pytest.mark.parametrize("pay_cards", [("AH", "KH", "QH", "JH", "TH"), ("9C", "3D"), (),
                                       ("2S",), ("AC", "2D")])
def test_mean_quality_with_pay_cards_close_together(pay_cards: tuple[str, ...]) -> None:
    """Pay cards within eight cards of each other (Three-in-One's hearts ten to ace) are
    priced from one table by the window of the hand's bits they span: the same sum, to the
    last bit, as the loop over ``rng.sample``; several chips on some, none on others."""
    rng = random.Random(11)
    for seed in range(30):
        pay = {c: rng.randrange(0, 4) for c in cards(*pay_cards)}
        table = pay_table(pay)
        pool = sorted(rng.sample(range(52), 42))
        mine, theirs = random.Random(seed), random.Random(seed)
        total = 0.0
        for _ in range(32):
            total += reference_quality(theirs.sample(pool, 10), pay)
        assert mean_quality(mine, pool, 10, 32, table).hex() == (total / 32).hex()
        assert mine.getstate() == theirs.getstate()


def test_a_generator_of_its_own_is_sampled_as_it_samples() -> None:
    """A subclass of ``random.Random`` may draw otherwise: it is asked to sample."""

    class Stepping(random.Random):
        def random(self) -> float:
            return 0.5

    pool = list(range(30))
    mine, theirs = Stepping(3), Stepping(3)
    total = 0.0
    for _ in range(8):
        total += reference_quality(theirs.sample(pool, 6))
    assert mean_quality(mine, pool, 6, 8, pay_table(None)) == total / 8


def test_notes_read_on_from_the_last_observation_are_the_notes_read_afresh() -> None:
    """One reader for every seat of several Three-in-One deals (the poker stage shows hands
    and plays for the pot): after each observation its notes are those of a fresh reading
    of that observation's events, whether it read on or started again."""
    import stops
    from stops.bots import HeuristicBot
    from stops.bots.heuristic import _Reader, readers
    from stops.rules.registry import default_registry

    known = readers(default_registry())
    shared = _Reader(known)
    table = stops.Table("three-in-one", seats=4, chips=50, seed=3)
    bots = [HeuristicBot(s) for s in range(4)]
    shown = 0
    for _ in range(4):
        deal = table.new_deal()
        while not deal.is_terminal:
            seat = deal.current_seat
            assert seat is not None
            for s in {seat, (seat + 1) % 4}:  # the seat to act, and another one now and then
                obs = deal.observe(s)
                got = shared.notes_of(obs)
                fresh = _Reader(known).notes_of(obs)
                assert got == fresh
                shown += bool(got.held_elsewhere)
            deal.apply(bots[seat].act(deal.observe(seat)))
    assert shown  # some hand was shown to another seat: the notes were not all empty


def test_the_running_python_draws_as_the_fast_estimate_does() -> None:
    """The check made at import (``_same_draws``) passes on this Python: were it to fail,
    the bot would fall back on ``random.sample`` and make the same choices, only slower,
    and no other test would notice."""
    from stops.bots import judgement

    assert judgement._FAST


def test_every_suit_shape_made_at_once_is_the_one_worked_out_alone() -> None:
    """The table of all 8,192 sets of one suit's ranks, each made from the set without its
    highest rank, holds what working each set out rank by rank gives. By hand: 2-3-4 and
    the ace (ranks 0-2 and 12) are a plain run then a run to the ace, two steps: (1 << 2 | 2)
    << 5 | 16 | 4 = 6 * 32 + 20 = 212; a lone 5 (rank 3) is a lone low card: 3 << 5 | 16 |
    2 = 114; a lone 6 (rank 4) is plain: 1 << 5 | 16 | 2 = 50."""
    from stops.bots.judgement import _all_shapes, _suit_shape

    table = _all_shapes()
    assert table == [_suit_shape(r) for r in range(1 << 13)]
    assert table[0b1_0000_0000_0111] == 212
    assert table[1 << 3] == 114
    assert table[1 << 4] == 50

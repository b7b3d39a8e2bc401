"""The heuristic bot's judgement of a stops hand, and its mean over sampled hands: the numeric
core of :mod:`stops.bots.heuristic`, kept apart so that the compiled build compiles it.

The spare-hand advice weighs a hand against some thirty hands drawn from the unseen cards, on
most decisions of a deal with a spare hand; that loop is most of what the bot costs. Two
things make it cheap without changing one choice:

* **The same draws.** :func:`mean_quality` draws each hand with the bot's generator exactly as
  ``rng.sample(pool, size)`` does (same calls of ``getrandbits``, same picks, same state after),
  but without building the sample list; :func:`_same_draws` checks that at import against the
  running Python's own ``random.sample`` and falls back to it should they ever differ.
* **The same score.** :func:`hand_quality` adds the same numbers in the same order as the bot
  always has (a float sum depends on its order): the hand's runs in card order, each
  contributing the same steps. Which steps, and so the sum, depends only on the hand's size
  and the shape of its runs, so each suit's shape comes from a table and the score of a whole
  shape is worked out once and remembered.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from typing import Final

ACE: Final = 12
"""Rank index of the ace (card codes rank the two lowest: index 0 is the two)."""

# Hand-quality weights, in rough chip units. Each group of consecutive cards needs one lead
# (or another player's run into it) to leave the hand, so fewer groups is better; an ace
# ends a run with a sure stop and so gives back the lead; every card left costs at the end.
Q_PAY: Final = 0.8
Q_ACE: Final = 1.0
Q_GROUP: Final = 1.0
Q_CARD: Final = 0.2
Q_LOW: Final = 0.3

_PLAIN: Final = 1
"""A run's steps: ``- Q_GROUP``."""
_TO_ACE: Final = 2
"""``- Q_GROUP + Q_ACE``: a run ending in the ace."""
_LONE_LOW: Final = 3
"""``- Q_GROUP - Q_LOW``: a lone low card (2 to 5)."""

_SUIT_SHAPES: Final[dict[int, int]] = {}
"""By 13-bit set of ranks of one suit (worked out when first met), its runs' steps, two bits
a run (a code above), lowest run in the highest bits, and above them a 1 bit, which says
where the steps start."""

_SCORES: Final[dict[int, float]] = {}
"""The score of a hand (pay cards aside) by its shape: the runs' steps in card order, and its
size in the low 6 bits."""


def _suit_shape(ranks: int) -> int:
    """The steps of the runs of one suit's ranks (a 13-bit set), behind a leading 1 bit."""
    shape = 1
    r = 0
    while r < 13:
        if not ranks >> r & 1:
            r += 1
            continue
        start = r
        while r < 13 and ranks >> r & 1:
            r += 1
        top = r - 1
        if top == ACE:
            code = _TO_ACE
        elif top == start and start <= 3:
            code = _LONE_LOW
        else:
            code = _PLAIN
        shape = shape << 2 | code
    return shape


def _score(shape: int, size: int) -> float:
    """Work out a shape's score, step by step in card order, as the bot always has."""
    codes: list[int] = []
    while shape > 1:
        codes.append(shape & 3)
        shape >>= 2
    score = -Q_CARD * size
    for code in reversed(codes):
        score -= Q_GROUP
        if code == _TO_ACE:
            score += Q_ACE
        elif code == _LONE_LOW:
            score -= Q_LOW
    return score


def _shape_score(mask: int, size: int) -> float:
    """The score (pay cards aside) of the hand whose cards are the bits of ``mask``."""
    shapes = _SUIT_SHAPES
    key = 1
    for suit in range(4):
        ranks = (mask >> (13 * suit)) & 0x1FFF
        s = shapes.get(ranks, 0)
        if not s:
            s = shapes[ranks] = _suit_shape(ranks)
        # the suit's steps follow the lower suits' (drop its leading 1 bit)
        width = s.bit_length() - 1
        key = (key << width) | (s ^ (1 << width))
    key = key << 6 | size
    got = _SCORES.get(key)
    if got is None:
        if len(_SCORES) > 200_000:  # bound the memory of a very long run
            _SCORES.clear()
        got = _SCORES[key] = _score(key >> 6, size)
    return got


def pay_table(pay: dict[int, int] | None) -> list[int]:
    """``pay`` (card -> chips on its space) as a list indexed by card."""
    table = [0] * 52
    if pay:
        for c, chips in pay.items():
            table[c] = chips
    return table


def hand_quality(hand: Iterable[int], pay: dict[int, int] | None = None) -> float:
    """A quick score of a stops hand: higher is better.

    It rewards pay cards held (``pay`` maps card -> chips on its space) and aces, and
    penalises the number of separate runs, isolated low cards (2-5: only their holder can
    ever lead them out) and sheer size. It is deliberately cheap, because the spare-hand
    decisions compare it against dozens of sampled hands.
    """
    mask = 0
    size = 0
    paid = 0
    for c in hand:
        card = int(c)
        mask |= 1 << card
        size += 1
        if pay:
            paid += pay.get(card, 0)
    return _shape_score(mask, size) + Q_PAY * paid


def _set_size(k: int) -> int:
    """The population size up to which ``random.sample`` draws from a list (CPython's rule)."""
    setsize = 21
    if k > 5:
        setsize += 4 ** math.ceil(math.log(k * 3, 4))
    return setsize


def mean_quality(rng: random.Random, pool: Sequence[int], size: int, samples: int,
                 pay: list[int]) -> float:
    """The mean :func:`hand_quality` of ``samples`` hands, each ``rng.sample(pool, size)``
    in turn (``pay``: chips by card, :func:`pay_table`): the same draws, the same scores,
    the same sum."""
    n = len(pool)
    if _FAST and type(rng) is random.Random and 0 <= size <= n <= _set_size(size):
        return _drawn_total(rng, pool, size, samples, pay) / samples
    total = 0.0
    for _ in range(samples):
        total += _quality_of(rng.sample(pool, size), pay)
    return total / samples


def _drawn_total(rng: random.Random, pool: Sequence[int], size: int, samples: int,
                 pay: list[int]) -> float:
    """The sum of the scores of ``samples`` hands drawn as ``random.sample`` draws from a
    list (its "pool" branch, which CPython takes for ``len(pool) <= _set_size(size)``):
    index ``randbelow(n - i)`` of the cards left, whose place the last one left takes."""
    n = len(pool)
    total = 0.0
    getrandbits = rng.getrandbits
    cards: list[int] = [int(c) for c in pool]
    for _ in range(samples):
        left = list(cards)
        mask = 0
        paid = 0
        for i in range(size):
            m = n - i
            bits = m.bit_length()
            j = getrandbits(bits)
            while j >= m:
                j = getrandbits(bits)
            c = left[j]
            left[j] = left[m - 1]
            mask |= 1 << c
            paid += pay[c]
        total += _shape_score(mask, size) + Q_PAY * paid
    return total


def _quality_of(cards: list[int], pay: list[int]) -> float:
    mask = 0
    paid = 0
    for c in cards:
        mask |= 1 << c
        paid += pay[c]
    return _shape_score(mask, len(cards)) + Q_PAY * paid


def _same_draws() -> bool:
    """Do this Python's ``random.sample`` draws match :func:`_drawn_total`'s own?"""
    pay = [c % 3 for c in range(52)]
    for seed in (1, 2, 3):
        for n, k in ((42, 10), (30, 8), (20, 13), (12, 5)):
            pool = list(range(52 - n, 52))
            a, b = random.Random(seed), random.Random(seed)
            fast = _drawn_total(a, pool, k, 4, pay) / 4
            slow = sum(_quality_of(b.sample(pool, k), pay) for _ in range(4)) / 4
            if fast != slow or a.getstate() != b.getstate():
                return False
    return True


_FAST: Final = _same_draws()
"""Draw as ``random.sample`` does, without calling it (checked once, at import)."""

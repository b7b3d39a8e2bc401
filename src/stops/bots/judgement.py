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
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, cast

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

_SUIT_SHAPES: Final[list[int]] = []
"""By 13-bit set of ranks of one suit, its runs' steps: two bits a run (a code above, never
0), lowest run in the highest bits, shifted left 5 bits; then a 16 (so that no entry is 0)
and, in the low 4 bits, the steps' width (twice the runs, at most 14). All 8,192 are made
at the first score (:func:`_suit_shapes`)."""

_SCORES: Final[dict[int, dict[int, float]]] = {}
"""For each size of hand, the score of a hand (pay cards aside) by its shape
(:func:`_shape_key`), and of the shorter shapes :func:`_score` met on the way."""


def _suit_shape(ranks: int) -> int:
    """The steps of the runs of one suit's ranks (a 13-bit set), as :data:`_SUIT_SHAPES`
    keeps them."""
    steps = 0
    width = 0
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
        steps = steps << 2 | code
        width += 2
    return steps << 5 | 16 | width


def _all_shapes() -> list[int]:
    """:func:`_suit_shape` of every 13-bit set of ranks, each from that of the set without
    its highest rank: that rank either carries on the set's highest run (which then ends
    there: in the ace, or as a plain run) or starts a run of its own (a new step)."""
    table = [0] * (1 << 13)
    table[0] = 16
    for ranks in range(1, 1 << 13):
        top = ranks.bit_length() - 1
        before = table[ranks ^ 1 << top]
        steps = before >> 5
        width = before & 15
        if top > 0 and ranks >> (top - 1) & 1:
            steps = steps >> 2 << 2 | (_TO_ACE if top == ACE else _PLAIN)
        else:
            steps = steps << 2 | (_TO_ACE if top == ACE else
                                  _LONE_LOW if top <= 3 else _PLAIN)
            width += 2
        table[ranks] = steps << 5 | 16 | width
    return table


def _suit_shapes() -> list[int]:
    """:data:`_SUIT_SHAPES`, made on first use: 8,192 small steps once. (Working out each
    set when first met took a loop over its 13 ranks, and a few hundred deals meet most of
    them: the sampled estimate met a new one every few hands drawn.)"""
    sh = _SUIT_SHAPES
    if len(sh) != 1 << 13:
        sh[:] = _all_shapes()
    return sh


def _score(key: int, size: int, scores: dict[int, float]) -> float:
    """Work out the score of a hand of ``size`` cards from its shape (:func:`_shape_key`),
    step by step in card order, as the bot always has, and remember it in ``scores``
    (:func:`_scores` of that size). The steps of a shape are those of the shape without
    its last run (``key >> 2``: the same runs but the last), then the last run's: that
    shorter shape's score is read from ``scores`` (worked out and remembered the same way
    when not there yet), then the last run's steps taken, the very sums in the very order.
    Most new shapes share all but their last run or two with shapes met before: stepping
    through every run of a new ten-card shape cost the pure build some 10,700 instructions
    (the key is a big integer there), some forty times a deal of Three-in-One."""
    if not key:
        return -Q_CARD * size
    before = scores.get(key >> 2)
    if before is None:
        before = _score(key >> 2, size, scores)
    score = before - Q_GROUP
    code = key & 3
    if code == _TO_ACE:
        score += Q_ACE
    elif code == _LONE_LOW:
        score -= Q_LOW
    scores[key] = score
    return score


def _shape_key(mask: int) -> int:
    """The shape of the hand whose cards are the bits of ``mask``: the steps of all its runs
    in card order, two bits a run (none is 0, so the number says which steps, and how many),
    first run highest; at most 28 runs, so under 2**56, a small int in the compiled build
    too. Two hands of a size with the same steps have the same score."""
    sh = _suit_shapes()
    va = sh[mask & 0x1FFF]
    vb = sh[mask >> 13 & 0x1FFF]
    vc = sh[mask >> 26 & 0x1FFF]
    vd = sh[mask >> 39 & 0x1FFF]
    return (((va >> 5 << (vb & 15) | vb >> 5) << (vc & 15) | vc >> 5) << (vd & 15)
            | vd >> 5)


def _scores(size: int) -> dict[int, float]:
    """The remembered scores of hands of ``size`` cards, by shape."""
    got = _SCORES.get(size)
    if got is None or len(got) > 100_000:  # bound the memory of a very long run
        got = _SCORES[size] = {}
    return got


def _shape_score(mask: int, size: int, scores: dict[int, float]) -> float:
    """The score (pay cards aside) of the hand of ``size`` cards whose cards are the bits of
    ``mask``; ``scores``: :func:`_scores` of that size."""
    key = _shape_key(mask)
    got = scores.get(key)
    if got is None:
        got = _score(key, size, scores)
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
    return _shape_score(mask, size, _scores(size)) + Q_PAY * paid


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
    if _FAST and type(rng) is random.Random and 0 < size <= n <= _set_size(size):
        return _drawn_total(rng, pool, size, samples, pay) / samples
    total = 0.0
    for _ in range(samples):
        total += _quality_of(rng.sample(pool, size), pay)
    return total / samples


def _drawn_total(rng: random.Random, pool: Sequence[int], size: int, samples: int,
                 pay: list[int]) -> float:
    """The sum of the scores of ``samples`` hands drawn as ``random.sample`` draws from a
    list (its "pool" branch, which CPython takes for ``len(pool) <= _set_size(size)``):
    index ``randbelow(n - i)`` of the cards left, whose place the last one left takes;
    ``randbelow(m)`` takes ``getrandbits(m.bit_length())`` until it is below ``m``. The
    hand is the or of its cards' bits, the cards left kept as their bits (:data:`_BITS`):
    the place a card leaves is filled by moving the last one there. The list is typed
    ``Any``, so that the compiled build moves the bits as the objects they are (typed
    ``int``, each move unboxed one and boxed it again, a new int object for a bit above
    255) and unboxes only the bit picked, once, into a local typed ``int``; the pure build
    reads no table of bits at each pick. Each draw reads its bits and
    the last place left from one flat list (``j`` is below ``m`` when it is at most
    ``m - 1``), and a hand's last draw moves no card: nothing is drawn after it. ``size``
    is at least 1 (:func:`mean_quality` sends an empty hand the plain way)."""
    n = len(pool)
    bit_of = _BITS
    cards: list[Any] = [bit_of[int(c)] for c in pool]
    # each draw's (bits taken, last place left), in order: one flat loop per hand drawn;
    # the hand's last draw apart (``size`` is at least 1): no card is moved after it
    # (the bits taken are kept and passed as the objects they are: the compiled build boxed
    # a native int at every draw to pass it)
    draws: list[tuple[object, int]] = [((n - i).bit_length(), n - i - 1)
                                       for i in range(size - 1)]
    fbits: object = (n - size + 1).bit_length()
    flast = n - size
    window = _pay_window(pay)
    getrandbits = cast("Callable[[object], int]", rng.getrandbits)
    scores = _scores(size)
    sh = _suit_shapes()
    total = 0.0
    if window is not None:
        low, width, paid_of = window
        for _ in range(samples):
            left = cards[:]
            mask = 0
            for bits, last in draws:
                j = getrandbits(bits)
                while j > last:
                    j = getrandbits(bits)
                bit: int = left[j]  # unboxed here, once
                mask |= bit
                left[j] = left[last]
            j = getrandbits(fbits)
            while j > flast:
                j = getrandbits(fbits)
            bit = left[j]
            mask |= bit
            # _shape_score inline: two calls fewer per hand drawn
            va = sh[mask & 0x1FFF]
            vb = sh[mask >> 13 & 0x1FFF]
            vc = sh[mask >> 26 & 0x1FFF]
            vd = sh[mask >> 39 & 0x1FFF]
            key = (((va >> 5 << (vb & 15) | vb >> 5) << (vc & 15) | vc >> 5) << (vd & 15)
                   | vd >> 5)
            got = scores.get(key)
            if got is None:
                got = _score(key, size, scores)
            total += got + paid_of[mask >> low & width]
        return total
    paying = [(1 << c, chips) for c, chips in enumerate(pay) if chips]
    pay_mask = 0
    for bit, _ in paying:
        pay_mask |= bit
    for _ in range(samples):
        left = cards[:]
        mask = 0
        for bits, last in draws:
            j = getrandbits(bits)
            while j > last:
                j = getrandbits(bits)
            bit = left[j]
            mask |= bit
            left[j] = left[last]
        j = getrandbits(fbits)
        while j > flast:
            j = getrandbits(fbits)
        bit = left[j]
        mask |= bit
        paid = 0
        if mask & pay_mask:
            for bit, chips in paying:
                if mask & bit:
                    paid += chips
        va = sh[mask & 0x1FFF]
        vb = sh[mask >> 13 & 0x1FFF]
        vc = sh[mask >> 26 & 0x1FFF]
        vd = sh[mask >> 39 & 0x1FFF]
        key = ((va >> 5 << (vb & 15) | vb >> 5) << (vc & 15) | vc >> 5) << (vd & 15) | vd >> 5
        got = scores.get(key)
        if got is None:
            got = _score(key, size, scores)
        total += got + Q_PAY * paid
    return total


_BITS: Final[list[Any]] = [1 << c for c in range(52)]
"""The bit of each card in a hand's mask (:func:`_drawn_total`), typed ``Any``: the
compiled build keeps them as the int objects they are (see there)."""

_WINDOW: Final = 8
"""The widest span of cards whose pay is looked up in one table (256 entries at most)."""

_WINDOWS: Final[dict[tuple[int, ...], tuple[int, int, list[float]] | None]] = {}
""":func:`_pay_window` by pay table: a deal's pay changes only as chips are won."""


def _pay_window(pay: list[int]) -> tuple[int, int, list[float]] | None:
    """Where the paying cards of ``pay`` lie, when they span at most :data:`_WINDOW` cards
    (Three-in-One's five hearts, a game with no pay cards): the lowest card, the window's
    bit mask, and by the window's bits of a hand, ``Q_PAY`` times the chips they pay, the
    very float the loop over paying cards gives (an int sum, then one product)."""
    key = tuple(pay)
    if key in _WINDOWS:
        return _WINDOWS[key]
    paying = [c for c, chips in enumerate(pay) if chips]
    got: tuple[int, int, list[float]] | None = None
    if not paying:
        got = (0, 0, [Q_PAY * 0])
    elif paying[-1] - paying[0] < _WINDOW:
        low = paying[0]
        width = paying[-1] - low + 1
        paid = [0] * (1 << width)
        for sub in range(1, 1 << width):
            lowest = sub & -sub
            paid[sub] = paid[sub ^ lowest] + pay[low + lowest.bit_length() - 1]
        got = (low, (1 << width) - 1, [Q_PAY * p for p in paid])
    if len(_WINDOWS) > 1000:  # bound the memory of a very long run
        _WINDOWS.clear()
    _WINDOWS[key] = got
    return got


def _quality_of(cards: list[int], pay: list[int]) -> float:
    mask = 0
    paid = 0
    for c in cards:
        mask |= 1 << c
        paid += pay[c]
    size = len(cards)
    return _shape_score(mask, size, _scores(size)) + Q_PAY * paid


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

"""Portable deterministic randomness.

Python promises that ``random.Random(int).getrandbits`` is stable across versions, but not the
algorithms of ``shuffle`` or ``randrange``. So seeds are derived with BLAKE2b and shuffles are a
Fisher-Yates over ``getrandbits`` written here: the same seed deals the same cards on every
Python and platform. The global ``random`` module is never touched.
"""

from __future__ import annotations

import hashlib
import random
import struct
from collections.abc import Callable, MutableSequence, Sequence
from operator import itemgetter
from typing import TypeVar

T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts, e.g. ``derive_seed(7, "deal", 3)``."""
    h = hashlib.blake2b(repr(parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def keyed_shuffle(items: MutableSequence[T], *parts: object) -> None:
    """Shuffle ``items`` in place, determined by ``parts`` (e.g. ``(seed, "deal", 3)``).

    One SHAKE-128 call stretches the parts into a 64-bit key per item (big-endian), and the
    items are sorted by key, the earlier item first on a tie: no generator state to build,
    portable to every platform and Python version, and several times faster than seeding a
    generator for each deal. :func:`_key_order` finds that order quickly.
    """
    n = len(items)
    if n < 2:
        return
    _reorder(items, keyed_order(n, repr(parts).encode()))


def keyed_order(n: int, key: bytes) -> Sequence[int]:
    """The order a keyed shuffle puts ``n`` items in, as the items' indices, first to last
    (``key``: the parts' ``repr``, encoded). A caller that only reads the items in their new
    order (the deal phase, which hands each seat every k-th card) reads them through it and
    moves nothing."""
    if n < 2:
        return range(n)
    return _key_order(hashlib.shake_128(key).digest(8 * n), n)


def _reorder(items: MutableSequence[T], order: Sequence[int]) -> None:
    if isinstance(items, list):  # the usual case: the compiled build indexes a list natively
        got: list[T] = items
        got[:] = itemgetter(*order)(got)  # n >= 2: a tuple, built in C
    else:
        items[:] = [items[i] for i in order]


def deal_key(seed: int | str, index: int) -> bytes:
    """The key of deal ``index``'s shuffle at a table seeded ``seed``: exactly
    ``repr((seed, "deal", index)).encode()``, the stream's contract, formatted directly when
    both are plain integers (the usual case: half the instructions of a tuple's ``repr``)."""
    if seed.__class__ is int and index.__class__ is int:
        return b"(%d, 'deal', %d)" % (seed, index)  # %d of an int is its repr
    return repr((seed, "deal", index)).encode()


def deal_shuffle(seed: int | str, index: int, pack: list[T]) -> None:
    """The table's shuffle of deal ``index`` (a module function, so that a deal pickles;
    ``stops.engine.table`` exports it under this name too, for deals pickled before it lived
    here)."""
    if len(pack) >= 2:
        _reorder(pack, keyed_order(len(pack), deal_key(seed, index)))


class _FloatPlan:
    """The masks that turn ``n`` 64-bit keys into ``n`` sortable doubles, and test the sorted
    doubles for a shared prefix (see _key_order)."""

    __slots__ = ("fix", "keep", "low8", "packer", "tied")

    def __init__(self, n: int) -> None:
        keep = fix = low8 = tied = 0
        for j in range(n):
            keep |= ((1 << 44) - 1) << (64 * j + 8)        # a key's top 44 bits
            fix |= (0x3FF << 52 | (n - 1 - j)) << (64 * j)  # exponent of 1.0, item index
            low8 |= 1 << (64 * j + 8)
            if j < n - 1:
                tied |= 1 << (64 * j + 52)
        self.keep, self.fix, self.low8, self.tied = keep, fix, low8, tied
        self.packer = struct.Struct(f"<{n}d")


_PLANS: dict[int, _FloatPlan] = {}


def _key_order(stream: bytes, n: int) -> Sequence[int]:
    """The item indices of ``n`` big-endian 64-bit keys in ``stream``, by key (ties: the
    earlier index first), exactly as ``sorted(range(n), key=keys.__getitem__)``.

    Sorting 52 big integers through a key function costs more than the hash. So, as the bare
    reference loop does, each key becomes a double in [1, 2) whose mantissa is the key's top
    44 bits over the item's index (one byte), built for all keys at once with big-integer
    masks; the doubles sort natively and the index bytes are read back. Two keys that share
    their top 44 bits (about 1 deal in 10^10) would be ordered by index, not by key: a
    zero-word test on the sorted doubles' XOR finds that case (four big-integer operations
    on the packed doubles), and it is sorted exactly instead.
    """
    if n > 256:
        return _exact_order(stream, n)
    plan = _PLANS.get(n)
    if plan is None:
        plan = _PLANS[n] = _FloatPlan(n)
    # word j of the big-endian integer is key n-1-j: keep its top 44 bits at bits 8..51
    x = (int.from_bytes(stream, "big") >> 12) & plan.keep | plan.fix
    packer = plan.packer
    ranked = packer.pack(*sorted(packer.unpack(x.to_bytes(8 * n, "little"))))
    # Word k of d is sorted double k XOR double k+1 (the last: the largest double alone).
    # Bits 52-63 of the others are 0 (same sign and exponent) and bits 0-7 are not (two
    # indices), so subtracting 1 << 8 from a word borrows into its bit 52 exactly when its
    # bits 8-51, the prefixes' XOR, are all 0. A borrow out of such a word only takes 1 from
    # the next word's nonzero index bits, so it changes no other word's bit 52.
    p = int.from_bytes(ranked, "little")
    if ((p ^ (p >> 64)) - plan.low8) & plan.tied:  # two keys share a prefix
        return _exact_order(stream, n)
    return ranked[0::8]


def _exact_order(stream: bytes, n: int) -> list[int]:
    keys = struct.unpack(f">{n}Q", stream)
    return sorted(range(n), key=keys.__getitem__)


class Rng:
    """A small seeded generator with portable ``below``, ``shuffle`` and ``choice``."""

    __slots__ = ("_r",)

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def __reduce__(self) -> tuple[Callable[[object], Rng], tuple[object]]:
        """Copied and pickled as its generator's state (``random.Random.getstate``): the
        copy draws on from where the original stands, on its own generator, in both
        builds (the compiled class has no ``__dict__`` for the default protocol to fill)."""
        return _restored, (self._r.getstate(),)

    def bits(self) -> Callable[[int], int]:
        """The generator's ``getrandbits``, bound, for a loop that draws many times (the
        random playout): a call of a bound built-in needs no method look-up, which on a
        ``random.Random`` instance, with its ``__dict__``, costs as much as the draw. It is
        handed out, not kept on the ``Rng``: a kept bound method would be copied apart from
        its generator by ``copy.deepcopy``."""
        return self._r.getrandbits

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` by rejection sampling on raw bits."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        k = n.bit_length()
        # a method call each time, not a bound method kept: Python's method-call path (and
        # the compiled build's) makes no bound-method object, which cost an allocation per
        # decision of random play (the draws are the same calls in the same order)
        gen = self._r
        r = gen.getrandbits(k)
        while r >= n:
            r = gen.getrandbits(k)
        return r

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle in place: sort by 64-bit random keys, drawn as one big integer.

        The keys come from ``getrandbits`` (stable across Python versions) and are unpacked
        big-endian, so the result is the same on every platform. The sort runs in C, which
        makes this several times faster than a Fisher-Yates loop in Python; a tie between two
        64-bit keys (probability about 1e-16 per shuffle) keeps the earlier item first.
        """
        n = len(items)
        if n < 2:
            return
        keys = struct.unpack(f">{n}Q", self._r.getrandbits(64 * n).to_bytes(8 * n, "big"))
        order = sorted(range(n), key=keys.__getitem__)
        items[:] = [items[i] for i in order]

    def choice(self, items: Sequence[T]) -> T:
        """A uniform element of any sequence with ``len`` and indexing."""
        return items[self.below(len(items))]


def _restored(state: object) -> Rng:
    """An :class:`Rng` whose generator stands at ``state`` (see ``Rng.__reduce__``)."""
    rng = Rng(0)
    rng._r.setstate(state)  # type: ignore[arg-type]
    return rng

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
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


def derive_seed(*parts: object) -> int:
    """A 64-bit seed from any printable parts, e.g. ``derive_seed(7, "deal", 3)``."""
    h = hashlib.blake2b(repr(parts).encode(), digest_size=8)
    return int.from_bytes(h.digest(), "big")


def keyed_shuffle(items: MutableSequence[T], *parts: object) -> None:
    """Shuffle ``items`` in place, determined by ``parts`` (e.g. ``(seed, "deal", 3)``).

    One SHAKE-128 call stretches the parts into a 64-bit key per item, and the items are
    sorted by key: no generator state to build, portable to every platform and Python
    version, and several times faster than seeding a generator for each deal.
    """
    n = len(items)
    if n < 2:
        return
    stream = hashlib.shake_128(repr(parts).encode()).digest(8 * n)
    keys = struct.unpack(f">{n}Q", stream)
    order = sorted(range(n), key=keys.__getitem__)
    if isinstance(items, list):  # the usual case: the compiled build indexes a list natively
        got: list[T] = items
        got[:] = [got[i] for i in order]
    else:
        items[:] = [items[i] for i in order]


class Rng:
    """A small seeded generator with portable ``below``, ``shuffle`` and ``choice``."""

    __slots__ = ("_r",)

    def __init__(self, seed: int) -> None:
        self._r = random.Random(seed)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` by rejection sampling on raw bits."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        k = n.bit_length()
        getbits = self._r.getrandbits
        r = getbits(k)
        while r >= n:
            r = getbits(k)
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

"""The set of legal decisions, as a lazy sequence.

Most decisions have a handful of choices, but a few are large families: an amount of
1..stack, or the choice of 5 cards out of 13 (1,287 ways). Building every
:class:`Action` for those would dominate a simulation, so :class:`LegalActions` is a
``Sequence`` made of parts that are only materialised when indexed. ``len``, ``in``,
indexing and ``random.choice`` all work in O(1) per call.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations
from math import comb
from typing import Final, cast, overload

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, picked_cards, picks_ok, with_chips
from stops.engine.cards import CARDS, Card


def holds(actions: tuple[Action, ...], a: Action) -> bool:
    """``a in actions``, trying identity first: the engine's actions are interned, so a
    decision taken from the legal set is usually the very object in it, and no element is
    compared field by field."""
    for x in actions:
        if x is a:
            return True
    return tuple.__contains__(actions, a)


def fewest(actions: Sequence[Action], verb: str) -> Action | None:
    """The first of ``actions`` of ``verb`` with the fewest chips (``None``: none of
    ``verb`` has chips), in one pass: each action's fields read once."""
    low: Action | None = None
    least = 0
    for a in actions:
        if a.action == verb:
            k = a.chips
            if k is not None and (low is None or k < least):
                low, least = a, k
    return low


class _Part:
    __slots__ = ()

    def key(self) -> tuple[object, ...]:
        """What identifies this part, for comparing two legal sets without expanding them."""
        raise NotImplementedError

    def __len__(self) -> int:
        raise NotImplementedError

    def get(self, i: int) -> Action:
        raise NotImplementedError

    def has(self, a: Action) -> bool:
        raise NotImplementedError


class Fixed(_Part):
    """An explicit tuple of actions."""

    __slots__ = ("actions",)

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self.actions = actions

    def __reduce__(self) -> tuple[object, ...]:
        # every part says how to rebuild itself: the compiled build unpickles a native
        # class by calling it with no arguments, which a part cannot take
        return (Fixed, (self.actions,))

    def __len__(self) -> int:
        return len(self.actions)

    def get(self, i: int) -> Action:
        return self.actions[i]

    def has(self, a: Action) -> bool:
        return holds(self.actions, a)

    def key(self) -> tuple[object, ...]:
        return ("fixed", self.actions)


class Amounts(_Part):
    """``verb`` with every amount in ``amounts`` (a ``range`` or tuple), optionally on a space."""

    __slots__ = ("amounts", "made", "seat", "space", "verb")

    def __init__(self, seat: int, verb: str, amounts: Sequence[int], space: str | None = None):
        self.seat = seat
        self.verb = verb
        self.amounts = amounts
        self.space = space
        # The actions handed out so far, by index, for a short family (a limit bet's 1..10):
        # the phases share their legal sets, so a random or search driver picking amounts
        # again and again reads them here instead of building and hashing a key each time.
        # (Two threads filling a slot store the same interned action.)
        self.made: list[Action | None] = [None] * len(amounts) if len(amounts) <= 64 else []

    def __reduce__(self) -> tuple[object, ...]:
        return (Amounts, (self.seat, self.verb, self.amounts, self.space))

    def __len__(self) -> int:
        return len(self.amounts)

    def get(self, i: int) -> Action:
        made = self.made
        if i < len(made):
            a = made[i]
            if a is None:
                a = made[i] = with_chips(self.seat, self.verb, self.amounts[i], self.space)
            return a
        return with_chips(self.seat, self.verb, self.amounts[i], self.space)

    def key(self) -> tuple[object, ...]:
        # a range compares by value in O(1): never expand a million-chip range
        amounts = self.amounts
        same = amounts if isinstance(amounts, range) else tuple(amounts)
        return ("amounts", self.seat, self.verb, same, self.space)

    def has(self, a: Action) -> bool:
        return (
            a.action == self.verb and a.seat == self.seat and a.chips is not None
            and a.chips in self.amounts and a.space == self.space and a.card is None
            and a.cards is None
        )


_BINOM: Final = [[comb(n, k) for k in range(n + 1)] for n in range(53)]
_BINOM_PAD: Final = [[comb(n, k) for k in range(53)] for n in range(53)]
"""``comb(n, k)`` for every n, k < 53 (0 where k > n): a lookup with no bounds test."""


def _binom(n: int, k: int) -> int:
    """``comb(n, k)``, from a table for the sizes a pack allows."""
    if n < 53:
        return _BINOM[n][k] if k <= n else 0
    return comb(n, k)


MAX_COMBOS: Final = 8192
"""The largest family whose position tuples are kept (:func:`_combos`): five of 17 cards
(6,188) is the biggest a pack's poker hand meets; bigger families unrank step by step."""
_COMBOS: Final[dict[int, list[tuple[int, ...]]]] = {}


def _combos(n: int, k: int) -> list[tuple[int, ...]]:
    """Every ``k``-subset of ``range(n)`` as a tuple of positions, in lexicographic order (the
    order ``itertools.combinations`` gives), or ``[]`` for a family over :data:`MAX_COMBOS`.
    Made once per ``(n, k)`` and shared: a random or search driver picks one selection per
    legal set, so reading its positions here replaces the combinatorial number system's
    walk (a loop of up to ``n`` steps, interpreted in the pure build) by one list read.
    (Two threads filling one slot store equal lists.) Tuples of small integers are not
    tracked by the cyclic garbage collector once it has seen them."""
    key = n << 6 | k
    got = _COMBOS.get(key)
    if got is None:
        fits = n < 53 and _BINOM_PAD[n][k] <= MAX_COMBOS
        got = _COMBOS[key] = list(combinations(range(n), k)) if fits else []
    return got


class Selections(_Part):
    """Every ``k``-card subset of ``cards`` as a ``verb`` action (a verb that takes a list of
    cards, such as a phase's choice of a hand), in lexicographic order.

    Made in O(1) beyond reading ``cards`` (the size from a table of binomials); a selection
    is unranked only when it is picked, from the shared position tuples of :func:`_combos`.
    ``ordered=True`` says ``cards`` is already a tuple of the pack's :class:`Card` objects
    in card order (a hand read from its suit masks, :meth:`Deal.held`): it is then kept as
    given, not sorted and looked up again, and the caller answers for its cards as
    :func:`~stops.engine.actions.picked_cards`'s callers do (the seat and verb are still
    checked, once per set)."""

    __slots__ = ("_picked", "cards", "k", "n", "seat", "verb")

    def __init__(self, seat: int, cards: Sequence[int], k: int, verb: str,
                 ordered: bool = False) -> None:
        self.seat = seat
        held: tuple[Card, ...]
        if ordered and isinstance(cards, tuple):
            held = cast("tuple[Card, ...]", cards)
        else:
            held = tuple([CARDS[c] for c in sorted(cards)])
        self.cards = held
        self._picked = ordered and picks_ok(seat, verb)
        """The pack's own cards and a seat and verb that pass :class:`Action`'s checks,
        checked once here: a pick is then made by :func:`picked_cards`, without checking
        every field of every action again (a selection is picked once per set in random
        play, and the checks were about half of making it)."""
        self.k = k
        m = len(held)
        self.n = _BINOM_PAD[m][k] if m < 53 and k < 53 else comb(m, k)
        self.verb = verb

    def __reduce__(self) -> tuple[object, ...]:
        return (Selections, (self.seat, self.cards, self.k, self.verb))

    def __len__(self) -> int:
        return self.n

    def key(self) -> tuple[object, ...]:
        return ("cards", self.verb, self.seat, self.cards, self.k)

    def get(self, i: int) -> Action:
        cards = self.cards
        n, k = len(cards), self.k
        combos = _COMBOS.get(n << 6 | k)  # _combos, read inline: made on the set's first pick
        if combos is None:
            combos = _combos(n, k)
        if combos:
            # ``cards`` is sorted, so the picked cards are too: the action's canonical form
            picked = tuple([cards[p] for p in combos[i]])
            if self._picked:
                return picked_cards(self.seat, self.verb, picked)
            return Action(self.seat, self.verb, cards=picked)
        # a family too big to keep: unrank i in the combinatorial number system
        chosen: list[Card] = []
        start = 0
        while k:
            for j in range(start, n):
                c = _binom(n - j - 1, k - 1)
                if i < c:
                    chosen.append(cards[j])
                    start = j + 1
                    k -= 1
                    break
                i -= c
        return Action(self.seat, self.verb, cards=tuple(chosen))

    def has(self, a: Action) -> bool:
        return (
            a.seat == self.seat and a.action == self.verb and a.cards is not None
            and len(a.cards) == self.k and len(set(a.cards)) == self.k
            and all(c in self.cards for c in a.cards)
            and a.card is None and a.chips is None and a.space is None
        )


class LegalActions(Sequence[Action]):
    """The legal decisions for the seat to act, in a stable order."""

    __slots__ = ("_given", "_len", "_parts", "_sizes")

    def __init__(self, *parts: _Part) -> None:
        self._given: Action | None = None
        """The action this set handed out last (``in`` tests it first, by identity)."""
        if len(parts) == 1:
            # one part (a poker hand's selections, made at every choice): no lists to fill
            p = parts[0]
            n = len(p)
            self._parts: tuple[_Part, ...] = (p,) if n else ()
            self._sizes: tuple[int, ...] = (n,) if n else ()
            self._len = n
            return
        total = 0
        kept = []
        sizes = []
        for p in parts:
            n = len(p)
            if n:
                kept.append(p)
                sizes.append(n)
                total += n
        self._parts = tuple(kept)
        self._sizes = tuple(sizes)
        """Each part's size, kept: a pick walks them without calling each part's ``len``."""
        self._len = total

    def __reduce__(self) -> tuple[object, ...]:
        return (LegalActions, self._parts)

    @staticmethod
    def of(actions: Sequence[Action]) -> FixedActions:
        """A legal set that is just these actions (the common case: a fast path)."""
        return FixedActions(actions)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | Sequence[Action]:
        if isinstance(i, int):
            # the driver's case, first: a native test in the compiled build, where the
            # ``slice`` test was a module look-up and a generic ``isinstance`` per pick
            j: int = i
            if j < 0:
                j += self._len
            if not 0 <= j < self._len:
                raise IndexError("legal action index out of range")
            parts = self._parts
            if len(parts) == 1:
                got = parts[0].get(j)
                self._given = got
                return got
            for k, n in enumerate(self._sizes):
                if j < n:
                    got = parts[k].get(j)
                    self._given = got
                    return got
                j -= n
            raise IndexError("legal action index out of range")  # pragma: no cover
        return [self[j] for j in range(*i.indices(self._len))]

    def __contains__(self, a: object) -> bool:
        if a is self._given and a is not None:
            # handed out by this very set: legal without comparing fields. (A set may be
            # shared between deals and threads; another thread's write only means the slow
            # test below runs.)
            return True
        if not isinstance(a, Action):
            return False
        for p in self._parts:  # noqa: SIM110 - a plain loop compiles to C; any() does not
            if p.has(a):
                return True
        return False

    def __iter__(self) -> Iterator[Action]:
        for p in self._parts:
            for i in range(len(p)):
                yield p.get(i)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return [p.key() for p in self._parts] == [p.key() for p in other._parts]
        if isinstance(other, tuple | list):
            return len(other) == self._len and all(a == b for a, b in zip(self, other,
                                                                            strict=True))
        # not NotImplemented: the compiled build holds ``__eq__`` to ``bool`` and would
        # raise TypeError on ``"x" == legal``; a legal set equals only sequences of actions
        return False

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = [str(a) for a in self[:6]]
        more = f", ... ({self._len} in all)" if self._len > 6 else ""
        return f"LegalActions([{', '.join(shown)}{more}])"

    def fewest(self, verb: str) -> Action | None:
        """The first action of ``verb`` with the fewest chips, in this set's order (``None``:
        no action of ``verb`` has chips). A family of amounts answers from its amounts, no
        action made but the one returned: a bidder's menu of a hundred bids is read as one
        range."""
        found = False
        least = 0
        pick: Action | None = None  # the one found in a part of explicit actions
        part: Amounts | None = None  # or the family of amounts it is in, and where
        at = 0
        for p in self._parts:
            if isinstance(p, Amounts):
                amounts = p.amounts
                if p.verb != verb or not len(amounts):
                    continue
                if isinstance(amounts, range):  # its least is at one end: nothing expanded
                    i = 0 if amounts.step > 0 else len(amounts) - 1
                    k = amounts[i]
                else:
                    k = min(amounts)
                    i = amounts.index(k)
                if not found or k < least:
                    found, least, part, at, pick = True, k, p, i, None
            elif isinstance(p, Fixed):
                for a in p.actions:
                    chips = a.chips
                    if a.action == verb and chips is not None and (not found or chips < least):
                        found, least, part, pick = True, chips, None, a
        return part.get(at) if part is not None else pick

    @property
    def verbs(self) -> tuple[str, ...]:
        """The distinct verbs on offer, in order."""
        seen: dict[str, None] = {}
        for p in self._parts:
            if isinstance(p, Fixed):
                for a in p.actions:
                    seen.setdefault(a.action)
            elif isinstance(p, Amounts):  # noqa: SIM114 - one type per branch: native reads
                seen.setdefault(p.verb)
            elif isinstance(p, Selections):
                seen.setdefault(p.verb)
        return tuple(seen)


@mypyc_attr(native_class=False)  # a tuple subclass: the compiled build keeps it a Python class
class FixedActions(tuple[Action, ...]):
    """A legal set of explicit actions (the common case): a tuple, so ``len``, indexing,
    ``in`` and iteration run at C speed, plus the ``verbs`` of :class:`LegalActions`."""

    __slots__ = ()

    @property
    def verbs(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(a.action for a in self))

    def fewest(self, verb: str) -> Action | None:
        """As :meth:`LegalActions.fewest`."""
        return fewest(self, verb)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LegalActions):
            return other.__eq__(self)
        # a tuple or a list of the same actions; anything else False, not NotImplemented
        # (see LegalActions.__eq__)
        if isinstance(other, tuple):
            return tuple.__eq__(self, other)
        return isinstance(other, list) and tuple.__eq__(self, tuple(other))

    __hash__ = tuple.__hash__

    def __contains__(self, a: object) -> bool:
        return isinstance(a, Action) and holds(self, a)

    def __repr__(self) -> str:
        return f"LegalActions([{', '.join(str(a) for a in self)}])"


LegalSet = LegalActions | FixedActions
"""What ``legal_actions()`` returns: a sequence of actions with ``verbs``."""


__all__ = ["Amounts", "Fixed", "FixedActions", "LegalActions", "LegalSet", "Selections", "fewest",
           "holds"]

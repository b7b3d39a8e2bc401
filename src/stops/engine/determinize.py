"""``deal.clone_for(seat, rng)``: a copy of a deal as one seat might imagine it.

Information-set search (ISMCTS and its kin) samples a *determinization*: a full deal that
agrees with everything one seat knows, and with nothing more, the cards it cannot see dealt
again at random. The copy is built from that seat's view alone: two real deals that look
the same to the seat give the same copies for the same ``rng`` (a property test holds it to
this). It gets a fresh seed drawn from ``rng``, so no later card of the real deal follows
from it, and every card the seat cannot see is dealt again.

What the seat knows (a :class:`Knowledge`; :func:`knowledge` returns it) is gathered in two
steps:

- the engine's own part: the seat's hand, every card played or out of the pack, the spare
  hand if this seat knows it, cards shown to it and still held (a hand shown, a pay card
  claimed by holding it), and how many cards every hand and the spare hold;
- each phase's part, from the events it emitted (:meth:`stops.phases.base.Phase.infer`):
  where the swaps with the spare hand moved what the seat knew; that a stop's next card is
  in the spare hand; and what each rule *proved* when it was obeyed in the open: a player
  who passed the lead holds nothing he might have led, one who led a card holds no card
  that rule would have made him lead instead, the seats an opening card passed by hold none
  that would have opened, a player passed over in rotation holds no card that continues
  the sequence (from the rank a wild card was named as, too), a pay card nobody claimed by
  holding it was in no hand, a hand shown as its holder's best leaves him no card that
  would have bettered it (beside the cards he played since), an offer for the spare hand
  where a pay card forbids it proves the seat that made it held none. The rules say this through the
  policies themselves (each is asked, on a :class:`Probe`, what it would have done with
  other cards), so no game is named here.

The hidden cards are then dealt to the hands and the spare hand with those facts as
constraints (a card goes only where it may be, each place gets as many as it holds). The
phases' checks of the hands alone (:meth:`~stops.phases.base.Phase.hands_fit`: a hand shown
is still its holder's best, the claims by holding are the ones made) are asked first, so a
deal one refuses costs nothing more; then the phases put their own state in line with the
new hands (:meth:`~stops.phases.base.Phase.after_redeal`): the lead due now is worked out
again (an opening card no seat has seen is the one the *imagined* opener holds), hands
chosen in secret and sealed offers the seat has not seen are chosen again. What is still
due from the seat to act (that it can lead at all, that it holds the card it must play in
turn) is checked on the imagined deal, and another is dealt if it fails, a bounded number
of times; so is what no fact of one card can say (a seat holds one of two wild cards).

What the seat knows, the places the hidden cards may go and the copy's hands and record
before they are dealt are worked out once per (seat, point reached) and kept on the deal
(``Deal._imagined``, never copied): a search that samples many copies of one position pays
for each copy a ``clone()``, a draw per hidden card and the phases' ``after_redeal``
checks. The log as the seat sees it is read from ``Deal.seen_by`` (kept per seat) and its
copy with nothing hidden is kept per seat and extended, so neither is read again from the
start at each decision. Nor is what the log proves: each seat's reading of it (the cards
shown to it, the swaps it saw, each phase's :class:`Reading`, a resumable ``infer``) is
kept on the deal too and read on by the events logged since, so a search that meets a new
position at every decision pays for the new events and for what depends on the position
itself, not for the whole log again. A copy of the deal keeps none of it and starts cold.

Events the seat may not see keep no cards and no amounts, so the copy cannot leak the real
hands. Not inferred: that a companion card's holder was asked to decide (no event shows it,
so another seat's plain follows are left out of the copy's decisions).
The copy's ``record()`` is its imagined deal (the swaps undone to give the hands as dealt);
the copy is detached from the table.
"""

from __future__ import annotations

import random
import struct
from bisect import bisect_left, insort
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from itertools import combinations
from math import floor
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, TypeVar

from stops._mypyc import mypyc_attr
from stops.engine.cards import CARDS, Card
from stops.engine.deal import HandCheck, Step
from stops.engine.errors import StopsError
from stops.engine.eventkind import EventKind
from stops.engine.rng import Rng
from stops.engine.vocabulary import SHOWS, SWAPS_SPARE

if TYPE_CHECKING:
    from stops.engine.deal import Deal, Hands
    from stops.engine.events import Event

SPARE: Final = -1
"""The spare hand's place (``Deal``'s own); ``Final``: a constant where it is used compiled
(a plain module global was a lookup in the module's dict at every use, per place dealt)."""
ABSENT: Final = -3
MAX_TRIES = 1200
"""Imagined deals tried before giving up, whole deals and steps of the walk alike (each is a
few dozen microseconds: no copy). Tripoley after its showdown with every hand shown (the
deal of tests/engine/test_determinize.py) needs walks of several hundred steps now and
then: at 600 about one call in 120 gave up there, at 1200 none in 2,000."""
WHOLE_TRIES = 10
"""Whole deals dealt before ``clone_for`` walks instead from the last one, a step at a time
out of the hands the phases found at fault (:meth:`~stops.phases.base.Phase.misfits`, or a
hand check's holder), keeping each step that leaves no more of them: exact while whole
deals fit often enough, and a copy still found where they seldom do (Tripoley after its
showdown, where every hand shown as its holder's best must stay his best: three such hands
fit a whole deal about once in three hundred). The walk's copies are not drawn exactly
evenly from the deals the seat cannot tell apart, but every one of them is such a deal.
Once whole deals are seen to fit less than one time in ``WHOLE_TRIES`` (most copies would
need the walk anyway), a view's later copies walk from their first deal that does not fit
(:data:`WALKED_FIRST`)."""
WALKED_FIRST = 3
"""Copies' worth of whole deals (``WALKED_FIRST * WHOLE_TRIES``) a view deals before it reads
how often they fit: from then on, its copies deal ``WHOLE_TRIES`` whole deals before the
walk while at least one in ``WHOLE_TRIES`` of those dealt so far fit, else one. Where whole
deals fit seldom (Tripoley after its showdown: one in thirty or fewer at some positions),
the whole deals tried first were nearly always wasted, the walk's steps being far cheaper
(:func:`_mend`), and most copies came from the walk anyway; where they fit often enough,
every copy keeps trying whole deals first."""
ROTATE = 0.25
"""How often a step of the walk first tries three cards moved round three places rather
than a swap of two (:func:`_swap`): often enough to leave the places no swap leaves, seldom
enough not to slow the walks that swaps serve (Tripoley's showdown with every hand shown)."""
MAX_CACHED = 20_000
"""What a rule proves, remembered per variant (bounded: cleared when full)."""

R = TypeVar("R")

# A draw's index is ``floor(u * n)`` for a float ``u`` in [0, 1): for ``u * n >= 0`` the same
# whole number as ``int(u * n)``, at about half its cost pure (``int()`` is a generic call of
# the type; ``floor`` a builtin of one argument with a fast path for a float, and a
# primitive when compiled): about 450 instructions less per draw, some 24 draws a copy.

K_TURNED_UP: Final = EventKind.TURNED_UP
"""Read per event by the seat's readings: a ``Final`` constant, used by value compiled (an
enum member looked up on its class at each event was a generic attribute lookup)."""
_SUIT: Final = tuple(c // 13 for c in range(52))
_BIT: Final = tuple(1 << (c % 13) for c in range(52))
_CARD_BIT: Final = tuple(1 << c for c in range(52))
"""Each card's bit in a hand as one 52-bit mask (as a :class:`HandCheck` is given it)."""
_INTERPRETED: Final = __file__.endswith(".py")
"""This module runs interpreted (found once, by its file): :func:`_place` places the cards
by the way that is cheaper in each build."""


def draw(rng: Rng | random.Random, n: int) -> int:
    """A uniform whole number in ``range(n)`` from ``rng`` (a ``stops`` Rng or a
    ``random.Random``)."""
    if isinstance(rng, Rng):
        return rng.below(n)
    return rng.randrange(n)


def shuffle_with(rng: Any, items: list[int]) -> None:
    """Shuffle ``items`` in place with ``rng`` (a ``stops`` Rng or a ``random.Random``):
    sorted by 64-bit random keys drawn as one big integer, as :meth:`Rng.shuffle` does (the
    sort runs in C: several times faster than a draw per item, which ``clone_for`` pays at
    every imagined deal)."""
    if isinstance(rng, Rng):
        rng.shuffle(items)
        return
    n = len(items)
    if n < 2:
        return
    bits = rng.getrandbits(64 * n)
    keys = struct.unpack(f">{n}Q", bits.to_bytes(8 * n, "big"))
    order = sorted(range(n), key=keys.__getitem__)
    items[:] = [items[i] for i in order]


def pick(rng: Rng | random.Random, items: list[Any], k: int) -> list[Any]:
    """``k`` of ``items`` (all of them if fewer), every choice of ``k`` alike likely: the
    first ``k`` steps of a Fisher-Yates shuffle of ``items`` in place, drawn as
    :func:`_shuffle_fast` draws (for a hand chosen in secret, picked again on every copy
    ``clone_for`` deals: ``k`` draws rather than a shuffle of the whole hand). The items
    are moved as they are: typed ``list[int]``, the compiled build unboxed each item it
    swapped and boxed it again as a plain ``int``, so a hand of ``Card`` objects came back
    as numbers and a copy's ``select`` recorded ``'15'`` for 4♦."""
    n = len(items)
    if k >= n:
        return list(items)
    if isinstance(rng, Rng):
        below = rng.below
        for i in range(k):
            j = i + below(n - i)
            items[i], items[j] = items[j], items[i]
    else:
        unit = rng.random
        for i in range(k):
            j = i + floor(unit() * (n - i))
            items[i], items[j] = items[j], items[i]
    return items[:k]


def pick_sorted(rng: Rng | random.Random, items: Sequence[Any], k: int) -> tuple[Any, ...]:
    """``k`` of ``items`` (all of them if fewer), every choice of ``k`` alike likely, in
    the order ``items`` has them: for a hand chosen in secret, picked again on every copy
    ``clone_for`` deals. One draw of a row of a table of every choice of ``k`` positions
    out of ``len(items)`` (made once per size, in C by ``itertools.combinations``), its
    cards read in C: where ``k`` Fisher-Yates steps and a sort cost a poker stage's copy
    about a ``clone()``. Each row is kept as an ``operator.itemgetter`` of its positions,
    which reads the ``k`` items into a tuple in one C call (a ``map`` of the list's
    ``__getitem__`` went through a wrapper per item: a third of a selection's cost). The
    items come back as they are (a poker copy passes ``Card`` objects, so its ``select``
    needs no conversion; a hand read as a tuple, :meth:`Deal.held`, is picked from as it is,
    not copied). Hands larger than :data:`MAX_TABLED` are picked by :func:`pick` from a copy
    (``items`` is left as it was)."""
    n = len(items)
    if k >= n:
        return tuple(items)
    if n > MAX_TABLED:
        return tuple(sorted(pick(rng, list(items), k)))
    if k < 2:  # an itemgetter of one position gives the item, not a tuple
        if isinstance(rng, Rng):
            i = rng.below(n if k else 1)
        else:
            i = floor(rng.random() * (n if k else 1))
        return (items[i],) if k else ()
    rows = _CHOICES.get(n << 8 | k)
    if rows is None:
        rows = _CHOICES[n << 8 | k] = [itemgetter(*row) for row in combinations(range(n), k)]
    if isinstance(rng, Rng):
        row = rows[rng.below(len(rows))]
    else:
        row = rows[floor(rng.random() * len(rows))]  # 53 bits: a bias below 2**-38
    got: tuple[Any, ...] = row(items)
    return got


MAX_TABLED: Final = 16
"""The largest hand :func:`pick_sorted` picks from by its table (C(16, 8) = 12,870 rows)."""

_CHOICES: Final[dict[int, list[itemgetter[Any]]]] = {}
"""Every choice of ``k`` (2 or more) positions out of ``n``, in order, per ``n << 8 | k``,
each as an ``itemgetter`` of those positions (filled as met; the key fixes the value)."""


def cards_of(deal: Deal, seat: int) -> list[int]:
    """The cards ``seat`` holds now, in card order, read from its suit masks (as card
    indices: no ``Card`` made, for the phases' checks of imagined hands)."""
    return _cards_in(deal.masks[seat])


def cards_in_hand(hand: int) -> list[int]:
    """The cards of a hand given as one 52-bit mask (bit ``c``: card ``c``, as a
    :class:`~stops.engine.deal.HandCheck` is given it), in card order."""
    return _cards_in([hand & 0x1FFF, hand >> 13 & 0x1FFF, hand >> 26 & 0x1FFF, hand >> 39])


def held_cards(deal: Deal, seat: int) -> list[Card]:
    """The cards ``seat`` holds now, in card order, as the pack's own ``Card`` objects
    (:meth:`Deal.held`, read from its suit masks by table), in a list the caller may add
    to: for the poker copies' selections made again, whose decisions hold ``Card`` objects
    (no conversion per card of every pick)."""
    return list(deal.held(seat))


_SUIT_INDICES: Final[list[tuple[int, ...]]] = [()] * 32768
"""The card indices of each (suit << 13 | rank mask), lowest first, filled as met (a table
lookup per suit where a loop per card cost :func:`cards_of` most of its time; the key fixes
the value; ``()`` not yet worked out)."""


def _suit_indices(key: int) -> tuple[int, ...]:
    """The card indices of the suit and rank mask ``key`` (suit << 13 | mask), lowest
    first, kept in :data:`_SUIT_INDICES`."""
    base = (key >> 13) * 13
    m = key & 0x1FFF
    out: list[int] = []
    while m:
        low = m & -m
        out.append(base + low.bit_length() - 1)
        m ^= low
    got = _SUIT_INDICES[key] = tuple(out)
    return got


def _below(rng: Rng | random.Random) -> Callable[[int], int]:
    """``rng``'s own draw of a whole number in ``range(n)`` (read once for many draws)."""
    return rng.below if isinstance(rng, Rng) else rng.randrange


def _shuffle_fast(rng: Rng | random.Random, items: list[int]) -> None:
    """Shuffle ``items`` in place with ``rng``: its own shuffle for a ``stops`` Rng; for a
    ``random.Random``, Fisher-Yates on its C-level ``random()`` (for the few dozen cards
    ``clone_for`` deals, cheaper than the sort by random keys of :func:`shuffle_with`;
    the float biases a draw below 52 by less than one part in 2**47)."""
    if isinstance(rng, Rng):
        rng.shuffle(items)
        return
    unit = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = floor(unit() * (i + 1))
        items[i], items[j] = items[j], items[i]


_HOLD: Final = 0
_LACK: Final = 1
_OTHER: Final = 2
"""The kinds of a :class:`Knowledge`'s journal entries (:meth:`Knowledge.journaled`)."""


class Knowledge:
    """What one seat can tell, from its own view, about the cards it cannot see.

    ``held[card]`` is where a card is known to lie (a seat, or ``SPARE`` for the spare
    hand); ``lacks[holder]`` the cards a holder is known *not* to hold. Phases add to it in
    :meth:`~stops.phases.base.Phase.infer`, each from the events it emitted and what the
    rules prove; nothing may be added that the seat could not work out itself.

    A set of ``lacks`` may be another knowledge's, shared, not copied (``_borrowed`` names
    its holders): :meth:`add` and :meth:`add_under` lend a reading's sets to a position's
    knowledge, which reads them and is done with them before the reading reads on (a
    ``clone_for`` at each new position paid a copy of every holder's set here). Every
    change made here copies a borrowed set first; read ``lacks``, never change its sets.
    """

    __slots__ = ("_borrowed", "held", "journal", "lacks", "seat")

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.held: dict[int, int] = {}
        self.lacks: dict[int, set[int]] = {}
        self._borrowed: set[int] = set()
        # None, or (a reading's own knowledge: journaled()) every fact added, in order, as
        # (holder, cards, kind): kind _HOLD or _LACK, _OTHER for a change that cannot be
        # added again as a fact (a swap, another knowledge merged); a reading says from it
        # what it has added since a position (Reading.since)
        self.journal: list[tuple[int, Any, int]] | None = None

    def journaled(self) -> Knowledge:
        """This knowledge, keeping a journal of the facts added from now on: for a
        :class:`Reading`'s own knowledge, which only grows as events are read, so that it
        can say what it added since a position (:meth:`Reading.since`, :meth:`add_since`)."""
        self.journal = []
        return self

    def add_since(self, other: Knowledge, mark: int) -> bool:
        """The facts ``other`` (journaled) was told since its journal had ``mark`` entries,
        added here as they were added there: whether they all could be (``False``: one was
        a swap or a merge, which only a fresh reading of ``other`` gives)."""
        journal = other.journal
        if journal is None:
            return False
        for i in range(mark, len(journal)):
            holder, cards, kind = journal[i]
            if kind == _HOLD:
                self.hold(holder, cards)
            elif kind == _LACK:
                self.lack(holder, cards)
            else:
                return False
        return True

    def hold(self, holder: int, cards: Iterable[int]) -> None:
        """``holder`` is known to hold ``cards`` (if they are not played later)."""
        held, journal = self.held, self.journal
        if journal is not None:
            got = tuple([int(c) for c in cards])
            journal.append((holder, got, _HOLD))
            for c in got:  # plain ints already (compiled: a typed tuple, walked natively)
                held[c] = holder
            return
        for c in cards:
            held[int(c)] = holder

    def lack(self, holder: int, cards: Iterable[int]) -> None:
        """``holder`` is known to hold none of ``cards``."""
        journal = self.journal
        # plain ints (what a rule proves, remembered, is a frozenset of them already),
        # made once, in C: journaled and added alike (made twice, the second time by a
        # generator, was a tenth of Poch's first call at a new position, whose turns
        # prove a lack at nearly every card laid)
        got_cards: frozenset[int] | tuple[int, ...] = (
            cards if isinstance(cards, frozenset) else tuple([int(c) for c in cards]))
        if journal is not None:
            journal.append((holder, got_cards, _LACK))
        got = self.lacks.get(holder)
        if got is None:
            got = self.lacks[holder] = set()
        elif holder in self._borrowed:  # another knowledge's set: this one's own first
            got = self.lacks[holder] = set(got)
            self._borrowed.discard(holder)
        got.update(got_cards)

    def add(self, other: Knowledge) -> None:
        """Everything ``other`` knows, added (its places win, as later holds do): how a
        :class:`Reading` puts what it has read so far into one position's knowledge (a
        holder's set new here is lent, not copied: see the class's docstring)."""
        if self.journal is not None:
            self.journal.append((-1, (), _OTHER))
        if other.held:
            self.held.update(other.held)
        if other.lacks:
            self._add_lacks(other)

    def add_under(self, other: Knowledge) -> None:
        """Everything ``other`` knows, added, where the places known here win (the spare
        hand's reading: what a later fact placed stays): one merge in C where a
        ``setdefault`` per card cost a pass over the seat's whole hand at every position.
        Only the order of ``held`` differs from a ``setdefault`` per card, and nothing
        reads that order."""
        if self.journal is not None:
            self.journal.append((-1, (), _OTHER))
        if other.held:
            held = dict(other.held)
            held.update(self.held)
            self.held = held
        self._add_lacks(other)

    def _add_lacks(self, other: Knowledge) -> None:
        """``other``'s lacks, added: a holder new here borrows ``other``'s set (no copy);
        one this knowledge has already gets the union, in its own set."""
        lacks, borrowed = self.lacks, self._borrowed
        for h, cards in other.lacks.items():
            got = lacks.get(h)
            if got is None:
                lacks[h] = cards
                borrowed.add(h)
            elif h in borrowed:
                lacks[h] = got | cards
                borrowed.discard(h)
            else:
                got |= cards

    def swap(self, a: int, b: int) -> None:
        """The hands of ``a`` and ``b`` changed places (a seat and the spare hand)."""
        if self.journal is not None:
            self.journal.append((-1, (), _OTHER))
        for c, h in self.held.items():
            if h == a:
                self.held[c] = b
            elif h == b:
                self.held[c] = a
        la, lb = self.lacks.pop(a, None), self.lacks.pop(b, None)
        if la is not None:
            self.lacks[b] = la
        if lb is not None:
            self.lacks[a] = lb
        borrowed = self._borrowed
        if borrowed:  # a borrowed set moves with its holder's cards
            ba, bb = a in borrowed, b in borrowed
            borrowed.discard(a)
            borrowed.discard(b)
            if ba:
                borrowed.add(b)
            if bb:
                borrowed.add(a)


@mypyc_attr(allow_interpreted_subclasses=True)
class Reading:
    """One phase's reading of one seat's log, kept on the real deal from one decision to
    the next: a resumable :meth:`~stops.phases.base.Phase.infer`.

    The log only grows, so what its events prove is read once: :meth:`see` is told each
    event the seat may see, once and in order, as the deal goes on, and keeps what it
    proves (and any state it needs to read the next one); :meth:`now` adds it to one
    position's :class:`Knowledge`, with what depends on the position itself (the seat to
    act, an opening still due) worked out there. ``deal`` is, as for ``infer``, the copy
    with every card the seat cannot see taken out of the hands (the copy of the position
    where the event was first read, for ``see``): read events and public state only, change
    nothing (its log, chips, plays and states are the real deal's own objects, shared), and
    keep nothing of it between calls. What ``now`` adds must be exactly what ``infer``,
    reading the whole log at this position, would add (a test holds every built-in to it).

    ``kinds`` names the kinds of event :meth:`see` reads (``None``, the default: every
    event); the others are not shown to it, which saves a call per event where a phase
    reads few. The base class reads nothing and adds nothing."""

    kinds: frozenset[str] | None = None
    lends: bool = False
    """Whether :meth:`lend` hands the copies anything (declared, so that a view asks only
    the readings that do)."""

    def see(self, deal: Deal, e: Event) -> None:
        """The next event the seat sees (the first one, the first time)."""
        return None

    def now(self, deal: Deal, known: Knowledge) -> None:
        """Add to ``known`` what the events read so far prove, at this position."""
        return None

    def mark(self) -> int | None:
        """Where this reading stood at its last :meth:`now`, for :meth:`since` at a later
        position; ``None`` (the default) where it cannot say what a later position adds
        (a reading without the fast path, or a last ``now`` that added a part depending on
        the position itself, which a later one may not add again)."""
        return None

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        """The fast path of :meth:`now` (``clone_for``'s view read on from the seat's
        previous one): add to ``known`` what ``now`` at this position adds beyond what it
        added where this reading gave ``mark`` (by :meth:`mark` or ``since``), where
        ``now`` here is exactly ``now`` there with those facts added (nothing taken back,
        no place changed), and return the mark of this position; ``None`` where that does
        not hold (the caller then asks ``now`` on a fresh knowledge). The default: never,
        so a reading that does not say is asked ``now`` at every position, as before."""
        return None

    def lend(self, memo: dict[Any, Any]) -> None:
        """Put into ``memo``, the view's memo (:func:`redeal_memo`), what the phase's
        ``after_redeal`` would otherwise work out from the copy's log, as the events read
        so far show it at the position of the last :meth:`now` or :meth:`since`: asked
        once per view, where the reading says it ``lends``. Keys are the phase's own, as
        for ``redeal_memo``. The default lends nothing."""
        return None


class Probe:
    """The deal's cards put aside for a moment, to ask a rule what it would do with others.

    While open, exactly the cards in ``where`` are in hands (each with its seat) and every
    other card of the pack is out of them (in the spare hand); :meth:`move` changes one,
    :meth:`close` puts the deal back as it was. A policy called meanwhile sees only this
    imagined table, so what it answers depends on nothing hidden.
    """

    __slots__ = ("_saved", "deal")

    def __init__(self, deal: Deal, where: dict[int, int]) -> None:
        self.deal = deal
        self._saved = (deal.owner, deal.masks, deal.counts, deal.spare)
        deal.owner = [ABSENT if o == ABSENT else SPARE for o in deal.owner]
        deal.masks = [[0, 0, 0, 0] for _ in range(deal.n)]
        deal.counts = [0] * deal.n
        deal.spare = set()
        owner, masks, counts = deal.owner, deal.masks, deal.counts
        for c, s in where.items():  # as move() would, inline: a probe may place every card
            owner[c] = s
            if s >= 0:
                m, k = masks[s], _SUIT[c]  # items updated as a = a | b: see Deal.give
                m[k] = m[k] | _BIT[c]
                counts[s] = counts[s] + 1

    def move(self, card: int, holder: int) -> None:
        deal = self.deal
        was = deal.owner[card]
        if was >= 0:
            deal.take(was, card)
        if holder >= 0:
            deal.give(holder, card)
        else:
            deal.owner[card] = holder

    def close(self) -> None:
        d = self.deal
        d.owner, d.masks, d.counts, d.spare = self._saved


def remembered(deal: Deal, key: tuple[Any, ...], work: Callable[[], R]) -> R:
    """``work()``, remembered for the deal's variant under ``key``: for what a rule proves,
    which depends only on the key (the cards, seats and restriction it names)."""
    cache = deal.variant.cache
    full = ("knows", *key)
    got = cache.get(full)
    if got is None:
        if len(cache) > MAX_CACHED:
            for k in [k for k in cache if isinstance(k, tuple) and k[:1] == ("knows",)]:
                cache.pop(k, None)
        got = cache[full] = work()
    return got  # type: ignore[return-value]


def hidden_cards(deal: Deal, known: Knowledge) -> list[int]:
    """The cards still in a hand or the spare hand whose place ``known`` does not fix, in
    card order (the pack, less the cards played or out of it: the same for every seat)."""
    played_by, owner, held = deal.played_by, deal.owner, known.held
    return [c for c in range(52) if played_by[c] < 0 and owner[c] != ABSENT and c not in held]


_RNGS: Final = (Rng, random.Random)
"""What ``clone_for`` draws with (a tuple made once: ``Rng | random.Random`` made a union
object at every call)."""


def clone_for(deal: Deal, seat: int, rng: Any) -> Deal:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.n:
        raise StopsError(f"clone_for: no seat {seat!r} at a table of {deal.n}")
    if not isinstance(rng, _RNGS):
        raise StopsError("clone_for: rng must be a random.Random or a stops Rng")
    view = _cached(deal, seat)
    if view is None:
        if not deal.dealt_hands:
            # nothing dealt yet: the copy deals from its own seed (no view is kept)
            work = _blank_copy(deal, seat)
            _hide_seed(work, rng)
            if not _shown_last(deal, seat):
                work.last_dealt = -1
            return work
        view = _read_view(deal, seat)
    work = _copy(deal, view)
    # from here on only `work`, which must keep nothing hidden: the table's seed (every card
    # follows from it) and the shuffle made from it, stacked hands not yet dealt, and the
    # last card dealt unless it was turned up for all to see (see _hide_seed: written out,
    # a call fewer at every copy)
    work.reseed(rng.below(1 << 62) if isinstance(rng, Rng) else rng.getrandbits(62))
    if not view.keep_last:
        work.last_dealt = -1
    fresh = True  # `work` holds the view's hands and log already
    to_act = deal.to_act
    phases = view.phases
    checks: list[Step] = view.checks
    native = not _INTERPRETED
    order, free, allowed = view.order, view.free, view.allowed
    at: dict[int, list[int]] | None = None
    best: dict[int, list[int]] | None = None  # the walk's deal, once whole deals fail
    best_misfits: set[int] = _NONE_AT_FAULT  # read only once the walk has its deal
    best_culprits: set[int] = _NONE_AT_FAULT  # its cards the phases would move first
    best_bad = 0
    blind = False  # the walk's next step a blind swap (see below)
    nobody = 0  # deals in a row refused by a check that names nobody at fault
    dealt = 0  # whole deals dealt
    whole = view.whole
    # the copy's view of its own log, set once: the log is the view's in every try
    work._views = {seat: (work.events, len(work.events), view.seen)}
    hand_checks = view.hand_checks
    if hand_checks is None:
        hand_checks = view.hand_checks = _hand_checks(work, seat, view)
    for tries in range(MAX_TRIES):
        if best is not None:
            # a step that mends the hands at fault where each is checked alone, unless the
            # last deal mended so was refused by another check (which named nobody at fault:
            # a mend that only ever mends the same hands would stay there), else a blind swap
            at = (_mend(best, best_misfits, allowed, rng, best_culprits, hand_checks)
                  if hand_checks and not blind else None) or \
                _swap(best, best_misfits, allowed, rng, best_culprits)
        else:
            dealt += 1
            at = _deal_hidden(order, free, view.places, allowed, rng)
        if at is None:
            # facts that contradict each other: keep only the sure ones
            order, free = [], view.hidden
            continue
        walking = best is not None or tries + 1 >= whole  # this deal may be walked from
        if hand_checks:
            # each hand checked alone on the cards dealt to it, before the copy's hands are
            # made: a deal refused here costs a mask per hand checked (see HandCheck)
            refused = _hands_refused(hand_checks, at, walking)
            if refused is not None:
                bad, why = refused
                if walking and (tries + 1 >= whole if best is None else len(bad) <= best_bad):
                    best, best_misfits, best_bad, best_culprits = at, bad, len(bad), why
                    blind = False
                continue
        _place(work, view, at, fresh)
        fresh = False
        work._imagined = view.memo  # what the phases keep per view (see redeal_memo)
        ok = True
        # the seats and cards at fault, read only on the walk (off it nothing is read of a
        # refused deal): two sets made per try only there
        misfits: set[int] = set() if walking else _NONE_AT_FAULT
        culprits: set[int] = set() if walking else _NONE_AT_FAULT
        # the checks of the hands alone first (Phase.hands_fit): a deal one refuses costs no
        # phase's after_redeal. Off the walk the first check that refuses ends the try, and
        # it is asked first from then on (the checks draw and change nothing: their order
        # changes no copy); on the walk every check is asked, for the seats and cards at
        # fault
        for i in range(len(checks)):
            check = checks[i]
            if not check.hands_fit(work, seat):
                ok = False
                if not walking:
                    if i:
                        checks[i] = checks[0]
                        checks[0] = check
                    break
                misfits |= check.misfits(work, seat)
                culprits |= check.misfit_cards(work, seat)
        if ok:
            for phase in phases:  # the state a phase keeps about hidden cards
                # compiled, a Step's through the native method table (any other phase's,
                # and every phase's pure, by name: the test of its class cost more than it
                # saved there); only False rejects the deal (as before: a phase's None does
                # not), and off the walk the first that does ends the try
                if native and isinstance(phase, Step):
                    rejects = phase.after_redeal(work, seat, rng) is False
                else:
                    rejects = phase.after_redeal(work, seat, rng) is False
                if rejects:
                    ok = False
                    if not walking:
                        break
                    misfits |= phase.misfits(work, seat)
                    culprits |= phase.misfit_cards(work, seat)
        work._imagined = None
        if not ok and not walking:
            continue  # nothing is read of a deal refused off the walk
        if ok and (work.to_act != to_act or (
                to_act is not None and to_act != seat and not work.legal_count())):
            continue  # the seat to act could not be where it is in this deal
        if ok:
            _finish(work, seat, view, at)
            # whole deals tried first while they fit at least one time in WHOLE_TRIES
            # (their rate read over the view's copies, from WALKED_FIRST copies' worth on)
            view.tried += dealt
            if best is None:
                view.fits += 1
            if view.tried >= WALKED_FIRST * WHOLE_TRIES:
                view.whole = WHOLE_TRIES if view.fits * WHOLE_TRIES >= view.tried else 1
            return work
        if not misfits:
            # refused by a check that names nobody at fault (the claims by holding): blind
            # steps from the walk's deal; after MEND_TRIES such refusals in a row, the walk
            # goes on from this deal instead, a blind step at a time from any place's cards.
            # Stepping from the same deal meets only its neighbours, each refused alike
            # where the fault lies away from its hands at fault: a Tripoley position walked
            # from every copy gave up after MAX_TRIES steps in about one copy in seventy
            blind = True
            nobody += 1
            if best is not None and nobody >= MEND_TRIES:
                movable = {h for h, cards in at.items() if cards}
                if movable:
                    best, best_misfits, best_bad = at, movable, 0
                    best_culprits = _NONE_AT_FAULT
                    nobody = 0
            continue
        nobody = 0
        # whole deals seldom fit: walk from this one, a swap at a time, towards one that does
        if (tries + 1 >= whole if best is None else len(misfits) <= best_bad):
            best, best_misfits, best_bad, best_culprits = at, misfits, len(misfits), culprits
            blind = False
    raise StopsError(f"clone_for: found no deal consistent with seat {seat}'s view in "
                     f"{MAX_TRIES} tries")


def _hand_checks(work: Deal, seat: int, view: _View) -> list[tuple[int, int, HandCheck]]:
    """The phases' checks of each hand alone for the copies of ``view``
    (:meth:`Step.hand_checks`), asked of ``work``, its first copy (the view's memo lent to
    it, as to a phase's ``after_redeal``), each with the cards its holder is known to hold
    as one 52-bit mask (the copy's hand before the hidden cards are dealt)."""
    out: list[tuple[int, int, HandCheck]] = []
    work._imagined = view.memo
    try:
        for p in work.variant.phases:
            if isinstance(p, Step) and p.checks_each_hand:
                # a plug-in's answer checked by name, read as any object: compiled, the
                # method called as typed, or a list typed of checks, would refuse another
                # answer with a bare TypeError; a holder that is no seat would fail below
                # with a bare IndexError
                ask: Any = p.hand_checks
                answer: Any = ask(work, seat)
                items: list[Any] = answer if isinstance(answer, list) else [None]
                for check in items:
                    if not isinstance(check, HandCheck) or not isinstance(check.holder, int) \
                            or not 0 <= check.holder < work.n:
                        raise StopsError(
                            f"phase {type(p).__name__}: hand_checks must return a list of "
                            "HandCheck, each of a seat at the table, got "
                            f"{check if isinstance(answer, list) else answer!r}")
                    m = view.masks[check.holder]
                    out.append((check.holder, m[0] | m[1] << 13 | m[2] << 26 | m[3] << 39,
                                check))
    finally:
        work._imagined = None
    return out


def _hands_refused(checks: list[tuple[int, int, HandCheck]], at: dict[int, list[int]],
                   walking: bool) -> tuple[set[int], set[int]] | None:
    """``None`` if every hand dealt in ``at`` passes its check (``checks``: holder, the
    cards known in his hand, the check); else, on the walk, the holders at fault and the
    cards that put them there (off it, the first refusal ends the asking, and the check
    that refused is asked first from then on: the checks draw and change nothing, their
    order changes no copy)."""
    misfits: set[int] | None = None
    culprits: set[int] = set()
    bit = _CARD_BIT
    for i in range(len(checks)):
        holder, hand, check = checks[i]
        dealt = at.get(holder)
        if dealt:
            for c in dealt:
                hand |= bit[c]
        if check.fits(hand):
            continue
        if not walking:
            if i:
                first = checks[0]
                checks[0] = checks[i]
                checks[i] = first
            return _NONE_AT_FAULT, _NONE_AT_FAULT
        if misfits is None:
            misfits = set()
        misfits.add(holder)
        culprits |= check.culprits(hand)
    return None if misfits is None else (misfits, culprits)


_NONE_AT_FAULT: Final[set[int]] = set()
"""``clone_for``'s seats and cards at fault off the walk, where none are read: never written
(a set made per try only for the walk)."""


def _hide_seed(work: Deal, rng: Any) -> None:
    """Give the copy a seed of its own, drawn from ``rng``: dealt hands are imagined, no seed
    deals them (a random.Random's 62 bits straight from getrandbits: randrange's rejection
    loop in pure Python cost a tenth of a clone; which rng told by the test of the native
    class: ``random.Random`` is a lookup in the module at every call, compiled)."""
    work.reseed(rng.below(1 << 62) if isinstance(rng, Rng) else rng.getrandbits(62))


def _read_view(deal: Deal, seat: int) -> _View:
    """The view of ``seat`` at ``deal``'s point (none kept for it), read from a blind copy
    (``Deal.imagined_copy(blind=True)``: the seat's hand, every other card in play in the
    spare hand, :func:`_blind_hands`) and kept on the deal in place of the seat's previous
    one, which it is read on from where it can be (see :class:`_View`). The copy is only
    read, then dropped: ``clone_for`` makes the copy it hands back from the view, as at a
    position met before, rather than putting the view's hands into the blanked copy."""
    kept = _kept(deal)
    # the previous view is handed over, not lent: the new one may take over its containers
    # (see _View._regroup, _blind_hands), so it must not be kept should this one fail
    prev: _View | None = kept.pop(seat, None)
    hands = _blind_hands(deal, seat, prev)
    blind = deal.imagined_copy(hands[0], hands[1], deal.counts, hands[2], deal.events,
                               blind=True)
    if not _shown_last(deal, seat):
        blind.last_dealt = -1
    logged = len(deal.events)
    try:
        view = _View(deal, blind, seat, prev, blanked=True)
    finally:
        # the blind copy's log is the real deal's own, and the phases read it there: one that
        # emitted into the copy, against the contract of infer and Reading, would have
        # written into the real log. Put back and refused, by name, rather than left in the
        # deal
        if len(deal.events) != logged:
            del deal.events[logged:]
            raise StopsError(f"clone_for: a phase emitted an event while seat {seat}'s "
                             "view was read (infer and a Reading read the copy only)")
    view.blind = hands
    kept[seat] = view
    return view


def _copy(deal: Deal, view: _View) -> Deal:
    """``deal.clone()`` with the view's hands (only the cards the seat knows in them) and
    its log (what the seat may not see blanked) in place of the deal's own
    (``Deal.imagined_copy``): each is copied once, where a ``clone()`` would copy the real
    ones only for them to be replaced."""
    return deal.imagined_copy(view.owner, view.masks, view.counts, view.spare, view.events)


def redeal_memo(deal: Deal) -> dict[Any, Any]:
    """Where a phase's :meth:`~stops.phases.base.Phase.after_redeal` may keep what it works
    out from the copy's public part (its log as the seat sees it, the decisions made),
    which is the same for every copy ``clone_for`` deals from one view: kept with the view,
    so a search that samples many copies of one position works it out once. Keys are the
    phase's own (a tuple starting with its name). A deal that is not being dealt by
    ``clone_for`` gets an empty dict, kept nowhere."""
    memo = deal._imagined
    if memo is None or _MEMO not in memo:
        return {}
    return memo


_MEMO: Final = ("redeal memo",)
"""The key that marks a view's memo (:func:`redeal_memo`) lent to the copy's ``_imagined``
while the phases put it in line with its hands."""


def dealt_afresh(deal: Deal) -> AbstractSet[int] | None:
    """The cards ``clone_for`` deals afresh to each copy of the position being dealt (those
    the seat cannot place), or ``None`` where ``deal`` is not a copy being dealt. Every
    other card lies where it lies in every copy of the position (where the seat knows it
    lies, or played), so what a phase's check reads of some cards' holders it may work out
    once per position for those that stay, and read only those dealt afresh from each copy
    (the claims by holding: :meth:`~stops.policies.claims.ClaimPolicy.held_key_reader`).
    The set is the position's own, not a copy: read it while the copy is being dealt
    (``after_redeal``, ``hands_fit``), never change it, and keep a copy of it, not it."""
    memo = deal._imagined
    if memo is None or _MEMO not in memo:
        return None
    got: AbstractSet[int] = memo[_UNSEEN]
    return got


_UNSEEN: Final = ("redeal memo", "unseen")
"""The key of the view's own set of the cards it deals afresh, in its memo (the set itself,
not copied: read by :func:`dealt_afresh`)."""


class _View:
    """One seat's view of a deal at one point, as ``clone_for`` deals from it, worked out
    once and kept on the deal (``Deal._imagined``) until the deal moves on: a search
    samples many copies of one position, and each then costs a copy of the deal, a draw
    per hidden card and the phases' checks.

    What it keeps: where the cards the seat knows lie (``held``), the others with where
    each may go (``hidden``, in card order, ``unseen`` the same as a set; split into
    ``order``, the cards some fact constrains, and ``free``, those that may go anywhere),
    how many each place must get (``places``); the
    copy's hands before the hidden cards are dealt (``owner``, ``masks``, ``counts``,
    ``spare``); for its record, who had played what (the first ``nplays`` of ``plays``, the
    deal's own list of plays, which only grows), from which the cards each place was dealt
    that are not hidden (:meth:`fixed`, the swaps undone) are worked out when first read,
    and where each place's hand was dealt (``undo``); the log as the seat sees it
    (``events``: those it may not see without cards or amounts)."""

    __slots__ = (
        "_dealt",
        "alike",
        "allowed",
        "blind",
        "checks",
        "codes",
        "counts",
        "events",
        "fits",
        "free",
        "hand",
        "hand_checks",
        "held",
        "hidden",
        "holders",
        "inter",
        "keep_last",
        "key",
        "knew_spare",
        "known",
        "lent",
        "marks",
        "masks",
        "memo",
        "nplays",
        "order",
        "owner",
        "phases",
        "places",
        "plays",
        "reader",
        "real_size",
        "real_spare",
        "seat_count",
        "seen",
        "spare",
        "spare_seq",
        "steps",
        "swaps",
        "tally",
        "tried",
        "undo",
        "unseen",
        "whole",
        "wrote",
    )

    # set by the helpers of __init__ (grouped afresh or lent by the previous view)
    allowed: dict[int, list[int]]
    free: list[int]
    order: list[tuple[list[int], list[int]]]
    marks: dict[int, int]
    alike: dict[int, tuple[list[int], list[int]]]
    owner: list[int]
    masks: list[list[int]]
    counts: list[int]
    spare: set[int]
    spare_seq: list[int] | None
    undo: dict[int, int]
    swaps: tuple[int, ...]
    lent: int
    blind: tuple[list[Any], list[list[int]], set[int]] | None
    # set by _build or _advance: what the view is read on from at the next position
    known: Knowledge
    places: dict[int, int]
    held: dict[int, int]
    hidden: list[int]
    holders: list[int]
    unseen: set[int]
    inter: list[set[int]]
    reader: _Reader
    wrote: int
    # how its copies were found (set in __init__, updated by clone_for)
    whole: int
    tried: int
    fits: int
    steps: list[int] | None
    tally: list[int]
    real_spare: set[int]
    real_size: int
    knew_spare: bool
    nplays: int
    seat_count: int

    def __init__(self, deal: Deal, work: Deal, seat: int, prev: _View | None = None,
                 blanked: bool = False) -> None:
        """The view of ``seat`` at ``deal``'s point, ``work`` the copy it blanks (made
        blanked already, ``blanked``: :func:`_blank_copy`, as ``clone_for`` makes it). ``prev``,
        the seat's view at an earlier point of the same deal (or ``None``), is read on where
        it can be (:meth:`_advance`: the facts proved since added, the cards played since
        taken out), else lends the parts whose inputs are unchanged (see :meth:`_regroup`
        and :meth:`_hands`): a search that meets a new position at every decision mostly
        sees a card or two played since, and the grouping of the hidden cards and the
        copy's known hands then stay as they were. What is read on or lent is exactly what
        a fresh build would give (a test holds every built-in to it at every decision)."""
        self.key = _key(deal)
        self.keep_last = work.last_dealt >= 0
        # whole deals tried before the walk, per copy: WHOLE_TRIES while they fit often
        # enough (see WALKED_FIRST), as at the seat's previous position to begin with (a
        # card or two later, whole deals fit about as seldom: a search that walked there
        # does not deal WALKED_FIRST copies' worth of them again to learn it); the whole
        # deals the view's copies dealt, and how many of those fit (read afresh per view)
        self.whole = prev.whole if prev is not None else WHOLE_TRIES
        self.tried = 0
        self.fits = 0
        seen = self.seen = deal.seen_by(seat)
        work._views[seat] = (work.events, len(work.events), seen)  # the same log: shared
        self.blind = None  # the blind copy's hands, for the next view (see _blind_hands)
        self.lent = 0  # what the previous view lent: 1 its grouping (4: as it stood, only
        # free cards gone), 2 its hands, 8 read on (_advance) (for tests)
        m = deal.masks[seat]
        self.hand: tuple[int, int, int, int] = (m[0], m[1], m[2], m[3])
        if prev is None or not blanked or not self._advance(deal, work, seat, prev, seen):
            self._build(deal, work, seat, prev, seen, blanked)
        self.events = _blanked(deal, seat)
        # the hands as dealt, for the copies' records: worked out when a record is first
        # read (a search reads few), from who played what by then: the plays so far, read
        # from the list of plays (the real deal's, shared by the blind copy: it only grows)
        # where a copy of who played each card cost a list of the pack at every new position
        self.plays = work.plays
        self._dealt: dict[int, list[int]] | None = None
        # for the copies (clone_for's per-call path): the record's fixed hands as card
        # codes, worked out at the first copy; what the phases keep per view (redeal_memo)
        self.codes: dict[int, tuple[Card, ...]] | None = None
        memo: dict[Any, Any] = {_MEMO: True, _UNSEEN: self.unseen}
        self.memo = memo
        for r in self.reader.lenders:  # what the readings already know of the log
            r.lend(memo)
        # the phases whose after_redeal a copy calls: those with one of their own (see
        # Step.redeals), in the flow's order (the variant's: the previous view's list, of
        # the same deal, where there is one)
        self.phases: list[Any] = prev.phases if prev is not None else [
            p for p in work.variant.phases if not isinstance(p, Step) or p.redeals]
        # and those whose hands_fit it asks first (see Step.checks_hands): the previous
        # view's list, whose order clone_for changes (the check that refused last first)
        self.checks: list[Step] = prev.checks if prev is not None else [
            p for p in work.variant.phases
            if isinstance(p, Step) and p.checks_hands and not p.checks_each_hand]
        # the phases' checks of each hand alone (Step.hand_checks), with the hand's known
        # cards as a mask: asked of the first copy (see _hand_checks)
        self.hand_checks: list[tuple[int, int, HandCheck]] | None = None

    def _build(self, deal: Deal, work: Deal, seat: int, prev: _View | None,
               seen: tuple[Any, ...], blanked: bool) -> None:
        """The view's knowledge and what follows from it, the knowledge read afresh at this
        position (every reading's ``now``); the grouping and the hands lent by ``prev``
        where their inputs are unchanged."""
        known = self.known = _knowledge(work, deal, seat, seen, tidy=False, blank=not blanked)
        reader = self.reader = _kept(deal)[("read", seat)]
        self.wrote = reader.wrote
        self.steps = _steps(reader)
        self.real_spare, self.real_size = deal.spare, len(deal.spare)
        self.knew_spare = seat in deal.spare_known
        self.nplays = len(deal.plays)
        self.seat_count = work.counts[seat]
        places, self.tally = _places(work, seat, known)
        self.places = places
        held = self.held = known.held  # nothing changes it from here on
        # the cards not in sight: after the blanking every card of another hand lies in
        # the copy's spare hand with the spare's own (the seat's are all known), so these
        # are the spare's cards the knowledge does not place (as hidden_cards would list
        # them, in card order: sorted in C, no pass over the pack)
        # (a copy of the spare's set, less the known cards: a set copied from a set is
        # copied entry by entry, no lookups, where a difference with a dict looked each of
        # the spare's cards up in it and added it to a set growing from empty)
        unseen = self.unseen = set(work.spare)
        unseen.difference_update(held)
        hidden = self.hidden = sorted(unseen)
        holders = self.holders = sorted(places)
        # what each holder is known to lack among the hidden cards (met in C by set
        # intersection, which walks the smaller set: a holder's lacks, a few cards, where
        # an intersection with a dict of the hidden cards walked all of them): all the
        # grouping depends on, with the hidden cards and holders
        lacks = known.lacks
        inter: list[set[int]] = []
        for h in holders:
            got = lacks.get(h)
            inter.append(got & unseen if got else set())
        self.inter = inter
        if prev is None or not self._regroup(prev):
            self._group(dict.fromkeys(hidden, 0))
        else:
            self.lent |= 1
        self._hands(deal, work, seat, prev)

    def _advance(self, deal: Deal, work: Deal, seat: int, prev: _View,
                 seen: tuple[Any, ...]) -> bool:
        """The view read on from ``prev`` (the seat's previous view of this deal) by what
        changed since, where it can be: every phase asked has a reading that says what it
        proved since (:meth:`Reading.since`), the seat saw no card shown or swapped since
        and got none, and no known card moved. The known places are the previous ones less
        the cards played since (``deal.plays``, the only way a card leaves play), with the
        new ones; the hidden cards the previous ones less those played or placed since
        (none new: checked by count); each holder's lacks among them the previous ones
        less those, with what was proved since; the places' sizes from the known cards
        counted per place; the grouping and the hands brought up to date from the previous
        ones. So a new position costs the events read and a few operations per card played
        or fact proved, with no pass over the known places, the hidden cards or a holder's
        lacks. Whether it was read on (``False``: nothing of ``prev`` changed; the view is
        then built with every reading's ``now``, :meth:`_build`)."""
        steps = prev.steps
        if steps is None:
            return False
        reader = _reader(deal, work, seat, seen)
        if reader is not prev.reader or reader.wrote != prev.wrote or \
                len(reader.swaps) != len(prev.swaps):
            return False  # cards shown or swapped since
        if deal.spare is not prev.real_spare or len(deal.spare) != prev.real_size or \
                (seat in deal.spare_known) != prev.knew_spare:
            # the spare hand replaced (a swap: whose cards the seat may not see, and a
            # card's object there, a Card or a plain int, is what a fresh build keeps), or
            # what the seat knows of it changed
            return False
        hand, had = self.hand, prev.hand
        if hand[0] & ~had[0] or hand[1] & ~had[1] or hand[2] & ~had[2] or hand[3] & ~had[3]:
            return False  # a card came into the seat's hand
        # what each reading proved since (into one knowledge, as now() adds them in turn)
        delta = Knowledge(seat)
        asks = reader.asks
        marks: list[int] = []
        for i in range(len(asks)):
            r = asks[i][1]
            if r is None:
                return False  # a phase that only has infer: asked at every position
            got_mark = r.since(work, delta, steps[i])
            if got_mark is None:
                return False
            marks.append(got_mark)
        # the cards played since: the known ones leave the known places, the hidden ones
        # the hidden cards; the seat's own cards that left its hand were all played
        plays = deal.plays
        nplays = len(plays)
        was, was_unseen = prev.held, prev.unseen
        gone: list[int] = []
        left: list[int] = []
        mine = 0
        for i in range(prev.nplays, nplays):
            c = int(plays[i][1])
            w = was.get(c, _UNPLACED)
            if w != _UNPLACED:
                gone.append(c)
                if w == seat:
                    mine += 1
            elif c in was_unseen:
                left.append(c)
        if work.counts[seat] != prev.seat_count - mine:
            return False  # a card of the seat's own left its hand unplayed
        owner = work.owner
        added: list[tuple[int, int]] = []
        for c, h in delta.held.items():
            if owner[c] < SPARE:
                continue  # played: a fresh build leaves it out
            w = was.get(c, _UNPLACED)  # an int either way: compared natively, compiled
            if w == h:
                continue
            if w != _UNPLACED or c not in was_unseen:
                return False  # a known card moved (or one came into play)
            added.append((c, h))
            left.append(c)  # hidden until now
        # how many hidden cards each place gets (as _places counts them, from the tally)
        tally = list(prev.tally)
        for c in gone:
            h = was[c]
            if h >= SPARE:  # (a place: as _places counts)
                i = h + 1
                tally[i] = tally[i] - 1
        for _, h in added:
            if h >= SPARE:
                i = h + 1
                tally[i] = tally[i] + 1
        counts = work.counts
        places = _sizes(work, seat, tally)
        if places is None:
            return False  # facts at odds: _places keeps only the sure ones
        spare = work.spare
        # the same holders as before (the places with room, sorted): as many, each there
        # (a lookup per holder, where sorting the places made a list and sorted it)
        holders = prev.holders
        if len(places) != len(holders):
            return False
        for h in holders:
            if h not in places:
                return False
        # the hidden cards: the previous ones less those played or placed since; none came
        # into play exactly when there are as many as the spare's cards less the known
        # ones in it (every known card but the seat's own lies there)
        if len(was_unseen) - len(left) != \
                len(spare) - (len(was) - len(gone) + len(added) - counts[seat]):
            return False
        # read on: nothing of prev is changed above; below, its containers that only a
        # later view reads (the hidden cards, the knowledge, each holder's lacks among the
        # hidden cards, the grouping) are taken over and changed in place, not copied:
        # clone_for handed it over, stale, and the copies it dealt keep only its hands,
        # known places, owners and record (``held``, ``plays``, ``undo``: a copy's
        # record is worked out from them when first read, so those stay as they were)
        # (a card at a time: a set's methods are generic calls, compiled)
        unseen, hidden = was_unseen, prev.hidden
        for c in left:
            unseen.discard(c)
            _drop(hidden, c)
        # the knowledge (read by knowledge's tests, and below; the view reads the places
        # and inter): the previous one's, with the known places made again (the previous
        # ones are its record's) and the lacks proved since put in as new sets (a holder's
        # set may be a reading's, lent: never changed)
        held = dict(was)
        for c in gone:
            del held[c]
        for c, h in added:
            held[c] = h
        known = prev.known
        known.held = held
        lacks = known.lacks
        new = delta.lacks
        if new:
            for h, cards in new.items():
                before = lacks.get(h)
                lacks[h] = set(cards) if before is None else before | cards
        # each holder's lacks among the hidden cards: the previous ones less those gone,
        # with those proved since; a card newly there is the object a fresh build's
        # intersection gives (it walks the smaller set: the hidden cards' where the lacks
        # are as many or more, and a card of the real spare hand's may be a Card there,
        # which the grouping hands on to the copies' spare hands). The cards each holder
        # is newly known to lack (by its bit) go to the regrouping as they are found, so
        # it need not compare the holders' sets with the previous ones
        inter = prev.inter
        newly: list[tuple[int, set[int]]] = []
        bit = 1
        for i in range(len(holders)):
            cut = inter[i]
            if cut:
                for c in left:
                    if c in cut:  # a copy, less those gone (the objects are the set's)
                        cut = cut.difference(left)
                        break
            if new:
                h = holders[i]
                more = new.get(h)
                if more:
                    more = more & unseen
                    if more and not more <= cut:
                        if len(lacks[h]) >= len(unseen):
                            more = {hidden[bisect_left(hidden, c)] for c in more - cut}
                        else:
                            more = more - cut
                        newly.append((bit, more))
                        cut = cut | more
            inter[i] = cut
            bit <<= 1
        self.known, self.held, self.places, self.holders = known, held, places, holders
        self.unseen, self.hidden, self.inter, self.tally = unseen, hidden, inter, tally
        self.reader, self.wrote, self.steps = reader, reader.wrote, marks
        self.nplays, self.seat_count = nplays, counts[seat]
        self.real_spare, self.real_size = prev.real_spare, prev.real_size
        self.knew_spare = prev.knew_spare
        self._shift(prev, left, newly)
        self.lent |= 1
        # the copy's known hands: the previous ones (taken over, as _hands does) less the
        # cards played since, with the new ones; the swaps seen are the same
        self.undo, self.swaps = prev.undo, prev.swaps
        self.lent |= 10
        at = self.owner = prev.owner
        for c in left:  # hidden until now: played or placed since
            at[c] = owner[c]
        for c in gone:
            at[c] = owner[c]
        for c, h in added:
            at[c] = h
        # (where a card lies newly in the spare hand, its set is made again in the order of
        # the known places: the previous ones', as a reading adds its facts in the same
        # order at each position and only those that say what they added since, last in
        # the order, added any, then the new ones: as a fresh build makes it)
        self._moved(prev, gone, added, True)
        return True

    def _group(self, marks: dict[int, int]) -> None:
        """The hidden cards grouped by the places each may go to, from scratch: each hidden
        card's mark has bit i set where ``holders[i]`` is known to lack it, then one pass
        over the hidden cards groups those alike (the cards of one mark may go to the same
        places)."""
        hidden, holders = self.hidden, self.holders
        bit = 1
        for got in self.inter:
            for c in got:
                marks[c] = marks[c] | bit
            bit <<= 1
        allowed: dict[int, list[int]] = dict.fromkeys(hidden, holders)
        free: list[int] = []
        groups: dict[int, list[int]] = {}
        for c, m in marks.items():  # in card order
            if m:
                group = groups.get(m)
                if group is None:
                    groups[m] = [c]
                else:
                    group.append(c)
            else:
                free.append(c)  # may go anywhere: one list of places for them all
        alike: dict[int, tuple[list[int], list[int]]] = {}
        keyed: list[tuple[int, int, list[int], list[int]]] = []
        key = tuple(holders)
        for m, group in groups.items():
            where = _where(key, m)
            allowed.update(dict.fromkeys(group, where))
            alike[m] = (where, group)
            keyed.append((len(where), group[0], where, group))
        # the most constrained first, then in card order (the groups were met in card
        # order): tuples compared in C, no Python key function called per group
        keyed.sort()
        order = [(where, group) for _, _, where, group in keyed]
        self.allowed, self.free, self.order = allowed, free, order
        self.marks, self.alike = marks, alike

    def _regroup(self, prev: _View) -> bool:
        """The grouping of ``prev`` brought up to date, where that is what :meth:`_group`
        would give: the same holders, no card newly hidden, and each holder known to lack
        at least the hidden cards it was known to lack before, less those gone (the usual
        case a card or two played on: the facts a play proves only add). Whether it was
        (by :meth:`_shift`); ``False`` leaves the view to be grouped afresh."""
        if self.holders != prev.holders:
            return False
        # the cards no longer hidden, and none newly hidden: the hidden cards are the
        # previous ones less ``gone`` exactly when there are as many as that leaves (one
        # difference of two sets in C, where a subset test and a difference of the marks'
        # keys each made a set of the keys first)
        unseen = self.unseen
        gone = prev.unseen - unseen
        if len(unseen) != len(prev.unseen) - len(gone):
            return False
        added: list[tuple[int, set[int]]] = []
        bit = 1
        inter, was_inter = self.inter, prev.inter  # as many: the same holders
        for i in range(len(inter)):  # by index: zip(..., strict=True) is a generic call
            got, before = inter[i], was_inter[i]
            if got is not before and got != before:
                if gone:
                    before = before - gone
                if not before <= got:
                    return False  # a fact unlearned (a swap, an opening read again)
                if len(got) != len(before):
                    added.append((bit, got - before))
            bit <<= 1
        self._shift(prev, list(gone), added)
        return True

    def _shift(self, prev: _View, gone: list[int],
               added: list[tuple[int, set[int]]]) -> None:
        """The grouping of ``prev`` brought up to date, in place: the cards ``gone`` (no
        longer hidden) leave their groups, and those a holder is newly known to lack
        (``added``: the holder's bit, the cards) move to the group of their new mark; the
        other groups are the previous lists (no view changes them once made: the deals read
        them and copy what they shuffle). The previous view's dicts, group lists and free
        cards are taken over and changed in place, not copied: it is stale (the deal has
        moved on) and clone_for handed it over, keeping only this one; nothing else holds
        them (the copies it dealt keep only its hands and record).

        A group's place in ``order`` is by how many places it may go to, then by its first
        card (as :meth:`_group`'s stable sort of groups met in card order gives), and a
        group's cards are in card order, as the free cards are, so what changed is sorted
        again by those keys and a card leaves the free ones by bisection."""
        was = prev.marks
        if not gone and not added:
            # nothing changed: the same groups
            self.free, self.order, self.allowed = prev.free, prev.order, prev.allowed
            self.marks, self.alike = was, prev.alike
            return
        free = prev.free
        if not added:
            for c in gone:
                if was[c]:
                    break
            else:
                # only cards that could go anywhere gone (a card or two played, none of them
                # ruled out anywhere: the usual step in Boodle): the groups, and their order,
                # are the previous ones as they stand; the free cards lose those gone
                allowed = prev.allowed
                for c in gone:
                    del was[c]
                    del allowed[c]
                    _drop(free, c)
                self.free, self.order, self.allowed = free, prev.order, allowed
                self.marks, self.alike = was, prev.alike
                self.lent = 4  # (__init__ adds 1) for the tests: the groups kept as they stood
                return
        moved: set[int] = set(gone)
        for _, cards in added:
            moved |= cards
        old = [(c, was[c]) for c in sorted(moved)]  # in card order, with their old marks
        marks = was
        for c in gone:
            del marks[c]
        for b, cards in added:
            for c in cards:
                marks[c] = marks[c] | b
        alike, allowed = prev.alike, prev.allowed
        for c in gone:
            del allowed[c]
        holders = self.holders
        touched: set[int] = set()  # the marks whose groups lost a card
        for c, m in old:
            if m:  # out of its old group
                alike[m][1].remove(c)
                touched.add(m)
            else:  # out of the free cards (in card order)
                _drop(free, c)
            m = marks.get(c, 0)
            if not m:
                continue  # gone (a card that stays hidden has a mark: it moved to a group)
            into = alike.get(m)
            if into is None:
                into = alike[m] = (_where(tuple(holders), m), [c])
            else:
                insort(into[1], c)
            allowed[c] = into[0]
        for m in touched:
            if not alike[m][1]:
                del alike[m]
        # sorted by (places, first card) as tuples compared in C: no Python key function
        # called per group (the pair is unique: no two groups share a first card)
        keyed = [(len(where), group[0], where, group) for where, group in alike.values()]
        keyed.sort()
        order = [(where, group) for _, _, where, group in keyed]
        self.free, self.order, self.allowed = free, order, allowed
        self.marks, self.alike = marks, alike

    def _hands(self, deal: Deal, work: Deal, seat: int, prev: _View | None) -> None:
        """The copy's hands with only the known cards in them, and where each place's hand
        was dealt (every swap undone). The hands depend only on the known places
        (``held``) and the undoing only on the public swaps seen: where the swaps are as at
        ``prev`` and the known places are its own less the cards played since, its lists
        are taken over (no view changes them once made: the copies copy them) with those
        cards taken out; the owners, which also say which cards are played, are copied
        from ``work``."""
        held = self.held
        owner = self.owner = list(work.owner)
        swaps = self.swaps = tuple(self.reader.swaps)  # public swaps seen
        # what is newly placed, beside the previous view's places (card, holder), in the
        # pass that puts the known cards on the owners: ``None`` where a card it placed is
        # placed elsewhere now (a swap, an opening read again), or the swaps seen differ,
        # and the hands are built afresh. One pass over the known places (a dozen cards or
        # so), a lookup each: the subset tests of the two dicts' items this replaced made a
        # tuple per item, twice over, and a pass of its own after this one (``_added``)
        # cost 4.5k instructions a new position compiled, Boodle (session 17)
        added: list[tuple[int, int]] | None = None
        if prev is not None and prev.swaps == swaps:
            was = prev.held
            added = []
            for c, h in held.items():
                owner[c] = h
                w = was.get(c, _UNPLACED)  # an int either way: compared natively, compiled
                if w != h:
                    if w != _UNPLACED:
                        added = None
                        break
                    added.append((c, h))
        if prev is not None and added is not None:
            # the same known places, less the cards played since (the seat's own play, a
            # known card laid), and a few newly placed (the card after a stop known to lie
            # in the spare hand): the previous hands with those taken out and these put in
            self.undo = prev.undo
            self.lent |= 2
            # the cards no longer placed: as many as the previous places less those kept
            # (all but the ``added`` ones are kept), found only where there are any (a
            # difference of the two dicts' keys made a set of each first)
            was = prev.held
            gone = [c for c in was if c not in held] if \
                len(was) != len(held) - len(added) else []
            if not gone and not added:
                self.masks, self.counts, self.spare = prev.masks, prev.counts, prev.spare
                self.spare_seq = None  # (the known places made afresh: see _moved)
                return
            self._moved(prev, gone, added, False)
            return
        n = deal.n
        masks = self.masks = [[0, 0, 0, 0] for _ in range(n)]
        counts = self.counts = [0] * n
        spare: set[int] = set()
        seq: list[int] = []
        self.spare, self.spare_seq = spare, seq
        labels: dict[int, int] = {p: p for p in range(n)}
        labels[SPARE] = SPARE  # labels[d]: the place whose cards now were dealt to d
        for s in reversed(swaps):  # the public swaps it saw
            labels[s], labels[SPARE] = labels[SPARE], labels[s]
        self.undo = {f: d for d, f in labels.items()}
        for c, h in held.items():  # none of them played (see _knowledge)
            owner[c] = h
            if h == SPARE:
                spare.add(c)
                seq.append(c)
            else:
                m, k = masks[h], _SUIT[c]
                m[k] = m[k] | _BIT[c]
                counts[h] = counts[h] + 1


    def _moved(self, prev: _View, gone: list[int], added: list[tuple[int, int]],
               appended: bool) -> None:
        """The copy's known hands: ``prev``'s, taken over and changed in place (the
        previous view is stale and handed over, see :meth:`_regroup`, and its copies copied
        its hands), less the cards ``gone`` from the known places (``prev.held`` says
        where they were), with those ``added`` (card, place); the spare hand's set made
        again, as a fresh build adds to it in the order of the known places, where one lies
        newly there.

        The order of the spare hand's known cards among the known places (``spare_seq``,
        ``None`` where not known) is kept, so that the set is made again from them alone
        where the known places are the previous ones, in order, less those gone, with those
        ``added`` after them (``appended``: a view read on, :meth:`_advance`), not from a
        pass over every known place."""
        was = prev.held
        masks = self.masks = prev.masks
        counts = self.counts = prev.counts
        left = self.spare = prev.spare
        seq = prev.spare_seq
        dropped = False
        for c in gone:
            h = was[c]
            if h == SPARE:
                left.discard(c)
                dropped = True
            else:
                m, k = masks[h], _SUIT[c]
                m[k] = m[k] & ~_BIT[c]
                counts[h] = counts[h] - 1
        into_spare = False
        for c, h in added:
            if h == SPARE:
                into_spare = True
            else:
                m, k = masks[h], _SUIT[c]
                m[k] = m[k] | _BIT[c]
                counts[h] = counts[h] + 1
        if not appended:  # the known places made afresh: their order may be another
            seq = None
        elif seq is not None and dropped:
            seq = [c for c in seq if c in left]
        if not into_spare:
            self.spare_seq = seq
        elif seq is not None:
            seq = seq + [c for c, h in added if h == SPARE]
            self.spare, self.spare_seq = set(seq), seq
        else:
            seq = [c for c, h in self.held.items() if h == SPARE]
            self.spare, self.spare_seq = set(seq), seq

    def fixed(self) -> dict[int, list[int]]:
        """The cards each place was dealt that are not hidden (those the seat knows where
        they lie, and every card played, back with its player; the swaps undone), sorted:
        the part of the copies' records every copy of this view shares."""
        dealt = self._dealt
        if dealt is None:
            undo = self.undo
            dealt = self._dealt = {d: [] for d in undo.values()}
            for c, h in self.held.items():
                dealt[undo[h]].append(c)
            plays = self.plays
            for i in range(self.nplays):  # the plays made by this view's point
                p, c = plays[i]
                dealt[undo[p]].append(int(c))
            for cards in dealt.values():
                cards.sort()
        return dealt


_WHERES: Final[dict[tuple[tuple[int, ...], int], list[int]]] = {}
"""The places a hidden card of each mark may go to, per holders (a view's ``holders``)."""


def _where(holders: tuple[int, ...], mark: int) -> list[int]:
    """The holders a card of ``mark`` may go to (bit i set: ``holders[i]`` lacks it),
    remembered (bounded): a new position that moves a card to a mark new to its view met it
    at an earlier one more often than not. The list is shared by every group of that mark,
    of every view: read, never changed (the deals copy what they shuffle)."""
    key = (holders, mark)
    got = _WHERES.get(key)
    if got is None:
        if len(_WHERES) > MAX_CACHED:
            _WHERES.clear()
        got = _WHERES[key] = [h for i, h in enumerate(holders) if not mark >> i & 1]
    return got


def _drop(items: list[int], c: int) -> None:
    """Take ``c`` out of ``items``, a list in card order that holds it: by bisection
    interpreted (one C call), by a scan compiled (the C call, made through the generic call
    protocol there, cost about 700 instructions; a native scan of a few dozen cards, a
    fraction of that)."""
    if _INTERPRETED:
        del items[bisect_left(items, c)]
        return
    i = 0
    while items[i] != c:
        i += 1
    items.pop(i)


_UNPLACED: Final = -9
"""No place (what ``_View._hands`` reads of a card the previous view did not place):
below every place, ``PLAYED`` and ``ABSENT``."""


def _key(deal: Deal) -> tuple[int, ...]:
    """How far ``deal`` has got: a view is kept only while this stays the same."""
    return (len(deal.events), len(deal.actions), deal.phase_idx,
            -1 if deal.to_act is None else deal.to_act)


def _cached(deal: Deal, seat: int) -> _View | None:
    """The view of ``seat`` kept on ``deal``, if the deal has not moved on since."""
    kept = deal._imagined
    got = None if kept is None else kept.get(seat)
    if got is None or got.key != _key(deal):
        return None
    view: _View = got
    return view


def _shown_last(deal: Deal, seat: int) -> bool:
    """The last card dealt was turned up where ``seat`` saw it (else the copy forgets it)."""
    last = deal.last_dealt
    if last < 0:
        return False
    return last in _turned_up(deal, seat)


def _turned_up(deal: Deal, seat: int) -> set[int]:
    """The cards ``seat`` saw turned up, kept on the deal per seat and extended by the events
    logged since (the log only grows)."""
    seen = deal.seen_by(seat)
    kept = _kept(deal)
    per_seat = kept.get(_TURNED)
    if per_seat is None:
        per_seat = kept[_TURNED] = {}
    got: _Turned | None = per_seat.get(seat)
    if got is None or got.events is not deal.events or got.upto > len(seen):
        got = per_seat[seat] = _Turned(deal.events)
    cards = got.cards
    for i in range(got.upto, len(seen)):
        e = seen[i]
        if e.kind is K_TURNED_UP and e.card is not None:
            cards.add(int(e.card))
    got.upto = len(seen)
    return cards


_TURNED: Final = "turned up"
"""The key of the seats' :class:`_Turned` on the deal (``_kept``): a string, whose hash is
kept, where a key of a tuple per seat was made and hashed at every new position."""


class _Turned:
    """The cards one seat saw turned up (``cards``), read up to ``upto`` of its events, of
    the log ``events``: read on in place at each new position (a tuple of the three made
    and read back generically cost about a thousand instructions a first call, compiled)."""

    __slots__ = ("cards", "events", "upto")

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self.upto = 0
        self.cards: set[int] = set()


def _blanked(deal: Deal, seat: int) -> list[Any]:
    """The log as ``seat`` may keep it: an event it may not see keeps no cards and no
    amount. Kept on the deal per seat and extended by the events logged since (the log only
    grows), so a copy at each decision of a deal pays for each event once."""
    events = deal.events
    seen = deal.seen_by(seat)  # the same filter of the same log, in order
    kept = _kept(deal)
    per_seat = kept.get(_LOGS)
    if per_seat is None:
        per_seat = kept[_LOGS] = {}
    got: _Log | None = per_seat.get(seat)
    if got is None or got.events is not events or got.upto > len(events):
        got = per_seat[seat] = _Log(events)  # first asked, or the log was replaced
    out, j = got.out, got.j
    for i in range(got.upto, len(events)):
        e = events[i]
        if j < len(seen) and seen[j] is e:
            out.append(e)
            j += 1
        else:
            out.append(e if not e.cards and e.card is None and not e.chips
                       else _hidden_event(e))
    got.upto, got.j = len(events), j
    # the kept list itself, not a copy: a view reads it only while the deal stands where
    # it did (its key: as many events), and every copy copies it (``Deal.imagined_copy``,
    # clone_for's first copy); what is logged later is appended for the next view
    return out


_LOGS: Final = "blanked logs"
"""The key of the seats' :class:`_Log` on the deal (``_kept``), as :data:`_TURNED`."""


class _Log:
    """The log as one seat may keep it (``out``), read up to ``upto`` events of the log
    ``events``, ``j`` of them the seat's own (read on in place at each new position, as
    :class:`_Turned`: a tuple of the four made per call and read back generically cost
    about a thousand instructions a first call, compiled)."""

    __slots__ = ("events", "j", "out", "upto")

    def __init__(self, events: list[Any]) -> None:
        self.events = events
        self.upto = 0
        self.j = 0
        self.out: list[Any] = []


def _kept(deal: Deal) -> dict[Any, Any]:
    """What ``clone_for`` keeps on ``deal`` (made on first use)."""
    kept = deal._imagined
    if kept is None:
        kept = deal._imagined = {}
    return kept


def _hidden_event(e: Any) -> Any:
    """``e`` without its cards or amount (an event the seat may not see)."""
    return e._replace(cards=(), card=None, chips=0)


def knowledge(deal: Deal, seat: int) -> Knowledge:
    """What ``seat`` knows of where the cards it cannot see lie, as ``clone_for`` uses it
    (for tests, and bots that reason about the hidden cards themselves)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.n:
        raise StopsError(f"knowledge: no seat {seat!r} at a table of {deal.n}")
    return _known(deal, seat, True)


def _known(deal: Deal, seat: int, resume: bool) -> Knowledge:
    """:func:`knowledge`, read on from the seat's kept reading (``resume``) or from the
    start of the log, every phase's ``infer`` asked (what the tests compare it with)."""
    work = deal.clone()
    work.reseed(0)
    if not _shown_last(deal, seat):
        work.last_dealt = -1
    if not work.dealt_hands:
        return Knowledge(seat)
    seen = deal.seen_by(seat)
    work._views[seat] = (work.events, len(work.events), seen)
    return _knowledge(work, deal, seat, seen, resume)


def _knowledge(work: Deal, real: Deal, seat: int, seen: tuple[Any, ...],
               resume: bool = True, tidy: bool = True, blank: bool = True) -> Knowledge:
    """What ``seat`` knows of the cards it cannot see. ``work`` is a copy of ``real``
    whose cards ``seat`` cannot see are taken out of the hands here; the phases read only
    it (of ``real``, only the seat's hand and a spare hand it knows are read; ``seen`` is
    the log as the seat sees it).

    With ``resume`` (what ``clone_for`` does), the log is read through the seat's
    :class:`_Reader` kept on ``real``: only the events logged since its last position are
    read (a phase with a :class:`Reading`), so a search that meets a new position at every
    decision pays for the new events, not for the whole log again. Without it, every phase
    reads the whole log (:meth:`~stops.phases.base.Phase.infer`): what a resumed reading
    must equal (a test compares them at every decision of every built-in).

    Without ``tidy`` (the view's own use), the cards played are left in the lacks: the view
    reads the lacks only of the hidden cards, none of them played, so it is spared a pass
    over the pack. Without ``blank``, ``work`` is blanked already (:func:`_blank_copy`)."""
    known = Knowledge(seat)
    phases = work.variant.phases
    if resume:
        if blank:
            _blank_hidden(work, seat)
        reader = _reader(real, work, seat, seen)
        hand = _cards_in(real.masks[seat])
        mine = dict.fromkeys(hand, seat)  # put in again below: made once
        known.held.update(mine)
        if seat in real.spare_known:
            known.hold(SPARE, real.spare)
        known.held.update(reader.shown)
        for phase, reading in reader.asks:
            if reading is None:
                phase.infer(work, seat, known)
            else:
                reading.now(work, known)
    else:
        _engine_facts(work, real, seat, known, seen)
        _blank_hidden(work, seat)
        for phase in phases:
            phase.infer(work, seat, known)
        hand = _cards_in(work.masks[seat])
        mine = dict.fromkeys(hand, seat)
    # the cards played since they were seen (or out of the pack) leave: their owner is
    # PLAYED or ABSENT, below every place (one test a card, where two asked who played it
    # and whether it was out)
    held, owner, gone_below = known.held, work.owner, SPARE
    for c in [c for c in held if owner[c] < gone_below]:
        del held[c]
    held.update(mine)  # the phases leave the seat's hand alone
    played_by = work.played_by
    if tidy:  # new sets: some may be a reading's, lent (see Knowledge)
        played = {c for c, p in enumerate(played_by) if p >= 0}
        known.lacks = {h: cards - played for h, cards in known.lacks.items()}
        known._borrowed = set()
    return known


def _cards_in(mask: list[int]) -> list[int]:
    """The cards of a hand's suit masks (as ``Deal.masks`` keeps them), lowest first: the
    hand without making a card object of each, read from :data:`_SUIT_INDICES` (a lookup
    per suit, not a step per card)."""
    m0, m1, m2, m3 = mask
    t = _SUIT_INDICES
    out: list[int] = []
    if m0:
        out += t[m0] or _suit_indices(m0)
    if m1:
        out += t[8192 | m1] or _suit_indices(8192 | m1)
    if m2:
        out += t[16384 | m2] or _suit_indices(16384 | m2)
    if m3:
        out += t[24576 | m3] or _suit_indices(24576 | m3)
    return out


class _Reader:
    """What one seat has read so far of a deal's log, kept on the deal (``Deal._imagined``,
    never copied: a copy starts cold) and read on from where it stopped: the cards shown to
    it (``shown``: the last place each was seen, a turned-up card on the spare hand), the
    seats whose public swaps with the spare hand it saw (``swaps``, in order), and each
    phase's :class:`Reading` (``None`` for a phase that reads the whole log each time).
    ``upto`` is how many of the seat's events have been read, of the log ``events``.
    ``asks`` is what each new position asks, in the phases' order: a reading's ``now``, or
    the phase's ``infer`` (reading ``None``) where it has no reading; a phase that keeps
    the base class's of both (``Step.infers`` false, a plain :class:`Reading`, which reads
    nothing and adds nothing) is not asked at all, nor shown the events."""

    __slots__ = ("asks", "by_kind", "events", "every", "lenders", "phases", "readings", "shown",
                 "swaps", "upto", "wrote")

    def __init__(self, real: Deal, work: Deal, seat: int) -> None:
        self.events = real.events
        self.phases = work.variant.phases
        self.upto = 0
        self.shown: dict[int, int] = {}
        self.wrote = 0  # how many times ``shown`` was written (a view read on checks it)
        self.swaps: list[int] = []
        self.readings = [phase.reading(work, seat) for phase in self.phases]
        # each call of a base class's method that does nothing was a generic method call
        # at every new position, compiled (three in Boodle: its stake, deal and settlement)
        self.asks: list[tuple[Any, Reading | None]] = []
        for phase, r in zip(self.phases, self.readings, strict=True):
            if r is None:
                if not isinstance(phase, Step) or phase.infers:
                    self.asks.append((phase, None))
            elif type(r) is not Reading:
                self.asks.append((phase, r))
        # the readings that lend a view's copies what they read (Reading.lends)
        self.lenders: list[Reading] = [r for _, r in self.asks if r is not None and r.lends]
        # who reads which events, in the phases' order for each kind
        self.every: list[Reading] = []
        self.by_kind: dict[str, list[Reading]] = {}
        for r in self.readings:
            if r is None or type(r) is Reading:
                continue
            if r.kinds is None:
                self.every.append(r)
                for got in self.by_kind.values():
                    got.append(r)
            else:
                for k in r.kinds:
                    self.by_kind.setdefault(k, list(self.every)).append(r)

    def read(self, work: Deal, seen: tuple[Any, ...]) -> None:
        """Read the events ``seen`` holds beyond those already read."""
        if self.upto == len(seen):
            return
        shown, swaps, every, by_kind = self.shown, self.swaps, self.every, self.by_kind
        for i in range(self.upto, len(seen)):
            e = seen[i]
            k = e.kind
            if k in SHOWS and e.seat is not None:  # cards the seat showed (vocabulary)
                if e.cards:
                    for c in e.cards:
                        shown[int(c)] = e.seat
                    self.wrote += 1
            elif k is K_TURNED_UP and e.card is not None:
                shown[int(e.card)] = SPARE  # a turned-up card lies face up on the spare
                self.wrote += 1
            if k in SWAPS_SPARE and e.visible_to is None and e.seat is not None:
                swaps.append(e.seat)
            for r in by_kind.get(k, every):
                r.see(work, e)
        self.upto = len(seen)


def _steps(reader: _Reader) -> list[int] | None:
    """Where each reading the seat's reader asks stood at its last ``now``
    (:meth:`Reading.mark`), for the view read on at the next position; ``None`` where one
    cannot say (or a phase has no reading)."""
    out: list[int] = []
    for _, r in reader.asks:
        if r is None:
            return None
        got = r.mark()
        if got is None:
            return None
        out.append(got)
    return out


def _reader(real: Deal, work: Deal, seat: int, seen: tuple[Any, ...]) -> _Reader:
    """``seat``'s reader kept on ``real``, read up to ``seen`` (a new one if none is kept, or
    the log was replaced)."""
    kept = _kept(real)
    got: _Reader | None = kept.get(("read", seat))  # typed: its fields read natively
    reader: _Reader
    if got is not None and got.events is real.events and got.upto <= len(seen) and \
            got.phases is work.variant.phases:
        reader = got
    else:
        reader = kept[("read", seat)] = _Reader(real, work, seat)
    reader.read(work, seen)
    return reader


def _engine_facts(work: Deal, real: Deal, seat: int, known: Knowledge,
                  seen: tuple[Any, ...]) -> None:
    """The engine's part of what ``seat`` knows (its hand, the spare hand if it knows it,
    cards shown to it and a turned-up card), read before the copy's hidden cards are
    blanked: of the real deal, only what this seat may see is read."""
    known.hold(seat, (int(c) for c in real.hand(seat)))
    if seat in real.spare_known:
        known.hold(SPARE, real.spare)
    for e in seen:
        if e.kind in SHOWS and e.seat is not None:  # cards the seat showed (vocabulary)
            known.hold(e.seat, (c for c in e.cards if work.played_by[c] < 0))
        elif e.kind is K_TURNED_UP and e.card is not None:
            known.hold(SPARE, (int(e.card),))  # a turned-up card lies face up on the spare


def _blank_hidden(work: Deal, seat: int) -> None:
    """Take every card ``seat`` cannot see out of the copy's hands (into the spare hand)
    until it is dealt again; the counts, which every seat sees, stay. A copy blanked
    already (:func:`_blank_copy`) is left as it is."""
    # the other seats' cards go to the spare hand; the spare's own cards are there already
    # (whether or not the seat knows them: the view places those it knows)
    # the other hands' cards read from their suit masks (a lookup per suit), not by a
    # pass over the pack; sorted, so the spare hand gets them in card order as before
    owner, masks = work.owner, work.masks
    moved: list[int] = []
    for s in range(work.n):
        m = masks[s]
        if s != seat and (m[0] or m[1] or m[2] or m[3]):
            moved += _cards_in(m)
            masks[s] = [0, 0, 0, 0]
    if moved:
        moved.sort()
        for c in moved:
            owner[c] = SPARE
        work.spare.update(moved)
    work.forget_offer()


def _blank_copy(deal: Deal, seat: int) -> Deal:
    """``deal.clone()`` with every card ``seat`` cannot see in the spare hand, as
    :func:`_blank_hidden` leaves a clone (``clone_for``'s copy before anything is dealt),
    made straight across by ``Deal.imagined_copy`` with the blanked hands
    (:func:`_blind_hands`)."""
    owner, masks, spare = _blind_hands(deal, seat, None)
    work = deal.imagined_copy(owner, masks, deal.counts, spare, deal.events)
    work.forget_offer()
    return work


def _blind_hands(deal: Deal, seat: int, prev: _View | None
                 ) -> tuple[list[Any], list[list[int]], set[int]]:
    """The hands of a copy blanked for ``seat`` (owners, suit masks, spare hand): the seat's
    own where they are (its masks the real deal's list), every other card in play in the
    spare hand. Those of ``prev`` (the seat's previous view of this deal, stale: handed
    over) brought up to date in place where they can be, else made afresh.

    They depend only on the cards in play and the seat's hand, and a card leaves play only
    by being played (``deal.plays``): so where the seat's hand is its previous one less
    cards it played since, the previous hands less the cards played since are these (each
    played card's owner the real one, out of the spare hand), which a count of the cards in
    the spare hand confirms. A few operations per card played, where blanking afresh put
    every hidden card in a new spare hand (with the copy of the clone it was put in, a
    quarter of a ``clone()`` at every new position, compiled Boodle)."""
    owner = deal.owner
    masks = deal.masks
    counts = deal.counts
    n = deal.n
    if prev is not None and prev.blind is not None:
        hands = prev.blind
        owner_b, masks_b, spare_b = hands
        m, had = masks[seat], prev.hand
        if not (m[0] & ~had[0] or m[1] & ~had[1] or m[2] & ~had[2] or m[3] & ~had[3]):
            plays = deal.plays
            left = prev.seat_count - counts[seat]  # the seat's cards gone: all played?
            for i in range(prev.nplays, len(plays)):
                c = int(plays[i][1])
                owner_b[c] = owner[c]
                if had[_SUIT[c]] & _BIT[c]:
                    left -= 1
                else:
                    spare_b.discard(c)
            others = len(deal.spare)
            for s in range(n):
                if s != seat:
                    others += counts[s]
            if not left and len(spare_b) == others:
                masks_b[seat] = m
                return hands
    blank: list[list[int]] = []
    # the other hands' suit masks or-ed together (the hands are disjoint): their cards read
    # off per suit by a lookup per suit (no list per hand joined and sorted)
    m0 = m1 = m2 = m3 = 0
    for s in range(n):
        m = masks[s]
        if s == seat:
            blank.append(m)
        else:
            blank.append([0, 0, 0, 0])
            m0 |= m[0]
            m1 |= m[1]
            m2 |= m[2]
            m3 |= m[3]
    # the owners written with the spare hand's place as the one object it is (compiled: an
    # ``int`` was boxed per card)
    placed: list[Any] = list(owner)
    spare = set(deal.spare)
    place: Any = SPARE
    if _INTERPRETED:
        moved = _cards_in([m0, m1, m2, m3])
        for c in moved:
            placed[c] = place
        spare.update(moved)
    else:
        # compiled, suit by suit (see _to_spare; interpreted, the four calls cost more than
        # they save)
        if m0:
            _to_spare(placed, spare, m0)
        if m1:
            _to_spare(placed, spare, 8192 | m1)
        if m2:
            _to_spare(placed, spare, 16384 | m2)
        if m3:
            _to_spare(placed, spare, 24576 | m3)
    return placed, blank, spare


def _to_spare(owner: list[Any], spare: set[int], key: int) -> None:
    """The cards of one suit and rank mask (``key``: suit << 13 | mask) put in the blanked
    copy's spare hand: their owners written with the spare hand's place as the one object
    it is, and added to the spare's set from a frozenset kept per ``key`` (merged from a
    set, their hashes are read, not worked out: about 0.9k instructions less at a new
    position than an update from the list of them, compiled Boodle; session 19)."""
    place: Any = SPARE
    for c in _SUIT_INDICES[key] or _suit_indices(key):
        owner[c] = place
    got = _SUIT_SETS.get(key)
    if got is None:
        got = _SUIT_SETS[key] = frozenset(_SUIT_INDICES[key])
    spare.update(got)


_SUIT_SETS: Final[dict[int, frozenset[int]]] = {}
"""The card indices of each (suit << 13 | rank mask) as a frozenset, filled as met (the
blanking of :func:`_blank_copy` adds them to the spare hand, compiled; the key fixes the
value; at most 4 × 8192). A dict, not a list of every key made at import: the cyclic GC
walks a list's every slot at each full collection, which cost random play, which never
reads it, 4% of its instructions pure."""


def _places(work: Deal, seat: int, known: Knowledge) -> tuple[dict[int, int], list[int]]:
    """How many hidden cards each place (another seat, the spare hand) must get: what it
    holds, less what ``known`` puts there; and the known cards counted per place (index
    place + 1), which a view read on at the next position brings up to date."""
    # plain loops: a Counter and three comprehensions cost about half a clone() here, at
    # every new position; the known cards tallied per place in a list indexed by place + 1
    # (the spare hand at 0: every place is SPARE or a seat), not by a dict's get and set
    # per card (session 17: 7.9k -> 6.4k instructions a new position compiled, Boodle)
    counts = work.counts
    n = work.n
    tally = [0] * (n + 1)
    for h in known.held.values():
        if h >= SPARE:  # (a place; nothing else is counted, as before)
            i = h + 1
            tally[i] = tally[i] + 1  # as a = a + b: see Deal.give
    out = _sizes(work, seat, tally)
    if out is None:
        # more known in a place than it holds: facts at odds, keep only the sure ones
        others = sum(counts[s] for s in range(n) if s != seat)
        bad = {h for h in range(SPARE, n) if h != seat and
               (counts[h] if h >= 0 else len(work.spare) - others) < tally[h + 1]}
        for c in [c for c, h in known.held.items() if h in bad]:
            del known.held[c]
        return _places(work, seat, known)
    return out, tally


def _sizes(work: Deal, seat: int, tally: list[int]) -> dict[int, int] | None:
    """How many hidden cards each place (another seat, the spare hand) must get, from the
    known cards counted per place (``tally``, by place + 1): what it holds less those, in
    the order seats, then the spare hand (the deals read it); ``None`` where a place is
    known to hold more than it does."""
    counts = work.counts
    out: dict[int, int] = {}
    others = 0
    for s in range(work.n):
        if s != seat:
            got = counts[s]
            others += got
            k = got - tally[s + 1]
            if k > 0:
                out[s] = k
            elif k < 0:
                return None
    # the spare's size: the blanked copy's spare hand holds every card in play but the
    # seat's own (see _blank_hidden), the other seats' among them (their counts stay); where
    # two passes over the pack counted the cards in play
    k = len(work.spare) - others - tally[0]
    if k > 0:
        out[SPARE] = k
    elif k < 0:
        return None
    return out


def _deal_hidden(order: list[tuple[list[int], list[int]]], free: list[int],
                 places: dict[int, int], allowed: dict[int, list[int]],
                 rng: Any) -> dict[int, list[int]] | None:
    """Deal the hidden cards to ``places`` (place -> how many), each card only where
    ``allowed`` says it may go: ``order`` are those some fact constrains, as (places, cards
    that may go to just those places), fewest places first; ``free`` those that may go
    anywhere. The cards each place gets; ``None`` if no such deal exists.

    The most constrained cards go first, each to a place drawn in proportion to the room
    it has left; a card with nowhere left to go makes room by moving a dealt card along a
    chain of places that may take it. The cards that may go anywhere come last and fill the
    room left as a shuffled pack is dealt (which is what drawing each in proportion to the
    room left would give, in one draw a card rather than two)."""
    # the room a place has left is always ``places[h] - len(at[h])``: read so, not kept
    # in a dict of its own written at every group
    at: dict[int, list[int]] = {}
    for h in places:  # a plain loop: a comprehension is a function call of its own pure
        at[h] = []
    # a random.Random's C-level random() read once and called inline (no call through a
    # wrapper per card); each draw typed ``float``, so the compiled build multiplies and
    # floors it natively (a generic multiply, floor and add of boxed numbers per card were
    # most of this function's 38k instructions a first call in compiled Boodle)
    # (told by the test of the native class Rng, not of ``random.Random``: a lookup in the
    # module at every call, compiled)
    unit: Callable[[], float] | None = None if isinstance(rng, Rng) else rng.random
    u: float
    for where, group in order:  # the most constrained first
        m = len(group)
        if len(where) == 1:
            h = where[0]
            got = at[h]
            k = places[h] - len(got)
            if m <= k:
                # one place with room for them all: every draw below picks it, so the
                # draws are made (the stream goes on as it did) and the cards go there in
                # order, with no pool of slots built and walked
                if unit is not None:
                    for _ in range(m):
                        unit()
                else:
                    below = rng.below
                    for i in range(m):
                        below(k - i)
                got.extend(group)
                continue
        # the cards that may go to the same places, dealt together: each to a place drawn
        # in proportion to the room it has left, as one draw of slots, without putting
        # back, from the room left there; a slot is the place's list itself (no lookup of
        # the place per card); the first place's run of slots is the pool itself (a list
        # fewer made and freed)
        pool: list[list[int]] = []
        for h in where:
            got = at[h]
            k = places[h] - len(got)
            if k > 0:
                if pool:
                    pool.extend([got] * k)
                else:
                    pool = [got] * k
        # the cards as the objects they are (typed ``Any``: a ``list[int]``'s item was
        # unboxed and boxed again per card, compiled)
        cards: list[Any] = group
        n = len(pool)
        if m > n:
            cards = list(group)
            _shuffle_fast(rng, cards)  # which are left without room: any of them
        top = m if m < n else n
        if unit is not None:  # no test of which rng per card
            for i in range(top):
                u = unit()
                j = i + floor(u * (n - i))
                pool[j].append(cards[i])
                pool[j] = pool[i]
        else:
            below = rng.below
            for i in range(top):
                j = i + below(n - i)
                pool[j].append(cards[i])
                pool[j] = pool[i]
        for c in cards[n:]:  # nowhere left to go: make room along a chain
            room = {h: k - len(at[h]) for h, k in places.items()}
            freed = _make_room(c, allowed, at, room)
            if freed is None:
                return None
            at[freed].append(c)
    if free:
        deck: list[Any] = list(free)
        # the largest place takes the cards the others leave: with a random.Random only the
        # Fisher-Yates steps that draw the other places' cards are taken (the last
        # ``len(deck) - most`` positions, a uniform draw of them in order; the first
        # ``most`` are then a uniform draw of the rest); each place's list and room read
        # once, in the one pass that finds the largest
        most, big = 0, SPARE
        rooms: list[tuple[list[int], int]] = []
        for h, k in places.items():
            got = at[h]
            k -= len(got)
            if k > most:
                most, big = k, h
            rooms.append((got, k))
        if not most:
            return at  # no room left anywhere (as before: the cards go nowhere)
        if unit is not None:
            for i in range(len(deck) - 1, max(most, 1) - 1, -1):
                u = unit()
                j = floor(u * (i + 1))
                x = deck[i]
                deck[i] = deck[j]
                deck[j] = x
        else:
            rng.shuffle(deck)
        into = at[big]
        i = most
        for got, k in rooms:
            if got is into:
                got.extend(deck[:most])
            elif k:
                got.extend(deck[i:i + k])
                i += k
    return at


def _unit(rng: Any) -> Callable[[], float]:
    """A uniform float in [0, 1) per call from ``rng``: a ``random.Random``'s own
    ``random()`` (the walk's draws as they always were); a ``stops`` Rng, which has no
    ``random()``, gives 53 bits of ``below`` (the walk failed on it before)."""
    if isinstance(rng, random.Random):
        unit: Callable[[], float] = rng.random
        return unit
    below = rng.below
    return lambda: below(1 << 53) / (1 << 53)


def _swap(at: dict[int, list[int]], misfits: set[int], allowed: dict[int, list[int]],
          rng: Any, culprits: set[int] | frozenset[int] = frozenset()) -> dict[int, list[int]]:
    """``at`` with one hidden card of a seat in ``misfits`` swapped with one of another
    place that may take it (and may go where it came from): a step of the walk
    ``clone_for`` takes when whole deals seldom fit (:data:`WHOLE_TRIES`). The card moved
    is one of ``culprits`` where the seat holds any (the cards the phases said put it at
    fault: :meth:`~stops.phases.base.Phase.misfit_cards`), else any of its hidden cards.

    Every other step (drawn), three cards move round three places instead (see
    :func:`_rotate`), and where no swap is found: swaps alone can leave the walk where no
    step reaches a deal that fits (Tripoley after its showdown: a seat's hidden cards may
    go only to a place whose cards that it may take would all leave it at fault, the card
    it needs held where none of them may go), and ``clone_for`` then failed on a position
    that has copies.

    ``at`` is left as it is (the walk keeps it should the step leave more seats at fault):
    the step's places share its lists but for the two or three it changes, copied before
    they are written (copying every place's list was a fifth of a step)."""
    out = dict(at)
    unit = _unit(rng)
    seats = sorted(h for h in misfits if out.get(h))
    places = sorted(out)
    if unit() < ROTATE and _rotate(out, seats, places, allowed, rng):
        return out
    for _ in range(8):
        s = seats[int(unit() * len(seats))]
        mine = out[s]
        faulty = [j for j, c in enumerate(mine) if c in culprits] if culprits else []
        i = faulty[int(unit() * len(faulty))] if faulty else int(unit() * len(mine))
        x = mine[i]
        others = [h for h in places if h != s and h in allowed[x] and out[h]]
        if not others:
            continue
        p = others[int(unit() * len(others))]
        theirs = [j for j, y in enumerate(out[p]) if s in allowed[y]]
        if not theirs:
            continue
        j = theirs[int(unit() * len(theirs))]
        mine = out[s] = list(mine)
        got = out[p] = list(out[p])
        mine[i], got[j] = got[j], x
        return out
    _rotate(out, seats, places, allowed, rng)
    return out


MEND_TRIES = 8
"""Cards a step of the walk tries in a hand at fault (:func:`_mend`) before it falls back to
a blind swap (:func:`_swap`)."""


def _mend(at: dict[int, list[int]], misfits: set[int], allowed: dict[int, list[int]],
          rng: Any, culprits: set[int], checks: list[tuple[int, int, HandCheck]]
          ) -> dict[int, list[int]] | None:
    """A step of the walk that mends a hand at fault where the phases check each hand alone
    (:meth:`Step.hand_checks`): one of ``culprits`` in a seat of ``misfits`` (any of its
    hidden cards if it holds none) is swapped with a card of another place that may take it,
    the cards tried in a random order and the first kept with which the seat's hand
    passes its checks and the other place's, if checked, still does (or was at fault
    already). Each card tried costs a mask and a check, where a blind swap's every step
    costs a whole step of the walk: a hand shown as a flush, most of the cards that may
    go to its holder bettering it, took a dozen blind steps. ``None`` if no card tried
    mends it (the walk then takes a blind step). ``at`` is left as it is: the two lists
    changed are copied, the others shared, as in :func:`_swap`."""
    bit = _CARD_BIT
    hands: dict[int, int] = {}  # the hands checked, as masks, before the step
    for holder, known, _check in checks:
        hand = known
        for c in at.get(holder, ()):
            hand |= bit[c]
        hands[holder] = hand
    # the seats at fault that a check of their hand put there (another phase's may name
    # others: the blind swap moves those) and that have hidden cards to move
    seats = sorted(h for h in misfits if h in hands and at.get(h))
    if not seats:
        return None
    unit = _unit(rng)
    s = seats[int(unit() * len(seats))]
    mine = at[s]
    faulty = [j for j, c in enumerate(mine) if c in culprits]
    i = faulty[int(unit() * len(faulty))] if faulty else int(unit() * len(mine))
    x = mine[i]
    # every card that may come to s from a place that may take x: (place, index)
    swaps = [(p, j) for p in sorted(at) if p != s and p in allowed[x]
             for j, y in enumerate(at[p]) if s in allowed[y]]
    n = len(swaps)
    for k in range(min(n, MEND_TRIES)):
        t = k + int(unit() * (n - k))  # the next of a random order, drawn as it goes
        swaps[k], swaps[t] = swaps[t], swaps[k]
        p, j = swaps[k]
        y = at[p][j]
        if not _passes(checks, s, hands[s] ^ bit[x] ^ bit[y]):
            continue
        if p in hands and p not in misfits and not _passes(checks, p,
                                                           hands[p] ^ bit[y] ^ bit[x]):
            continue
        out = dict(at)
        mine = out[s] = list(mine)
        got = out[p] = list(at[p])
        mine[i], got[j] = y, x
        return out
    return None


def _passes(checks: list[tuple[int, int, HandCheck]], holder: int, hand: int) -> bool:
    """Whether ``holder``'s ``hand`` passes each of ``checks`` that is his."""
    for h, _known, check in checks:  # noqa: SIM110 - a plain loop compiles
        if h == holder and not check.fits(hand):
            return False
    return True


def _rotate(out: dict[int, list[int]], seats: list[int], places: list[int],
            allowed: dict[int, list[int]], rng: Any) -> bool:
    """A step of the walk (:func:`_swap`) that moves three cards round three places: a
    hidden card ``x`` of a misfit seat ``s`` goes to a place ``p`` that may take it, a card
    ``z`` of ``p`` to a third place ``q``, and a card ``y`` of ``q`` to ``s``, each only
    where it may go; every place keeps its count. Whether such three were found in a few
    draws (``out`` is left as it is if not). The three places' lists are copied before
    they are written (``out``'s may be another deal's: see :func:`_swap`)."""
    unit = _unit(rng)
    for _ in range(8):
        s = seats[int(unit() * len(seats))]
        mine = out[s]
        i = int(unit() * len(mine))
        x = mine[i]
        qs = [h for h in places if h != s and any(s in allowed[y] for y in out[h])]
        if not qs:
            continue
        q = qs[int(unit() * len(qs))]
        ps = [h for h in places if h != s and h != q and h in allowed[x]
              and any(q in allowed[z] for z in out[h])]
        if not ps:
            continue
        p = ps[int(unit() * len(ps))]
        ys = [j for j, y in enumerate(out[q]) if s in allowed[y]]
        zs = [j for j, z in enumerate(out[p]) if q in allowed[z]]
        j = ys[int(unit() * len(ys))]
        k = zs[int(unit() * len(zs))]
        mine = out[s] = list(mine)
        at_q = out[q] = list(out[q])
        at_p = out[p] = list(out[p])
        mine[i], at_q[j], at_p[k] = at_q[j], at_p[k], x
        return True
    return False


def _make_room(card: int, allowed: dict[int, list[int]], at: dict[int, list[int]],
               room: dict[int, int]) -> int | None:
    """A place that ``card`` may go to, freed by moving dealt cards one step each along a
    chain of allowed places ending where there is room; ``None`` if there is none."""
    start = allowed[card]
    parent: dict[int, tuple[int, int]] = {}
    seen = set(start)
    queue = list(start)
    i = 0
    while i < len(queue):
        h = queue[i]
        i += 1
        for c in at[h]:
            for h2 in allowed[c]:
                if h2 in seen:
                    continue
                seen.add(h2)
                parent[h2] = (h, c)
                if room[h2] > 0:
                    # move each card one step along the chain back to a start place
                    node = h2
                    while node in parent:
                        src, moved = parent[node]
                        at[src].remove(moved)
                        at[node].append(moved)
                        room[node] = room[node] - 1
                        room[src] = room[src] + 1
                        node = src
                    return node
                queue.append(h2)
    return None


def _place(new: Deal, view: _View, at: dict[int, list[int]], fresh: bool) -> None:
    """The copy's hands: the known cards where they lie (as the view has them), each hidden
    card where ``at`` deals it; masks, counts and the spare hand to match. ``fresh``: the
    copy holds the view's hands already (its first try), so the hidden cards are only
    added; otherwise (another try) the hands are first put back to the view's."""
    if fresh:
        owner, masks, counts, spare = new.owner, new.masks, new.counts, new.spare
    else:
        owner = new.owner = list(view.owner)
        masks = new.masks = [list(m) for m in view.masks]
        counts = new.counts = list(view.counts)
        spare = new.spare = set(view.spare)
    # the tables as locals: read once, not as module globals per card
    suit, bit = _SUIT, _BIT
    placed: list[Any] = owner  # the owners, written with objects as they are (compiled)
    for h, cards in at.items():
        if h == SPARE:
            # a hidden card's owner is the spare hand's in the view's hands already (the
            # blanking put every card the seat cannot see there): no write per card
            spare.update(cards)
        elif _INTERPRETED:
            # each card's bit straight into its suit's mask: small ints (a 52-bit mask
            # built card by card and split by suit after allocated a two-digit int at every
            # step; this is about a fifth of the placing cheaper pure)
            m = masks[h]
            for c in cards:
                owner[c] = h
                k = suit[c]
                m[k] = m[k] | bit[c]
            counts[h] = counts[h] + len(cards)
        else:
            # compiled: a 52-bit mask is a native int, built with no allocation, and split by
            # suit once (a suit's mask read and written back per card is boxed); each card's
            # bit shifted in natively (a 52-bit int read from a table was unboxed per card),
            # and the place written to the owners as the one object it is (an ``int`` local
            # was boxed again per card): about 1.3k instructions less a copy, Boodle
            bits = 0
            place: Any = h
            for c in cards:
                placed[c] = place
                bits |= 1 << c
            m = masks[h]
            m[0] = m[0] | bits & 0x1FFF
            m[1] = m[1] | (bits >> 13) & 0x1FFF
            m[2] = m[2] | (bits >> 26) & 0x1FFF
            m[3] = m[3] | bits >> 39
            counts[h] = counts[h] + len(cards)
    new.forget_offer()


def _finish(new: Deal, seat: int, view: _View, at: dict[int, list[int]]) -> None:
    """The copy ends its imagining: its record of the imagined deal (see :func:`_record`)
    is left to be worked out when first read (``Deal.defer_record``: a search reads the
    records of few of the copies it deals). The copy's log (the view's, nothing hidden in
    it) is in place already."""
    new.defer_record(lambda hands, spare: _record(hands, spare, seat, view, at))
    new._views = {}
    new.forget_offer()


def _record(hands: Hands, spare: tuple[Card, ...], seat: int, view: _View,
            at: dict[int, list[int]]) -> tuple[Hands, tuple[Card, ...]]:
    """The copy's record of the imagined deal (the hands as dealt: every card played back
    with its player, every swap undone), from the real deal's record it was cloned with
    (``hands``; only ``seat``'s own hand is kept from it): a place dealt no hidden card
    keeps the hand the view worked out once (``codes``), the others are the view's part
    and the hidden cards dealt there, sorted."""
    undo, fixed = view.undo, view.fixed()
    codes = view.codes
    if codes is None:
        codes = view.codes = {d: tuple([CARDS[c] for c in sorted(cards)])
                              for d, cards in fixed.items()}
    dealt = list(hands)
    n = len(dealt)
    for d, hand in codes.items():
        if d != seat and 0 <= d < n:
            dealt[d] = hand
    spare = codes[SPARE]
    for h, cards in at.items():
        d = undo[h]
        if d == seat or d >= n:
            continue
        hand = tuple([CARDS[c] for c in sorted(fixed[d] + cards)])  # native when compiled
        if d == SPARE:
            spare = hand
        else:
            dealt[d] = hand
    return tuple(dealt), spare

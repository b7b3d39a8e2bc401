"""Poker hand evaluation: rank, compare, pick and describe hands of up to 5 cards.

Cards are plain ints ``0..51`` encoded as ``suit * 13 + rank`` (suits 0..3 are
clubs, diamonds, hearts, spades; ranks 0..12 are 2..9, T, J, Q, K, A).  Instances
of ``int`` subclasses are accepted and treated as their integer value.

The evaluator is table driven because :func:`hand_key` is called millions of
times by simulations.  Every card rank is mapped to a distinct prime, so the
product of a hand's rank primes identifies its rank multiset exactly (unique
factorisation) regardless of card order.  All multisets of 1..5 ranks are
evaluated once at import time by the readable reference logic in
:func:`_rank_key`; evaluating a hand is then a handful of integer operations
and one dictionary lookup (a second table covers the five-different-rank
hands that are flushes).

Hands of fewer than five cards are ranked by the same rules, except that they
cannot form straights or flushes, and a missing kicker ranks below every real
card.  The latter falls out of Python's tuple ordering: a key that is a proper
prefix of another key compares lower.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement
from typing import Final, NoReturn

__all__ = ["CATEGORIES", "best_hand", "by_rank", "category", "describe", "describe_key", "hand_key",
           "key_ranks", "suited_best_five_key"]

CATEGORIES: Final[tuple[str, ...]] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
"""Category names in ascending strength; a key's first element indexes this."""

# Category indices, named so the table builder and describe() read clearly. Every module
# constant is ``Final``: the compiled build then reads its value directly, where a module
# global was a dictionary look-up at each use (a five-card key read eleven of them).
_HIGH_CARD: Final = 0
_PAIR: Final = 1
_TWO_PAIR: Final = 2
_TRIPS: Final = 3
_STRAIGHT: Final = 4
_FLUSH: Final = 5
_FULL_HOUSE: Final = 6
_QUADS: Final = 7
_STRAIGHT_FLUSH: Final = 8

_NUM_RANKS: Final = 13
_NUM_SUITS: Final = 4
_NUM_CARDS: Final = _NUM_RANKS * _NUM_SUITS
_HAND_SIZE: Final = 5
_ACE: Final = 12
_FIVE: Final = 3  # rank index of the five: the top card of the wheel A-2-3-4-5

# One distinct prime per rank: products of primes identify rank multisets.
_RANK_PRIMES: Final = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)

# Per-card lookups.  Lists (not dicts) on purpose: indexing a list with a
# float raises TypeError instead of silently matching the equal int key, and
# any index >= 52 raises IndexError, which the fast path turns into a
# ValueError.  Negative cards are caught by the ``1 << card`` duplicate mask,
# which raises ValueError for a negative shift count.
_CARD_PRIME: Final[list[int]] = [_RANK_PRIMES[c % _NUM_RANKS] for c in range(_NUM_CARDS)]
_CARD_SUIT: Final[list[int]] = [c // _NUM_RANKS for c in range(_NUM_CARDS)]

_RANK_NAMES: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_RANK_PLURALS: Final = (
    "twos",
    "threes",
    "fours",
    "fives",
    "sixes",
    "sevens",
    "eights",
    "nines",
    "tens",
    "jacks",
    "queens",
    "kings",
    "aces",
)


def _straight_top(ranks: tuple[int, ...]) -> int | None:
    """Return the top rank if five distinct ``ranks`` form a straight, else None.

    Kept separate so the one special case of poker ranking -- the ace playing
    low only in A-2-3-4-5, whose top card is then the five -- lives in one place.
    """
    if len(ranks) != _HAND_SIZE or len(set(ranks)) != _HAND_SIZE:
        return None
    ordered = sorted(ranks)
    if ordered[-1] - ordered[0] == _HAND_SIZE - 1:
        return ordered[-1]
    if ordered == [0, 1, 2, 3, _ACE]:
        return _FIVE
    return None


def _rank_key(ranks: tuple[int, ...], flush: bool) -> tuple[int, ...]:
    """Evaluate a rank multiset the slow, obvious way (used to build the tables).

    The key is the category index followed by the distinct ranks ordered by
    how often they occur and then by rank, both descending -- exactly the
    order in which poker compares hands within a category (e.g. full house:
    trips rank, then pair rank; two pair: high pair, low pair, kicker).
    Straights are keyed by their top card only, since that alone decides them.
    """
    counts: dict[int, int] = {}
    for rank in ranks:
        counts[rank] = counts.get(rank, 0) + 1
    ordered = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)

    top = _straight_top(ranks)
    if top is not None:
        return (_STRAIGHT_FLUSH if flush else _STRAIGHT, top)
    if flush:
        return (_FLUSH, *ordered)
    if shape[0] == 4:
        cat = _QUADS
    elif shape[0] == 3:
        cat = _FULL_HOUSE if len(shape) > 1 and shape[1] == 2 else _TRIPS
    elif shape[0] == 2:
        cat = _TWO_PAIR if len(shape) > 1 and shape[1] == 2 else _PAIR
    else:
        cat = _HIGH_CARD
    return (cat, *ordered)


def _build_tables() -> tuple[dict[int, tuple[int, ...]], dict[int, tuple[int, ...]]]:
    """Precompute keys for every rank multiset of 1..5 cards (about 8,500).

    Returns ``(keys, flush_keys)``, both indexed by the product of the rank
    primes.  ``flush_keys`` only holds the 1,287 five-distinct-rank products,
    the only rank sets a five-card flush can have.  Building costs a few
    milliseconds once, in exchange for a single dict lookup per evaluation.
    """
    keys: dict[int, tuple[int, ...]] = {}
    flush_keys: dict[int, tuple[int, ...]] = {}
    for size in range(1, _HAND_SIZE + 1):
        for ranks in combinations_with_replacement(range(_NUM_RANKS), size):
            if size == _HAND_SIZE and ranks[0] == ranks[-1]:
                continue  # five of a kind needs a fifth suit
            product = 1
            for rank in ranks:
                product *= _RANK_PRIMES[rank]
            keys[product] = _rank_key(ranks, flush=False)
            if size == _HAND_SIZE and len(set(ranks)) == _HAND_SIZE:
                flush_keys[product] = _rank_key(ranks, flush=True)
    return keys, flush_keys


_TABLES: Final = _build_tables()
_KEYS: Final = _TABLES[0]
_FLUSH_KEYS: Final = _TABLES[1]


MAX_SELECTION: Final = 7
"""The most cards a poker selection may hold: six or seven are ranked by their best five."""


def _reject(cards: tuple[int, ...]) -> NoReturn:
    """Raise the precise error for a hand that :func:`hand_key` cannot rank.

    Only reached once the fast path has failed, so it can afford to re-check
    everything slowly and report the first problem in plain words.
    """
    _validate(cards)
    if not cards:
        raise ValueError("a hand needs at least one card")
    if len(cards) > MAX_SELECTION:
        raise ValueError(f"a hand has at most {MAX_SELECTION} cards, got {len(cards)}")
    raise ValueError(f"invalid hand: {cards!r}")  # pragma: no cover - defensive


def _validate(cards: tuple[int, ...]) -> None:
    """Check every card is an int in 0..51 and no card repeats.

    Shared by :func:`_reject` and :func:`best_hand`, which must validate
    without the fast path's implicit checks.
    """
    for card in cards:
        if not isinstance(card, int):
            raise TypeError(f"cards must be ints, got {type(card).__name__}: {card!r}")
        if not 0 <= card < _NUM_CARDS:
            raise ValueError(f"card out of range 0..{_NUM_CARDS - 1}: {card!r}")
    if len(set(cards)) != len(cards):
        dupes = sorted({int(c) for c in cards if cards.count(c) > 1})
        raise ValueError(f"duplicate cards: {dupes}")


def hand_key(cards: Iterable[int]) -> tuple[int, ...]:
    """Return a totally ordered strength key for a hand of 1 to 7 cards (six or seven
    are ranked by their best five, as in seven-card stud).

    A higher key is a stronger hand and equal keys tie (split the pot), so
    hands can be compared, sorted or ``max``-ed by key directly.  The first
    element is the index into :data:`CATEGORIES`; the rest are ranks (0..12,
    ace high) in comparison order.  A straight is keyed by its top card, so
    the wheel A-2-3-4-5 is ``(4, 3)``, below every other straight.  Suits
    never appear, so suit-permuted hands get identical keys.  Hands of fewer
    than five cards only reach high card, pair, two pair, trips or quads, and
    their shorter key ranks below any longer key with the same prefix, i.e.
    a missing kicker loses to any real one.

    Raises ValueError for 0 or more than 7 cards, duplicate cards or cards
    outside 0..51, and TypeError for non-integer cards.
    """
    hand = cards if type(cards) is tuple else tuple(cards)
    n = len(hand)
    # The try costs nothing in 3.11 when no exception is raised; all invalid
    # input ends in _reject for a precise message.
    try:
        if n == _HAND_SIZE:
            a, b, c, d, e = hand
            product = (
                _CARD_PRIME[a] * _CARD_PRIME[b] * _CARD_PRIME[c] * _CARD_PRIME[d] * _CARD_PRIME[e]
            )
            # Five distinct bits <=> five distinct cards; a negative card
            # raises ValueError here (negative shift count).
            if ((1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)).bit_count() == n:
                suit = _CARD_SUIT[a]
                if suit == _CARD_SUIT[b] == _CARD_SUIT[c] == _CARD_SUIT[d] == _CARD_SUIT[e]:
                    return _FLUSH_KEYS[product]
                return _KEYS[product]
        elif 0 < n < _HAND_SIZE:
            product = 1
            mask = 0
            for card in hand:
                product *= _CARD_PRIME[card]
                mask |= 1 << card
            if mask.bit_count() == n:
                return _KEYS[product]
        elif _HAND_SIZE < n <= MAX_SELECTION and len(set(hand)) == n:
            # six or seven cards (poker_hand_size 6 or 7): the best five of them count
            best = hand_key(hand[:_HAND_SIZE])
            for five in combinations(hand, _HAND_SIZE):
                k = hand_key(five)
                if k > best:
                    best = k
            return best
    except (IndexError, KeyError, TypeError, ValueError):
        pass
    _reject(hand)


def _top_straight(present: int) -> int:
    """The top rank of the highest straight among the ranks in the bit set ``present``
    (bit r: rank r held), or -1 (the wheel A-2-3-4-5 tops at the five). (Bit r of ``runs``
    is set where ranks r to r + 4 are all held: a few operations, no loop.)"""
    runs = present & present >> 1 & present >> 2 & present >> 3 & present >> 4
    if runs:
        return runs.bit_length() + 3
    wheel = 0b1111 | (1 << _ACE)
    return _FIVE if present & wheel == wheel else -1


_SUIT_RANKS: Final = (1 << _NUM_RANKS) - 1
"""The thirteen bits of one suit's ranks."""


def _desc(present: int, k: int) -> tuple[int, ...]:
    """The ``k`` highest ranks in the bit set ``present``, descending (fewer if it holds
    fewer): every rank of the set worked out once per set (:data:`_DESC`), then the first
    ``k`` (a copy of Tripoley checks a hand shown against its holder's cards at every try,
    and the kickers were a loop of a bit at a time there)."""
    got = _DESC[present]
    if not got:
        out: list[int] = []
        m = present
        while m:
            r = m.bit_length() - 1
            out.append(r)
            m ^= 1 << r
        got = _DESC[present] = tuple(out)
    return got[:k]


_DESC: Final[list[tuple[int, ...]]] = [()] * (1 << 13)
"""Every rank of each 13-bit rank set, highest first, filled as met (``()`` not yet worked
out; the key fixes the value)."""


_STRAIGHT_TOPS: Final[list[int]] = [_top_straight(m) for m in range(1 << _NUM_RANKS)]
"""Each rank set's highest straight's top rank, or -1 (:func:`_top_straight`, looked up)."""


def best_five_key(cards: Iterable[int]) -> tuple[int, ...]:
    """The key (:func:`hand_key`) of the best five cards among five or more distinct
    ``cards``, worked out from the bit sets of each suit's ranks instead of trying every
    five: each category's best achievable hand is built directly and the strongest is
    taken. Equal to ``max(hand_key(f) for f in combinations(cards, 5))`` (a property test
    checks it)."""
    held = 0                      # bit c: card c held (suit * 13 + rank)
    for c in cards:
        held |= 1 << c
    # per suit, the bit set of its ranks
    return suited_best_five_key(held & _SUIT_RANKS, held >> _NUM_RANKS & _SUIT_RANKS,
                                held >> 2 * _NUM_RANKS & _SUIT_RANKS,
                                held >> 3 * _NUM_RANKS & _SUIT_RANKS)


def suited_best_five_key(s0: int, s1: int, s2: int, s3: int) -> tuple[int, ...]:
    """:func:`best_five_key` of the cards whose ranks in each suit are the bit sets ``s0``
    to ``s3`` (bit r of ``s{i}``: the card ``i * 13 + r``), five or more in all: a deal's
    suit masks of a hand (``Deal.masks``) as they are, with no list of its cards made (a
    copy of Tripoley after its showdown checks each hand shown against its holder's cards
    at every try).

    The ranks held twice, three and four times are bit sets too, made from the suits' by
    a few ands and ors (a rank held in at least two suits, three, all four), so that the
    highest of each is a top bit: no loop over the thirteen ranks."""
    present = s0 | s1 | s2 | s3
    # the best hand by the ranks held more than once, else the five highest ranks (worked
    # out only then: with seven cards or more a rank is mostly held twice)
    four = s0 & s1 & s2 & s3
    three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1))
    two = (s0 & (s1 | s2 | s3)) | (s1 & (s2 | s3)) | (s2 & s3)
    best: tuple[int, ...]
    if four:
        a = four.bit_length() - 1
        best = (_QUADS, a, *_desc(present ^ 1 << a, 1))
    elif three:
        a = three.bit_length() - 1
        pairs = two ^ 1 << a   # the pair: the highest other rank held twice or more
        best = ((_FULL_HOUSE, a, pairs.bit_length() - 1) if pairs else
                (_TRIPS, a, *_desc(present ^ 1 << a, 2)))
    elif two:
        a = two.bit_length() - 1
        rest = two ^ 1 << a
        if rest:
            b = rest.bit_length() - 1
            best = (_TWO_PAIR, a, b, *_desc(present ^ 1 << a ^ 1 << b, 1))
        else:
            best = (_PAIR, a, *_desc(present ^ 1 << a, 3))
    else:
        best = (_HIGH_CARD, *_desc(present, _HAND_SIZE))
    if s0.bit_count() >= _HAND_SIZE or s1.bit_count() >= _HAND_SIZE or \
            s2.bit_count() >= _HAND_SIZE or s3.bit_count() >= _HAND_SIZE:
        tops = _STRAIGHT_TOPS
        for bits in (s0, s1, s2, s3):
            if bits.bit_count() >= _HAND_SIZE:
                top = tops[bits]
                cand = ((_STRAIGHT_FLUSH, top) if top >= 0 else
                        (_FLUSH, *_desc(bits, _HAND_SIZE)))
                if cand > best:
                    best = cand
    if best[0] < _STRAIGHT:
        top = _STRAIGHT_TOPS[present]
        if top >= 0:
            best = (_STRAIGHT, top)
    return best


def key_ranks(key: tuple[int, ...]) -> frozenset[int]:
    """The ranks every five-card hand with this key is made of."""
    if key[0] in (_STRAIGHT, _STRAIGHT_FLUSH):
        top = key[1]
        return frozenset((_ACE, 0, 1, 2, 3) if top == _FIVE else range(top - 4, top + 1))
    return frozenset(key[1:])


def first_best_five(cards: Iterable[int]) -> tuple[int, ...]:
    """The first five of ``cards`` (in ``itertools.combinations`` order of ``cards``) with the
    best key: what trying every five in order and keeping the first maximum gives, picked
    straight from the key (:func:`best_five_key`) without trying any five.

    The first five in that order is the one whose places in ``cards`` are least, place by
    place. Outside the flushes the key says how many cards of each rank, and any such
    cards have that key: no five of them is a flush or a straight flush, for that would be
    a better key (and a pair's cards differ in suit). Taking the first cards of each rank
    in ``cards`` gives every place as early as it can be, so the first five. A flush or a
    straight flush is five ranks of one suit: the first of the suits holding all five."""
    hand = tuple(cards)
    if len(hand) <= _HAND_SIZE:
        return hand
    key = best_five_key(hand)
    cat = key[0]
    if cat in (_FLUSH, _STRAIGHT_FLUSH):
        ranks = key_ranks(key)
        held = set(hand)
        first: list[int] = []
        for suit in range(_NUM_SUITS):
            wanted = [suit * _NUM_RANKS + r for r in ranks]
            if held.issuperset(wanted):
                places = sorted(map(hand.index, wanted))
                if not first or places < first:
                    first = places
        return tuple(hand[i] for i in first)
    need = [0] * _NUM_RANKS
    if cat == _STRAIGHT:
        for r in key_ranks(key):
            need[r] = 1
    else:
        for r, n in zip(key[1:], _COUNTS[cat], strict=True):
            need[r] = n
    picked: list[int] = []
    for c in hand:
        r = c % _NUM_RANKS
        left = need[r]
        if left:
            need[r] = left - 1
            picked.append(c)
    return tuple(picked)


_WHEEL: Final = 0b1111 | 1 << _ACE
"""The ranks of the lowest straight, A-2-3-4-5, as bits."""


def suited_first_best_five(s0: int, s1: int, s2: int, s3: int) -> tuple[int, ...]:
    """:func:`first_best_five` of more than five cards in card order, given as the bit sets
    of each suit's ranks (as :func:`suited_best_five_key` reads them): the same five, in
    card order, with no list of the cards made. Card order is suit by suit, so the first
    cards of a rank are those of its lowest suits, and the first suit holding a flush's
    five ranks gives the first flush. Otherwise the ranks still wanted are kept as bit
    sets by how many cards of each are still wanted, and each suit in turn, lowest first,
    gives one card of every wanted rank it holds (a rank wanted twice is then wanted once):
    four steps of a few bit operations, no loop per rank. The five are then read off suit by
    suit, lowest rank first (a table per suit's rank set): in card order with no sort (a
    copy of Tripoley before its showdown picks every other seat's hand so)."""
    key = suited_best_five_key(s0, s1, s2, s3)
    cat = key[0]
    one = two = three = four = 0  # the ranks of which one, two, three, four are wanted
    if cat in (_FLUSH, _STRAIGHT_FLUSH):
        if cat == _FLUSH:
            want = 1 << key[1] | 1 << key[2] | 1 << key[3] | 1 << key[4] | 1 << key[5]
        else:
            top = key[1]
            want = _WHEEL if top == _FIVE else 0x1F << (top - 4)
        # the first suit holding all five ranks
        if s0 & want == want:
            return _suit_cards(0, want)
        if s1 & want == want:
            return _suit_cards(1, want)
        if s2 & want == want:
            return _suit_cards(2, want)
        return _suit_cards(3, want)
    if cat == _STRAIGHT:
        top = key[1]
        one = _WHEEL if top == _FIVE else 0x1F << (top - 4)
    elif cat == _HIGH_CARD:
        one = 1 << key[1] | 1 << key[2] | 1 << key[3] | 1 << key[4] | 1 << key[5]
    elif cat == _PAIR:
        two = 1 << key[1]
        one = 1 << key[2] | 1 << key[3] | 1 << key[4]
    elif cat == _TWO_PAIR:
        two = 1 << key[1] | 1 << key[2]
        one = 1 << key[3]
    elif cat == _TRIPS:
        three = 1 << key[1]
        one = 1 << key[2] | 1 << key[3]
    elif cat == _FULL_HOUSE:
        three = 1 << key[1]
        two = 1 << key[2]
    else:  # quads
        four = 1 << key[1]
        one = 1 << key[2]
    out: tuple[int, ...] = ()
    for i, suit in ((0, s0), (1, s1), (2, s2), (3, s3)):
        t1, t2, t3, t4 = one & suit, two & suit, three & suit, four & suit
        took = t1 | t2 | t3 | t4
        if took:
            out += _suit_cards(i, took)
            one = (one ^ t1) | t2
            two = (two ^ t2) | t3
            three = (three ^ t3) | t4
            four ^= t4
    return out


def _suit_cards(suit: int, ranks: int) -> tuple[int, ...]:
    """The cards of ``suit`` whose ranks are the bit set ``ranks``, lowest first, from
    :data:`_SUIT_CARDS` (filled as met)."""
    got = _SUIT_CARDS[suit << _NUM_RANKS | ranks]
    if not got:
        base = suit * _NUM_RANKS
        got = _SUIT_CARDS[suit << _NUM_RANKS | ranks] = tuple(
            base + r for r in range(_NUM_RANKS) if ranks >> r & 1)
    return got


_SUIT_CARDS: Final[list[tuple[int, ...]]] = [()] * (_NUM_SUITS << _NUM_RANKS)
"""The cards of each (suit, rank set), lowest first, filled as met (``()`` not yet worked
out; the key fixes the value)."""


_COUNTS: Final[dict[int, tuple[int, ...]]] = {
    _HIGH_CARD: (1, 1, 1, 1, 1), _PAIR: (2, 1, 1, 1), _TWO_PAIR: (2, 2, 1), _TRIPS: (3, 1, 1),
    _FULL_HOUSE: (3, 2), _QUADS: (4, 1)}
"""How many cards of each rank of a key (after its category) a five of that key holds."""


def category(cards: Iterable[int]) -> str:
    """Return the category name of a hand of 1 to 5 cards, e.g. ``"flush"``.

    A thin wrapper over :func:`hand_key` so callers that only display or
    branch on the category don't need to know the key layout.
    """
    return CATEGORIES[hand_key(cards)[0]]


def best_hand(cards: Iterable[int], size: int = 5) -> tuple[int, ...]:
    """Return the strongest ``size``-card subset of ``cards``, sorted ascending.

    Games deal more cards than a poker hand uses, and the winner is decided
    by the best selection.  Every subset is tried (C(n, size) evaluations,
    1,287 for 13 cards), which is exact and simple.  Among subsets with equal
    keys the lexicographically smallest sorted tuple is returned so results
    are deterministic: ``combinations`` of the sorted cards yields subsets in
    lexicographic order and ``max`` keeps the first maximum.  A hand with at
    most ``size`` cards is returned whole, sorted (possibly empty).

    Raises ValueError if ``size`` is not 1..5 or the cards repeat or fall
    outside 0..51, and TypeError for non-integer cards.
    """
    if not 1 <= size <= _HAND_SIZE:
        raise ValueError(f"size must be between 1 and {_HAND_SIZE}, got {size}")
    hand = tuple(sorted(cards))
    _validate(hand)
    if len(hand) <= size:
        return hand
    if size == _HAND_SIZE:
        return first_best_five(hand)
    return max(combinations(hand, size), key=hand_key)


def describe(cards: Iterable[int]) -> str:
    """Return a short English description of a hand of 1 to 5 cards.

    Meant for logs and player-facing messages, e.g. ``"full house, kings over
    threes"``, ``"straight to the five"``, ``"pair of aces"``, ``"royal
    flush"``.  Kickers are left out; the key decides ties.
    """
    return describe_key(hand_key(cards))


_DESCRIBED: Final[dict[tuple[int, ...], str]] = {}
"""Each key's description, once made (at most the 7,462 distinct five-card keys and the
shorter hands' few thousand; filling it from two threads stores equal strings)."""


def describe_key(key: tuple[int, ...]) -> str:
    """:func:`describe` of a hand whose :func:`hand_key` is ``key``: a showdown has the key
    already (it decides the pot), so the hand is not evaluated a second time to name it."""
    got = _DESCRIBED.get(key)
    if got is None:
        got = _DESCRIBED[key] = _describe(key)
    return got


def _describe(key: tuple[int, ...]) -> str:
    cat, ranks = key[0], key[1:]
    first = ranks[0]
    if cat == _STRAIGHT_FLUSH:
        if first == _ACE:
            return "royal flush"
        return f"straight flush to the {_RANK_NAMES[first]}"
    if cat == _QUADS:
        return f"four of a kind, {_RANK_PLURALS[first]}"
    if cat == _FULL_HOUSE:
        return f"full house, {_RANK_PLURALS[first]} over {_RANK_PLURALS[ranks[1]]}"
    if cat == _FLUSH:
        return f"flush, {_RANK_NAMES[first]} high"
    if cat == _STRAIGHT:
        return f"straight to the {_RANK_NAMES[first]}"
    if cat == _TRIPS:
        return f"three of a kind, {_RANK_PLURALS[first]}"
    if cat == _TWO_PAIR:
        return f"two pair, {_RANK_PLURALS[first]} and {_RANK_PLURALS[ranks[1]]}"
    if cat == _PAIR:
        return f"pair of {_RANK_PLURALS[first]}"
    return f"{_RANK_NAMES[first]} high"


def by_rank(cards: Iterable[int]) -> list[int]:
    """A hand as people read it: the most frequent ranks first, high before low (``9♣ 9♦
    9♠ Q♦ Q♥``), for showing a hand beside its :func:`describe`."""
    cs = [int(c) for c in cards]
    count: dict[int, int] = {}
    for c in cs:
        count[c % 13] = count.get(c % 13, 0) + 1
    return sorted(cs, key=lambda c: (-count[c % 13], -(c % 13), c // 13))

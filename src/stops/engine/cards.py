"""Cards as small integers, with the canonical text form of the design contract.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, suits ordered C, D, H, S and ranks
2..A as 0..12. Suit-major order makes the next higher card of a suit simply ``card + 1``, which
keeps "who holds the next card" a single table lookup on the hot path.

:class:`Card` subclasses ``int`` so that arithmetic and list indexing stay free, while
``str(card)`` prints the canonical text (``"TH"``, ``"AS"``). Only the 52 interned instances in
:data:`CARDS` are ever created; use :func:`card` or :func:`parse_card` to get one.
"""

from __future__ import annotations

from collections.abc import Iterable

from stops.engine.text import shown

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "jack", "queen", "king", "ace",
)
ACE = 12
"""Rank index of the ace, the top of every suit in stops play."""

CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RED_SUITS = frozenset({DIAMONDS, HEARTS})


class Card(int):
    """One of the 52 cards. Compare, hash and index it as the int it is."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        """Rank index, 0 (two) to 12 (ace)."""
        return self % 13

    @property
    def suit(self) -> int:
        """Suit index: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return self // 13

    @property
    def is_red(self) -> bool:
        return self // 13 in RED_SUITS

    def __str__(self) -> str:
        return _TEXT[self]

    def __repr__(self) -> str:
        return f"Card({_TEXT[self]!r})"

    def symbol(self) -> str:
        """Rank plus suit symbol, ``10♥`` style, for people."""
        r = "10" if self % 13 == 8 else RANKS[self % 13]
        return r + SUIT_SYMBOLS[self // 13]

    def name(self) -> str:
        return f"{RANK_NAMES[self % 13]} of {SUIT_NAMES[self // 13]}"


_TEXT = tuple(RANKS[i % 13] + SUITS[i // 13] for i in range(52))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
"""The 52 interned cards, indexed by their integer value."""

_RANK_ALIASES = {ch: i for i, ch in enumerate(RANKS)} | {"10": 8}
_SUIT_ALIASES = {ch: i for i, ch in enumerate(SUITS)} | {
    sym: i for i, sym in enumerate(SUIT_SYMBOLS)
} | {"♧": 0, "♢": 1, "♡": 2, "♤": 3}


def card(rank: int, suit: int) -> Card:
    """The card of rank index ``rank`` (0..12) and suit index ``suit`` (0..3)."""
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise ValueError(f"no card with rank index {rank} and suit index {suit}")
    return CARDS[suit * 13 + rank]


def parse_card(text: object) -> Card:
    """Parse ``"TH"``, ``"10h"``, ``"10♥"``, ``"as"``; a :class:`Card` passes through.

    Anything else raises ``ValueError`` naming the bad text.
    """
    if isinstance(text, Card):
        return text
    if not isinstance(text, str):
        raise ValueError(f"not a card: {shown(text)} (expected text such as 'TH', '10h' or "
                         "'Q♦')")
    s = text.strip().upper()
    if len(s) >= 2:
        rank = _RANK_ALIASES.get(s[:-1])
        suit = _SUIT_ALIASES.get(s[-1]) if rank is not None else None
        if rank is not None and suit is not None:
            return CARDS[suit * 13 + rank]
    raise ValueError(
        f"not a card: {shown(text)} (expected rank 2-9, T/10, J, Q, K, A then suit C, D, H, S or a "
        "suit symbol, e.g. 'TH', '10h', 'Q♦')"
    )


def parse_cards(items: Iterable[object]) -> tuple[Card, ...]:
    """Parse many cards; the error names the first bad one."""
    return tuple(parse_card(x) for x in items)


def parse_suit(text: str) -> int:
    """Suit index from ``C``/``clubs``/``♣``."""
    s = text.strip()
    u = s.upper()
    if u in _SUIT_ALIASES:
        return _SUIT_ALIASES[u]
    if s in _SUIT_ALIASES:
        return _SUIT_ALIASES[s]
    low = s.lower()
    if low in SUIT_NAMES:
        return SUIT_NAMES.index(low)
    raise ValueError(f"not a suit: {shown(text)} (expected C, D, H, S or "
                     "clubs/diamonds/hearts/spades)")


def opposite_colour_suits(suit: int) -> tuple[int, int]:
    """The two suits of the other colour (for colour alternation)."""
    return (CLUBS, SPADES) if suit in RED_SUITS else (DIAMONDS, HEARTS)


def sort_cards(cards: Iterable[int]) -> list[Card]:
    """Cards sorted by suit then rank, the order people hold them in."""
    return [CARDS[c] for c in sorted(cards)]


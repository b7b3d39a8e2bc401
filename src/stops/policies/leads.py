"""Who leads first (slot ``first_leader``) and what may be led (slot ``after_stop``).

``first_leader`` policies are ``(deal, params) -> FirstLead | None``; ``None`` means the deal
cannot start and is redealt. ``after_stop`` policies are
``(deal, seat, broken_suit, params) -> list[int]``: the cards ``seat`` may lead when the last
sequence broke in ``broken_suit`` (``None`` for an unrestricted lead). An empty list means the
seat cannot lead and the lead passes left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, Protocol

import attrs

from stops.engine.cards import (
    CARDS,
    HEARTS,
    RED_SUITS,
    SUIT_NAMES,
    SUITS,
    Card,
    opposite_colour_suits,
)
from stops.engine.errors import IllegalAction
from stops.rules.contracts import TURN_ORDER
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


class OpeningSeek(Protocol):
    """A first lead that is a lead like any other (G.0 item 3): the seat due to make it
    may be unable to, and then fails it exactly as after a stop (``failed_lead``)."""

    def options(self, deal: Deal, seat: int, constraint: int) -> list[int]:
        """The cards ``seat`` may open with while ``constraint`` holds (empty: it cannot)."""

    def why_not(self, constraint: int) -> str:
        """Why a seat that cannot open passes the duty on (the ``lead_passed`` note)."""


class FirstLead(NamedTuple):
    """Who leads first, and (optionally) the only cards that may open."""

    seat: int
    cards: tuple[int, ...] | None = None
    """The only cards that may open, or ``None`` for the ``after_stop`` rule with no stop."""
    rule: str = ""
    """Why only ``cards`` may open (the rule named when another card is refused)."""
    seek: OpeningSeek | None = None
    """A first lead that ``seat`` may fail: the duty then passes left as after a stop, with
    ``constraint`` as the restriction ``failed_lead.full_round`` may flip. Whether a rule
    answers with one is the rule's own (its parameters), not the position's: once the
    first lead is made, what ``clone_for`` reads of the opening's events (each seat's
    reading of the play) is worked out once for a rule that does not, and the rule is not
    asked again."""
    constraint: int = 0


_new: Final = tuple.__new__
_FIRST_LEAD: Final = FirstLead


def _lead(seat: int, cards: tuple[int, ...] | None = None, rule: str = "",
          seek: OpeningSeek | None = None, constraint: int = 0) -> FirstLead:
    """A :class:`FirstLead` (the same as ``FirstLead(...)``): in the compiled build a call of
    this is a direct C call, where the named tuple's own ``__new__`` is interpreted Python
    (one a deal, at the first lead)."""
    return _new(_FIRST_LEAD, (seat, cards, rule, seek, constraint))


@attrs.frozen
class FirstLeadParams:
    first_lead_card: Literal["free", "lowest_in_hand", "lowest_of_suit"] = param(
        "free", "The card of the first lead of the deal: as after_stop's rule allows at a "
        "lead with no stop (free; with after_stop any_card and lead_rule lowest_in_hand that "
        "is the lowest card in the leader's hand), the lowest card in the leader's whole hand "
        "(lowest_in_hand, ties by lowest_tie), or the lowest card he holds of a suit he "
        "chooses (lowest_of_suit). Later leads follow after_stop.",
        option="first_lead_card")
    lowest_tie: Literal["player_choice", "suit_order_HCDS"] = param(
        "player_choice", "Several cards of the lowest rank in a hand (a lowest_in_hand lead): "
        "the player chooses among them, or the first of them in the order hearts, clubs, "
        "diamonds, spades is the only choice.", option="lowest_tie")


def first_lead(deal: Deal, seat: int, params: FirstLeadParams | None) -> FirstLead:
    """``seat`` leads first, with the card ``first_lead_card`` fixes (if it fixes one)."""
    rule = "free" if params is None else params.first_lead_card
    if rule == "lowest_in_hand":
        assert params is not None
        return _lead(seat, tuple(lowest_in_hand(deal, seat, params.lowest_tie)),
                         "the first lead is the lowest card in the leader's hand")
    if rule == "lowest_of_suit":
        return _lead(seat, tuple(_lowest_each(deal, seat, ALL_SUITS)),
                         "the first lead is the lowest card the leader holds in its suit")
    return _lead(seat)


def dealers_left(deal: Deal, params: FirstLeadParams | None) -> FirstLead:
    """The player to the dealer's left leads first (the card: ``first_lead_card``)."""
    return first_lead(deal, deal.order(deal.dealer)[0], params)


def dealer(deal: Deal, params: FirstLeadParams | None) -> FirstLead:
    """The dealer leads first (G.0 item 1: the boxed Tripoley's stage three); the card:
    ``first_lead_card``."""
    return first_lead(deal, deal.dealer, params)


def _direction(variant: Any) -> str:
    """The way turns go, as the turn order declares it (``direction``; clockwise when it
    does not say)."""
    turns = variant.policy(TURN_ORDER)
    how = turns.spec.direction
    return "clockwise" if how is None else str(how(turns.params))


def next_in_turn(deal: Deal, params: FirstLeadParams | None) -> FirstLead:
    """The player after the dealer in the turn order leads first: to the dealer's left, or,
    when turns go to the right (a turn order with ``direction: anticlockwise``, Nain Jaune's
    F23), to the dealer's right."""
    seats = deal.order(deal.dealer)
    if _direction(deal.variant) == "anticlockwise":
        return first_lead(deal, [s for s in seats if s != deal.dealer][-1], params)
    return first_lead(deal, seats[0], params)


def _tie_text(tie: str) -> str:
    return ("with two or more cards of that rank he chooses which" if tie == "player_choice"
            else "with two or more cards of that rank he leads the first of them in the "
            "order hearts, clubs, diamonds, spades")


def first_lead_text(who: str, p: FirstLeadParams | None) -> str:
    """``who`` makes the first lead, with the card ``first_lead_card`` names (for
    ``free``: nothing more, the rule for leads says which)."""
    rule = "free" if p is None else p.first_lead_card
    if rule == "lowest_in_hand":
        assert p is not None
        return (f"{who} makes the first lead: the lowest card in his hand; "
                f"{_tie_text(p.lowest_tie)}.")
    if rule == "lowest_of_suit":
        return f"{who} makes the first lead: the lowest card he holds of a suit he chooses."
    return f"{who} makes the first lead."


@attrs.frozen
class OpeningParams:
    cards: tuple[Card, ...] = param(
        (), "The cards that open, in order of preference (e.g. [2H, 2C, 2D, 2S]).",
        option="opening_cards")
    fallback: Literal["next_rank", "redeal"] = param(
        "next_rank", "If every opening card is in the spare hand: go on to the next rank in "
        "the same suit order, or redeal.", option="opening_fallback")


def opening_card(deal: Deal, params: OpeningParams) -> FirstLead | None:
    """Whoever holds the first of the opening cards still in a player's hand leads it. If all
    are in the spare hand: the next rank up in the same suit order, or a redeal."""
    candidates = _CANDIDATES.get(params)
    if candidates is None:
        candidates = _CANDIDATES[params] = _opening_candidates(params)
    if not candidates:
        return _lead(deal.order(deal.dealer)[0])
    owner = deal.owner
    for c in candidates:
        if owner[c] >= 0:
            return _lead(owner[c], (c,))
    return None


_CANDIDATES: Final[dict[OpeningParams, tuple[int, ...]]] = {}
"""The cards that may open, in order, per set of params (worked out once: the rule is asked
at every opening, and ``clone_for`` asks it of each hidden card in each other seat's hand
while an opening is still due)."""


def _opening_candidates(params: OpeningParams) -> tuple[int, ...]:
    """The opening cards in order of preference, then (``fallback: next_rank``) each rank
    up in the same suit order."""
    order = [int(c) for c in params.cards]
    candidates = list(order)
    if order and params.fallback == "next_rank":
        for step in range(1, 13):
            candidates += [c + step for c in order if (c % 13) + step <= 12]
    return tuple(candidates)


def opening_text(params: OpeningParams) -> str:
    cards = ", ".join(c.symbol() for c in params.cards)
    return (f"The holder of the first of the opening cards ({cards}) leads it; if it is in the "
            "spare hand, the next one in the list does." + (
                " If all of them are in the spare hand, the next rank up opens, in the same "
                "suit order." if params.fallback == "next_rank" else
                " If all of them are in the spare hand, nobody opens and the deal is void."))


def _opening_brings(params: OpeningParams) -> tuple[str, ...]:
    """With ``fallback: redeal`` a deal may find no opener: the block outcome then applies."""
    return ("block_outcome",) if params.fallback == "redeal" else ()


def _exempt_needs_lowest_black(variant: Any, p: OpeningRuleParams) -> list[tuple[str, str]]:
    if p.opening_exempt and p.opening != "lowest_black":
        return [("opening_exempt", "opening_exempt excuses a player due to open with a black "
                 f"card who holds none, which only opening lowest_black asks (this is "
                 f"{p.opening}): remove opening_exempt or use lowest_black")]
    return []


def _needs_opening_cards(variant: Any, params: OpeningParams) -> list[str]:
    if not params.cards:
        return ["opening_card needs its cards: opening_cards: [2H, 2C, 2D, 2S]"]
    return []


_CLIMB_SUITS: Final = {"diamonds_up": (1, 0, 2, 3), "clubs_up": (0, 1, 2, 3)}
"""Suit order of the climbing openings: diamonds then clubs, hearts, spades; or clubs
first, then diamonds, hearts, spades."""
_BLACK: Final = (0, 3)


@attrs.frozen
class OpeningRuleParams:
    opening: Literal["diamonds_up", "clubs_up", "dealers_left", "lowest_black"] = param(
        "diamonds_up", "Which card opens the play: the first card held by a player in the order "
        "2D, 3D ... up the diamonds, then the clubs, hearts and spades (diamonds_up); the same "
        "from the 2C (clubs_up); the dealer's left leads the lowest card of a suit he chooses "
        "(dealers_left); or the dealer's left leads his lowest black card (lowest_black: a "
        "player due to open who holds none fails the lead as after a stop, paying the "
        "failed_lead penalty into the kitty, and the duty passes left; see opening_exempt).",
        option="opening")
    opening_exempt: bool = param(
        False, "With opening lowest_black: a player due to open who holds no black card "
        "fails the lead as after a stop (false: the failed_lead rule applies, its "
        "lead_pass_penalty into the kitty, the duty passes left with the colour still black, "
        "and a full round with nobody able flips the colour under colour_flip), or is simply "
        "passed over, unpaid and unrecorded, for the first player to his left who holds one "
        "(true). Only lowest_black uses it.", option="opening_exempt")


class ColourOpening:
    """The opening lead of ``opening: lowest_black`` as a lead like any other (G.0 item 3):
    the lowest card of the colour due. ``constraint`` is a suit of the colour *not* due,
    as after a stop in that suit (so ``failed_lead``'s colour flip turns it round)."""

    def options(self, deal: Deal, seat: int, constraint: int) -> list[int]:
        """The lowest cards ``seat`` holds of the colour due (several of one rank: he
        chooses)."""
        low = _lowest_each(deal, seat, _OPPOSITE[constraint])
        if len(low) < 2:
            return low
        rank = [_rank_pos(deal, c) for c in low]
        best = min(rank)
        return [c for c, r in zip(low, rank, strict=True) if r == best]

    def why_not(self, constraint: int) -> str:
        return ("holds no red card to open with" if _OPPOSITE[constraint][0] in RED_SUITS
                else "holds no black card to open with")


_COLOUR_OPENING: Final = ColourOpening()


def opening_rule(deal: Deal, params: OpeningRuleParams) -> FirstLead:
    """The opening card climbs a suit (Newmarket's 2D, else 3D, ...: F8), or the dealer's
    left leads freely, or his lowest black card (Tripoley's stage three); a player due to
    open with a black card who holds none fails the lead as after a stop (G.0 item 3)
    unless ``opening_exempt``."""
    rule = params.opening
    if rule == "dealers_left":
        return _lead(deal.order(deal.dealer)[0])
    if rule == "lowest_black" and not params.opening_exempt:
        return _lead(deal.order(deal.dealer)[0], rule="the opening is the lowest black "
                         "card of the player due to open", seek=_COLOUR_OPENING,
                         constraint=HEARTS)
    if rule == "lowest_black":  # opening_exempt: the first player holding one opens, unpaid
        for seat in deal.order(deal.dealer):
            low = _lowest_each(deal, seat, _BLACK)
            if low:
                rank = [_rank_pos(deal, c) for c in low]
                best = min(rank)
                return _lead(seat, tuple(c for c, r in zip(low, rank, strict=True)
                                             if r == best))
        return _lead(deal.order(deal.dealer)[0])
    order = (12, *range(12)) if deal.ace_low else tuple(range(13))
    owner = deal.owner
    for suit in _CLIMB_SUITS[rule]:
        for r in order:
            c = suit * 13 + r
            if owner[c] >= 0:
                return _lead(owner[c], (c,))
    return _lead(deal.order(deal.dealer)[0])  # pragma: no cover - some card is held


def _rank_pos(deal: Deal, card: int) -> int:
    """Where ``card``'s rank stands in the variant's rank order (0 = lowest)."""
    r = card % 13
    if deal.ace_low:
        return 0 if r == 12 else r + 1
    return r


def opening_rule_text(p: OpeningRuleParams) -> str:
    if p.opening == "dealers_left":
        return ("The player to the dealer's left opens with the lowest card of a suit he "
                "chooses.")
    if p.opening == "lowest_black" and p.opening_exempt:
        return ("The player to the dealer's left opens with his lowest black card (a club or a "
                "spade; with two of the same rank he chooses); if he holds no black card, the "
                "next player to the left who does opens, and nobody pays for being passed "
                "over.")
    if p.opening == "lowest_black":
        return ("The player to the dealer's left opens with his lowest black card (a club or a "
                "spade; with two of the same rank he chooses). If he holds no black card, he "
                "cannot lead as required, as after a stop (see below), and the duty to open "
                "passes to his left, still with a black card.")
    return _climb_text(p, "high")


def _climb_text(p: OpeningRuleParams, ace: str) -> str:
    """The climbing opening in words, from the lowest card of the suit in the rank order."""
    suit = 1 if p.opening == "diamonds_up" else 0
    low, nxt = ((12, 0) if ace == "low" else (0, 1))
    first, second = ("diamond", "clubs") if p.opening == "diamonds_up" else ("club", "diamonds")
    return (f"The holder of the {CARDS[suit * 13 + low].symbol()} opens with it; if it lies "
            f"in the spare hand, the holder of the {CARDS[suit * 13 + nxt].symbol()} opens, "
            f"and so on up the {first}s; if every {first} is in the spare hand, the same goes "
            f"for the {second}, then the hearts, then the spades.")


def _opening_rule_describe(variant: Any, p: OpeningRuleParams) -> str:
    """The opening as this variant's rank order climbs it (ace low: the A♦ first)."""
    if p.opening in _CLIMB_SUITS:
        return _climb_text(p, variant.rules.ace)
    return opening_rule_text(p)


# -- after a stop --------------------------------------------------------------------------


_ACE_BIT: Final = 1 << 12


def _lowest_each(deal: Deal, seat: int, suits: tuple[int, ...]) -> list[int]:
    """The lowest card ``seat`` holds in each of ``suits`` (in the variant's rank order)."""
    masks = deal.masks[seat]
    ace_low = deal.ace_low
    out: list[int] = []
    for s in suits:
        m = masks[s]
        if m:
            if ace_low and m & _ACE_BIT:
                out.append(s * 13 + 12)
            else:
                out.append(s * 13 + (m & -m).bit_length() - 1)
    return out


ALL_SUITS: Final = (0, 1, 2, 3)
_OTHER_SUITS: Final = tuple(tuple(s for s in ALL_SUITS if s != b) for b in ALL_SUITS)
"""The suits other than each one (no tuple built per lead)."""


def any_suit(deal: Deal, seat: int, broken: int | None, params: None) -> list[int]:
    """The lowest card the player holds in any suit they choose, the stopped suit included."""
    # _lowest_each over the four suits, written out: this rule runs at every lead of the
    # games that use it (a call less each time). (The docstring is the rule's text in the
    # schema and the reference: it says what, not how.)
    if deal.ace_low:
        return _lowest_each(deal, seat, ALL_SUITS)
    masks = deal.masks[seat]
    out: list[int] = []
    m = masks[0]
    if m:
        out.append((m & -m).bit_length() - 1)
    m = masks[1]
    if m:
        out.append(12 + (m & -m).bit_length())
    m = masks[2]
    if m:
        out.append(25 + (m & -m).bit_length())
    m = masks[3]
    if m:
        out.append(38 + (m & -m).bit_length())
    return out


_KEEPS_DOC = "A player who receives a passed lead must also obey the restriction."


@attrs.frozen
class ChangeSuitParams:
    fallback: Literal["same_suit", "pass_left"] = param(
        "same_suit", "When a player has only the stopped suit: lead it anyway, or pass the "
        "lead to the left.", option="change_suit_fallback")
    passed_lead_keeps_suit: bool = param(
        True, _KEEPS_DOC, option="pass_lead_keeps_forbidden_suit")


def must_change_suit(deal: Deal, seat: int, broken: int | None,
                     params: ChangeSuitParams) -> list[int]:
    """The lowest card of a suit other than the one just stopped; with only that suit left,
    ``fallback`` decides: lead it anyway, or pass the lead to the left."""
    if broken is None or deal.ace_low:
        if broken is None:
            return _lowest_each(deal, seat, ALL_SUITS)
        opts = _lowest_each(deal, seat, _OTHER_SUITS[broken])
    else:
        # _lowest_each over the other three suits, written out (this rule runs at every
        # lead of the games that use it)
        masks = deal.masks[seat]
        opts = []
        m = masks[0]
        if m and broken != 0:
            opts.append((m & -m).bit_length() - 1)
        m = masks[1]
        if m and broken != 1:
            opts.append(12 + (m & -m).bit_length())
        m = masks[2]
        if m and broken != 2:
            opts.append(25 + (m & -m).bit_length())
        m = masks[3]
        if m and broken != 3:
            opts.append(38 + (m & -m).bit_length())
    if opts or params.fallback != "same_suit":
        return opts
    return _lowest_each(deal, seat, (broken,))


_OPPOSITE: Final = tuple(opposite_colour_suits(s) for s in range(4))
_HCDS: Final = {HEARTS: 0, 0: 1, 1: 2, 3: 3}


@attrs.frozen
class ColourParams:
    alternation: Literal["opposite_of_broken_suit"] = param(
        "opposite_of_broken_suit", "The switch is to the colour opposite to the suit that "
        "broke (after a black opening, the first switch is to red).",
        option="colour_alternation")
    switch_card: Literal["lowest_of_colour", "lowest_in_chosen_suit"] = param(
        "lowest_of_colour", "The lowest card of the colour across both its suits, or the "
        "lowest of a suit of that colour the player chooses.")
    colour_tie: Literal["player_choice", "suit_order_HCDS"] = param(
        "player_choice", "Two switch cards of the same rank: the player chooses, or H, C, D, S.")
    passed_lead_keeps_suit: bool = param(
        True, _KEEPS_DOC, option="pass_lead_keeps_forbidden_suit")
    fallback: Literal["pass_left", "same_colour"] = param(
        "pass_left", "A player holding no card of the other colour passes the duty to lead "
        "to the left (pass_left), or leads the lowest card of a suit of his choice in the "
        "colour he holds instead (same_colour, whatever switch_card says).",
        option="colour_fallback")


def opposite_colour(deal: Deal, seat: int, broken: int | None,
                    params: ColourParams) -> list[int]:
    """Colour alternation: the lowest card of the colour opposite to the suit that broke
    (``switch_card`` says lowest across the colour or in a chosen suit of it). A player with
    none of that colour under ``fallback: same_colour`` leads the lowest card of a suit of his
    choice (docs/family-rulings.md F10): ``switch_card`` rules the change of colour only."""
    if broken is None:
        return _lowest_each(deal, seat, ALL_SUITS)
    suits = _OPPOSITE[broken]
    opts = _lowest_each(deal, seat, suits)
    if not opts and params.fallback == "same_colour":
        return _lowest_each(deal, seat, tuple(s for s in ALL_SUITS if s not in suits))
    if len(opts) < 2 or params.switch_card == "lowest_in_chosen_suit":
        return opts
    a, b = opts
    ra, rb = _rank_pos(deal, a), _rank_pos(deal, b)
    if ra != rb:
        return [a if ra < rb else b]
    if params.colour_tie == "player_choice":
        return opts
    return [min(opts, key=lambda c: _HCDS[c // 13])]


def lowest_in_hand(deal: Deal, seat: int, tie: str) -> list[int]:
    """The lowest cards of ``seat``'s whole hand in the variant's rank order (ace high: a 2
    if he has one): every one of that rank, or with ``tie`` ``suit_order_HCDS`` the first
    of them in the order hearts, clubs, diamonds, spades."""
    low = _lowest_each(deal, seat, ALL_SUITS)
    if len(low) < 2:
        return low
    rank = [_rank_pos(deal, c) for c in low]
    best = min(rank)
    cards = [c for c, r in zip(low, rank, strict=True) if r == best]
    if len(cards) > 1 and tie == "suit_order_HCDS":
        return [min(cards, key=lambda c: _HCDS[c // 13])]
    return cards


@attrs.frozen
class AnyCardParams:
    lead_rule: Literal["any_card", "lowest_of_suit", "lowest_in_hand"] = param(
        "any_card", "Any card the player holds, or the lowest card he holds of a suit he "
        "chooses (docs/family-rulings.md F20), or the lowest card of his whole hand in the "
        "variant's rank order (lowest_in_hand, ties by lowest_tie: the boxed Tripoley); the "
        "same at the first lead and after every stop (the suit just stopped included).",
        option="lead_rule")
    lowest_tie: Literal["player_choice", "suit_order_HCDS"] = param(
        "player_choice", "Several cards of the lowest rank in a hand (lead_rule "
        "lowest_in_hand): the player chooses among them, or the first of them in the order "
        "hearts, clubs, diamonds, spades is the only choice.", option="lowest_tie")


def any_card(deal: Deal, seat: int, broken: int | None, params: AnyCardParams | None
             ) -> list[int]:
    """Any card the player holds may be led, after a stop as at the start (with
    ``lead_rule: lowest_of_suit``, the lowest card of a suit of his choice; with
    ``lowest_in_hand``, the lowest card of his whole hand)."""
    if params is not None:
        if params.lead_rule == "lowest_of_suit":
            return _lowest_each(deal, seat, ALL_SUITS)
        if params.lead_rule == "lowest_in_hand":
            return lowest_in_hand(deal, seat, params.lowest_tie)
    return [int(c) for c in deal.hand(seat)]


def _not_lowest(deal: Deal, seat: int, card: int) -> IllegalAction | None:
    low = deal.lowest_in_suit(seat, card // 13)
    if low is None or low == card:
        return None
    return IllegalAction("not_lowest_in_suit",
                         f"{CARDS[card]} is not your lowest {SUIT_NAMES[card // 13][:-1]}: "
                         f"lead {CARDS[low]} to play that suit",
                         rule="a lead must be the lowest card you hold in its suit")


def _explain_any_suit(deal: Deal, seat: int, card: int, broken: int | None,
                      allowed: list[int]) -> IllegalAction | None:
    return _not_lowest(deal, seat, card)


def _explain_change_suit(deal: Deal, seat: int, card: int, broken: int | None,
                         allowed: list[int]) -> IllegalAction | None:
    found = _not_lowest(deal, seat, card)
    if found is not None:
        return found
    if broken is not None and card // 13 == broken:
        names = ", ".join(str(CARDS[c]) for c in allowed)
        return IllegalAction("suit_just_stopped",
                             f"{SUIT_NAMES[broken]} were just stopped; lead another suit "
                             f"({names})", rule="after a stop the suit must change")
    return None


def _explain_any_card(deal: Deal, seat: int, card: int, broken: int | None,
                      allowed: list[int]) -> IllegalAction | None:
    if card in allowed:
        return None
    params = deal.variant.policy("after_stop").params
    if isinstance(params, AnyCardParams) and params.lead_rule == "lowest_in_hand":
        names = " or ".join(str(CARDS[c]) for c in allowed)
        return IllegalAction("not_lowest_in_hand",
                             f"{CARDS[card]} is not the card to lead: the lowest card in your "
                             f"hand is {names}" + ("" if len(allowed) > 1 or params.lowest_tie
                                                   == "player_choice" else
                                                   " (equal cards: hearts, clubs, diamonds, "
                                                   "spades)"),
                             rule="every lead is the lowest card in the leader's hand")
    return _not_lowest(deal, seat, card)  # lead_rule: lowest_of_suit


def _any_card_describe(variant: Any, p: AnyCardParams) -> str:
    """As :func:`_any_card_text`, unless the first lead is fixed (Pink Nines' lowest card)
    while later leads are free: then "as at the first lead" would not be true."""
    first = variant.policy("first_leader").params
    if p.lead_rule == "any_card" and isinstance(first, FirstLeadParams) and \
            first.first_lead_card != "free":
        return ("Only the first lead of the deal must be that card: any card may be led after a "
                "stop as at the first lead of any other sequence.")
    return _any_card_text(p)


def _any_card_text(p: AnyCardParams) -> str:
    if p.lead_rule == "lowest_in_hand":
        return ("Every lead, after a stop as at the first lead, is the lowest card in the "
                "leader's hand, which may be of the suit just stopped; "
                f"{_tie_text(p.lowest_tie)}.")
    if p.lead_rule == "lowest_of_suit":
        return ("Every lead, after a stop as at the first lead, is the lowest card the player "
                "holds in a suit he chooses, the suit just stopped included.")
    return "Any card may be led, after a stop as at the first lead."


def _explain_colour(deal: Deal, seat: int, card: int, broken: int | None,
                    allowed: list[int]) -> IllegalAction | None:
    names = ", ".join(str(CARDS[c]) for c in allowed)
    if broken is not None and allowed and all(
            c // 13 not in _OPPOSITE[broken] for c in allowed):
        # colour_fallback: same_colour (F10): no card of the other colour is held
        return IllegalAction("not_lowest_in_suit", f"you hold no card of the other colour: "
                             f"lead the lowest card of a suit of your choice ({names})",
                             rule="with no card of the other colour, lead the lowest card of "
                             "a suit")
    return IllegalAction("wrong_switch_card", f"the switch must be {names}",
                         rule="after a break, lead the lowest card of the other colour")


def _change_suit_text(p: ChangeSuitParams) -> str:
    t = ("Every lead is the lowest card the player holds in the suit he chooses, and after a "
         "stop the next lead must be of another suit than the one just stopped.")
    if p.fallback == "same_suit":
        return t + " A player who holds only the stopped suit leads it anyway."
    t += " A player who holds only the stopped suit passes the lead to the left"
    return t + ("; the player who receives it must also change suit." if
                p.passed_lead_keeps_suit else "; the player who receives it may lead any suit.")


def _keeps_suit(p: ChangeSuitParams | ColourParams) -> bool:
    """Whether a seat that receives a passed lead is bound by the same restriction."""
    return bool(p.passed_lead_keeps_suit)


def _change_suit_brings(p: ChangeSuitParams) -> tuple[str, ...]:
    """Only with ``fallback: pass_left`` can a player with cards be unable to lead."""
    return ("failed_lead",) if p.fallback == "pass_left" else ()


def _colour_text(p: ColourParams) -> str:
    if p.switch_card == "lowest_of_colour":
        t = ("After a stop the next lead must be of the other colour from the suit just "
             "stopped: the lowest card of that colour the player holds, across both its suits")
        t += ("; with two such cards of equal rank he chooses." if
              p.colour_tie == "player_choice" else
              "; with two such cards of equal rank, hearts, clubs, diamonds, spades decide.")
    else:
        t = ("After a stop the next lead must be of the other colour from the suit just "
             "stopped: the player picks a suit of that colour that he holds and leads its "
             "lowest card.")
    if p.fallback == "same_colour":
        t += (" A player who holds no card of that colour leads instead the lowest card of "
              "a suit of his choice in the colour he holds.")
        return t
    t += " A player who holds no card of that colour passes the lead to the left"
    return t + ("; the player who receives it must also lead the other colour." if
                p.passed_lead_keeps_suit else "; the player who receives it may lead any suit.")


def _colour_brings(p: ColourParams) -> tuple[str, ...]:
    """Only with ``fallback: pass_left`` can a player with cards be unable to lead."""
    return ("failed_lead",) if p.fallback == "pass_left" else ()


def _text(s: str) -> Any:
    return lambda params: s


@attrs.frozen
class PassLeftParams:
    penalty: int = param(0, "Chips a player pays into the kitty each time he cannot lead as "
                         "required and the duty passes on.", option="lead_pass_penalty",
                         validator=attrs.validators.ge(0))
    colour_flip: bool = param(
        False, "When the duty to lead has gone round the table with nobody able, the required "
        "colour flips and the duty goes round once more from the player who had it first "
        "(otherwise the deal is blocked).")


class PassLeft:
    """A player who cannot lead passes the duty to the left (paying ``penalty`` into the
    kitty); after a full round nobody could lead: the deal is blocked, or with
    ``colour_flip`` the required colour flips and the duty goes round once more."""

    def failed(self, deal: Deal, seat: int, params: PassLeftParams) -> None:
        kitty = deal.variant.kitty
        if params.penalty and kitty is not None:
            deal.pay(seat, kitty, params.penalty, "could not lead as required")

    def full_round(self, deal: Deal, broken: int | None, params: PassLeftParams) -> int | None:
        if not params.colour_flip or broken is None:
            return None
        return _OPPOSITE[broken][0]  # a suit of the other colour: the other colour is due


def _pass_left_brings(p: PassLeftParams) -> tuple[str, ...]:
    """A full round of failed leads blocks the deal, unless the colour flips: every card is
    red or black, so after the flip some player with cards can lead."""
    return () if p.colour_flip else ("block_outcome",)


def _pass_left_text(p: PassLeftParams) -> str:
    chips = "1 chip" if p.penalty == 1 else f"{p.penalty} chips"
    t = (f"A player who cannot lead as required pays {chips} into the kitty as the duty to "
         "lead passes to the left." if p.penalty else "")  # the lead rule says it passes
    if p.colour_flip:
        t += (" If the duty to lead goes all the way round with nobody able to lead as "
              "required, the required colour flips and the duty goes round again from the "
              "first player.")
    return t.strip()


def _penalty_needs_kitty(variant: Any, p: PassLeftParams) -> list[tuple[str, str]]:
    if p.penalty and variant.kitty is None:
        return [("penalty", "the penalty is paid into the kitty, but the layout has no kitty")]
    return []


def _next_in_turn_text(variant: Any, params: FirstLeadParams | None) -> str:
    """The dealer's left, or his right when turns go anticlockwise (as ``next_in_turn``)."""
    side = "right" if _direction(variant) == "anticlockwise" else "left"
    return first_lead_text(f"The player to the dealer's {side}", params)


def _opening_rule_brings(params: OpeningRuleParams) -> tuple[str, ...]:
    """The black-card opening is a lead like any other (G.0 item 3): a player who holds no
    black card fails it, so the failed-lead rule comes into force, unless he is exempt."""
    if params.opening == "lowest_black" and not params.opening_exempt:
        return ("failed_lead",)
    return ()


def _none(params: Any) -> tuple[str, ...]:
    """Brings no other rule into force: every player holding cards can lead."""
    return ()


def register(reg: Registry) -> None:
    """The first-leader and after-stop policies, each with its parameters, text and checks."""
    p = reg.register_policy
    p("first_leader", "dealers_left", params=FirstLeadParams, phrase="makes the first lead",
      brings=_none, text=lambda q: first_lead_text("The player to the dealer's left", q))(
        dealers_left)
    p("first_leader", "dealer", params=FirstLeadParams, phrase="makes the first lead",
      brings=_none, text=lambda q: first_lead_text("The dealer", q))(dealer)
    p("first_leader", "next_in_turn", params=FirstLeadParams, phrase="makes the first lead",
      brings=_none, describe=_next_in_turn_text, text=lambda q: first_lead_text(
          "The player after the dealer in the turn order", q))(next_in_turn)
    p("first_leader", "opening_card", params=OpeningParams, text=opening_text,
      phrase="of the opening cards", brings=_opening_brings,
      check=_needs_opening_cards)(opening_card)
    p("first_leader", "opening", params=OpeningRuleParams, text=opening_rule_text,
      describe=_opening_rule_describe, phrase=" opens with ", brings=_opening_rule_brings,
      check=_exempt_needs_lowest_black)(opening_rule)
    # every after_stop rule here reads the seat's own hand and the suit stopped alone
    # (hand_only: see PolicySpec)
    p("after_stop", "any_suit", explain=_explain_any_suit, phrase="the suit just stopped "
      "included, and must be the lowest", brings=_none, hand_only=True, text=_text(
          "A lead may be of any suit, the suit just stopped included, and must be the lowest "
          "card the player holds in that suit."))(any_suit)
    p("after_stop", "must_change_suit", params=ChangeSuitParams, explain=_explain_change_suit,
      phrase="must be of another suit", brings=_change_suit_brings, hand_only=True,
      text=_change_suit_text, keeps_suit=_keeps_suit)(must_change_suit)
    p("after_stop", "opposite_colour", params=ColourParams, explain=_explain_colour,
      phrase="must be of the other colour", brings=_colour_brings, hand_only=True,
      text=_colour_text, keeps_suit=_keeps_suit)(opposite_colour)
    p("after_stop", "any_card", params=AnyCardParams, explain=_explain_any_card,
      phrase="after a stop as at the first lead", brings=_none, hand_only=True,
      text=_any_card_text, describe=_any_card_describe)(any_card)
    p("failed_lead", "pass_left", params=PassLeftParams, text=_pass_left_text,
      phrase="lead as required", brings=_pass_left_brings,
      check=_penalty_needs_kitty)(PassLeft())


__all__ = ["SUITS", "Card", "FirstLead"]

"""The deal: every card of the pack, one at a time, into a hand per seat and the spare hand."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.cards import CARDS, Card
from stops.engine.deal import SPARE
from stops.engine.eventkind import EventKind
from stops.engine.events import event, shared
from stops.phases.base import Phase
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.contracts import DealShape
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# EventKind members as Final constants: reading an enum member as a class attribute
# costs ~190 ns (a Python-level lookup in either build); these are read directly.
K_DEALT: Final = EventKind.DEALT
K_SPARE_DEALT: Final = EventKind.SPARE_DEALT


_ONLY: Final = tuple(frozenset({s}) for s in range(64))
_SUIT: Final = tuple(c // 13 for c in range(52))
_BIT: Final = tuple(1 << (c % 13) for c in range(52))


def deal_order(players: int, dealer: int, spare_hand: bool, spare_first: bool,
               active: tuple[int, ...] | None = None) -> list[int]:
    """The recipients of one round of the deal: seats from the dealer's left, and SPARE."""
    seats = [(dealer + k) % players for k in range(1, players + 1)]
    if active is not None and len(active) != players:
        seats = [s for s in seats if s in active]
    if not spare_hand:
        return seats
    return [SPARE, *seats] if spare_first else [*seats, SPARE]


@attrs.frozen
class DealSettings:
    shape: Literal["n_plus_one", "equal_plus_dead", "table"] = param(
        "n_plus_one", "How many cards each hand gets: the whole pack into a hand per player "
        "and a spare hand (n_plus_one); the same number each, the pack divided by players + 1 "
        "and rounded down, the rest to the spare (equal_plus_dead); or the number hand_sizes "
        "gives for the player count, the rest to the spare (table).", option="deal_shape")
    stacked_sizes: Literal["any", "as_dealt"] = param(
        "any", "With deal_shape n_plus_one: a stacked deal (a record) may give the hands any "
        "sizes that make up the pack, or must give each the size the deal gives it, the odd "
        "cards going to the seats nearest the dealer's left (as_dealt; the other shapes always "
        "check).")
    hand_sizes: dict[int, int] = param(  # noqa: RUF009 (a factory, not a shared default)
        None, "For deal_shape table: cards per player, by the number of players (e.g. "
        "{3: 15, 4: 12}).", factory=dict)
    spare_name: str = param(
        "spare hand", "What the players call the cards dealt to nobody, in the rules text "
        "(spare hand, talon, dead hand, widow); the cards are the record's spare either way.")
    spare_seen_by: Literal["nobody", "dealer"] = param(
        "nobody", "Who may look at the spare hand during play: nobody, or the dealer alone "
        "(Pope Joan's dead hand, Spinado's widow; his observation lists it).",
        option="spare_seen_by")


class Shape:
    """The deal's shape, as the ``deal`` phase's settings give it: the sizes of the hands for
    each number of players, the sizes a stacked deal must keep, and the spare's name. The
    variant holds one as ``Variant.deal_shape`` (a :class:`~stops.rules.contracts.DealShape`),
    so the table's check of stacked hands and the rules texts ask the deal phase for them."""

    def __init__(self, settings: DealSettings, pack: int, spare_hand: bool,
                 spare_first: bool) -> None:
        self.spare_name: str = settings.spare_name
        self.shape: str = settings.shape
        self.as_dealt: bool = settings.stacked_sizes == "as_dealt"
        self.table: dict[int, int] = dict(settings.hand_sizes)
        self.pack = pack
        self.spare_hand = spare_hand
        self.spare_first = spare_first

    def sizes(self, players: int) -> list[int]:
        """Cards per seat (from the dealer's left) and, last, the spare hand's size, as
        ``deal_shape`` gives them."""
        if self.shape == "equal_plus_dead":
            each = self.pack // (players + 1)
            return [each] * players + [self.pack - each * players]
        if self.shape == "table":
            each = self.table.get(players, 0)
            return [each] * players + [self.pack - each * players]
        hands = players + (1 if self.spare_hand else 0)
        base, extra = divmod(self.pack, hands)
        return [base + (1 if i < extra else 0) for i in range(hands)]

    def stacked_sizes(self, players: int) -> list[int] | None:
        """The hand sizes stacked hands must have (each seat's from the dealer's left, then
        the spare's), or ``None`` when any sizes that make up the pack will do (deal_shape
        n_plus_one unless ``stacked_sizes: as_dealt``)."""
        if self.shape != "n_plus_one":
            return self.sizes(players)
        if not self.as_dealt:
            return None
        sizes = self.sizes(players)
        if self.spare_hand and self.spare_first:
            # the spare is dealt first in each round: it takes the first odd card
            return [*sizes[1:], sizes[0]]
        return sizes


def deal_shape(variant: Variant, settings: DealSettings | None = None) -> Shape:
    """The :class:`Shape` of ``variant``'s deal (``settings``: the deal phase's, by default
    the variant's own), registered as the ``deal`` phase's ``shape``."""
    s: DealSettings = settings if settings is not None else variant.settings("deal")
    return Shape(s, len(variant.deck), variant.rules.spare_hand,
                 variant.rules.deal_spare_position == "first")


def shape_of(variant: Variant) -> DealShape:
    """The shape of ``variant``'s deal: its deal phase's, or, when the flow has no phase
    that declares one (a plug-in's own dealing), the plain deal's (the whole pack into a hand
    per player and the spare hand, any sizes stacked)."""
    if variant.deal_shape is not None:
        return variant.deal_shape
    return deal_shape(variant, DealSettings())


def sized_plan(order: list[int], sizes: dict[int, int], pack: int) -> list[int]:
    """Who gets each card of the pack, dealt one at a time round ``order`` (seats from the
    dealer's left and the spare), each recipient until it has its ``sizes`` (the spare last
    takes every card left, so the last card dealt is the spare's)."""
    left = {who: sizes.get(who, 0) for who in order}
    plan: list[int] = []
    while len(plan) < pack:
        dealt = False
        for who in order:
            if len(plan) == pack:
                break
            if who == SPARE and any(left[w] for w in order if w != SPARE):
                if left[SPARE] > 0:
                    left[SPARE] = left[SPARE] - 1
                    plan.append(SPARE)
                    dealt = True
                continue
            if who == SPARE or left[who] > 0:
                if who != SPARE:
                    left[who] = left[who] - 1
                plan.append(who)
                dealt = True
        if not dealt:  # pragma: no cover - sizes are checked at load
            break
    return plan


@mypyc_attr(allow_interpreted_subclasses=True)
class DealPhase(Phase):
    """Deals the whole pack clockwise from the dealer's left, the spare hand taking its turn
    as ``deal_spare_position`` says. Stacked hands given to ``new_deal`` are used as they are."""

    name = "deal"
    title = "The deal"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self._orders: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
        self._plans: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}
        self.settings: DealSettings = variant.settings("deal")
        self.sized = self.settings.shape != "n_plus_one"
        self.stock_first: bool = self.settings.shape == "table"
        """The turn-up, if the flow has one, is the first card of the stock (not the last
        card dealt)."""
        # read once: the compiled build then reads native attributes, not the rules' slots
        self._deck: tuple[Card, ...] = tuple(variant.deck)
        self._ascending: bool = list(self._deck) == sorted(set(self._deck))
        """The pack is in card order (every built pack is): a hand's positions in it sort
        as its cards do."""
        self._spare_hand: bool = variant.rules.spare_hand
        self._spare_first: bool = variant.rules.deal_spare_position == "first"
        self.dealer_sees: bool = self.settings.spare_seen_by == "dealer"

    def enter(self, deal: Deal) -> bool:
        hands, spare = deal.take_given()
        if hands is None:
            key = (deal.n, deal.dealer, deal.active)
            order = self._orders.get(key)
            if order is None:
                order = self._orders[key] = deal_order(
                    deal.n, deal.dealer, self._spare_hand, self._spare_first, deal.active)
            if not self.sized and self._ascending:
                perm = deal.shuffle_order(len(self._deck))
                if perm is not None:
                    self._deal_by_order(deal, order, perm)
                    return self._place(deal)
            pack: list[Card] = list(self._deck)
            deal.shuffle(pack)
            if self.sized:
                plan = self._plans.get(key)
                if plan is None:
                    sizes = shape_of(self.variant).sizes(len(deal.active))
                    plan = self._plans[key] = sized_plan(
                        order, {**dict.fromkeys(deal.active, sizes[0]), SPARE: sizes[-1]},
                        len(pack))
                built: dict[int, list[Card]] = {}
                for who, c in zip(plan, pack, strict=True):
                    built.setdefault(who, []).append(c)
                if SPARE in built:
                    # the card a turn-up shows: the last card dealt (the dead hand's), or
                    # under deal_shape table the first card of the stock (G.0 item 13)
                    deal.last_dealt = built[SPARE][0 if self.stock_first else -1]
            else:
                k = len(order)
                built = {who: pack[i::k] for i, who in enumerate(order)}
                if built.get(SPARE):
                    deal.last_dealt = built[SPARE][-1]
            hands = [built.get(s, []) for s in range(deal.n)]
            spare = built.get(SPARE, [])
        deal.dealt_hands = tuple(tuple(sorted(h)) for h in hands)
        deal.dealt_spare = tuple(sorted(spare or ()))
        return self._place(deal)

    def _deal_by_order(self, deal: Deal, order: list[int], perm: Sequence[int]) -> None:
        """Deal the pack in the shuffle's order ``perm`` (indices into the pack) one card at
        a time round ``order``: recipient ``i`` gets the cards at positions i, i + k, ...
        The pack is in card order, so sorting a hand's indices sorts its cards: no shuffled
        pack is built and no hand of cards is sorted (the same hands, in card order, and the
        same last card dealt as shuffling the pack and dealing it)."""
        deck = self._deck
        k = len(order)
        hands: list[tuple[Card, ...]] = [()] * deal.n
        spare: tuple[Card, ...] = ()
        for i, who in enumerate(order):
            got = perm[i::k]
            cards = tuple([deck[j] for j in sorted(got)])
            if who == SPARE:
                spare = cards
                if got:
                    deal.last_dealt = deck[got[-1]]
            else:
                hands[who] = cards
        deal.dealt_hands = tuple(hands)
        deal.dealt_spare = spare

    def _place(self, deal: Deal) -> bool:
        """Put the dealt hands (``deal.dealt_hands``, in card order) in the players' hands
        and the spare, and log the deal."""
        owner = deal.owner
        log = deal.events
        for seat, h in enumerate(deal.dealt_hands):
            if not h and seat not in deal.active:
                continue
            masks = deal.masks[seat]
            ints: tuple[int, ...] = h  # a Card is an int: the compiled loop indexes natively
            for ci in ints:
                owner[ci] = seat
                s = _SUIT[ci]
                masks[s] = masks[s] | _BIT[ci]
            deal.counts[seat] = len(h)
            log.append(event(K_DEALT, seat, None, len(h), None, None, h, "", _ONLY[seat]))
        for c in deal.dealt_spare:
            deal.owner[c] = SPARE
        deal.spare = set(deal.dealt_spare)
        if self._spare_hand:
            deal.events.append(shared(K_SPARE_DEALT, chips=len(deal.dealt_spare)))
            if self.dealer_sees:
                deal.spare_known = _ONLY[deal.dealer]
        return False

    def describe(self) -> str:
        r = self.rules
        where = ("first in each round" if r.deal_spare_position == "first"
                 else "after the dealer in each round")
        shape = self.settings.shape
        name = self.variant.spare_name
        lo, hi = self.variant.players
        if shape == "n_plus_one":
            article = "an" if name[:1].lower() in "aeiou" else "a"
            spare = (f" plus {article} {name} that belongs to nobody, dealt {where}"
                     if r.spare_hand else "")
            t = ("The dealer deals the whole pack face down, one card at a time, clockwise "
                 f"from the dealer's left, into a hand for each player{spare}. Some hands may "
                 "have one card more than others: those dealt first in each round.")
        elif shape == "equal_plus_dead":
            t = ("The dealer deals one card at a time, clockwise from the dealer's left, the "
                 "same number to every player: the pack divided by the number of players plus "
                 f"one, rounded down. Every other card goes to a {name} that belongs to "
                 f"nobody (the last card dealt is the {name}'s).")
        else:
            sizes = ", ".join(f"{n} players {k} each" for n, k in
                              sorted(self.settings.hand_sizes.items()) if lo <= n <= hi)
            t = ("The dealer deals one card at a time, clockwise from the dealer's left, a "
                 f"fixed number to each player ({sizes})" + (
                     f"; the other cards are set aside face down as the {name}, which nobody "
                     "plays." if r.spare_hand else ": the whole pack."))
        if self.dealer_sees and r.spare_hand:
            t += (f" Only the dealer may look at the {name} during play; it stays face "
                  "down and is never played.")
        t += (" The deal passes to the left after each deal." if r.dealer_rotation ==
              "clockwise" else " The same player deals every time.")
        if r.first_dealer == "random":
            t += " The first dealer is chosen by lot."
        return t


__all__ = ["CARDS", "DealPhase", "Shape", "deal_order", "deal_shape", "shape_of"]


def _deal_checks(variant: Any) -> list[str]:
    s: DealSettings = variant.settings("deal")
    lo, hi = variant.players
    out = []
    whole = s.shape == "table" and all(  # a table that deals the whole pack (Red Nines: 13 x 4)
        s.hand_sizes.get(n, 0) * n == len(variant.deck) for n in range(lo, hi + 1))
    if s.shape != "n_plus_one" and not variant.rules.spare_hand and not whole:
        out.append(f"deal_shape {s.shape} leaves cards over for a spare hand: set spare_hand: "
                   "true")
    if s.shape == "table":
        missing = [n for n in range(lo, hi + 1) if n not in s.hand_sizes]
        if missing:
            out.append("deal_shape table needs hand_sizes for " + ", ".join(map(str, missing))
                       + " players, e.g. hand_sizes: {3: 15}")
        for n, k in sorted(s.hand_sizes.items()):
            if k < 1 or n * k > len(variant.deck):
                out.append(f"hand_sizes: {n} players of {k} cards do not fit a "
                           f"{len(variant.deck)}-card pack")
    return out


def register(reg: Registry) -> None:
    reg.register_phase("deal", pays=_pays_nothing, settings=DealSettings,
                       check=_deal_checks, shape=deal_shape)(DealPhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()

"""A table: one session of deals, carrying stacks, the layout and the dealer between them."""

from __future__ import annotations

import functools
import os
import secrets
import types
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stops._mypyc import mypyc_attr
from stops.engine.cards import CARDS, Card, parse_cards
from stops.engine.chips import MAX_CHIPS, chips_ok
from stops.engine.deal import Deal
from stops.engine.errors import DealInProgress, RecordError, SessionOver, StopsError
from stops.engine.eventkind import EventKind
from stops.engine.events import Event, event
from stops.engine.finished import FinishedDeal
from stops.engine.resolver import resolve_variant
from stops.engine.rng import Rng, deal_shuffle, derive_seed, keyed_shuffle
from stops.engine.session_end import SessionEnd
from stops.engine.text import players_text, shown

if TYPE_CHECKING:
    from stops.rules.variant import Variant


def start_stack_problem(chips: int) -> str | None:
    """Why ``chips`` cannot be everyone's stack at the start of a session (``None`` if it
    can). Zero is refused too: with nothing to stake, every seat's first payment is a
    shortfall, so the session is decided by the shortfall rule, not by the cards."""
    if chips >= 1:
        return None
    if chips == 0:
        return ("a starting stack of 0 chips leaves every player nothing to stake or pay "
                "with, so no deal could be played as the rules intend; give at least 1 chip")
    return (f"a starting stack cannot be negative ({chips} chips): a stack goes below 0 only "
            "by debts run up during a session; give at least 1 chip")


class TableError(StopsError, ValueError):
    """Bad arguments to a table: a seat count the variant does not allow, stacked hands that
    are not a whole pack, and so on. ``seat`` is the seat a stacked hand's problem is about
    (``None`` otherwise), so a record's error can name it."""

    def __init__(self, message: str, *, seat: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat


KEEP_RECORDS: int = 1000
"""How many deal records a table keeps by default (the most recent). A kept deal costs about
2 KB (Boodle, 5 players; 3 KB Three-in-One) until ``records`` is read, which builds the
record dicts (4 to 8 KB each). ``keep_records=True`` keeps every one (opt in for long runs
only: 100,000 deals is about 200-300 MB), ``False`` none."""

MAX_SEED_TEXT = 1000
"""A text seed longer than this is refused, and a whole-number seed of more digits."""
_SEED_LIMIT = 10**MAX_SEED_TEXT


_deal_shuffle = deal_shuffle
"""Its earlier name, for deals pickled before it had a public one."""


def _is_whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


@mypyc_attr(allow_interpreted_subclasses=True)
class Table:
    """A session: seats, stacks, chips left on the layout, retired spaces and the dealer.

    >>> import stops
    >>> table = stops.Table("boodle", seats=4, chips=50, seed=7)
    >>> deal = table.new_deal()
    """

    # The arguments are typed ``Any`` on purpose: they are checked below and refused with a
    # TableError, which the compiled build could not do for a declared ``int`` (its own
    # argument check would raise TypeError first). Expected: variant ``Variant | str``,
    # seats ``int``, chips ``int | Sequence[int]``, seed ``int | str | None``, dealer
    # ``int | None``, deals ``int | None``, keep_records ``bool | int``.
    def __init__(
        self,
        variant: Variant | str,
        seats: Any,
        chips: Any = None,
        seed: Any = None,
        dealer: Any = None,
        *,
        layout: Mapping[str, int] | None = None,
        retired: Sequence[str] = (),
        deals: Any = None,
        options: Mapping[str, Any] | None = None,
        keep_records: Any = KEEP_RECORDS,
    ) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise TableError(f"options must be a mapping of rule: choice, got {shown(options)}")
        if isinstance(variant, str | os.PathLike):
            self.variant: Variant = resolve_variant(os.fspath(variant), options)
        elif hasattr(variant, "phases") and hasattr(variant, "with_options"):
            # a Variant, known by its members: the engine may not import the rules layer that
            # defines the class (the layers contract), so this is a type check, not a probe
            self.variant = variant.with_options(**options) if options else variant
        else:
            raise TableError(f"variant must be a stops.Variant, a built-in name or a file "
                             f"path, got {type(variant).__name__}")
        if seed is not None and not ((_is_whole(seed) and -_SEED_LIMIT < seed < _SEED_LIMIT)
                                     or (isinstance(seed, str) and len(seed) <= MAX_SEED_TEXT)):
            raise TableError(f"seed must be a whole number or text (at most "
                             f"{MAX_SEED_TEXT} digits or characters), got {shown(seed)}")
        if deals is not None and not (_is_whole(deals) and deals >= 1):
            raise TableError(f"deals must be a whole number >= 1 (or None), got {shown(deals)}")
        if not (isinstance(keep_records, bool) or (_is_whole(keep_records)
                                                    and keep_records >= 0)):
            raise TableError("keep_records must be true, false or a whole number >= 0, got "
                             f"{shown(keep_records)}")
        if layout is not None and not isinstance(layout, Mapping):
            raise TableError(f"layout must be a mapping of space id to chips, got "
                             f"{shown(layout)}")
        if isinstance(retired, str) or not isinstance(retired, Sequence | set | frozenset):
            raise TableError(f"retired must be a list of space ids, got {shown(retired)}")
        v = self.variant
        lo, hi = v.players
        if isinstance(seats, bool) or not isinstance(seats, int) or not lo <= seats <= hi:
            raise TableError(f"{v.name} is for {players_text(lo, hi)}, not {shown(seats)}")
        self.n: int = seats
        if chips is None:  # the variant's own starting stack (rules.starting_chips)
            chips = v.rules.starting_chips
        if isinstance(chips, int) and not isinstance(chips, bool):
            why = start_stack_problem(chips)
            if why is not None:
                raise TableError(f"chips: {why} (a seat that has run out of chips during a "
                                 "session is given with a list of stacks, e.g. chips=[0, 50, "
                                 "50])")
            self._stacks: list[int] = [chips] * seats
        else:
            try:
                if isinstance(chips, str | bytes | Mapping):
                    raise TypeError
                self._stacks = list(chips)
            except TypeError:
                raise TableError(f"chips must be a whole number or {seats} whole numbers, "
                                 f"got {shown(chips)}") from None
        if len(self._stacks) != seats or not all(chips_ok(x) for x in self._stacks):
            raise TableError(f"chips must be one number or {seats} whole numbers, each at "
                             f"most {MAX_CHIPS:,} either way, got {shown(chips)}")
        if v.rules.chip_shortfall != "debt":
            for i, x in enumerate(self._stacks):
                if x < 0:
                    raise TableError(
                        f"chips: seat {i} has {x}; a stack goes below 0 only under debt "
                        f"(chip_shortfall: debt), and {v.name} plays chip_shortfall: "
                        f"{v.rules.chip_shortfall}")
        self._layout: dict[str, int] = dict.fromkeys(v.space_ids, 0)
        for k, x in (layout or {}).items():
            if k not in self._layout:
                raise TableError(f"no layout space {shown(k)} in {v.name}; spaces: "
                                 + ", ".join(v.space_ids))
            if not chips_ok(x, 0):
                raise TableError(f"chips on {k} must be a whole number from 0 to "
                                 f"{MAX_CHIPS:,}, got {shown(x)}")
            self._layout[k] = x
        self.start_layout: dict[str, int] = {k: x for k, x in self._layout.items() if x}
        """Chips on the layout when the session began (saves check chips against it)."""
        bad = [r for r in retired if not isinstance(r, str) or r not in self._layout]
        if bad:
            raise TableError(f"cannot retire unknown space(s) {bad}")
        self.retired: set[str] = set(retired)
        self.eliminated: set[int] = set()
        """Seats out of the session (``chip_shortfall: eliminate``)."""
        self.seed: int | str = seed if seed is not None else secrets.randbits(63)
        if dealer is None:
            # first_dealer decides: seat 0, or a seeded draw standing in for the cut
            dealer = (Rng(derive_seed(self.seed, "first dealer")).below(seats)
                      if v.rules.first_dealer == "random" else 0)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < seats:
            raise TableError(f"dealer must be a seat 0..{seats - 1}, got {shown(dealer)}")
        self.dealer: int = dealer
        self.deal_limit: int | None = deals
        self.deal_index = 0
        self.deals_played = 0
        """Deals played to the end; a deal thrown in before play (outcome ``abandoned``) is
        dealt again and does not count (``deal_index`` counts every deal dealt)."""
        self.skip_stakes = False
        self.deal: Deal | None = None
        self.keep_records: Any = keep_records
        """``True`` (every record), ``False`` (none) or how many of the latest to keep."""
        self._keep: int = -1 if keep_records is True else int(keep_records)
        self.contributed: dict[str, list[int]] = {}
        """Chips each seat put on each space this session (for refund_by_contribution)."""
        self._records: list[Any] = []
        """Finished deals kept for ``records``: a record dict, or a
        :class:`~stops.engine.finished.FinishedDeal` that builds it when first read."""
        self.events: list[Event] = []
        self.start_stacks = tuple(self._stacks)
        self.last_winner: int | None = None
        """The seat that won the last deal (``None``: no deal yet, or nobody won it); a
        variant whose stake rule excuses the last winner reads it (docs/family-rulings.md F33)."""
        self.final_hands: dict[str, Any] | None = None
        """The cards of a final share-out by dealt hands (G.9) as the
        session's last record gives them (``{dealer: d, hands: [[5 cards] or None, ...]}``),
        once dealt; ``None`` before, or when the session ends otherwise."""
        self.given_final_hands: tuple[int, list[tuple[Card, ...] | None]] | None = None
        """A record's ``final_hands`` (the final dealer, the hands by seat): replay deals
        the share-out with these instead of shuffling (:meth:`deal_final_hands`)."""
        self._over = False
        rules = v.rules
        self._eliminates: bool = rules.chip_shortfall == "eliminate"
        self._rotates: bool = rules.dealer_rotation == "clockwise"
        """The variant's rules that every deal's end reads, read once per table (native
        attributes in the compiled build, not the rules' slots at every deal)."""
        self._check_start = True
        """Ask a ``match_end`` policy marked ``before_first_deal`` before the first deal."""

    # -- deals ----------------------------------------------------------------------------
    def new_deal(
        self,
        hands: Sequence[Sequence[Card | str]] | None = None,
        spare: Sequence[Card | str] | None = None,
        *,
        turn_up: Any = None,
        exempt: Any = None,
    ) -> Deal:
        """Start the next deal: shuffled with the table's seed, or with stacked ``hands``
        (seat order, as dealt) and ``spare``, which together must be exactly the pack.

        ``turn_up`` is the last card dealt of stacked hands, for a variant that turns it up
        (it must be a ``spare`` card; such a variant needs it). ``exempt`` lists the seats
        excused from this deal's stake; by default the table works it out (the last winner,
        unless he deals, when the variant's stake rule excuses him)."""
        if self.deal is not None and not self.deal.is_terminal:
            raise DealInProgress("the current deal is not finished")
        if self._over:
            raise SessionOver("the session is over: " + self.end_reason())
        if self._check_start:
            self._check_start = False
            if self._cannot_start():
                self._over = True
                raise SessionOver("the session cannot start: " + self.end_reason())
        given_hands = given_spare = None
        if hands is not None:
            given_hands, given_spare = self._check_stacked(hands, spare)
        last = -1 if turn_up is None and hands is None else \
            self._check_turn_up(turn_up, given_spare, hands is not None)
        if exempt is None:
            excused = self.last_winner
            exempt = ([excused] if excused is not None and excused != self.dealer
                      and self.variant.exempts_last_winner else ())
        elif isinstance(exempt, str | bytes) or not isinstance(exempt, Sequence) or not all(
                _is_whole(s) and 0 <= s < self.n for s in exempt) or \
                len(set(exempt)) != len(exempt):
            raise TableError(f"exempt must list distinct seats 0..{self.n - 1}, got "
                             f"{shown(exempt)}")
        seed, index = self.seed, self.deal_index
        deal = Deal(
            self.variant, players=self.n, dealer=self.dealer, stacks=self._stacks,
            layout=self._layout, retired=self.retired, hands=given_hands, spare=given_spare,
            shuffle=functools.partial(deal_shuffle, seed, index),
            deal_index=self.deal_index, skip_stakes=self.skip_stakes,
            on_end=self._finished, seed=self.seed,
            active=[s for s in range(self.n) if s not in self.eliminated] if self.eliminated
            else None,  # None: every seat (the deal makes its tuple without a loop)
            exempt=exempt, last_dealt=last,
        )
        self.deal_index += 1
        self.deal = deal
        return deal

    @classmethod
    def restore(cls, variant: Variant, *, seats: int, stacks: Sequence[int], seed: Any,
                dealer: int, layout: Mapping[str, int], retired: Sequence[str] = (),
                deal_limit: int | None = None, keep_records: Any = KEEP_RECORDS,
                start_stacks: Sequence[int] | None = None,
                start_layout: Mapping[str, int] | None = None, deals_played: int = 0,
                deal_index: int = 0, skip_stakes: bool = False, over: bool = False,
                contributed: Mapping[str, Sequence[int]] | None = None,
                records: Sequence[dict[str, Any]] = (), eliminated: Sequence[int] = ()
                ) -> Table:
        """A table at a given point of its session: the one path by which saved tables and
        deal records are rebuilt (callers check their data first; this sets it)."""
        table = cls(variant, seats=seats, chips=stacks, seed=seed, dealer=dealer,
                    layout=layout, retired=retired, deals=deal_limit,
                    keep_records=keep_records)
        if not (all(chips_ok(x) for x in start_stacks or ())
                and all(chips_ok(x, 0) for x in (start_layout or {}).values())
                and all(chips_ok(x, 0) for row in (contributed or {}).values() for x in row)):
            raise TableError(f"chips must be whole numbers of at most {MAX_CHIPS:,}")
        if not (chips_ok(deals_played, 0) and chips_ok(deal_index, 0)):
            raise TableError(f"deal counts must be whole numbers of at most {MAX_CHIPS:,}")
        if start_stacks is not None:
            table.start_stacks = tuple(start_stacks)
        if start_layout is not None:
            table.start_layout = {k: v for k, v in start_layout.items() if v}
        table.deals_played = deals_played
        table.deal_index = deal_index
        table.skip_stakes = skip_stakes
        table._over = over
        table._check_start = False  # a restored table (or a replayed deal) is mid-session
        table.contributed = {k: list(v) for k, v in (contributed or {}).items()}
        table._records = list(records)
        table.eliminated = set(eliminated)
        return table

    def _check_stacked(self, hands: Sequence[Sequence[Card | str]],
                       spare: Sequence[Card | str] | None
                       ) -> tuple[list[list[Card]], list[Card]]:
        if isinstance(hands, str | bytes) or not isinstance(hands, Sequence) or any(
                isinstance(h, str | bytes) or not isinstance(h, Sequence) for h in hands):
            raise TableError("hands must be a list of hands, one list of cards per seat")
        if spare is not None and (isinstance(spare, str | bytes)
                                  or not isinstance(spare, Sequence)):
            raise TableError("spare must be a list of cards")
        if len(hands) != self.n:
            raise TableError(f"expected {self.n} hands (one per seat), got {len(hands)}")
        try:
            hs = [list(parse_cards(h)) for h in hands]
            sp = list(parse_cards(spare or ()))
        except ValueError as e:
            raise TableError(str(e)) from None
        if sp and not self.variant.rules.spare_hand:
            raise TableError(f"{self.variant.name} deals no spare hand")
        seen: set[Card] = set()
        for c in [c for h in hs for c in h] + sp:
            if c in seen:
                raise TableError(f"{c} is dealt twice")
            seen.add(c)
        missing = set(self.variant.deck) - seen
        extra = seen - set(self.variant.deck)
        if missing:
            raise TableError("the hands and spare must hold the whole pack; missing "
                             + " ".join(str(c) for c in sorted(missing)))
        if extra:
            raise TableError("cards not in this pack: " + " ".join(str(c) for c in sorted(extra)))
        for s, h in enumerate(hs):
            if s in self.eliminated and h:
                raise TableError(f"seat {s} is out of the session and is dealt no cards",
                                 seat=s)
            if s not in self.eliminated and not h:
                raise TableError(f"seat {s} must be dealt at least one card", seat=s)
        shape = self.variant.deal_shape  # None: a plug-in's own dealing, any sizes
        sizes = shape.stacked_sizes(self.n - len(self.eliminated)) if shape is not None else None
        if sizes is not None:
            # sizes are by position from the dealer's left (the odd cards go first there)
            order = [(self.dealer + k) % self.n for k in range(1, self.n + 1)]
            order = [s for s in order if s not in self.eliminated]
            for k, s in enumerate(order):
                if len(hs[s]) == sizes[k]:
                    continue
                if len(set(sizes[:-1])) == 1:
                    raise TableError(f"seat {s} holds {len(hs[s])} cards; this deal gives each "
                                     f"player {sizes[0]} (and the spare {sizes[-1]})", seat=s)
                raise TableError(f"seat {s} holds {len(hs[s])} cards; this deal gives it "
                                 f"{sizes[k]} (hands of {', '.join(map(str, sizes[:-1]))} "
                                 f"from the dealer's left, and the spare {sizes[-1]})", seat=s)
        return hs, sp

    def _check_turn_up(self, turn_up: Any, spare: list[Card] | None,
                       stacked: bool) -> int:
        """The given turn-up as a card index (-1: none), checked against the stacked spare."""
        wants = self.variant.turns_up
        if turn_up is None:
            if stacked and wants:
                raise TableError(f"{self.variant.name} turns up the last card dealt: a stacked "
                                 "deal must name it (turn_up, one of the spare cards)")
            return -1
        if not wants:
            raise TableError(f"{self.variant.name} turns up no card: turn_up is not used")
        if not stacked:
            raise TableError("turn_up is given only with stacked hands (the shuffle deals it)")
        try:
            card = parse_cards([turn_up])[0]
        except (ValueError, TypeError):
            raise TableError(f"turn_up must be a card such as 5C, got "
                             f"{shown(turn_up, 40)}") from None
        if card not in (spare or ()):
            raise TableError(f"turn_up {card} is not one of the spare cards (the turn-up is the "
                             "last card dealt, into the spare)")
        return int(card)

    def _finished(self, deal: Deal) -> None:
        mark = len(self.events)
        self._stacks = list(deal.ledger.stacks)
        self.last_winner = deal.winner
        self._layout = dict(deal.ledger.layout)
        if deal.ledger.contributed is not None:
            for space, row in deal.ledger.contributed.items():
                mine = self.contributed.setdefault(space, [0] * self.n)
                for s, chips in enumerate(row):
                    mine[s] = mine[s] + chips
        self.retired = set(deal.retired)
        if deal.outcome != "abandoned":  # a deal thrown in before play is dealt again: it
            self.deals_played += 1       # does not count towards the session's deals
        deal.detach()  # no cycle: a finished session is freed without the cyclic GC
        keep = self._keep
        if keep:
            kept = self._records
            kept.append(FinishedDeal(deal))  # the record dict is built only when read
            if keep > 0 and len(kept) > keep:
                del kept[:len(kept) - keep]
        if self._eliminates:
            out = deal.short | {s for s in range(self.n) if self._stacks[s] <= 0}
            for s in sorted(out - self.eliminated):
                self.eliminated.add(s)
                self.events.append(event(EventKind.ELIMINATED, s,
                                         note="cannot pay: out of the session"))
        if deal.next_deal == "same_dealer" and self.dealer not in self.eliminated:
            self.skip_stakes = True
        else:
            self.skip_stakes = False
            if self._rotates or self.dealer in self.eliminated:
                self._next_dealer()
        # the bound policy read from the variant's dict: ``Variant.policy`` is interpreted
        # Python, a frame per deal on the compiled build's path
        policy = self.variant.policies["match_end"]
        if self.n - len(self.eliminated) < 2 or policy.impl(self, policy.params):
            self._over = True
            if self.variant.rules.leftover_at_match_end == "share":
                self._share_out(deal.dealer)
                last = self._records[-1] if keep and self._records else None
                if self.final_hands is not None and isinstance(last, FinishedDeal):
                    last.final_hands = self.final_hands  # G.9: on the session's last record
            deal.session_end = SessionEnd(self.dealer, tuple(self.events[mark:]),
                                          tuple(self._stacks))

    def _next_dealer(self) -> None:
        for k in range(1, self.n + 1):
            s = (self.dealer + k) % self.n
            if s not in self.eliminated:
                self.dealer = s
                return

    def _share_out(self, last_dealer: int) -> None:
        """Share the chips left on the layout at the end of the session (ruling 38,
        docs/rulings.md), as the variant's ``final_share`` policy groups and weighs them.
        Odd chips go one at a time clockwise from the last dealer's left."""
        order = [(last_dealer + k) % self.n for k in range(1, self.n + 1)]
        order = [s for s in order if s not in self.eliminated] or order
        policy = self.variant.policy("final_share")
        for group in policy.impl(self, policy.params):
            # (spaces, weights) or (spaces, weights, seats in the order odd chips go)
            self._distribute(group[0], list(group[2]) if len(group) > 2 else order, group[1])

    def deal_final_hands(self, dealer: int, seats: Sequence[int], size: int
                         ) -> list[tuple[Card, ...] | None]:
        """Deal a final share-out's hands (docs/family-rulings.md G7): ``dealer`` deals
        ``size`` cards from a fresh full 52-card pack, one at a time clockwise from his left,
        to each of ``seats``; the others get ``None``. The pack is shuffled with the table's
        seed, or (replaying a record) the record's ``final_hands`` are used, checked against
        who deals and who is dealt. Kept as :attr:`final_hands` for the session's last
        record."""
        n = self.n
        dealt = set(seats)
        hands: list[tuple[Card, ...] | None]
        given = self.given_final_hands
        if given is not None:
            gdealer, ghands = given
            if gdealer != dealer:
                raise RecordError(f"'final_hands.dealer': the final dealer (the seat that "
                                  f"would deal next) is seat {dealer}, not {gdealer}")
            for s in range(n):
                h = ghands[s]
                if s in dealt and (h is None or len(h) != size):
                    raise RecordError(f"'final_hands.hands[{s}]': seat {s} is dealt {size} "
                                      "cards in the final share-out")
                if s not in dealt and h is not None:
                    raise RecordError(f"'final_hands.hands[{s}]': seat {s} is not dealt in "
                                      "the final share-out: expected null")
            hands = list(ghands)
        else:
            pack = list(CARDS)
            keyed_shuffle(pack, self.seed, "final share", self.deal_index)
            order = [(dealer + k) % n for k in range(1, n + 1) if (dealer + k) % n in dealt]
            got: dict[int, list[Card]] = {s: [] for s in order}
            for i in range(size * len(order)):  # one card at a time, clockwise
                got[order[i % len(order)]].append(pack[i])
            hands = [tuple(got[s]) if s in got else None for s in range(n)]
        self.final_hands = {"dealer": dealer, "hands": [
            None if h is None else [str(c) for c in h] for h in hands]}
        return hands

    def _distribute(self, spaces: list[str], order: list[int], weights: list[int]) -> None:
        layout = self._layout
        stacks = self._stacks
        total = sum(layout[s] for s in spaces)
        if not total:
            return
        weights = [w if s in order else 0 for s, w in enumerate(weights)]
        if not sum(weights):
            weights = [1 if s in order else 0 for s in range(self.n)]
        wsum = sum(weights)
        gets = {s: total * weights[s] // wsum for s in order}
        rest = total - sum(gets.values())
        eligible = [s for s in order if weights[s]]
        for k in range(rest):
            s = eligible[k % len(eligible)]
            gets[s] = gets[s] + 1
        pool = [s for s in spaces if layout[s]]
        for seat in order:
            need = gets[seat]
            while need:
                space = pool[0]
                take = min(need, layout[space])
                layout[space] = layout[space] - take
                stacks[seat] = stacks[seat] + take
                need -= take
                self.events.append(event(EventKind.CLAIMED, seat, chips=take, space=space,
                                         note="share-out at the end of the session"))
                if not layout[space]:
                    pool.pop(0)

    # -- state ----------------------------------------------------------------------------
    @property
    def stacks(self) -> tuple[int, ...]:
        """Each seat's chips between deals, by seat: a tuple, like ``Deal.stacks``.

        Read-only on purpose: chips move only by the rules (a deal's ledger, the session's
        share-out), so a write cannot break chip conservation; the table keeps its own list.
        """
        return tuple(self._stacks)

    @property
    def layout(self) -> Mapping[str, int]:
        """Chips on each layout space between deals (space id -> chips), every space of the
        variant listed: a read-only view of the table's own dict (``dict(table.layout)``
        for a copy to change). A write raises ``TypeError``, so chips stay conserved."""
        return types.MappingProxyType(self._layout)

    @property
    def is_over(self) -> bool:
        """Has the session's end rule been met? Before the first deal this also asks a
        ``match_end`` policy marked ``before_first_deal`` (e.g. ``until_short``: nobody can
        pay the first stake), so a table that cannot start says so before ``new_deal``."""
        return self._over or (self._check_start and self._cannot_start())

    def _cannot_start(self) -> bool:
        policy = self.variant.policy("match_end")
        return bool(policy.spec.before_first_deal and policy.impl(self, policy.params))

    def end_reason(self) -> str:
        if not self.is_over:
            return "not over"
        if self.variant.space_ids and all(s in self.retired for s in self.variant.space_ids):
            return "every space has been won"
        if self.n - len(self.eliminated) < 2:
            return "fewer than two players are left"
        policy = self.variant.policy("match_end")
        why = policy.spec.why
        reason = None if why is None else why(self, policy.params)
        if reason:
            return str(reason)
        n = self.deals_played
        return f"{n} deal{'' if n == 1 else 's'} played"

    def standings(self) -> list[tuple[int, int, int]]:
        """``(seat, stack, change since the start)``, best first."""
        rows = [(s, self._stacks[s], self._stacks[s] - self.start_stacks[s])
                for s in range(self.n)]
        return sorted(rows, key=lambda r: (-r[1], r[0]))

    def total_chips(self) -> int:
        return sum(self._stacks) + sum(self._layout.values())

    @property
    def records(self) -> list[dict[str, Any]]:
        """The records of the finished deals this table keeps (``keep_records``), oldest
        first. Each is built the first time it is read, then kept as built."""
        kept = self._records
        for i in range(len(kept)):
            r = kept[i]
            if r.__class__ is not dict:
                kept[i] = r.record()
        return kept

    @records.setter
    def records(self, value: list[dict[str, Any]]) -> None:
        self._records = list(value)

    def record(self) -> dict[str, Any]:
        """The session so far as a list of deal records."""
        return {"format": "stops.session/1", "variant": self.variant.record_ref,
                "options": dict(self.variant.options), "players": self.n,
                "deals": list(self.records)}

    def to_dict(self, *, key: Any = None, seat: Any = None) -> dict[str, Any]:
        """The whole table, its deal in progress included, as JSON-safe data.

        This full save is the host's: it shows every hand, the spare hand and the seed (from
        which every later deal follows). With ``key`` (bytes) the data carries an
        HMAC-SHA256 ``signature``, so a host that stores saves with its clients can tell a
        save it wrote from a forged one (a signature hides nothing). ``seat=s`` gives
        instead what seat ``s`` may see (format ``stops.table.seat/1``: the session's
        public state and its view of the deal, no other hand, no seed), for handing to that
        player; it cannot be restored.
        """
        from stops.engine.saving import table_to_dict

        return table_to_dict(self, key=key, seat=seat)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, registry: Any = None,
                  key: Any = None) -> Table:
        """Restore a table saved with :meth:`to_dict`; play continues identically.

        Every field is checked (type, range, the deal the seed deals, the chips adding up);
        anything wrong is a :class:`~stops.RecordError` naming the field. With ``key`` the
        save must carry a valid signature made with the same key. The deal in progress is
        dealt again from the seed; one dealt from stacked hands restores only with ``key``.
        A signed save restored without ``key`` warns :class:`~stops.SignatureNotChecked`.
        """
        from stops.engine.saving import table_from_dict

        return table_from_dict(data, registry=registry, key=key)

    def __repr__(self) -> str:
        return (f"<Table {self.variant.name} seats={self.n} dealer={self.dealer} "
                f"deals={self.deals_played}{' over' if self.is_over else ''}>")

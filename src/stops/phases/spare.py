"""The spare-hand phase and its protocols (slot ``spare_protocol``).

* ``none``: the spare hand lies unused (it still causes stops).
* ``dealer_options`` (Three-in-One; Boodle's variation): the dealer keeps, swaps unseen
  (never back), or auctions the unseen spare; after a swap the old hand may be auctioned;
  after an unsold auction the dealer may still swap. The buyer pays the dealer.
* ``paid_exchange`` (the pot-and-kitty game): the dealer may swap free, then each other
  player in turn may swap with whatever the spare now is by paying into the kitty.

A protocol is an object with ``enter/legal/apply/explain`` on the deal, like a phase; the
:class:`SparePhase` delegates to the one the variant names. Its state is the phase's
:class:`SpareState` (``deal.state(SpareState)``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.actions import LADDER_MAX, Action, chips_range, simple, with_chips
from stops.engine.deal import ABSENT, SPARE
from stops.engine.determinize import Knowledge, Probe, Reading, draw, redeal_memo, remembered
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import event, shared
from stops.engine.legal import Amounts, Fixed, LegalActions, LegalSet
from stops.engine.vocabulary import PASS, EventType, Verb
from stops.phases.base import Phase, in_chips
from stops.policies.claims import holds_pay_card, pay_masks
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.phases.aids import PhaseAids
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# The engine's kind as a Final constant: reading an enum member as a class attribute costs
# ~190 ns (a Python-level lookup in either build); this is read directly.
K_PASSED: Final = EventKind.PASSED

# The kinds of event this phase logs: plain strings, registered with the phase (SPARE_EVENTS,
# below) with what their fields mean and how to tell them.
_REDEAL: Final = ("spare_hand",)
"""The spare-hand phase's key in ``clone_for``'s per-view memo (``redeal_memo``)."""
_PLAYED_BITS: Final = ("spare_hand", "played")
"""``redeal_memo`` key: the cards each seat has played, as a 52-bit mask per seat."""
_BIDS_SEEN: Final = ("spare_hand", "bids seen")
"""``redeal_memo`` key: the seats whose sealed bids the view's seat saw."""
SPARE_SWAPPED: Final = "spare_swapped"
AUCTION_OPENED: Final = "auction_opened"
BID: Final = "bid"
SOLD: Final = "sold"
UNSOLD: Final = "unsold"
EXCHANGED: Final = "exchanged"
KEPT: Final = "kept"
REOPENED: Final = "reopened"


class SpareState:
    """Where the spare-hand protocol has got to (the spare-hand phase's deal state)."""

    __slots__ = ("bidders", "bids", "dealer_swapped", "high_bid", "high_bidder", "offering",
                 "queue", "step", "turn")

    def __init__(self) -> None:
        self.step = "dealer"
        self.dealer_swapped = False
        self.offering = "spare"
        """What is on auction: ``"spare"`` or ``"old_hand"``."""
        self.bidders: list[int] = []
        self.turn = 0
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.bids: dict[int, int] = {}
        self.queue: list[int] = []

    def _fields(self) -> tuple[object, ...]:
        return (self.step, self.dealer_swapped, self.offering, self.bidders, self.turn,
                self.high_bid, self.high_bidder, self.bids, self.queue)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SpareState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SpareState{self._fields()!r}"

    def copy(self) -> SpareState:
        new = SpareState()
        new.step, new.dealer_swapped, new.offering = self.step, self.dealer_swapped, self.offering
        new.bidders, new.turn, new.high_bid = list(self.bidders), self.turn, self.high_bid
        new.high_bidder, new.bids, new.queue = self.high_bidder, dict(self.bids), list(self.queue)
        return new


@mypyc_attr(allow_interpreted_subclasses=True)
@mypyc_attr(allow_interpreted_subclasses=True)
class SpareProtocol:
    """Base protocol: nothing happens to the spare hand."""

    def enter(self, deal: Deal) -> bool:
        return False

    def legal(self, deal: Deal) -> LegalSet:
        return LegalActions()

    def apply(self, deal: Deal, action: Action) -> bool:
        return False

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        return None


def _params(deal: Deal) -> Any:
    """The bound spare protocol's parameters (the protocol objects are shared by variants)."""
    return deal.variant.policies["spare_protocol"].params


def _swap(deal: Deal, seat: int) -> None:
    deal.swap_with_spare(seat)
    deal.events.append(event(SPARE_SWAPPED, seat, visible_to=None))
    deal.events.append(event(SPARE_SWAPPED, seat, cards=deal.held(seat),
                    note="your new hand", visible_to=frozenset({seat})))


SHORT_MENU: Final = 64
"""A bidder's menu of at most this many bids is kept as a plain tuple (``FixedActions``)."""
MAX_MENUS: Final = 100_000
_MENUS: Final[dict[tuple[object, ...], LegalSet]] = {}
"""The dealer's and the bidders' legal sets, shared. The key holds everything the set depends
on (the step, the seat, whether a pay card blocks the spare, the dealer's options, the bid
range), so two threads filling it at once store equal sets."""


def _menu(key: tuple[object, ...]) -> LegalSet:
    kind = key[0]
    if kind == "dealer":
        _, d, blocked, keep = key
        assert isinstance(d, int)
        swap = () if blocked else (simple(d, "swap"),)
        kept = (simple(d, "keep"),) if keep else ()
        return LegalActions.of((*kept, *swap, simple(d, "auction")))
    if kind == "after_swap":
        d = key[1]
        assert isinstance(d, int)
        return LegalActions.of((simple(d, "keep"), simple(d, "auction")))
    if kind == "after_unsold":
        _, d, blocked = key
        assert isinstance(d, int)
        if blocked:
            return LegalActions.of((simple(d, "keep"),))
        return LegalActions.of((simple(d, "keep"), simple(d, "swap")))
    if kind == "pass_only":
        seat = key[1]
        assert isinstance(seat, int)
        return LegalActions.of((simple(seat, "pass"),))
    _, seat, low, stop = key
    assert isinstance(seat, int) and isinstance(low, int) and isinstance(stop, int)
    if stop - low <= SHORT_MENU:
        # a short menu is a plain tuple of its interned actions: picked by the tuple's own
        # indexing and tested by identity, with no lazy parts to walk per decision. Its bids
        # are read from the seat's ladder of interned amounts (``chips_range``), not each
        # interned again
        if low >= 1 and stop - 1 <= LADDER_MAX:
            bids = chips_range(seat, "bid", low, stop)
        else:
            bids = [with_chips(seat, "bid", x) for x in range(low, stop)]
        return LegalActions.of((simple(seat, "pass"), *bids))
    return LegalActions(Fixed((simple(seat, "pass"),)), Amounts(seat, "bid", range(low, stop)))


def _blocked(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` may not take the spare hand: ``pay_card_blocks_spare`` and he holds a
    card that would claim a layout space for him now (Tripoley, F49)."""
    return _blocking(deal) and holds_pay_card(deal, seat)


def _dealer_may_keep(deal: Deal) -> bool:
    """Whether the dealer may simply keep his hand (``dealer_keep``; only the dealer's options
    can forbid it)."""
    p = _params(deal)
    return not isinstance(p, DealerOptionsParams) or p.dealer_keep


def _blocking(deal: Deal) -> bool:
    """Whether this variant's spare protocol forbids the spare hand to a pay card's holder."""
    return _blocks(_params(deal))


def _blocks(p: Any) -> bool:
    """Whether the protocol's parameters ``p`` forbid the spare hand to a pay card's holder
    (read from parameters a caller has already looked up: one look-up per decision)."""
    return isinstance(p, (DealerOptionsParams, DealerSwapParams)) and p.pay_card_blocks_spare


@mypyc_attr(allow_interpreted_subclasses=True)
class DealerSwap(SpareProtocol):
    """The dealer alone may swap his hand for the unseen spare hand, or keep it (Newmarket's
    house rule, F13). No swapping back, no sale."""

    def enter(self, deal: Deal) -> bool:
        deal.to_act = deal.dealer
        return True

    def legal(self, deal: Deal) -> LegalSet:
        d = deal.dealer
        if _blocked(deal, d):
            return LegalActions.of((simple(d, "keep"),))
        return LegalActions.of((simple(d, "keep"), simple(d, "swap")))

    def apply(self, deal: Deal, action: Action) -> bool:
        if action.action == "swap":
            _swap(deal, deal.dealer)
        else:
            deal.emit(shared(KEPT, deal.dealer))
        return False

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        if action.action == "swap" and _blocked(deal, action.seat):
            return _pay_card_refusal()
        return None


def _pay_card_refusal() -> IllegalAction:
    return IllegalAction("holds_pay_card", "you hold a pay card, so you may not take the "
                         "spare hand", rule="pay_card_blocks_spare")


@mypyc_attr(allow_interpreted_subclasses=True)
class DealerOptions(SpareProtocol):
    """The dealer's options of Three-in-One (rulings 9-11 of docs/rulings.md)."""

    # -- auction helpers ------------------------------------------------------------------
    def _open_auction(self, deal: Deal, st: SpareState, what: str) -> bool:
        st.offering = what
        st.bidders = deal.order(deal.dealer, include_self=False)
        st.turn = 0
        st.high_bid, st.high_bidder, st.bids = 0, None, {}
        st.step = "auction"
        deal.events.append(event(AUCTION_OPENED, deal.dealer, note=what))
        return self._next_bidder(deal, st)

    def _next_bidder(self, deal: Deal, st: SpareState) -> bool:
        fmt = _params(deal).auction_format
        if fmt == "open_ascending":
            # over when nobody is left to outbid the high bidder: no bidders, or only him
            # (each seat is listed once; tested without building the list of the others)
            bidders = st.bidders
            high = st.high_bidder
            n = len(bidders)
            if n == 0 or (n == 1 and bidders[0] == high):
                return self._close_auction(deal, st)
            # find the next active bidder from st.turn
            for k in range(n):
                b = bidders[(st.turn + k) % n]
                if b != high:
                    st.turn = (st.turn + k) % n
                    deal.to_act = b
                    return True
            return self._close_auction(deal, st)
        # one_round and sealed: each bidder once, in order
        if st.turn >= len(st.bidders):
            return self._close_auction(deal, st)
        deal.to_act = st.bidders[st.turn]
        return True

    def _close_auction(self, deal: Deal, st: SpareState) -> bool:
        fmt = _params(deal).auction_format
        if fmt != "open_ascending" and st.bids:
            best = max(st.bids.values())
            st.high_bidder = next(b for b in st.bidders if st.bids.get(b) == best)
            st.high_bid = best
            if fmt == "sealed":
                for b in st.bidders:
                    if b in st.bids:
                        deal.events.append(event(BID, b, chips=st.bids[b],
                                                 note="revealed"))
        buyer = st.high_bidder
        if buyer is None:
            deal.events.append(event(UNSOLD, deal.dealer, note=st.offering))
            if st.offering == "spare" and _params(deal).unsold_dealer_may_swap:
                st.step = "after_unsold"
                deal.to_act = deal.dealer
                return True
            return False
        deal.pay(buyer, deal.dealer, st.high_bid, "buys the hand", compulsory=False)
        deal.events.append(event(SOLD, buyer, chips=st.high_bid, to_seat=deal.dealer,
                        note=st.offering))
        _swap(deal, buyer)
        return False

    # -- protocol -------------------------------------------------------------------------
    def enter(self, deal: Deal) -> bool:
        deal.reset_state(SpareState)
        deal.to_act = deal.dealer
        return True

    def legal(self, deal: Deal) -> LegalSet:
        st: SpareState = deal.states[SpareState]  # its own: no call
        d = deal.dealer
        step = st.step
        p = _params(deal)  # once per decision, for every test below
        key: tuple[object, ...]
        if step == "dealer":
            key = ("dealer", d, _blocks(p) and holds_pay_card(deal, d),
                   not isinstance(p, DealerOptionsParams) or p.dealer_keep)
        elif step == "after_swap":
            key = ("after_swap", d)
        elif step == "after_unsold":
            key = ("after_unsold", d, _blocks(p) and holds_pay_card(deal, d))
        else:
            seat = deal.to_act
            assert seat is not None
            if st.offering == "spare" and _blocks(p) and holds_pay_card(deal, seat):
                key = ("pass_only", seat)
            else:
                stack = deal.ledger.stacks[seat]
                low = st.high_bid + 1 if p.auction_format == "open_ascending" else 1
                top = stack + 1
                if p.auction_increment == "one":  # exactly one more than the last bid
                    low = st.high_bid + 1
                    top = min(top, low + 1)
                key = ("bid", seat, low, max(low, top))
        # legal sets are immutable and fixed by the key: one object per key, shared
        got = _MENUS.get(key)
        if got is None:
            got = _menu(key)
            if len(_MENUS) < MAX_MENUS:
                _MENUS[key] = got
        return got

    def apply(self, deal: Deal, action: Action) -> bool:
        st: SpareState = deal.states[SpareState]  # its own: no call
        verb = action.action
        if st.step in ("dealer", "after_swap", "after_unsold"):
            if verb == "keep":
                deal.events.append(shared(KEPT, deal.dealer))
                return False
            if verb == "swap":
                _swap(deal, deal.dealer)
                st.dealer_swapped = True
                if st.step == "dealer" and _params(deal).sell_old_hand:
                    st.step = "after_swap"
                    return True
                return False
            # auction
            return self._open_auction(deal, st, "old_hand" if st.dealer_swapped else "spare")
        # auction step
        seat = action.seat
        fmt = _params(deal).auction_format
        if verb == "pass":
            deal.events.append(shared(K_PASSED, seat))
            if fmt == "open_ascending":
                st.bidders.remove(seat)
                if st.bidders:
                    st.turn %= len(st.bidders)
            else:
                st.turn += 1
            return self._next_bidder(deal, st)
        chips = action.chips or 0
        if fmt == "open_ascending":
            st.high_bid, st.high_bidder = chips, seat
            deal.events.append(shared(BID, seat, chips))
            st.turn = (st.turn + 1) % len(st.bidders)
        else:
            st.bids[seat] = chips
            vis = frozenset({seat}) if fmt == "sealed" else None
            deal.events.append(event(BID, seat, chips=chips, visible_to=vis))
            if fmt == "sealed":
                others = frozenset(range(deal.n)) - {seat}
                deal.events.append(event(BID, seat, note="sealed bid", visible_to=others))
            st.turn += 1
        return self._next_bidder(deal, st)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = deal.state(SpareState)
        if action.action in ("bid", "swap") and st.offering == "spare" and \
                _blocked(deal, action.seat):
            return _pay_card_refusal()
        if action.action == "keep" and st.step == "dealer":
            return IllegalAction("no_keep", "the dealer may not simply keep: swap, or auction "
                                 "the spare hand", rule="dealer_keep: false")
        if action.action == "bid":
            stack = deal.ledger.stacks[action.seat]
            chips = action.chips or 0
            if chips > stack:
                return IllegalAction("insufficient_chips", f"a bid of {chips} is more than "
                                     f"your {stack} chips", rule="bids may not exceed a stack")
            if _params(deal).auction_increment == "one" and chips != st.high_bid + 1:
                return IllegalAction("bid_not_one_more", f"the bid must be exactly "
                                     f"{st.high_bid + 1}" + (" (one more than the last bid)"
                                                             if st.high_bid else
                                                             " (the first bid is 1 chip)"),
                                     rule="auction_increment: one (the first bid is 1 chip, "
                                     "each later bid exactly 1 more)")
            if chips <= st.high_bid:
                return IllegalAction("bid_too_low", f"bid more than the current {st.high_bid}",
                                     rule="each bid must top the last")
        if action.action == "swap" and st.step == "after_swap":
            return IllegalAction("no_swap_back", "once you have swapped you must keep the "
                                 "spare hand", rule="the dealer may never swap back")
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class PaidExchange(SpareProtocol):
    """The pot-and-kitty game's exchanges (rulings 13-14 of docs/rulings.md)."""

    def enter(self, deal: Deal) -> bool:
        deal.reset_state(SpareState)
        deal.to_act = deal.dealer
        return True

    def _fee(self, deal: Deal) -> int | None:
        """The fee now, or None when paid exchanges are closed."""
        p: ExchangeParams = _params(deal)
        kitty = deal.variant.kitty
        fee = p.fee * deal.rules.stake_unit
        if kitty is None or deal.is_live(kitty):
            return fee
        if p.when_kitty_retired == "no_exchange":
            return None
        if p.when_kitty_retired == "free":
            return 0
        return fee

    def _after_dealer(self, deal: Deal, st: SpareState) -> bool:
        if self._fee(deal) is None:
            return False
        if _params(deal).order == "non_dealers_from_left":
            st.queue = deal.order(deal.dealer, include_self=False)
        else:
            st.queue = deal.order(deal.dealer)
        st.step = "exchange"
        return self._next(deal, st)

    def _next(self, deal: Deal, st: SpareState) -> bool:
        if not st.queue:
            return False
        deal.to_act = st.queue[0]
        return True

    def legal(self, deal: Deal) -> LegalSet:
        st: SpareState = deal.states[SpareState]  # its own: no call
        seat = deal.to_act
        assert seat is not None
        if st.step == "dealer":
            return LegalActions.of((simple(seat, "keep"), simple(seat, "swap")))
        fee = self._fee(deal) or 0
        if fee > deal.ledger.stacks[seat] or self._would_revert(deal, seat):
            return LegalActions.of((simple(seat, "keep"),))
        return LegalActions.of((simple(seat, "keep"), simple(seat, "swap")))

    @staticmethod
    def _would_revert(deal: Deal, seat: int) -> bool:
        """The spare is the hand this seat itself gave up: taking it back is reverting,
        which the pot-and-kitty rules sheet forbids ("the dealer may not revert back to the
        original hand"; docs/rulings.md, text 003)."""
        return deal.spare_known == frozenset({seat})

    def apply(self, deal: Deal, action: Action) -> bool:
        st: SpareState = deal.states[SpareState]  # its own: no call
        seat = action.seat
        if st.step == "dealer":
            if action.action == "swap":
                _swap(deal, seat)
            else:
                deal.events.append(shared(KEPT, seat))
            return self._after_dealer(deal, st)
        st.queue.pop(0)
        if action.action == "keep":
            deal.events.append(shared(KEPT, seat))
            return self._next(deal, st)
        fee = self._fee(deal) or 0
        kitty = deal.variant.kitty
        if kitty is not None and fee:
            if not deal.is_live(kitty):  # fee_when_kitty_retired: reopen_kitty
                deal.retired.discard(kitty)
                deal.events.append(event(REOPENED, space=kitty,
                                         note="an exchange fee reopens it"))
            deal.pay(seat, kitty, fee, "exchange fee", compulsory=False)
        deal.events.append(event(EXCHANGED, seat, chips=fee, space=kitty))
        _swap(deal, seat)
        if _params(deal).limit == "first_only":
            return False
        return self._next(deal, st)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        if action.action == "swap" and deal.state(SpareState).step != "dealer" and \
                self._would_revert(deal, action.seat):
            return IllegalAction("no_swap_back", "the spare is the hand you gave up; you may "
                                 "not take it back", rule="once exchanged, never revert")
        if action.action == "swap":
            fee = self._fee(deal) or 0
            return IllegalAction("insufficient_chips", f"the exchange costs {fee} and you "
                                 f"have {deal.ledger.stacks[action.seat]}",
                                 rule="a paid exchange may not exceed your chips")
        return None


@mypyc_attr(allow_interpreted_subclasses=True)
class SparePhase(Phase):
    """Whatever the variant's ``spare_protocol`` allows with the spare hand."""

    name = "spare_hand"
    title = "The spare hand"
    state_types = (SpareState,)

    def describe(self) -> str:
        return self.policy_text("spare_protocol")

    def sections(self) -> list[tuple[str, str]]:
        """One section, headed with the game's own name for the spare (The dummy)."""
        name = self.variant.spare_name
        text = self.describe()
        return [(f"The {name}", text)] if text else []

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.protocol: Any = variant.policy("spare_protocol").impl
        self._native: SpareProtocol | None = (self.protocol if isinstance(
            self.protocol, SpareProtocol) else None)
        """The protocol when it is a :class:`SpareProtocol` (every built-in one): called
        through its native method table in the compiled build, where a call on ``Any`` was
        a method looked up by name and its arguments parsed again, at each decision of the
        spare hand. Any other protocol object is called by name, as before."""

    @classmethod
    def aids(cls) -> PhaseAids:
        """Its narration, prompts and bot play (:mod:`stops.phases.spare_aids`)."""
        from stops.phases.spare_aids import AIDS

        return AIDS

    def enter(self, deal: Deal) -> bool:
        if not deal.rules.spare_hand:
            return False
        return bool(self.protocol.enter(deal))

    def legal(self, deal: Deal) -> LegalSet:
        native = self._native
        if native is not None:
            return native.legal(deal)
        legal: LegalSet = self.protocol.legal(deal)
        return legal

    def apply(self, deal: Deal, action: Action) -> bool:
        native = self._native
        if native is not None:
            return native.apply(deal, action)
        return bool(self.protocol.apply(deal, action))

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        out: IllegalAction | None = self.protocol.explain(deal, action)
        return out

    def meaning(self, deal: Deal, action: Action) -> str:
        """A pass beside bids is a bid not made; beside a price, a purchase declined."""
        if action.action == "pass":
            verbs = deal.legal_actions().verbs
            if "bid" in verbs:
                return "pass: you make no bid"
            return self._named("pass: you leave the spare hand where it is")
        return super().meaning(deal, action)

    def _named(self, text: str) -> str:
        from stops.rules.prose import spare_named

        return spare_named(self.variant, text)

    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """Where the swaps moved what ``seat`` knew: whoever takes the spare hand takes what
        ``seat`` knew of it (its own old hand, once it has swapped), and leaves in the spare
        what ``seat`` knew of his hand. A seat that bid for the spare hand, or a dealer who
        took it, where a pay card forbids that, held no card that alone is a pay card. Read
        event by event (:class:`_SpareReading`), here the whole log at once."""
        if not deal.dealt_hands or seat >= len(deal.dealt_hands):
            return
        reading = self.reading(deal, seat)
        for e in deal.seen_by(seat):
            reading.see(deal, e)
        reading.now(deal, known)

    def reading(self, deal: Deal, seat: int) -> _SpareReading:
        """The bids and swaps read event by event for ``seat`` (``clone_for`` keeps it
        between decisions): see :meth:`infer`."""
        return _SpareReading(self, deal, seat)

    def _redeal_plan(self, deal: Deal) -> tuple[list[tuple[bool, int]], tuple[int, ...]]:
        """What :meth:`after_redeal` reads of a copy's log, the same for every copy of one
        view: from the last event back, each public swap with the spare hand (``True``, its
        seat) and each decision a pay card forbids (``False``, the seat that made it: a bid
        for the spare hand, a dealer's taking it), none after the earliest of those; and
        the places those steps read (their seats, and the spare hand where one swaps), the
        only hands a copy need turn into masks."""
        steps: list[tuple[bool, int]] = []
        took = self._took(deal) if deal.dealt_hands and _blocking(deal) else []
        if took:
            due = dict(took)
            events = deal.events
            for i in range(len(events) - 1, -1, -1):
                e = events[i]
                if e.kind is SPARE_SWAPPED and e.visible_to is None and e.seat is not None:
                    steps.append((True, e.seat))
                s = due.get(i)
                if s is not None:
                    steps.append((False, s))
            while steps and steps[-1][0]:
                steps.pop()  # swaps before the first such decision change nothing checked
        read = {s for _, s in steps}
        if any(swap for swap, _ in steps):
            read.add(SPARE)
        return steps, tuple(sorted(read))

    @staticmethod
    def _bids_seen(deal: Deal, seat: int) -> frozenset[int | None]:
        """The seats whose sealed bids ``seat`` saw: a pass over its whole log, so asked
        only where bids are imagined again (a deal with bids in its auction's state), not
        at every new position (a tenth of a ``clone()`` of a first call in Boodle, pure)."""
        return frozenset(e.seat for e in deal.seen_by(seat) if e.kind is BID and e.chips)

    def _took(self, deal: Deal) -> list[tuple[int, int]]:
        """Each (event index, seat) where a seat bid for the spare hand or the dealer took
        it: decisions a pay card in his hand forbids. Every one is public."""
        return [(i, who) for i, _, who, took in _spare_steps(deal, None) if took]
    def _pay_cards(self, deal: Deal, seat: int) -> frozenset[int]:
        """The cards that, alone in ``seat``'s hand, would forbid it the spare hand."""
        def work() -> frozenset[int]:
            out = []
            probe = Probe(deal, {})
            try:
                for d in range(52):
                    if deal.owner[d] != ABSENT:
                        probe.move(d, seat)
                        if _blocked(deal, seat):
                            out.append(d)
                        probe.move(d, SPARE)
            finally:
                probe.close()
            return frozenset(out)
        return remembered(deal, ("pay cards", seat), work)

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """An imagined deal in which a seat that bid for the spare hand, or a dealer who
        took it, then held a pay card that forbids it (a whole combination, say) could not
        have come about. Sealed bids ``seat`` has not seen are imagined afresh (a whole
        number of chips up to the bidder's stack), in the auction's state and in the copy's
        decisions."""
        memo = redeal_memo(deal)  # the same for every copy of one view: worked out once
        plan: tuple[list[tuple[bool, int]], tuple[int, ...]] | None = memo.get(_REDEAL)
        if plan is None:
            plan = memo[_REDEAL] = self._redeal_plan(deal)
        steps, read = plan
        if steps:
            # the hands as they are, every card played back with its player; then, going
            # back through the swaps, as they were at each decision a pay card forbids. Each
            # hand a 52-bit mask: a seat's from its suit masks and the cards it has played
            # (public: found once per view, from the list of plays, not a pass over the
            # pack), the spare's from its few cards; a pay card is a group of bits all set
            # (where sets built by a pass over the pack cost about a clone() per copy in
            # Tripoley)
            played: dict[int, int] | None = memo.get(_PLAYED_BITS)
            if played is None:
                played = {}
                for p, card in deal.plays:
                    played[p] = played.get(p, 0) | 1 << card
                if memo:
                    memo[_PLAYED_BITS] = played
            groups = pay_masks(deal)
            # only the hands the steps read (Tripoley: the seat that took the spare hand and
            # the spare hand itself, not every seat's)
            hands: dict[int, int] = {}
            masks = deal.masks
            for h in read:
                if h == SPARE:
                    bits = 0
                    for c in deal.spare:
                        bits |= 1 << c
                    hands[SPARE] = bits
                else:
                    m = masks[h]
                    hands[h] = (m[0] | m[1] << 13 | m[2] << 26 | m[3] << 39) | played.get(h, 0)
            for swap, s in steps:
                if swap:
                    hands[s], hands[SPARE] = hands.get(SPARE, 0), hands.get(s, 0)
                    continue
                hand = hands.get(s, 0)
                for g in groups:  # steps: only where a pay card blocks
                    if hand & g == g:
                        return False
        st = deal.peek_state(SpareState)
        if st is None or not st.bids:
            return True
        seen: frozenset[int | None] | None = memo.get(_BIDS_SEEN)
        if seen is None:
            seen = memo[_BIDS_SEEN] = self._bids_seen(deal, seat)
        for b in list(st.bids):
            if b == seat or b in seen:
                continue
            old = st.bids[b]
            new = 1 + draw(rng, max(1, deal.ledger.stacks[b]))
            st.bids[b] = new
            for i in range(len(deal.actions) - 1, -1, -1):
                a = deal.actions[i]
                if a.seat == b and a.action == "bid" and a.chips == old:
                    deal.actions[i] = Action(b, "bid", chips=new)
                    break
        return True


@attrs.frozen
class DealerOptionsParams:
    sell_old_hand: bool = param(True, "After swapping, the dealer may auction the old hand.",
                                option="spare_sell_old_hand")
    unsold_dealer_may_swap: bool = param(
        True, "If nobody buys the spare hand at auction, the dealer may still swap for it.",
        option="spare_unsold_dealer_may_swap")
    auction_format: Literal["open_ascending", "one_round", "sealed"] = param(
        "open_ascending", "How the spare hand is auctioned.")
    auction_tie: Literal["first_from_dealers_left"] = param(
        "first_from_dealers_left", "Who wins equal bids (one-round and sealed auctions).")
    dealer_keep: bool = param(
        True, "The dealer may simply keep his hand (otherwise he must swap or auction; an "
        "unsold auction still leaves him his hand).")
    pay_card_blocks_spare: bool = param(
        False, "A player holding a pay card (a card that would claim a layout space for him "
        "now) may not take the spare hand: the dealer cannot swap and a bidder cannot bid.")
    auction_increment: Literal["any", "one"] = param(
        "any", "How much a bid may be: any number of chips the auction allows (any), or "
        "exactly 1 chip for the first bid and exactly 1 more than the last for each later "
        "bid (one; Royal Rummy, docs/family-rulings.md G.0 item 14).",
        option="auction_increment")


@attrs.frozen
class DealerSwapParams:
    pay_card_blocks_spare: bool = param(
        False, "A dealer holding a pay card (a card that would claim a layout space for him "
        "now) may not take the spare hand.")


@attrs.frozen
class ExchangeParams:
    fee: int = param(1, "Stake units paid into the kitty for a paid exchange.",
                     option="exchange_fee", validator=attrs.validators.ge(0))
    order: Literal["non_dealers_from_left", "all_from_left_dealer_last"] = param(
        "non_dealers_from_left", "Who may make a paid exchange, in what order.",
        option="exchange_order")
    limit: Literal["each_once", "first_only"] = param(
        "each_once", "Every eligible player may exchange once, or only the first who wants to.",
        option="exchange_limit")
    when_kitty_retired: Literal["reopen_kitty", "no_exchange", "free"] = param(
        "reopen_kitty", "The exchange fee once the kitty has been won and retired.",
        option="fee_when_kitty_retired")


_AUCTIONS = {
    "open_ascending": " The auction is open: bidding goes clockwise from the dealer's left, "
    "each bid higher than the last and no more than the bidder's chips; a pass is final.",
    "one_round": " Each player bids once, clockwise from the dealer's left; the highest bid "
    "wins, ties going to the first bidder.",
    "sealed": " Bids are sealed: each player bids once in secret; the highest wins, ties going "
    "to the first from the dealer's left.",
}


_PAY_CARD_TEXT = (" A player holding a pay card (a card that would win a layout space for "
                  "him as things stand: one of the card spaces, the whole of a combination, "
                  "or a whole run in one suit) may not take the spare hand: such a dealer may "
                  "not swap, and such a player may not bid.")


def _dealer_options_text(p: DealerOptionsParams) -> str:
    t = ("The dealer, without looking at the spare hand, may " + (
        "keep his hand, swap it for the spare hand (never back), or auction the unseen spare "
        "hand to the other players." if p.dealer_keep else "swap his hand for the spare hand "
        "(never back) or auction the unseen spare hand to the other players; he may not "
        "simply keep his hand.")
        + " A buyer pays the dealer, takes the spare hand and leaves his own hand in its "
        "place, face down.")
    t += (" After a swap the dealer may auction the hand he gave up instead of leaving it "
          "as the spare hand." if p.sell_old_hand else " After a swap the dealer may not "
          "auction the hand he gave up.")
    t += (" If an auction of the spare hand finds no buyer, the dealer may still swap." if
          p.unsold_dealer_may_swap else " If nobody buys the spare hand, the dealer keeps his "
          "hand.")
    t += _AUCTIONS[p.auction_format]
    if p.auction_increment == "one":
        t += (" The first bid is 1 chip and each later bid exactly 1 chip more than the last "
              "(a player who cannot afford it must pass).")
    return t + (_PAY_CARD_TEXT if p.pay_card_blocks_spare else "")


def _dealer_swap_text(p: DealerSwapParams) -> str:
    t = ("Before play the dealer may swap his hand for the unseen spare hand (no swapping "
         "back), or keep it; nobody else may take the spare hand.")
    return t + (" A dealer holding a pay card (a card that would win a layout space for him "
                "as things stand) may not swap." if p.pay_card_blocks_spare else "")


def _paid_exchange_text(p: ExchangeParams, unit: int = 1) -> str:
    fee = p.fee * unit
    t = ("The dealer may swap his hand for the unseen spare hand, free, never back. Then each "
         "other player in turn from the dealer's left may swap his hand for the spare hand as "
         "it now is (perhaps a hand given up earlier) by paying into the kitty; the hand "
         f"given up becomes the spare hand. The fee is {fee} chip{'' if fee == 1 else 's'}.")
    if p.order == "all_from_left_dealer_last":
        t += " Everyone may exchange in turn from the dealer's left, the dealer last."
    if p.limit == "first_only":
        t += " Only the first player who exchanges may do so."
    return t + {"reopen_kitty": " Once the kitty has been won and removed, a fee paid into it "
                "puts it back on the layout.",
                "no_exchange": " Once the kitty has been won there are no more paid exchanges.",
                "free": " Once the kitty has been won exchanges are free."}[p.when_kitty_retired]


def _needs_spare_hand(variant: Any, params: Any) -> list[str]:
    out = []
    if "spare_hand" not in variant.flow:
        out.append("the spare_hand phase is not in flow, so this protocol never runs; add "
                   "spare_hand after deal")
    if not variant.rules.spare_hand:
        out.append("spare_hand is false, so there is no spare hand to use; set spare_hand: "
                   "true or spare_protocol: none")
    return out


def _needs_kitty(variant: Any, p: ExchangeParams) -> list[str]:
    if variant.kitty is None and p.fee > 0:
        return ["paid_exchange pays its fee into the kitty, but the layout has no kitty space"]
    return []


def _with_hand(e: Event) -> str:
    return f": now holds {' '.join(str(c) for c in e.cards)}" if e.cards else ""


def _spare_swapped(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} swaps their hand for the spare{_with_hand(e)}"


def _auction_opened(e: Event, who: Callable[[int | None], str]) -> str:
    what = "the spare hand" if e.note == "spare" else "the dealer's old hand"
    return f"{who(e.seat)} auctions {what}"


def _bid(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} bids {e.chips}"


def _sold(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} buys the hand for {e.chips}, paid to {who(e.to_seat)}{_with_hand(e)}"


def _unsold(e: Event, who: Callable[[int | None], str]) -> str:
    return "nobody bids; the hand stays unsold"


def _exchanged(e: Event, who: Callable[[int | None], str]) -> str:
    return (f"{who(e.seat)} pays {e.chips} to {e.space} and exchanges for the spare"
            f"{_with_hand(e)}")


def _kept(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} keeps their hand"


def _reopened(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{e.space} is back on the layout ({e.note})"


SPARE_EVENTS: Final = (
    EventType(SPARE_SWAPPED, "``seat`` exchanged hands with the spare; ``cards`` = the new "
              "hand (private; its public shadow has no cards)", _spare_swapped,
              swaps_spare=True, in_account=True),
    EventType(AUCTION_OPENED, "the dealer put the spare (``note='spare'``) or old hand "
              "(``'old_hand'``) up", _auction_opened),
    EventType(BID, "``seat`` bid ``chips`` in the auction (a sealed bid is seen by its "
              "bidder; the others see ``note='sealed bid'``)", _bid),
    EventType(SOLD, "``seat`` bought the hand for ``chips``, paid to ``to_seat`` (the "
              "dealer)", _sold),
    EventType(UNSOLD, "nobody bid for the hand on auction (``note`` says which)", _unsold),
    EventType(EXCHANGED, "``seat`` paid ``chips`` to ``space`` for the spare (paid "
              "exchange)", _exchanged),
    EventType(KEPT, "``seat`` kept their hand", _kept),
    EventType(REOPENED, "``space`` is back on the layout (``note`` says why)", _reopened),
)
"""The kinds of event the spare-hand phase logs."""


def _bid_meaning(a: Action) -> str:
    return f"bid {in_chips(a.chips)} for the spare hand"


SPARE_VERBS: Final = (
    Verb("keep", meaning=lambda a: "keep: you keep your hand and leave the spare hand as it is",
         doc="keep the hand (the spare hand stays as it is)", label="your hand"),
    Verb("swap", meaning=lambda a: "swap: you take the spare hand and put your own hand in "
         "its place", doc="exchange the hand for the spare hand", label="take the spare hand"),
    Verb("auction", meaning=lambda a: "auction: you sell the spare hand, unseen, to the "
         "highest bidder", doc="sell the unseen spare hand to the highest bidder",
         label="sell the unseen spare hand"),
    PASS,
    Verb("bid", ("chips",), meaning=_bid_meaning, doc="offer ``chips`` for the hand on "
         "auction"),
)
"""The decisions of the spare-hand phase (``pass`` is the engine's: no bid)."""


def register(reg: Registry) -> None:
    """The spare-hand phase and its protocols (slot ``spare_protocol``)."""
    p = reg.register_policy
    p("spare_protocol", "none", phrase="is not used by anyone", text=lambda _: "The spare "
      "hand is not used by anyone; it stays face down and its cards cause stops.")(
        SpareProtocol())
    p("spare_protocol", "dealer_options", params=DealerOptionsParams, text=_dealer_options_text,
      phrase="or auction the unseen", lint=_needs_spare_hand)(DealerOptions())
    p("spare_protocol", "dealer_swap", params=DealerSwapParams, text=_dealer_swap_text,
      phrase="nobody else may take the", lint=_needs_spare_hand)(DealerSwap())
    p("spare_protocol", "paid_exchange", params=ExchangeParams,
      text=lambda q: _paid_exchange_text(q),
      describe=lambda v, q: _paid_exchange_text(q, v.rules.stake_unit),
      phrase="by paying into the kitty", check=_needs_kitty,
      lint=_needs_spare_hand)(PaidExchange())
    reg.register_phase("spare_hand", pays=_pays_nothing, requires=("deal",),
                       slots=("spare_protocol",), verbs=SPARE_VERBS,
                       events=SPARE_EVENTS)(SparePhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()


def _spare_steps(deal: Deal, seat: int | None) -> Iterator[tuple[int, Event, int, bool]]:
    """The bids and swaps of a deal's spare-hand phase that ``seat`` saw (``None``: the
    public ones), by event index with the event's seat, and whether that seat there bid for
    the spare hand itself or, as dealer, took it (a decision a pay card in his hand forbids).

    The offer follows the auction (the spare, or the dealer's old hand after a swap); the
    dealer's own swap after a sale is the buyer's exchange, not his choice."""
    steps = _SpareSteps(deal.dealer)
    for i, e in enumerate(deal.events):
        if e.seat is None or (seat is not None and not e.visible(seat)):
            continue
        took = steps.step(e)
        if took >= 0:
            yield i, e, e.seat, took == 1


_SPARE_KINDS: Final = frozenset((AUCTION_OPENED, SOLD, BID, SPARE_SWAPPED))
"""The events :class:`_SpareSteps` reads."""


class _SpareSteps:
    """The walk of :func:`_spare_steps`, one event at a time: what is on offer and whether
    the spare hand was just sold."""

    def __init__(self, dealer: int) -> None:
        self.dealer = dealer
        self.offering = "spare"
        self.sold = False

    def step(self, e: Event) -> int:
        """For an event with a seat: -1 if it is no bid or swap; else 1 if its seat there
        bid for the spare hand itself or, as dealer, took it, 0 if not."""
        k = e.kind
        who = e.seat
        if k is AUCTION_OPENED:
            self.offering = e.note or ""
        elif k is SOLD:
            self.sold = True
        elif k is BID and (e.visible_to is None or e.note == "sealed bid"):
            return 1 if self.offering == "spare" else 0
        elif k is SPARE_SWAPPED:
            public = e.visible_to is None
            took = public and who == self.dealer and not self.sold
            if public:
                self.sold = False
            return 1 if took else 0
        return -1


class _SpareReading(Reading):
    """The bids and swaps read for one seat, event by event (:meth:`SparePhase.infer`):
    where what it knew of the hands has gone (``at``, from its hand as dealt), and which
    seats, bidding or taking the spare hand where a pay card forbids it, held none."""

    def __init__(self, phase: SparePhase, deal: Deal, seat: int) -> None:
        self.kinds = _SPARE_KINDS
        self.phase = phase
        self.seat = seat
        self.steps = _SpareSteps(deal.dealer)
        self.blocking = _blocking(deal)
        self.hand = deal.dealt_hands[seat] if seat < len(deal.dealt_hands) else None
        self.at = Knowledge(seat)
        if self.hand is not None:
            self.at.hold(seat, self.hand)
        self.changes = 0  # the events that moved what it knew (``at``): see since()
        self.steady = False  # the last now() added ``at`` (not a reading again)

    def see(self, deal: Deal, e: Event) -> None:
        who = e.seat
        if who is None:
            return
        took = self.steps.step(e)
        if took < 0:
            return
        self.changes += 1
        at = self.at
        if took and self.blocking:
            at.lack(who, self.phase._pay_cards(deal, who))
        if e.kind is SPARE_SWAPPED:
            if e.visible_to is None:
                at.swap(who, SPARE)
            elif who == self.seat:
                at.hold(self.seat, e.cards)  # its new hand, card by card

    def now(self, deal: Deal, known: Knowledge) -> None:
        seat = self.seat
        if not deal.dealt_hands or seat >= len(deal.dealt_hands):
            return
        if deal.dealt_hands[seat] != self.hand:  # dealt since this reading began: read again
            again = _SpareReading(self.phase, deal, seat)
            for e in deal.seen_by(seat):
                again.see(deal, e)
            again.now(deal, known)
            self.steady = False
            return
        known.add_under(self.at)
        self.steady = True

    def mark(self) -> int | None:
        return self.changes if self.steady else None

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        # what it knows moves with the swaps (not a fact added): nothing new where no event
        # read since changed it, else None (now() asked)
        seat = self.seat
        if self.changes != mark or not deal.dealt_hands or seat >= len(deal.dealt_hands) \
                or deal.dealt_hands[seat] != self.hand:
            return None
        return mark

"""What the spare-hand phase brings to the programs around the engine (:mod:`stops.phases.aids`).

* ``stops play`` tells the swaps, exchanges and sales of the spare hand in the game's own word
  for it ("you buy the widow for 2, paid to seat 0"), asks for a bid with the highest bid so
  far, and writes the dealer's options with what they do ("swap (take the widow)");
* the heuristic bot weighs its hand against sampled spare hands: as dealer it swaps a weak
  hand and sells the spare (or the hand it gave up) where it may, since the price goes to the
  dealer; as a bidder it offers at most half the expected gain and never more than a quarter
  of its stack; it makes a paid exchange when the gain beats the fee;
* the PettingZoo environment observes the highest bid of the auction running.

Kept apart from :mod:`stops.phases.spare` (which the compiled build compiles) because none of
it is on the path of play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Final

from stops.engine.actions import Action, simple
from stops.engine.legal import LegalActions, fewest
from stops.phases.aids import Feature, PhaseAids, Prompt, Teller, of_kind
from stops.phases.spare import (
    AUCTION_OPENED,
    BID,
    EXCHANGED,
    KEPT,
    REOPENED,
    SOLD,
    SPARE_SWAPPED,
    UNSOLD,
)

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.engine.legal import LegalSet
    from stops.engine.observation import Observation
    from stops.phases.aids import BotView, Pen, Telling
    from stops.rules.variant import Variant

_TOLD_WITH_THE_SWAP: Final = frozenset({"exchange fee", "buys the hand"})
"""Notes of the payments told by the line of the exchange or the sale they pay for."""

SAMPLES: Final = 32
"""Sampled spare hands per decision: enough to rank hands, cheap enough to run on every
decision of a simulation."""
SWAP_MARGIN: Final = 0.5
"""How much better a sampled spare must look before the bot gives up a known hand for it."""
REJECT_PENALTY: Final = 1.0
"""A spare that someone has already swapped away is their reject: expect it to be worse."""
BID_SHARE: Final = 0.5
"""A bid offers at most this share of the expected gain, so a win is still worth winning."""


def _offered(note: str, spare: str) -> str:
    return f"the {spare}" if note == "spare" else "the dealer's old hand"


class SpareTeller(Teller):
    """Tells the swaps and sales; remembers who took the spare hand by a line already told
    (an exchange, a purchase), so that the swap itself is not told twice."""

    def __init__(self) -> None:
        self.swapped: set[int] = set()

    def lines(self, e: Event, t: Telling) -> list[str] | None:
        k = e.kind
        me, pen, spare = t.me, t.pen, t.spare
        if k == SPARE_SWAPPED:
            if e.cards:
                if e.seat == me and me in self.swapped:  # bought: told by "you buy"
                    return ["Your new hand: " + pen.hand(e.cards)]
                if e.seat == me:
                    return [f"You take the {spare}. Your hand: " + pen.hand(e.cards)]
                if t.all_seen:
                    return [f"{t.who(e.seat)} takes the {spare}: " + pen.hand(e.cards)]
                return []
            if e.seat == me or e.seat in self.swapped:
                return []         # told once: by the private line, "exchanged" or "buys"
            return [f"seat {e.seat} takes the {spare} unseen"]
        if k == EXCHANGED:
            if e.seat is not None:
                self.swapped.add(e.seat)
            fee = f"pay {e.chips} to {pen.space(e.space)} and " if e.chips else ""
            if e.seat == me:
                return [f"you {fee}exchange your hand for the {spare}"]
            fee = fee.replace("pay ", "pays ")
            return [f"seat {e.seat} {fee}exchanges their hand for the {spare}"]
        if k == "paid" and e.note in _TOLD_WITH_THE_SWAP:
            return []
        if k == AUCTION_OPENED:
            return [f"{t.verb(e.seat, 'put', 'puts')} {_offered(e.note, spare)} up for auction"]
        if k == BID:
            if not e.chips:
                return [f"{t.verb(e.seat, 'bid', 'bids')} (sealed)"]
            return [f"{t.verb(e.seat, 'bid', 'bids')} {e.chips}"]
        if k == SOLD:  # the payment and the swap are told here, once
            if e.seat is not None:
                self.swapped.add(e.seat)
            return [f"{t.verb(e.seat, 'buy', 'buys')} {_offered(e.note, spare)} for "
                    f"{e.chips}, paid to {t.who(e.to_seat)}"]
        if k == UNSOLD:
            return ["Nobody bids; the hand stays unsold."]
        if k == KEPT:
            return [f"{t.verb(e.seat, 'keep your', 'keeps their')} hand"]
        if k == REOPENED:
            if e.space is not None:
                t.layout.setdefault(e.space, 0)
            return [f"{pen.space(e.space)} is back on the layout ({pen.note(e.note, me)})"]
        return None


def _bidding(legal: LegalSet) -> bool:
    """A bidder's turn in an auction: bids and a pass, nothing else."""
    return bool(legal) and all(a.action in ("bid", "pass") for a in legal) and \
        any(a.action == "bid" for a in legal)


def _high_bid(deal: Deal, seat: int) -> int:
    """The highest bid ``seat`` has seen in the auction now running."""
    high = 0
    for e in reversed(deal.events):
        if e.kind == AUCTION_OPENED:
            break
        if e.kind == BID and e.chips and e.visible(seat):
            high = max(high, e.chips)
    return high


def _swapped(deal: Deal, seat: int) -> bool:
    return any(e.kind == SPARE_SWAPPED and e.seat == seat for e in deal.events)


# -- the bot --------------------------------------------------------------------------------

def _gain(view: BotView) -> float:
    """Expected worth of the spare hand as it is now, minus that of our hand."""
    obs = view.obs
    mine = view.hand_value(obs.hand)
    if obs.spare is not None:
        return view.hand_value(obs.spare) - mine
    size = obs.spare_size
    pool = view.unseen()
    if size <= 0 or size > len(pool):
        return float("-inf")
    expected = view.mean_value(pool, size, SAMPLES)
    seat = obs.seat
    for e in of_kind(obs.events, SPARE_SWAPPED):
        if e.seat != seat:
            expected -= REJECT_PENALTY
            break
    return expected - mine


def _choose(view: BotView) -> Action:
    """Keep, swap or sell: the dealer's (or an exchanging player's) decision."""
    obs, verbs = view.obs, view.verbs
    seat = obs.seat
    if verbs == {"keep", "auction"}:
        # We swapped already: selling the hand we gave up costs us nothing.
        return simple(seat, "auction")
    gain = _gain(view)
    fee = 0
    if seat != obs.dealer and "auction" not in verbs:
        fee = 1  # a paid exchange; an earlier exchange shows the actual fee
        for e in of_kind(obs.events, EXCHANGED):
            fee = e.chips
    if "swap" in verbs and gain - fee > SWAP_MARGIN:
        return simple(seat, "swap")
    if "auction" in verbs:
        return simple(seat, "auction")
    return simple(seat, "keep")


def _bid(view: BotView) -> Action:
    """The lowest bid worth making, or a pass."""
    obs = view.obs
    gain = _gain(view)
    for e in of_kind(obs.events, AUCTION_OPENED):
        if e.note == "old_hand":
            gain -= REJECT_PENALTY  # the dealer's discarded hand
            break
    stack = obs.stacks[obs.seat]
    limit = min(int(gain * BID_SHARE), stack // 4)
    if gain > SWAP_MARGIN:  # only then are the bids on offer read
        low = _lowest_bid(view.legal)
        if low is not None and low.chips is not None and low.chips <= limit:
            return low
    return simple(obs.seat, "pass")


def _lowest_bid(legal: Sequence[Action]) -> Action | None:
    """The first of the lowest bids in ``legal``, if any: a legal set's family of amounts
    answers from its range (a bidder's menu is up to a hundred bids, each an action made
    only to be compared), any other sequence in one pass."""
    if isinstance(legal, LegalActions):
        return legal.fewest("bid")
    return fewest(legal, "bid")


# -- the whole ------------------------------------------------------------------------------

class SpareAids(PhaseAids):
    """The spare-hand phase's aids (see the module docstring)."""

    def teller(self) -> Teller | None:
        return SpareTeller()

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        spare = deal.variant.spare_name
        if _bidding(legal):  # a bidder needs the amount, not the dealer's options
            high = _high_bid(deal, seat)
            bids = sum(1 for a in legal if a.action == "bid")
            return Prompt(f"Your bid for the {spare}, unseen: "
                          + (f"the highest bid is {high}." if high else "nobody has bid yet."),
                          menu=bids <= 6)
        # the game's own name for it (the dead hand, the widow)
        return Prompt(f"Your turn: the {spare}.", rule=True)

    def choice_text(self, deal: Deal, action: Action, pen: Pen) -> str | None:
        """After his swap the dealer's auction sells the hand he gave up (the verb's own
        label says "the unseen spare hand")."""
        if action.action == "auction" and _swapped(deal, action.seat):
            return "auction (sell the hand you gave up)"
        return None

    def advise(self, view: BotView) -> Action | None:
        verbs = view.verbs
        if "bid" in verbs or verbs == {"pass"}:
            return _bid(view)
        if verbs <= {"keep", "swap", "auction"}:
            return _choose(view)
        return None

    def features(self, variant: Variant, players: int) -> tuple[Feature, ...]:
        return (Feature("high_bid", 1, chips=True),)

    def fill(self, view: Observation, put: Callable[[str, int, float], None]) -> None:
        values = [0.0]
        self.fold(view.events, 0, values)
        put("high_bid", 0, values[0])

    folds_events: ClassVar[bool] = True
    fold_kinds: ClassVar[frozenset[str] | None] = frozenset({AUCTION_OPENED, BID})

    def fold(self, events: Sequence[Event], start: int, values: list[float]) -> None:
        """``high_bid``: the highest bid since the last auction opened."""
        for i in range(start, len(events)):
            e = events[i]
            if e.kind == AUCTION_OPENED:
                values[0] = 0.0
            elif e.kind == BID:
                values[0] = max(values[0], float(e.chips))


AIDS: Final = SpareAids()

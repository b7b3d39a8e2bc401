"""The poker stage of Three-in-One: each player selects five cards, then one limit betting
round into the ``pot`` space, then a showdown (rulings 17-23 of docs/rulings.md).

Selections are private until a showdown; folded hands are never shown. The phase publishes
a :class:`PokerResult` (``deal.publish``) naming the winners, which the ``poker_winner``
first-leader policy registered here reads. The phase's settings (:class:`PokerSettings`)
are written as flat rules: ``poker_hand_size``, ``poker_selection``, ``bet_limit``, ...
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, chips_range, picked_cards, simple, with_cards
from stops.engine.cards import CARDS, Card
from stops.engine.deal import ABSENT, HandCheck
from stops.engine.determinize import (
    Knowledge,
    Reading,
    cards_in_hand,
    held_cards,
    pick_sorted,
    redeal_memo,
    remembered,
)
from stops.engine.errors import IllegalAction
from stops.engine.events import Event, event, shared
from stops.engine.legal import Amounts, Fixed, LegalActions, LegalSet, Selections
from stops.engine.vocabulary import EventType, Verb
from stops.phases.base import Phase, in_chips, laid
from stops.phases.dealing import shape_of
from stops.phases.handrank import (
    CATEGORIES,
    best_five_key,
    describe_key,
    first_best_five,
    hand_key,
    key_ranks,
    suited_best_five_key,
    suited_first_best_five,
)
from stops.policies.leads import FirstLead, FirstLeadParams, first_lead, first_lead_text
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.phases.aids import PhaseAids
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# The kinds of event this phase logs: plain strings, registered with the phase
# (POKER_EVENTS, below) with what their fields mean and how to tell them.
SELECTED: Final = "selected"
CHECKED: Final = "checked"
BET: Final = "bet"
CALLED: Final = "called"
RAISED: Final = "raised"
FOLDED: Final = "folded"
SHOWDOWN: Final = "showdown"
K_BET: Final = BET
K_CALLED: Final = CALLED
K_CHECKED: Final = CHECKED
K_FOLDED: Final = FOLDED
K_RAISED: Final = RAISED
K_SELECTED: Final = SELECTED
K_SHOWDOWN: Final = SHOWDOWN
_new: Final = tuple.__new__
"""Builds a named tuple by position (its own ``__new__`` is interpreted Python)."""


MENU_TUPLE_MAX: Final = 64
"""A betting menu with at most this many amounts is a plain tuple of actions
(:meth:`PokerPhase._menu`); a longer one (a no-limit stack) stays a lazy range."""
MAX_SAID: Final = 100_000
"""At most this many shared betting events kept per phase (amounts are bounded in a limit
game; a no-limit one could otherwise grow it without end)."""
_SAID: Final = (K_CHECKED, K_FOLDED, K_CALLED, K_BET, K_RAISED)
"""The betting events' kinds by their index in :meth:`PokerPhase._said_by`."""
_RING: Final = tuple(tuple(tuple((a + k) % n for k in range(1, n + 1)) for a in range(n))
                     for n in range(17))
"""``_RING[n][a]``: every seat of an ``n``-seat table clockwise after seat ``a``, ending with
``a`` (the betting round's next bettor is the first of them still to bet); for tables of up
to 16 seats, a bigger one goes round by arithmetic."""

_REDEAL: Final = ("poker",)
"""The poker phase's key in ``clone_for``'s per-view memo (``redeal_memo``): its plans of
what to pick again on each copy (:meth:`PokerPhase._plan`), per count of decisions."""
_SHOWN: Final = ("poker", "hands shown")
"""Key of a view's list of what is read of each hand shown (``_Shown``) in its memo."""
_TO_PICK: Final[tuple[int, ...]] = ()
"""A seat's selection left for the rule to pick when it is read (``poker_selection: auto``,
in a copy ``clone_for`` dealt: :meth:`PokerPhase.after_redeal`)."""

_Plan = tuple[list[tuple[int, int]], tuple[tuple[int, tuple[Card, ...]], ...],
              list[tuple[int, int, int, list[Card]]]]
"""The poker state's hidden hands (seat, size), the hands shown as their holders' best
(seat, cards), the decisions to make again (index, seat, size, the cards the seat has
played, in card order)."""


def select(seat: int, cards: Iterable[int]) -> Action:
    """The ``select`` of ``cards`` (card indices) by ``seat``: its poker hand."""
    return with_cards(seat, "select", cards)


def _select_sorted(seat: int, cards: tuple[int, ...]) -> Action:
    """``select(seat, cards)`` for ``cards`` already in card order: ``clone_for`` makes
    every hidden selection again on each imagined deal, where sorting them once more and a
    generator per action were a tenth of its call in Three-in-One. Made without the field
    checks (:func:`~stops.engine.actions.picked_cards`): a seat and the pack's own cards."""
    return picked_cards(seat, "select", tuple(map(CARDS.__getitem__, cards)))


class PokerState:
    """Where the poker stage has got to (the poker phase's deal state)."""

    __slots__ = ("active", "all_in", "bet_made", "contrib", "current", "hands", "need",
                 "order", "queue", "step")

    def __init__(self, order: list[int] | None = None, was: PokerState | None = None) -> None:
        # ``order`` may be omitted so that the compiled build can unpickle the state
        if was is not None:
            # a copy of ``was`` (:meth:`copy`): each container made once, as a copy of its
            # own, where a fresh state's empty ones were made only to be replaced (every
            # deal copy, and clone_for's every imagined deal, copies the poker state)
            self.order: list[int] = list(was.order)
            self.step: str = was.step
            self.queue: list[int] = list(was.queue)
            self.hands: dict[int, tuple[int, ...]] = dict(was.hands)
            self.active: list[int] = list(was.active)
            self.contrib: dict[int, int] = dict(was.contrib)
            self.current: int = was.current
            self.need: set[int] = set(was.need)
            self.all_in: set[int] = set(was.all_in)
            self.bet_made: bool = was.bet_made
            return
        self.order = order if order is not None else []
        self.step = "select"
        self.queue = []
        self.hands = {}
        self.active = []
        self.contrib = {}
        self.current = 0
        self.need = set()
        self.all_in = set()
        self.bet_made = False

    def _fields(self) -> tuple[object, ...]:
        return (self.order, self.step, self.queue, self.hands, self.active, self.contrib,
                self.current, self.need, self.all_in, self.bet_made)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PokerState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PokerState{self._fields()!r}"

    def copy(self) -> PokerState:
        return PokerState(None, self)


@mypyc_attr(allow_interpreted_subclasses=True)
class PokerPhase(Phase):
    """Poker on five chosen cards, one limit betting round, showdown."""

    name = "poker"
    title = "Stage two: poker"
    state_types = (PokerState,)

    def describe(self) -> str:
        return _poker_text(self.variant)

    def sections(self) -> list[tuple[str, str]]:
        """Poker is stage two where the claims by holding are stage one (Three-in-One,
        Tripoley); without them (Rummoli) it is simply the poker."""
        flow = self.variant.flow
        staged = "claim_held" in flow
        return [(self.title if staged else "Poker", self.describe())]

    def decision_rule(self, deal: Deal) -> str:
        """Choosing a poker hand is told how hands are made; a bet, how they were made and
        the betting round with this variant's limit (the whole section)."""
        st = deal.peek_state(PokerState)
        if st is not None and st.step == "select":
            return _selection_text(self.settings)
        return _poker_text(self.variant)

    @classmethod
    def aids(cls) -> PhaseAids:
        """Its narration, prompts, bot play, tally and features (:mod:`stops.phases.poker_aids`)."""
        from stops.phases.poker_aids import AIDS

        return AIDS

    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """A hand shown that had to be its holder's best (``poker_selection: best`` or
        ``auto``) proves that he held no card that would have made a better one, with the
        cards he has played since beside it. Read event by event (:class:`_ShownBest`),
        here the whole log at once."""
        reading = self.reading(deal, seat)
        for e in deal.seen_by(seat):
            reading.see(deal, e)
        reading.now(deal, known)

    def reading(self, deal: Deal, seat: int) -> Reading:
        """The hands shown, read event by event for ``seat`` (nothing to read when the
        selection is free)."""
        return Reading() if self.settings.selection == "free" else _ShownBest(
            seat, self.settings.hand_size)

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """Other seats' selections that ``seat`` has not seen shown are made again from
        their new hands: in the poker state, and in the copy's ``select`` decisions (a
        folded hand is never shown, so its real cards must not stay there either); with
        ``poker_selection: auto`` the state is left to pick them when they are read
        (:meth:`_hand`). The hands shown are checked before (:meth:`hands_fit`)."""
        again_k, _best, redo = self._plan_now(deal, seat)
        if not again_k and not redo:
            return True  # every hand shown or still to choose (after the showdown, say)
        actions = deal.actions
        st = deal.peek_state(PokerState)
        # the hands picked again, as the pack's own cards (a selection's cards are Card
        # objects, as a decision's are in play): picked from each seat's hand as Cards by
        # one C call (see pick_sorted), so each decision is made with no conversion
        picked: dict[int, tuple[Card, ...]] = {}
        if st is not None:
            hands = st.hands
            if self._selection == "auto":
                # the rule's pick, made when it is read (_hand): at the copy's showdown, if
                # its play gets there with the seat still in (a hand folded is never shown),
                # from the same cards, as none move in the poker stage. A pick here cost
                # about a third of a clone() a seat, at every copy of the poker stage
                for s, _k in again_k:
                    hands[s] = _TO_PICK
            else:
                held = deal.held  # the hand as a tuple of the pack's cards, picked from as it is
                for s, k in again_k:
                    hands[s] = picked[s] = pick_sorted(rng, held(s), k)
        for i, s, k, played in redo:
            again = picked.get(s)
            if again is None:  # made before play: from the hand it then held, his hand
                # now with the cards he has played since (public: listed in the plan), not
                # a pass over the pack per seat per copy (a third of a clone() each)
                mine = held_cards(deal, s)
                if played:
                    mine += played
                    mine.sort()
                again = pick_sorted(rng, mine, k)
            actions[i] = picked_cards(s, "select", again)
        return True

    def hands_fit(self, deal: Deal, seat: int) -> bool:
        """A hand shown as its holder's best must still be his best in this deal (asked
        before any phase's ``after_redeal``: most of Tripoley's deals after its showdown
        fail it)."""
        if self._selection == "free":
            return True
        for got in self._shown_list(deal, seat):  # noqa: SIM110 - a plain loop compiles
            if not self._still_best_of(deal, got):
                return False
        return True

    def _shown_list(self, deal: Deal, seat: int) -> list[_Shown]:
        """What is read of each hand shown as its holder's best, listed once per view (no
        key built and looked up per hand per try): the checks of each try and of the
        walk's seats and cards at fault read it."""
        memo = redeal_memo(deal)
        shown: list[_Shown] | None = memo.get(_SHOWN)
        if shown is None:
            shown = [self._shown(deal, memo, s, cards)
                     for s, cards in self._plan_now(deal, seat)[1]]
            if memo:
                memo[_SHOWN] = shown
        return shown

    def _plan_now(self, deal: Deal, seat: int) -> _Plan:
        """:meth:`_plan` for the copy's decisions as they are, planned once per view and
        per count of decisions (an earlier try's play phase may have dropped some
        follows): two look-ups a copy, no key built per copy."""
        memo = redeal_memo(deal)  # the same for every copy of one view: worked out once
        plans: dict[int, _Plan] | None = memo.get(_REDEAL)
        if plans is None:
            plans = {}
            if memo:
                memo[_REDEAL] = plans
        n = len(deal.actions)
        plan = plans.get(n)
        if plan is None:
            plan = plans[n] = self._plan(deal, seat)
        return plan

    def _plan(self, deal: Deal, seat: int) -> _Plan:
        """What :meth:`after_redeal` does again on every copy of one view, worked out from
        its public part: the seats whose selection in the poker state is picked again with
        their sizes (seats and sizes are public), each other hand shown as its holder's
        best, and the ``select`` decisions to make again (index, seat, size, the cards he
        has played since, in card order) among the copy's decisions."""
        # the hands shown, from one pass over the log (two cost about 4k instructions at
        # every new position, Three-in-One compiled)
        showdowns = [e for e in deal.seen_by(seat) if e.kind is K_SHOWDOWN]
        shown = frozenset(e.seat for e in showdowns)
        best: tuple[tuple[int, tuple[Card, ...]], ...] = () if self._selection == "free" else (
            tuple((e.seat, e.cards) for e in showdowns if e.seat is not None and e.seat != seat))
        st = deal.peek_state(PokerState)
        again_k: list[tuple[int, int]] = [] if st is None else [
            (s, len(chosen)) for s, chosen in st.hands.items() if s != seat and s not in shown]
        # each seat's played cards, in card order, from one pass over the plays (the pack's
        # own cards) made only if a selection is made again (a pass per selection was most
        # of a first call's plan: 13.5k instructions, Three-in-One compiled; a pass over
        # the pack, most of it unplayed, another 1.5k)
        redo: list[tuple[int, int, int, list[Card]]] = []
        played: dict[int, list[Card]] | None = None
        for i, a in enumerate(deal.actions):
            if a.action == "select" and a.seat != seat and a.seat not in shown \
                    and a.cards is not None:
                if played is None:
                    played = {}
                    for p, c in deal.plays:
                        got = played.get(p)
                        if got is None:
                            played[p] = [c]
                        else:
                            got.append(c)
                    for got in played.values():
                        got.sort()
                # a list of its own per decision, as before (the copies only read it)
                redo.append((i, a.seat, len(a.cards), list(played.get(a.seat, ()))))
        return (again_k, best, redo)

    def hand_checks(self, deal: Deal, seat: int) -> list[HandCheck]:
        """Each hand shown as its holder's best (other than ``seat``'s), checked alone: it
        must still be his best in the copy (:meth:`hands_fit`, hand by hand). Most of
        Tripoley's deals after its showdown fail it: checked so, a refused deal's hands
        are never made, and the walk re-checks only the hands a step changes."""
        if self._selection == "free":
            return []
        return [_ShownCheck(self, got) for got in self._shown_list(deal, seat)]

    def misfits(self, deal: Deal, seat: int) -> frozenset[int]:
        """The seats whose hand shown as their best another of their cards would better."""
        if self._selection == "free":
            return frozenset()
        # each hand's answer for these cards was kept by the check (_Shown.answers)
        out: list[int] = []
        for got in self._shown_list(deal, seat):
            if not self._still_best_of(deal, got):
                out.append(got.seat)
        return frozenset(out)

    def misfit_cards(self, deal: Deal, seat: int) -> frozenset[int]:
        """The cards that better a hand shown as its holder's best: of the five the rule
        would pick from his cards now, those not in the hand shown nor played since."""
        if self._selection == "free":
            return frozenset()
        out: set[int] = set()
        for got in self._shown_list(deal, seat):
            if not self._still_best_of(deal, got):
                out.update(self._culprits(got, _hand_of(deal.masks[got.seat])))
        return frozenset(out)

    def _culprits(self, got: _Shown, hand: int) -> frozenset[int]:
        """The cards of ``hand`` (its holder's whole hand in a copy, the cards a copy may
        move) that better the hand ``got`` reads: of the five the rule would pick from them
        and the cards he has played since, those not in the hand shown nor played. Kept per
        hand, as the answers are (the walk meets a hand at fault again and again)."""
        kept = got.culprits
        out = kept.get(hand)
        if out is None:
            if len(kept) >= _MAX_ANSWERS:
                kept.clear()
            out = kept[hand] = self._culprits_of(got, hand)
        return out

    def _culprits_of(self, got: _Shown, hand: int) -> frozenset[int]:
        """:meth:`_culprits` worked out."""
        played = got.played
        if self._hand_size == 5 and hand.bit_count() + len(played) > 5:
            # picked from his suit masks
            five = suited_first_best_five(
                (hand & 0x1FFF) | got.p0, (hand >> 13 & 0x1FFF) | got.p1,
                (hand >> 26 & 0x1FFF) | got.p2, (hand >> 39) | got.p3)
        else:
            five = _best_of(sorted(cards_in_hand(hand) + played), self._hand_size)
        shown = got.sorted
        return frozenset([c for c in five if c not in shown and c not in played])

    def _still_best(self, deal: Deal, s: int, shown: tuple[Card, ...]) -> bool:
        """``shown`` is as good as the best hand ``s`` held (his hand now, with the cards
        he has played since); with ``poker_selection: auto``, the very five the rule picks
        from them. The cards he has played and what is read of the hand shown are public,
        the same in every copy ``clone_for`` deals from one view: worked out once per view
        (``redeal_memo``).

        A copy of Tripoley after its showdown asks this of every hand shown at every try,
        and most tries fail it (a copy that fits is found by the walk), so it is read from
        the holder's suit masks with the played cards' or-ed in: the best five's key from
        those (:func:`~stops.phases.handrank.suited_best_five_key`), no list of his cards
        made. Where the key is the hand shown's, the rule's pick is that hand unless he
        holds another card of a rank in it in a lower suit (the pick takes the first cards
        of each rank in card order, which is suit by suit: read from the same masks), or,
        for a flush, another suit holding all five of its ranks (the first such suit is
        picked: the five picked from the masks where more than one does). Hand sizes other
        than five are settled by picking from his cards (:meth:`_still_best_cards`)."""
        return self._still_best_of(deal, self._shown(deal, redeal_memo(deal), s, shown))

    def _shown(self, deal: Deal, memo: dict[Any, Any], s: int,
               shown: tuple[Card, ...]) -> _Shown:
        """What is read of ``s``'s hand ``shown``, kept per view in ``memo``."""
        got: _Shown | None = memo.get((_REDEAL, "shown", s))
        if got is None or (got.shown is not shown and got.shown != shown):
            got = _Shown(deal, s, shown)
            if memo:
                memo[(_REDEAL, "shown", s)] = got
        return got

    def _still_best_of(self, deal: Deal, got: _Shown) -> bool:
        """:meth:`_still_best` of the hand ``got`` reads, by its holder's masks in ``deal``:
        the answer for this hand, if a try before (or the check of those at fault after a
        refused try) met it (a step of the walk changes two or three hands, not all)."""
        return self._fits(got, _hand_of(deal.masks[got.seat]))

    def _fits(self, got: _Shown, hand: int) -> bool:
        """Whether the hand ``got`` reads is still its holder's best, his whole hand in a
        copy being ``hand`` (one 52-bit mask): the answer kept per hand (a try before, or
        the walk's steps, which change two or three hands, not all, met most of them)."""
        done = got.answers.get(hand)
        if done is not None:
            return done
        if len(got.answers) >= _MAX_ANSWERS:
            got.answers.clear()
        answer = got.answers[hand] = self._still_best_masks(got, hand)
        return answer

    def _still_best_masks(self, got: _Shown, hand: int) -> bool:
        """:meth:`_still_best` worked out from the holder's suit masks (split from ``hand``)."""
        s0, s1 = (hand & 0x1FFF) | got.p0, (hand >> 13 & 0x1FFF) | got.p1
        s2, s3 = (hand >> 26 & 0x1FFF) | got.p2, (hand >> 39) | got.p3
        k = self._hand_size
        if s0.bit_count() + s1.bit_count() + s2.bit_count() + s3.bit_count() <= k:
            return True
        if k != 5 or not got.five or \
                (got.h0 & ~s0) | (got.h1 & ~s1) | (got.h2 & ~s2) | (got.h3 & ~s3):
            # (a hand shown that he no longer has all of: as the cards say)
            return self._still_best_cards(cards_in_hand(hand), got.shown, got.played)
        if suited_best_five_key(s0, s1, s2, s3) != got.key:
            return False  # a better five (the hand shown is among his cards)
        if self._selection != "auto":
            return True
        r = got.ranks
        if got.flush:
            # the pick is the first suit holding all five of its ranks: the hand shown's,
            # where no other suit holds them all
            if (s0 & r == r) + (s1 & r == r) + (s2 & r == r) + (s3 & r == r) == 1:
                return True
        else:
            # the pick takes the first cards of each of the key's ranks in card order, which
            # is suit by suit: it is the hand shown unless a card of one of its ranks that
            # was not shown lies in a lower suit than a shown card of that rank (the same
            # key: the same ranks, as many of each)
            h1, h2, h3 = got.h1, got.h2, got.h3
            return not ((s0 & ~got.h0 & r & (h1 | h2 | h3)) | (s1 & ~h1 & r & (h2 | h3))
                        | (s2 & ~h2 & r & h3))
        # else the five the rule picks, from the same masks
        return suited_first_best_five(s0, s1, s2, s3) == got.sorted

    def _still_best_cards(self, hand: list[int], shown: tuple[Card, ...],
                          played: list[int]) -> bool:
        """:meth:`_still_best` by picking from the holder's cards (``hand``, his hand now,
        and ``played``, the cards he has played since), as the rule picks at the showdown."""
        held = sorted(hand + played)  # in card order, as the pack's pass gave
        k = self.settings.hand_size
        if len(held) <= k:
            return True
        if self.settings.selection == "auto":  # the very cards the rule picks
            auto = sorted(int(c) for c in _best_of(held, k))
            return auto == sorted(int(c) for c in shown)
        return hand_key(_best_of(held, k)) == hand_key(int(c) for c in shown)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.settings: PokerSettings = variant.settings("poker")
        self.pot = variant.pot
        # read once here: the compiled build then reads native attributes on every decision,
        # not the settings' slots
        self._selection: str = self.settings.selection
        self._hand_size: int = self.settings.hand_size
        self._no_limit: bool = self.settings.betting == "no_limit"
        self._bet_limit: int = self.settings.bet_limit
        self._call_short: bool = self.settings.short_call == "all_in_no_side_pot"
        self._play_all: bool = self.settings.short_hand == "play_all_cards"
        self._dealer_first: bool = self.settings.first_bettor == "dealer"
        self._menus: dict[int, LegalSet] = {}
        self._said: dict[int, Event] = {}
        self._seen_by: dict[int, tuple[Event, frozenset[int]]] = {}

    def enter(self, deal: Deal) -> bool:
        order = deal.order(deal.dealer)
        st = deal.reset_state(PokerState)
        st.order = order
        if self._play_all:
            st.queue.extend(order)
        else:
            k = self._hand_size
            counts = deal.counts
            for s in order:
                if counts[s] >= k:
                    st.queue.append(s)
        return self._next_select(deal, st)

    # -- selection ------------------------------------------------------------------------
    def _next_select(self, deal: Deal, st: PokerState) -> bool:
        if st.queue and self._selection == "auto":
            for seat in st.queue:  # every hand plays its best cards: no decision
                st.hands[seat] = _best_cards(deal, seat, self._hand_size)
            st.queue.clear()
        if st.queue:
            deal.to_act = st.queue[0]
            return True
        return self._start_betting(deal, st)

    def _choices(self, deal: Deal, seat: int) -> LegalSet:
        hand = deal.held(seat)  # in card order, the pack's own cards: kept as they are
        k = self._hand_size
        if len(hand) < k:
            k = len(hand)
        if self._selection == "free":
            return LegalActions(Selections(seat, hand, k, "select", ordered=True))
        return LegalActions.of(tuple([_select_sorted(seat, c) for c in _best_combos(hand, k)]))

    # -- betting --------------------------------------------------------------------------
    def _limit(self, stack: int) -> int:
        """The largest bet or raise: ``bet_limit``, or with ``no_limit`` the player's stack."""
        if self._no_limit:
            return max(0, stack)
        return self._bet_limit

    def _start_betting(self, deal: Deal, st: PokerState) -> bool:
        st.step = "bet"
        st.active = [s for s in st.order if s in st.hands]
        if self._dealer_first and deal.dealer in st.active:
            # the dealer bets first, then clockwise (G.0 item 4); the order of play is the same
            k = st.active.index(deal.dealer)
            st.active = st.active[k:] + st.active[:k]
        st.contrib = dict.fromkeys(st.active, 0)
        st.need = set(st.active)
        if len(st.active) <= 1:
            return self._finish(deal, st)
        deal.to_act = st.active[0]
        return True

    def _advance(self, deal: Deal, st: PokerState, after: int) -> bool:
        need = st.need
        if len(st.active) == 1 or not need:
            return self._finish(deal, st)
        # the seats clockwise after ``after``, from a table: ``st.order`` is the seats in
        # play clockwise, and every seat still to bet is one of them, so the first of them
        # met going round the whole table is the first met going round ``st.order`` (no
        # ``index`` and no modular walk per bet)
        n = deal.n
        ring = _RING[n][after] if n < 17 else tuple((after + k) % n for k in range(1, n + 1))
        for s in ring:
            if s in need:
                deal.to_act = s
                return True
        return self._finish(deal, st)  # pragma: no cover

    def _finish(self, deal: Deal, st: PokerState) -> bool:
        pot = self.pot
        if not st.active:
            return False
        if len(st.active) == 1:
            w = st.active[0]
            deal.publish(_new(PokerResult, ((w,),)))
            if pot is not None:
                deal.claim(w, pot, "everyone else folded")
            return False
        # one evaluation per hand: its key decides the pot and names it (``describe_key``)
        keys: list[tuple[int, ...]] = []
        log = deal.events
        for s in st.active:
            cards = self._hand(deal, st, s)
            key = hand_key(cards)
            keys.append(key)
            log.append(event(K_SHOWDOWN, s, cards=tuple([CARDS[c] for c in cards]),
                             note=describe_key(key)))
        best = max(keys)
        winners = tuple([s for i, s in enumerate(st.active) if keys[i] == best])
        deal.publish(_new(PokerResult, (winners,)))
        if pot is not None:
            have = deal.ledger.layout.get(pot, 0)
            share = have // len(winners)
            for w in winners:
                if share:
                    note = "best poker hand" if len(winners) == 1 else (
                        f"poker tie, one of {len(winners)} shares")
                    deal.claim(w, pot, note, chips=share)
        return False

    def _hand(self, deal: Deal, st: PokerState, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` bets on: his selection, or with ``poker_selection: auto`` the
        rule's pick from his hand where a copy of the deal left it to be made when read
        (:data:`_TO_PICK`; see :meth:`after_redeal`)."""
        cards = st.hands[seat]
        if not cards:  # (an empty hand's pick is empty too)
            cards = st.hands[seat] = self.chosen_hand(deal, st, seat)
        return cards

    def chosen_hand(self, deal: Deal, st: PokerState, seat: int) -> tuple[int, ...]:
        """:meth:`_hand` without keeping the pick in the state (for a display, which only
        reads)."""
        cards = st.hands[seat]
        if not cards and self._selection == "auto":
            return _best_cards(deal, seat, self._hand_size)
        return cards

    def _audiences(self, n: int, seat: int) -> tuple[Event, frozenset[int]]:
        """The public ``selected`` event of ``seat`` (seen by everyone else, and always the
        same, so shared) and who may see what it selected (``seat`` only)."""
        key = n * 64 + seat
        got = self._seen_by.get(key)
        if got is None:
            others = frozenset(range(n)) - {seat}
            got = self._seen_by[key] = (event(K_SELECTED, seat, visible_to=others),
                                        frozenset({seat}))
        return got

    def _to_call(self, st: PokerState, seat: int) -> int:
        return st.current - st.contrib[seat]

    # -- phase API ------------------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        st: PokerState = deal.states[PokerState]  # its own, made on entering: no call
        seat = deal.to_act
        assert seat is not None
        if st.step == "select":
            return self._choices(deal, seat)
        stack = deal.ledger.stacks[seat]
        # ``_limit``, inline (a call less per bet)
        limit = (stack if stack > 0 else 0) if self._no_limit else self._bet_limit
        # The choices depend only on (the kind of menu, the seat, the largest bet or raise),
        # and legal sets are immutable: one set per key, shared. The key is one integer
        # (the amount, then the seat in 8 bits, then the kind in 2): hashed at the cost of
        # an int, where a tuple's hash was a few hundred instructions per bet.
        if not st.bet_made:
            most = min(limit, stack)
            key = (max(0, most) << 8 | seat) << 2
        else:
            to_call = st.current - st.contrib[seat]
            can_call = to_call <= stack or self._call_short
            room = min(limit, stack - to_call)
            key = (max(0, room) << 8 | seat) << 2 | (3 if can_call else 1)
        legal = self._menus.get(key)
        if legal is None:
            legal = self._menus[key] = self._menu(key)
        return legal

    @staticmethod
    def _menu(key: int) -> LegalSet:
        """The betting menu of ``key`` (:meth:`legal`): check or bet 1..most where nobody
        has bet; fold, call if it can be afforded, or raise 1..room where someone has.

        A limit game's menu (at most :data:`MENU_TUPLE_MAX` amounts) is a plain tuple of its
        interned actions (``FixedActions``): a pick is then a tuple's own indexing and the
        engine's legality test an identity scan, with no Python-level ``__getitem__`` and no
        walk of the set's parts per bet. A no-limit stack's long range stays lazy."""
        kind = key & 3
        seat = key >> 2 & 255
        most = key >> 10
        verb = "bet" if kind == 0 else "raise"
        if kind == 0:
            acts = [simple(seat, "check")]
        else:
            acts = [simple(seat, "fold")]
            if kind == 3:
                acts.append(simple(seat, "call"))
        if most <= MENU_TUPLE_MAX:
            # the amounts 1..most read from the seat's ladder of interned amounts, not each
            # interned again (the same actions, in the same order)
            return LegalActions.of(tuple(acts + chips_range(seat, verb, 1, most + 1)))
        return LegalActions(Fixed(tuple(acts)), Amounts(seat, verb, range(1, most + 1)))

    def apply(self, deal: Deal, action: Action) -> bool:
        st: PokerState = deal.states[PokerState]
        seat = action.seat
        verb = action.action
        if verb == "select":
            cards = action.cards
            assert cards is not None
            st.hands[seat] = cards  # an action's cards are a tuple already
            queue = st.queue
            queue.pop(0)
            seen, only = self._audiences(deal.n, seat)
            log = deal.events
            log.append(seen)
            log.append(event(K_SELECTED, seat, None, 0, None, None, cards, "", only))
            if queue:  # the next seat chooses (``auto`` made every choice on entering)
                deal.to_act = queue[0]
                return True
            return self._start_betting(deal, st)
        pot = self.pot or ""
        if verb == "check":
            st.need.discard(seat)
            deal.events.append(self._said_by(0, seat, 0))
        elif verb == "fold":
            st.active.remove(seat)
            st.need.discard(seat)
            deal.events.append(self._said_by(1, seat, 0))
        elif verb == "call":
            contrib = st.contrib
            had = contrib[seat]
            to_call = st.current - had
            amount = min(to_call, max(0, deal.ledger.stacks[seat]))
            if amount < to_call:
                st.all_in.add(seat)
            if amount:
                deal.ledger.move(seat, pot, amount)
            contrib[seat] = had + amount
            st.need.discard(seat)
            deal.events.append(self._said_by(2, seat, amount))
        else:  # bet or raise
            contrib = st.contrib
            had = contrib[seat]
            amount = st.current - had + (action.chips or 0)
            deal.ledger.move(seat, pot, amount)
            contrib[seat] = st.current = had + amount
            st.bet_made = True
            # everyone still in but the bettor and those all in must answer it
            need = set(st.active)
            need.discard(seat)
            if st.all_in:
                need -= st.all_in
            st.need = need
            deal.events.append(self._said_by(3 if verb == "bet" else 4, seat, amount))
        return self._advance(deal, st, seat)

    def _said_by(self, kind: int, seat: int, amount: int) -> Event:
        """The shared public event of a check (``kind`` 0), fold (1), call (2), bet (3) or
        raise (4) of ``amount`` by ``seat``: the very object ``shared`` hands out, found by
        one integer key (a tuple key's hash was a few hundred instructions per bet)."""
        key = (amount << 8 | seat) << 3 | kind
        e = self._said.get(key)
        if e is None:
            if kind < 2:
                e = shared(K_CHECKED if kind == 0 else K_FOLDED, seat)
            else:
                e = shared(_SAID[kind], seat, amount, self.pot or "")
            if len(self._said) < MAX_SAID:
                self._said[key] = e
        return e

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = deal.state(PokerState)
        verb = action.action
        seat = action.seat
        limit = self._limit(deal.ledger.stacks[seat])
        if verb == "select":
            k = min(self.settings.hand_size, deal.counts[seat])
            if action.cards is None or len(action.cards) != k:
                return IllegalAction("wrong_count", f"select exactly {k} cards",
                                     rule="each player selects a five-card poker hand")
            if any(deal.owner[c] != seat for c in action.cards):
                return IllegalAction("not_in_hand", "select cards from your own hand",
                                     rule="the poker hand comes from your cards")
            return IllegalAction("not_best_hand", "you must select your best poker hand",
                                 rule="poker_selection: best")
        if verb == "fold" and not st.bet_made:
            return IllegalAction("nothing_to_fold", "nobody has bet: check or bet",
                                 rule="nobody may fold while no bet is outstanding")
        if verb in ("bet", "raise"):
            chips = action.chips or 0
            if chips < 1 or (self.settings.betting == "limit" and chips > limit):
                return IllegalAction("over_limit", f"{verb} between 1 and {limit}",
                                     rule=f"the betting limit is {limit}")
            return IllegalAction("insufficient_chips", f"you have only "
                                 f"{deal.ledger.stacks[seat]} chips",
                                 rule="bets may not exceed a stack")
        if verb == "call":
            return IllegalAction("insufficient_chips", "you cannot cover the call; fold",
                                 rule="short_call: fold_only")
        return None


class _Shown:
    """What :meth:`PokerPhase._still_best` reads of one hand shown as its holder's best,
    the same for every copy of one view: its holder (``seat``), the cards he has played
    since (``played``, and as suit masks ``p0`` to ``p3``), the hand's own suit masks
    (``h0`` to ``h3``) and key, the ranks in it as a bit set, its cards in card order
    (``sorted``), whether it is five cards (``five``) and a flush or a straight flush
    (``flush``), and the answers given so far (``answers``)."""

    __slots__ = ("answers", "culprits", "five", "flush", "h0", "h1", "h2", "h3", "key", "p0",
                 "p1", "p2", "p3", "played", "ranks", "seat", "shown", "sorted")

    def __init__(self, deal: Deal, s: int, shown: tuple[Card, ...]) -> None:
        self.seat = s
        self.shown = shown
        self.answers: dict[int, bool] = {}
        """The answer for each hand of the holder's met (his four suit masks as one
        number), at most :data:`_MAX_ANSWERS`."""
        self.culprits: dict[int, frozenset[int]] = {}
        """The cards at fault in each hand met that is not his best (his whole hand as one
        52-bit mask), at most :data:`_MAX_ANSWERS`."""
        played_by = deal.played_by
        self.played: list[int] = [c for c in range(52) if played_by[c] == s]
        self.p0, self.p1, self.p2, self.p3 = _suit_masks(self.played)
        cards = [int(c) for c in shown]
        self.sorted: tuple[int, ...] = tuple(sorted(cards))
        """The hand shown's cards in card order (as the rule's pick is made)."""
        self.h0, self.h1, self.h2, self.h3 = _suit_masks(cards)
        self.five = len(set(cards)) == 5
        self.key: tuple[int, ...] = hand_key(cards) if self.five else ()
        self.flush = self.five and self.key[0] in _FLUSHES
        self.ranks = self.h0 | self.h1 | self.h2 | self.h3


@mypyc_attr(allow_interpreted_subclasses=True)
class _ShownCheck(HandCheck):
    """A hand shown as its holder's best, checked alone in the copies of one view
    (:meth:`PokerPhase.hand_checks`): by the phase's rule, from what :class:`_Shown` reads."""

    def __init__(self, phase: PokerPhase, got: _Shown) -> None:
        super().__init__(got.seat)
        self.phase = phase
        self.got = got

    def fits(self, hand: int) -> bool:
        return self.phase._fits(self.got, hand)

    def culprits(self, hand: int) -> frozenset[int]:
        return self.phase._culprits(self.got, hand)


def _hand_of(m: list[int]) -> int:
    """A hand's suit masks (as ``Deal.masks`` keeps them) as one 52-bit mask."""
    return m[0] | m[1] << 13 | m[2] << 26 | m[3] << 39


def _suit_masks(cards: list[int]) -> tuple[int, int, int, int]:
    """The suit masks of ``cards`` (bit r of the i-th: the card ``i * 13 + r``), as a
    deal's ``masks`` hold a hand's."""
    m0 = m1 = m2 = m3 = 0
    for c in cards:
        suit = c // 13
        bit = 1 << c % 13
        if suit == 0:
            m0 |= bit
        elif suit == 1:
            m1 |= bit
        elif suit == 2:
            m2 |= bit
        else:
            m3 |= bit
    return m0, m1, m2, m3


_MAX_ANSWERS: Final = 4096
"""Answers :meth:`PokerPhase._still_best` keeps per hand shown and view (cleared when
full)."""

_FLUSHES: Final = frozenset((CATEGORIES.index("flush"), CATEGORIES.index("straight_flush")))
"""The categories whose rule's pick is not settled by the ranks alone (see
:meth:`PokerPhase._still_best`)."""


def _best_combos(hand: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """Every ``k``-card hand of ``hand`` (in card order) with the best key, in the order
    ``combinations(hand, k)`` gives them. For five of more than five cards, only the cards
    whose rank is in the best key (``best_five_key``) are tried: every five-card hand with
    that key is made of those ranks, and ``combinations`` of a subsequence keeps the order,
    so the list is the same as trying all C(n, 5) fives, with a fraction of the keys."""
    pool = hand
    if k == 5 and len(hand) > 5:
        ranks = key_ranks(best_five_key(hand))
        pool = tuple([c for c in hand if c % 13 in ranks])
    best: tuple[int, ...] | None = None
    found: list[tuple[int, ...]] = []
    for combo in combinations(pool, k):
        key = hand_key(combo)
        if best is None or key > best:
            best, found = key, [combo]
        elif key == best:
            found.append(combo)
    return found


def _beaten_by(deal: Deal, shown: tuple[int, ...], beside: tuple[int, ...] = ()
               ) -> frozenset[int]:
    """The cards that, held beside ``shown`` (and ``beside``, other cards its holder is
    known to have held with it), would have made a better hand of its size.

    A hand of five is read from suit masks: the best five of the cards with each other
    card added is one :func:`~stops.phases.handrank.suited_best_five_key` of the masks
    with its bit set, where trying every five of them (six ``hand_key`` calls a card
    without ``beside``) was a third of a seat's first ``clone_for`` in Tripoley's play,
    whose every new position after a card played meets a new ``beside``; and one per rank
    for the suits too short for a flush, where the card's suit changes nothing."""
    best = hand_key(shown)
    k = len(shown)
    out = []
    if k == 5 and len(set(shown)) == 5:
        held = 0
        for c in (*shown, *beside):
            held |= 1 << c
        m0, m1 = held & 0x1FFF, held >> 13 & 0x1FFF
        m2, m3 = held >> 26 & 0x1FFF, held >> 39 & 0x1FFF
        # a card of a suit that holds fewer than four of the cards makes no flush there:
        # what it makes depends on its rank alone, so one key per rank serves those suits
        short = (m0.bit_count() < 4, m1.bit_count() < 4, m2.bit_count() < 4,
                 m3.bit_count() < 4)
        by_rank: dict[int, bool] = {}
        owner = deal.owner
        for d in range(52):
            if held >> d & 1 or owner[d] == ABSENT:
                continue
            suit = d // 13
            rank = d % 13
            if short[suit]:
                better = by_rank.get(rank)
                if better is not None:
                    if better:
                        out.append(d)
                    continue
            bit = 1 << rank
            better = suited_best_five_key(m0 | bit if suit == 0 else m0,
                                          m1 | bit if suit == 1 else m1,
                                          m2 | bit if suit == 2 else m2,
                                          m3 | bit if suit == 3 else m3) > best
            if short[suit]:
                by_rank[rank] = better
            if better:
                out.append(d)
        return frozenset(out)
    for d in range(52):
        if d in shown or d in beside or deal.owner[d] == ABSENT:
            continue
        pool = (*shown, *beside, d)
        if not beside:
            better = max(hand_key(pool[:i] + pool[i + 1:]) for i in range(len(pool))) > best
        elif k == 5:
            better = best_five_key(pool) > best
        else:
            better = max(hand_key(h) for h in combinations(pool, k)) > best
        if better:
            out.append(d)
    return frozenset(out)


def _best_cards(deal: Deal, seat: int, k: int) -> tuple[int, ...]:
    """The first of ``seat``'s best ``k``-card hands (all of a shorter hand), in card order:
    five picked straight from his suit masks (a copy of Tripoley before its showdown picks
    every other seat's hand again), no list of his cards made."""
    if k == 5 and deal.counts[seat] > 5:
        m = deal.masks[seat]
        return suited_first_best_five(m[0], m[1], m[2], m[3])
    return _best_of([int(c) for c in deal.hand(seat)], k)


def _best_of(hand: list[int], k: int) -> tuple[int, ...]:
    """The first of the best ``k``-card hands in ``hand``, in card order (all of a shorter
    hand)."""
    if len(hand) <= k:
        return tuple(hand)
    if k == 5:  # the usual case, without trying every five
        return first_best_five(hand)
    best: tuple[int, ...] | None = None
    found: tuple[int, ...] = ()
    for combo in combinations(hand, k):
        key = hand_key(combo)
        if best is None or key > best:
            best, found = key, combo
    return found


class PokerResult(NamedTuple):
    """Who won the poker pot (several on a split); published by the poker phase."""

    winners: tuple[int, ...]


@attrs.frozen
class PokerSettings:
    hand_size: int = param(
        5, "Cards in a poker hand, 1 to 7 (of six or seven, the best five count).",
        option="poker_hand_size",
        validator=attrs.validators.and_(attrs.validators.ge(1), attrs.validators.le(7)))
    selection: Literal["free", "best", "auto"] = param(
        "free", "Players choose any poker cards, or must show their best hand, or every "
        "hand's best cards are used with no decision (auto).",
        option="poker_selection")
    bet_limit: int = param(10, "Largest opening bet, and largest raise beyond the call.",
                           validator=attrs.validators.ge(1))
    betting: Literal["limit", "no_limit"] = param(
        "limit", "Bets and raises are capped by bet_limit (limit), or by nothing but the "
        "player's stack (no_limit).")
    short_call: Literal["fold_only", "all_in_no_side_pot"] = param(
        "fold_only", "A player who cannot afford to call may only fold, or may call all-in.")
    split_remainder: Literal["stays_on_pot"] = param(
        "stays_on_pot", "Odd chips of a split poker pot stay on the pot for the next deal.")
    first_bettor: Literal["dealers_left", "dealer"] = param(
        "dealers_left", "Who opens the betting round: the player to the dealer's left, or the "
        "dealer (the boxed Tripoley); then clockwise, folded and sitting-out players skipped. "
        "A dealer who sits out leaves it to the player on his left.", option="first_bettor")
    short_hand: Literal["play_all_cards", "sit_out"] = param(
        "play_all_cards", "A hand with fewer cards than a poker hand plays them all, or sits "
        "out.", option="short_poker_hand")


def poker_winner(deal: Deal, params: FirstLeadParams | None) -> FirstLead:
    """The winner of the poker pot leads first; tied winners: the first clockwise from the
    dealer's left (the dealer last). Without a poker result, the dealer's left leads. The
    card: ``first_lead_card``."""
    order = deal.order(deal.dealer)
    result = deal.result(PokerResult)
    if result is None or not result.winners:
        return first_lead(deal, order[0], params)
    winners = result.winners
    for s in order:  # the first winner clockwise (a plain loop: no key function to call)
        if s in winners:
            return first_lead(deal, s, params)
    return first_lead(deal, min(winners, key=order.index), params)  # pragma: no cover


def _poker_text(variant: Variant) -> str:
    s: PokerSettings = variant.settings("poker")
    return _selection_text(s) + " " + _betting_text(variant)


def _selection_text(s: PokerSettings) -> str:
    """How each player's poker hand is made (what ``?`` says when choosing it)."""
    k = s.hand_size
    sel = (f"any {k} cards they like (not necessarily their best hand)" if
           s.selection == "free" else f"their best {k}-card poker hand")
    return (f"Each player selects {sel} and sets the rest aside." if s.selection != "auto" else
            f"Each player's best {k} cards are his poker hand (nobody chooses).")


def _betting_text(variant: Variant) -> str:
    """The betting round and the showdown, with this variant's limit (and, where some hand
    can be short at some player count, what a short hand does)."""
    s: PokerSettings = variant.settings("poker")
    k = s.hand_size
    limit = (f"is 1 to {s.bet_limit} chips" if s.betting == "limit" else
             "may be anything up to the player's whole stack")
    first = "from the dealer's left" if s.first_bettor == "dealers_left" else (
        "the dealer first, then clockwise")
    t = ("One round of betting "
         f"into the pot follows, {first}: check or bet until someone "
         "bets; then fold, call or raise. "
         f"A bet, and a raise beyond the call, {limit}; there is "
         "no limit on the number of raises, and a player who checked may raise later."
         " If everyone checks, or the betting ends with calls, the hands still in are "
         "shown and the best wins the whole pot; equal hands split it, any odd chips "
         "staying on the pot. If everyone else folds, the last player takes the pot "
         "unseen. Standard poker ranking; A-2-3-4-5 is the lowest straight; suits "
         "do not rank.")
    lo, hi = variant.players
    shape = shape_of(variant)
    if any(min(shape.sizes(n)[:n]) < k for n in range(max(lo, 1), hi + 1)):
        # only where some hand can be short (Three-in-One's 52 cards for 8 and a spare: no)
        t += (f" A player with fewer than {k} cards plays them all (missing cards rank "
              "lowest)." if s.short_hand == "play_all_cards" else
              f" A player with fewer than {k} cards sits the poker out.")
    t += (" A player who cannot afford a call must fold." if s.short_call ==
          "fold_only" else " A player who cannot afford a call may call with all "
          "they have and still win the whole pot.")
    return t


def _needs_poker(variant: Any, params: FirstLeadParams | None) -> list[str]:
    if "poker" not in variant.flow:
        return ["poker_winner needs the poker phase in flow; otherwise the dealer's left leads"]
    return []


def _poker_checks(variant: Any) -> list[str]:
    out = []
    if variant.pot is None:
        out.append("the poker phase bets into the pot, but the layout has no space of kind pot")
    s: PokerSettings = variant.settings("poker")
    hi = variant.players[1]
    hands = hi + (1 if variant.rules.spare_hand else 0)
    if hi >= 2 and len(variant.deck) >= hands:
        smallest = len(variant.deck) // hands
        if smallest < s.hand_size and s.short_hand == "sit_out":
            out.append(f"with {hi} players some hands have only {smallest} cards, fewer than a "
                       "poker hand, and short hands sit out; expected at most "
                       f"{len(variant.deck) // s.hand_size - 1} players")
    return out


def _selected(e: Event, who: Callable[[int | None], str]) -> str:
    cards = " ".join(str(c) for c in e.cards)
    return f"{who(e.seat)} selects a hand to show" + (f": {cards}" if cards else "")


def _checked(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} checks"


def _bet(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} bets {e.chips}"


def _raised(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} raises, putting in {e.chips}"


def _called(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} calls {e.chips}"


def _folded(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} folds"


def _showdown(e: Event, who: Callable[[int | None], str]) -> str:
    cards = " ".join(str(c) for c in e.cards)
    return f"{who(e.seat)} shows {cards}" + (f" ({e.note})" if e.note else "")


POKER_EVENTS: Final = (
    EventType(SELECTED, "``seat`` chose their poker hand (``cards`` private until a "
              "showdown)", _selected, in_account=True),
    EventType(CHECKED, "``seat`` checked (poker betting)", _checked),
    EventType(BET, "``seat`` bet ``chips`` into the pot (``space``)", _bet),
    EventType(CALLED, "``seat`` called, putting ``chips`` into the pot (``space``)", _called),
    EventType(RAISED, "``seat`` raised, putting ``chips`` into the pot (``space``) in all",
              _raised),
    EventType(FOLDED, "``seat`` folded", _folded),
    EventType(SHOWDOWN, "``seat`` showed ``cards`` (public); ``note`` names the hand",
              _showdown, shows=True),
)
"""The kinds of event the poker phase logs."""


def _bet_cap(variant: Any) -> int | None:
    """The most one bet or raise can name: the bet limit (none in no-limit betting)."""
    s = variant.settings("poker")
    return None if s is None or s.betting == "no_limit" else max(1, s.bet_limit)


POKER_VERBS: Final = (
    Verb("select", ("cards",), meaning=lambda a: f"select {laid(a)}: these are the cards of "
         "your poker hand", doc="choose the cards of the poker hand (``cards``)"),
    Verb("check", meaning=lambda a: "check: you stay in without betting",
         doc="stay in without betting"),
    Verb("call", meaning=lambda a: "call: you put in what the bet costs and stay in",
         doc="put in what the bet costs"),
    Verb("fold", meaning=lambda a: "fold: you give up your claim to the pot",
         doc="give up the claim to the pot"),
    Verb("bet", ("chips",), meaning=lambda a: f"bet {in_chips(a.chips)}",
         doc="bet ``chips``", most=_bet_cap),
    Verb("raise", ("chips",), meaning=lambda a: f"raise by {in_chips(a.chips)} beyond the call",
         doc="raise by ``chips`` beyond what calling costs", most=_bet_cap),
)
"""The decisions of the poker phase."""


def register(reg: Registry) -> None:
    """The poker phase, its settings, and the first-leader policy that reads its result."""
    reg.register_phase("poker", requires=("deal",), settings=PokerSettings,
                       check=_poker_checks, pays=lambda v: (v.pot,) if v.pot else (),
                       verbs=POKER_VERBS, events=POKER_EVENTS)(PokerPhase)
    reg.register_policy(
        "first_leader", "poker_winner", lint=_needs_poker, params=FirstLeadParams,
        phrase="makes the first lead", brings=lambda _: (),
        text=_poker_winner_text)(poker_winner)


def _poker_winner_text(q: FirstLeadParams | None) -> str:
    return first_lead_text("The winner of the poker pot", q)[:-1] + (
        "; if the pot was split, the first of the winners clockwise from the dealer's left.")


class _ShownBest(Reading):
    """The hands shown as their holders' best, read for one seat (:meth:`PokerPhase.infer`):
    what each proves is kept, and added at every position.

    A hand shown is read with the cards its holder has played since (poker comes before the
    play, and nothing else leaves a hand after the showdown): he held them beside it, so a
    card that would have bettered the hand *with* them is not his either. Read without
    them, a seat that showed a pair of fives and then led the four of spades could still be
    imagined holding another four (two pair: not the hand shown), a fault no single card's
    test sees and the copies can only find by chance (``clone_for`` then failed, about once
    in a thousand calls in Tripoley's play)."""

    def __init__(self, seat: int, hand_size: int) -> None:
        self.kinds = frozenset((K_SHOWDOWN,))
        self.seat = seat
        self.hand_size = hand_size
        self.known = Knowledge(seat).journaled()  # only grows: see since()
        self.shown: dict[int, tuple[int, ...]] = {}
        """Each other seat's hand shown as its best, read with its later plays in
        :meth:`now`."""

    def see(self, deal: Deal, e: Event) -> None:
        if e.kind is not K_SHOWDOWN or e.seat is None or e.seat == self.seat:
            return
        shown = tuple(sorted(int(c) for c in e.cards))
        self.known.lack(e.seat, remembered(deal, ("best hand", shown),
                                           functools.partial(_beaten_by, deal, shown)))
        if len(shown) == self.hand_size:  # a shorter hand was all its holder had
            self.shown[e.seat] = shown

    def mark(self) -> int | None:
        # the hands shown are read with their holders' later plays at each position
        journal = self.known.journal
        return None if self.shown or journal is None else len(journal)

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        journal = self.known.journal
        if self.shown or journal is None or not known.add_since(self.known, mark):
            return None
        return len(journal)

    def now(self, deal: Deal, known: Knowledge) -> None:
        known.add(self.known)
        if not self.shown:
            return
        played_by = deal.played_by
        for s, shown in self.shown.items():
            beside = tuple([c for c in range(52) if played_by[c] == s and c not in shown])
            if beside:  # what the hand proves with the cards he has played since
                known.lack(s, remembered(deal, ("best hand", shown, beside),
                                         functools.partial(_beaten_by, deal, shown, beside)))


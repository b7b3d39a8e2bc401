"""The poker stage of Three-in-One: each player selects five cards, then one limit betting
round into the ``pot`` space, then a showdown (RULINGS 17-23).

Selections are private until a showdown; folded hands are never shown. The winners are kept
in ``deal.poker_winners`` for the ``poker_winner`` first-leader policy.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, select, simple
from stops.engine.cards import CARDS
from stops.engine.errors import IllegalAction
from stops.engine.events import event, shared
from stops.engine.legal import Amounts, Fixed, LegalActions, LegalSet, Selections
from stops.phases.base import Phase
from stops.phases.handrank import describe, hand_key

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant


class PokerState:
    """Where the poker stage has got to (``deal.scratch["poker"]``)."""

    __slots__ = ("active", "all_in", "bet_made", "contrib", "current", "hands", "need",
                 "order", "queue", "step")

    def __init__(self, order: list[int] | None = None) -> None:
        # ``order`` may be omitted so that the compiled build can unpickle the state
        self.order: list[int] = order if order is not None else []
        self.step = "select"
        self.queue: list[int] = []
        self.hands: dict[int, tuple[int, ...]] = {}
        self.active: list[int] = []
        self.contrib: dict[int, int] = {}
        self.current = 0
        self.need: set[int] = set()
        self.all_in: set[int] = set()
        self.bet_made = False

    def _fields(self) -> tuple[object, ...]:
        return (self.order, self.step, self.queue, self.hands, self.active, self.contrib,
                self.current, self.need, self.all_in, self.bet_made)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PokerState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PokerState{self._fields()!r}"

    def __deepcopy__(self, memo: dict[int, object]) -> PokerState:
        # explicit, because the compiled build's native classes have no generic copy
        new = PokerState(list(self.order))
        new.step, new.queue, new.hands = self.step, list(self.queue), dict(self.hands)
        new.active, new.contrib, new.current = list(self.active), dict(self.contrib), self.current
        new.need, new.all_in, new.bet_made = set(self.need), set(self.all_in), self.bet_made
        return new


def _st(deal: Deal) -> PokerState:
    st: PokerState = deal.scratch["poker"]
    return st


@mypyc_attr(allow_interpreted_subclasses=True)
class PokerPhase(Phase):
    """Poker on five chosen cards, one limit betting round, showdown."""

    name = "poker"
    scratch_keys = ("poker",)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.pot = variant.pot
        self._menus: dict[tuple[object, ...], LegalActions] = {}
        self._seen_by: dict[int, tuple[frozenset[int], frozenset[int]]] = {}

    def enter(self, deal: Deal) -> bool:
        order = deal.order(deal.dealer)
        st = PokerState(order=order)
        deal.scratch["poker"] = st
        k = deal.rules.poker_hand_size
        for s in order:
            if deal.counts[s] >= k or deal.rules.short_poker_hand == "play_all_cards":
                st.queue.append(s)
        return self._next_select(deal, st)

    # -- selection ------------------------------------------------------------------------
    def _next_select(self, deal: Deal, st: PokerState) -> bool:
        if st.queue:
            deal.to_act = st.queue[0]
            return True
        return self._start_betting(deal, st)

    def _choices(self, deal: Deal, seat: int) -> LegalSet:
        hand = deal.hand(seat)
        k = min(deal.rules.poker_hand_size, len(hand))
        if deal.rules.poker_selection == "free":
            return LegalActions(Selections(seat, hand, k))
        best = None
        found: list[tuple[int, ...]] = []
        for combo in combinations(hand, k):
            key = hand_key(combo)
            if best is None or key > best:
                best, found = key, [combo]
            elif key == best:
                found.append(combo)
        return LegalActions.of(tuple(select(seat, c) for c in found))

    # -- betting --------------------------------------------------------------------------
    def _start_betting(self, deal: Deal, st: PokerState) -> bool:
        st.step = "bet"
        st.active = [s for s in st.order if s in st.hands]
        st.contrib = dict.fromkeys(st.active, 0)
        st.need = set(st.active)
        if len(st.active) <= 1:
            return self._finish(deal, st)
        deal.to_act = st.active[0]
        return True

    def _advance(self, deal: Deal, st: PokerState, after: int) -> bool:
        if len(st.active) == 1 or not st.need:
            return self._finish(deal, st)
        i = st.order.index(after)
        n = len(st.order)
        for k in range(1, n + 1):
            s = st.order[(i + k) % n]
            if s in st.need:
                deal.to_act = s
                return True
        return self._finish(deal, st)  # pragma: no cover

    def _finish(self, deal: Deal, st: PokerState) -> bool:
        pot = self.pot
        if not st.active:
            return False
        if len(st.active) == 1:
            w = st.active[0]
            deal.poker_winners = (w,)
            if pot is not None:
                deal.claim(w, pot, "everyone else folded")
            return False
        keys = {}
        for s in st.active:
            cards = st.hands[s]
            keys[s] = hand_key(cards)
            deal.emit(event("showdown", s, cards=tuple(CARDS[c] for c in cards),
                            note=describe(cards)))
        best = max(keys.values())
        winners = tuple(s for s in st.active if keys[s] == best)
        deal.poker_winners = winners
        if pot is not None:
            have = deal.ledger.layout.get(pot, 0)
            share = have // len(winners)
            for w in winners:
                if share:
                    note = "best poker hand" if len(winners) == 1 else (
                        f"poker tie, one of {len(winners)} shares")
                    deal.claim(w, pot, note, chips=share)
        return False

    def _audiences(self, n: int, seat: int) -> tuple[frozenset[int], frozenset[int]]:
        """Who may see that ``seat`` selected (everyone else) and what (``seat`` only)."""
        key = n * 64 + seat
        got = self._seen_by.get(key)
        if got is None:
            got = self._seen_by[key] = (frozenset(range(n)) - {seat}, frozenset({seat}))
        return got

    def _to_call(self, st: PokerState, seat: int) -> int:
        return st.current - st.contrib[seat]

    # -- phase API ------------------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        st = _st(deal)
        seat = deal.to_act
        assert seat is not None
        if st.step == "select":
            return self._choices(deal, seat)
        limit = deal.rules.bet_limit
        stack = deal.ledger.stacks[seat]
        if not st.bet_made:
            key: tuple[object, ...] = ("open", seat, max(0, min(limit, stack)))
        else:
            to_call = self._to_call(st, seat)
            can_call = to_call <= stack or deal.rules.short_call == "all_in_no_side_pot"
            key = ("facing", seat, can_call, max(0, min(limit, stack - to_call)))
        # the choices depend only on that key, and legal sets are immutable: share them
        legal = self._menus.get(key)
        if legal is None:
            legal = self._menus[key] = self._menu(key)
        return legal

    def _menu(self, key: tuple[object, ...]) -> LegalActions:
        seat = key[1]
        assert isinstance(seat, int)
        if key[0] == "open":
            most = key[2]
            assert isinstance(most, int)
            return LegalActions(Fixed((simple(seat, "check"),)),
                                Amounts(seat, "bet", range(1, most + 1)))
        _, _, can_call, room = key
        assert isinstance(room, int)
        acts = [simple(seat, "fold")]
        if can_call:
            acts.append(simple(seat, "call"))
        return LegalActions(Fixed(tuple(acts)), Amounts(seat, "raise", range(1, room + 1)))

    def apply(self, deal: Deal, action: Action) -> bool:
        st = _st(deal)
        seat = action.seat
        verb = action.action
        if verb == "select":
            assert action.cards is not None
            st.hands[seat] = tuple(action.cards)
            st.queue.pop(0)
            others, only = self._audiences(deal.n, seat)
            deal.emit(event("selected", seat, visible_to=others))
            deal.emit(event("selected", seat, cards=action.cards, visible_to=only))
            return self._next_select(deal, st)
        pot = self.pot or ""
        if verb == "check":
            st.need.discard(seat)
            deal.emit(shared("checked", seat))
        elif verb == "fold":
            st.active.remove(seat)
            st.need.discard(seat)
            deal.emit(shared("folded", seat))
        elif verb == "call":
            to_call = self._to_call(st, seat)
            amount = min(to_call, max(0, deal.ledger.stacks[seat]))
            if amount < to_call:
                st.all_in.add(seat)
            if amount:
                deal.ledger.move(seat, pot, amount)
            st.contrib[seat] += amount
            st.need.discard(seat)
            deal.emit(shared("called", seat, amount, pot))
        else:  # bet or raise
            extra = action.chips or 0
            amount = self._to_call(st, seat) + extra
            deal.ledger.move(seat, pot, amount)
            st.contrib[seat] += amount
            st.current = st.contrib[seat]
            st.bet_made = True
            st.need = {s for s in st.active if s != seat and s not in st.all_in}
            deal.emit(shared("bet" if verb == "bet" else "raised", seat, amount, pot))
        return self._advance(deal, st, seat)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = _st(deal)
        verb = action.action
        seat = action.seat
        limit = deal.rules.bet_limit
        if verb == "select":
            k = min(deal.rules.poker_hand_size, deal.counts[seat])
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
            if chips < 1 or chips > limit:
                return IllegalAction("over_limit", f"{verb} between 1 and {limit}",
                                     rule=f"the betting limit is {limit}")
            return IllegalAction("insufficient_chips", f"you have only "
                                 f"{deal.ledger.stacks[seat]} chips",
                                 rule="bets may not exceed a stack")
        if verb == "call":
            return IllegalAction("insufficient_chips", "you cannot cover the call; fold",
                                 rule="short_call: fold_only")
        return None


def register(reg: Registry) -> None:
    reg.register_phase("poker", requires=("deal",))(PokerPhase)

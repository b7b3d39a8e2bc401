"""Play in rotation (slot ``turn_order``, policy ``rotation``): every card is a decision.

Players act in turn round the table. The player on turn either continues the sequence with a
card the ``successor`` policy allows (the next rank; in any suit under ``rank_only``) or cannot
and is passed over (an event, not a decision). With ``per_turn: run`` a player who has just
laid a card goes on while he can; with ``one_rank`` the turn passes after each card. When the
turn comes back round to the player who laid the last card, nobody else could continue: he
starts a new sequence with any card (``dead_gap: restart_any``), or the missing rank is
skipped (``next_rank_up``). A card at the top of the order (or a fixed stop) ends the sequence
and its player leads again.

The play phase keeps what every turn order shares: playing a card (events, claims, going
out) and finding a leader. This module only decides whose turn it is and what they may lay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, leads_of, plays_of, simple
from stops.engine.cards import CARDS, RANKS, Card
from stops.engine.determinize import Knowledge, Reading, redeal_memo
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import Event, event, stop_event
from stops.engine.legal import FixedActions, LegalSet
from stops.phases.play import PlayState
from stops.rules.contracts import WILD_CARD
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.phases.play import PlayPhase
    from stops.rules.registry import Registry


FINE_NOTE = "passed over: fined"
"""The note of the ``paid`` event of a ``pass_fine`` (the terminal tells it in the run)."""


@attrs.frozen
class RotationParams:
    direction: Literal["clockwise", "anticlockwise"] = param(
        "clockwise", "Turns pass to the left (clockwise) or to the right.")
    per_turn: Literal["run", "one_rank"] = param(
        "run", "After laying a card a player goes on while he can (run), or the turn passes "
        "(one_rank).", option="turn_length", aliases=("comet_turn",))
    voluntary_stop: bool = param(
        False, "A player on turn who could play may pass instead.")
    dead_gap: Literal["restart_any", "next_rank_up"] = param(
        "restart_any", "When nobody holds the needed rank: the last player starts a new "
        "sequence, or the rank is skipped and the next one is needed.")
    cards_per_turn: Literal["one", "same_rank", "same_rank_at_lead"] = param(
        "one", "A player lays one card at a time (``card``), or any number of cards of one "
        "rank at once (``cards``), or (same_rank_at_lead) any number of natural cards of one "
        "rank at a lead and one card at a time after it (a wild card always alone).")
    pass_fine: int = param(
        0, "Chips a player on turn pays into fine_space each time he cannot continue and is "
        "passed over (Play or Pay, G.0 item 7); a player due to lead never pays.",
        validator=attrs.validators.ge(0))
    fine_space: str = param(
        "pot", "The layout space the pass_fine chips go into.")
    on_return: Literal["restart", "continue"] = param(
        "restart", "When the turn comes back to the player who laid the last card: he starts "
        "a new sequence (restart), or he must first play the needed card if he holds it "
        "(continue; Play or Pay) and leads anew only if he cannot.")


class RotationState:
    """Whose turn it is, while a sequence is under way (the ``rotation`` turn order's deal
    state; none while a lead is due)."""

    __slots__ = ("last", "need", "turn")

    def __init__(self, last: int = -1, need: int = 0, turn: int = 0) -> None:
        # defaults, so that the compiled build can unpickle the state (it calls __init__())
        self.last = last
        """The seat that laid the last card."""
        self.need = need
        """The rank index that continues the sequence."""
        self.turn = turn
        """The seat deciding now."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RotationState) and (self.last, self.need, self.turn) == (
            other.last, other.need, other.turn)

    def __repr__(self) -> str:
        return f"RotationState(last={self.last}, need={self.need}, turn={self.turn})"

    def copy(self) -> RotationState:
        return RotationState(self.last, self.need, self.turn)


class RotationTurns:
    """The turn-by-turn play of one variant (built once, from its play phase)."""

    def __init__(self, phase: PlayPhase, params: RotationParams) -> None:
        self.phase = phase
        self.params = params
        self.step = 1 if params.direction == "clockwise" else -1
        self.by_rank = phase.succession.by_rank
        self.next_rank = phase.succession.next_rank
        self.multi = params.cards_per_turn == "same_rank"
        self.multi_lead = params.cards_per_turn == "same_rank_at_lead"
        """Several natural cards of one rank at a lead only (``cards``); the wild card alone
        and every later card of the turn single (``card``)."""
        self.wild_policy = phase.variant.policy(WILD_CARD)
        self.wilds: tuple[int, ...] = tuple(
            int(c) for c in self.wild_policy.impl.cards(self.wild_policy.params))
        """The wild cards (Pink Nines has two): each may stand for any rank."""
        self.is_wild: list[bool] = [c in self.wilds for c in range(52)]
        """Per card: whether it is wild (one lookup per card laid)."""
        self.on_turn: Any = self.wild_policy.impl.on_turn
        """The wild card policy's hook for what a whole turn pays (``on_turn(deal, seat,
        cards, params)``, after the turn's cards are laid; a reason makes a stop), read once."""
        self.named: Any = self.wild_policy.impl.named
        """The wild card policy's reading of the rank its own event says a wild card stood
        for (``named(event, params)``; -1: none), for what the turns prove (:class:`_Walk`)."""
        pack = {int(c) % 13 for c in phase.variant.deck}
        self.wild_ranks = tuple(r for r in phase.succession.order if r in pack)
        self.next_card = phase.succession.next_card
        self.dead_ends = phase.succession.dead_ends
        """A card whose next card is in no hand stops at once (``same_suit_wrap``)."""
        self.fine = params.pass_fine
        self.goes_on = params.on_return == "continue"

    # -- helpers ---------------------------------------------------------------------------
    def _next_seat(self, deal: Deal, seat: int) -> int:
        n = deal.n
        s = (seat + self.step) % n
        while s not in deal.active:
            s = (s + self.step) % n
        return s

    def _options(self, deal: Deal, seat: int, st: RotationState) -> list[int]:
        """The cards ``seat`` may lay to continue the sequence."""
        if self.by_rank:
            masks = deal.masks[seat]
            bit = 1 << st.need
            return [s * 13 + st.need for s in range(4)
                    if masks[s] & bit and not self.is_wild[s * 13 + st.need]]
        # same suit: only the needed rank of the suit of the last card laid continues (the
        # needed rank, not the card after the last one: ``next_rank_up`` may have skipped one)
        if not deal.plays:
            return []
        nxt = int(deal.plays[-1][1]) // 13 * 13 + st.need
        return [nxt] if deal.owner[nxt] == seat else []

    def _wild_held(self, deal: Deal, seat: int) -> bool:
        owner = deal.owner
        return any(owner[w] == seat for w in self.wilds)

    def _wilds_of(self, deal: Deal, seat: int) -> list[int]:
        """The wild cards ``seat`` holds."""
        return [w for w in self.wilds if deal.owner[w] == seat]

    def _play_actions(self, deal: Deal, seat: int, st: RotationState) -> list[Action]:
        """The ways ``seat`` may continue (naturals of the needed rank, and the wild card
        named as that rank), and ``pass`` where the rules allow it."""
        cards = self._options(deal, seat, st)
        if not self.multi:
            table = plays_of(seat)
            acts = [table[c] for c in cards]
        else:
            acts = [Action(seat, "play", cards=g) for g in _groups(cards)]
        held = self._wilds_of(deal, seat) if self.wilds else []
        wild = bool(held)
        name = RANKS[st.need]
        for h in held:
            w = CARDS[h]
            if self.multi:
                acts += [Action(seat, "play", cards=(*g, w), as_rank=name)
                         for g in [(), *_groups(cards)]]
            else:
                acts.append(Action(seat, "play", card=w, as_rank=name))
        if self.params.voluntary_stop or (wild and not cards):
            acts.append(simple(seat, "pass"))
        return acts

    def _lead_actions(self, deal: Deal, seat: int, opts: list[int],
                      free: bool = True) -> list[Action]:
        """Every lead: one card, or (``same_rank``) any cards of one rank, with or without the
        wild card named as their rank; the wild card alone, named as any rank (or, when the
        rules fix the lead, ``free`` false, as its own rank: G.11 3).
        ``same_rank_at_lead``: any natural cards of one rank (one card as ``card``, several
        as ``cards``); a wild card alone."""
        is_wild = self.is_wild
        naturals = [c for c in opts if not is_wild[c]]
        table = leads_of(seat)
        groups: list[tuple[Card, ...]] = []
        if self.multi or self.multi_lead:
            by_rank: dict[int, list[int]] = {}
            for c in naturals:
                by_rank.setdefault(c % 13, []).append(c)
            groups = [g for r in sorted(by_rank) for g in _groups(by_rank[r])]
        if self.multi_lead:
            acts = [table[int(g[0])] if len(g) == 1 else Action(seat, "lead", cards=g)
                    for g in groups]
        elif self.multi:
            acts = [Action(seat, "lead", cards=g) for g in groups]
        else:
            acts = [table[c] for c in naturals]
        for c in opts:
            if not is_wild[c]:
                continue
            w = CARDS[c]
            if self.multi:  # the Comet: the wild card may go with natural cards of its rank
                acts += [Action(seat, "lead", cards=(*g, w), as_rank=RANKS[g[0] % 13])
                         for g in groups]
            acts += [Action(seat, "lead", cards=(w,), as_rank=RANKS[r]) if self.multi else
                     Action(seat, "lead", card=w, as_rank=RANKS[r])
                     for r in (self.wild_ranks if free else (c % 13,))]
        return acts

    def _offer_play(self, deal: Deal, st: RotationState, seat: int, cards: list[int]) -> bool:
        st.turn = seat
        deal.to_act = seat
        deal.offer(FixedActions(self._play_actions(deal, seat, st)))
        return True

    def _lead(self, deal: Deal, seat: int) -> bool:
        deal.drop_state(RotationState)
        return self.phase.seek_leader(deal, seat, None)

    def _round(self, deal: Deal, st: RotationState, start: int) -> bool:
        """Go round from ``start`` for the needed rank; back at the last player, restart or
        skip the missing rank."""
        seat = start
        while True:
            if seat == st.last:
                if self.goes_on:  # on_return: continue: he plays on if he can
                    opts = self._options(deal, seat, st)
                    if opts or self._wild_held(deal, seat):
                        return self._offer_play(deal, st, seat, opts)
                if self.params.dead_gap == "restart_any":
                    return self._lead(deal, seat)
                st.need = self.next_rank[st.need]
                if st.need < 0:
                    return self._lead(deal, seat)
                opts = self._options(deal, seat, st)
                if opts or self._wild_held(deal, seat):
                    return self._offer_play(deal, st, seat, opts)
                seat = self._next_seat(deal, seat)
                continue
            opts = self._options(deal, seat, st)
            if opts or self._wild_held(deal, seat):
                return self._offer_play(deal, st, seat, opts)
            self._pass_over(deal, st, seat)
            seat = self._next_seat(deal, seat)

    def _pass_over(self, deal: Deal, st: RotationState, seat: int) -> None:
        """``seat`` cannot continue and is passed over; with ``pass_fine`` it pays the fine
        (the event's ``chips``), compulsory: a ``paid`` event into ``fine_space`` (F2)."""
        fine = self.fine
        deal.emit(event(EventKind.PASSED_OVER, seat, chips=fine,
                        note=f"holds no {self._needed(deal, st)}"))
        if fine:
            deal.pay(seat, self.params.fine_space, fine, FINE_NOTE)

    def _needed(self, deal: Deal, st: RotationState) -> str:
        """The needed rank in words (the card itself when the sequence climbs its suit)."""
        if self.by_rank or not deal.plays or not self.dead_ends:
            return _rank_name(st.need)
        return str(CARDS[int(deal.plays[-1][1]) // 13 * 13 + st.need])

    def _free(self, deal: Deal, ps: PlayState) -> bool:
        """Whether the lead on offer is free (any card of the hand), so that a wild card led
        may be named as any rank; a lead the rules fix (the lowest card, an opening) names it
        as its own rank (G.11 3)."""
        lead = ps.lead
        if not self.wilds or lead is None:
            return True
        return ps.opening is None and len(lead[1]) == deal.counts[lead[0]]

    # -- the turn protocol -----------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        st = deal.peek_state(RotationState)
        if st is None:
            ps = deal.state(PlayState)
            lead = ps.lead
            assert lead is not None  # no sequence under way: a lead is on offer
            seat, opts, _ = lead
            return FixedActions(self._lead_actions(deal, seat, opts, self._free(deal, ps)))
        return FixedActions(self._play_actions(deal, st.turn, st))

    def apply(self, deal: Deal, action: Action) -> bool:
        seat = action.seat
        st = deal.peek_state(RotationState)
        if action.action == "pass":
            assert st is not None
            deal.emit(event(EventKind.PASSED, seat, note=f"sans {_rank_name(st.need)}"))
            return self._round(deal, st, self._next_seat(deal, seat))
        if action.cards is not None:
            # laid in the order the decision gives, the wild card last (F6): it stands for
            # the rank of the cards laid with it
            is_wild = self.is_wild
            cards = [int(c) for c in action.cards if not is_wild[int(c)]]
            cards += [int(c) for c in action.cards if is_wild[int(c)]]
        else:
            cards = [int(action.card)]  # type: ignore[arg-type]
        kind = EventKind.LED if action.action == "lead" else EventKind.PLAYED
        halt: str | None = None
        w = self.wild_policy
        for k, c in enumerate(cards):
            halt = self.phase.lay(deal, seat, c, kind if k == 0 else EventKind.PLAYED) or halt
            if self.is_wild[c]:
                halt = w.impl.on_lay(deal, seat, action.as_rank, w.params) or halt
        # what a whole turn pays (the card that goes out still pays first, F1)
        halt = self.on_turn(deal, seat, cards, w.params) or halt
        if deal.outcome == "went_out":
            return False
        card = cards[-1]
        rank = RANKS.index(action.as_rank) if action.as_rank is not None else card % 13
        nxt_rank = self.next_rank[rank]
        why: str | None = ""
        for c in cards:  # a card that always stops does so wherever the turn lists it
            if not self.is_wild[c] and self.phase.stop_reason[c]:
                why = self.phase.stop_reason[c]
                break
        why = why or halt
        if nxt_rank < 0 and not why and action.as_rank is not None:
            why = self.phase.stop_reason[rank]  # a wild card named as the top rank: as it
        if not why and self.dead_ends and deal.owner[self.next_card[card]] < 0:
            # the next card is in no hand: the sequence ends at once (G.11 item 5)
            nxt = self.next_card[card]
            suit = nxt // 13 * 13
            why = ("the thirteenth card of its suit" if all(
                deal.played_by[c] >= 0 for c in range(suit, suit + 13)) else
                   "the next card has been played" if deal.played_by[nxt] >= 0 else
                   "the next card is in no hand")
        if nxt_rank < 0 or why:
            deal.emit(stop_event(seat, card, why or "the top of the order"))
            return self._lead(deal, seat)
        if st is None:
            st = deal.state(RotationState)
            st.turn = seat
        st.last, st.need = seat, nxt_rank
        if self.params.per_turn == "run":
            opts = self._options(deal, seat, st)
            if opts or self._wild_held(deal, seat):
                return self._offer_play(deal, st, seat, opts)
        return self._round(deal, st, self._next_seat(deal, seat))

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = deal.peek_state(RotationState)
        if action.action == "pass":
            if st is None:
                return IllegalAction("must_lead", "you must start a new sequence: lead a card",
                                     rule="the player on lead cannot pass")
            return IllegalAction("no_voluntary_stop", "you hold a card that continues the "
                                 "sequence and must play it",
                                 rule="voluntary_stop is false: a player who can play must")
        is_wild = self.is_wild
        laid = action.cards if action.cards is not None else (
            (action.card,) if action.card is not None else ())
        wilds = [int(c) for c in laid if is_wild[int(c)]]
        if st is None:
            if action.action != "lead":
                return IllegalAction("must_lead", "start a new sequence with a lead",
                                     rule="a new sequence is started with a lead")
            for c in laid:
                if deal.owner[c] != action.seat:
                    return IllegalAction("not_in_hand", f"you do not hold {c}",
                                         rule="you can only lead a card you hold")
            naturals = {int(c) % 13 for c in laid if not is_wild[int(c)]}
            if len(naturals) > 1:
                return IllegalAction("one_rank", "lead cards of one rank only",
                                     rule="one rank per turn")
            if wilds and len(laid) > 1 and not self.multi:
                return IllegalAction("wild_alone", f"lay {CARDS[wilds[0]]} on its own",
                                     rule="a wild card is laid alone")
            if action.as_rank is None and wilds:
                return IllegalAction("name_the_rank", f"say which rank {CARDS[wilds[0]]} "
                                     "stands for", rule="as_rank names the rank of the wild "
                                     "card")
            if action.as_rank is not None and not wilds:
                return IllegalAction("not_wild", "only a wild card is named as a rank",
                                     rule="as_rank names the rank of the wild card")
            if action.as_rank is not None and action.as_rank not in {
                    RANKS[r] for r in self.wild_ranks}:
                return IllegalAction("no_such_rank", f"there is no rank {action.as_rank} in "
                                     "this pack", rule="the wild card stands for a rank of "
                                     "the pack")
            if action.as_rank is not None and naturals and RANKS[naturals.pop()] != \
                    action.as_rank:
                return IllegalAction("wrong_rank", "the wild card must be named as the rank "
                                     "of the cards laid with it", rule="one rank per turn")
            ps = deal.state(PlayState)
            if wilds and action.as_rank is not None and not self._free(deal, ps) and \
                    action.as_rank != RANKS[wilds[0] % 13]:
                return IllegalAction("wild_own_rank", f"{CARDS[wilds[0]]} is led here as "
                                     "its own rank", rule="a wild card led as the lowest "
                                     "card of a hand is named as its own rank")
            if len(laid) > 1 and not (self.multi or self.multi_lead):
                return IllegalAction("one_card", "lead one card",
                                     rule="cards_per_turn: one card a turn")
            if self.multi_lead and action.cards is not None and len(laid) == 1:
                return IllegalAction("wrong_form", "give a single card as card: ...",
                                     rule="cards_per_turn: several cards only as cards: [...]")
            return None
        if action.action == "lead":
            return IllegalAction("must_continue", f"continue the sequence: play a "
                                 f"{_rank_name(st.need)}", rule="a lead starts a sequence only")
        for c in laid:
            if deal.owner[c] != st.turn:
                return IllegalAction("not_in_hand", f"you do not hold {c}",
                                     rule="you can only play a card you hold")
        if action.as_rank is not None:
            if not wilds:
                return IllegalAction("not_wild", "only a wild card is named as a rank",
                                     rule="as_rank names the rank of the wild card")
            if action.as_rank not in {RANKS[r] for r in self.wild_ranks}:
                return IllegalAction("no_such_rank", f"there is no rank {action.as_rank} in "
                                     "this pack", rule="the wild card stands for a rank of "
                                     "the pack")
            if action.as_rank != RANKS[st.need]:
                return IllegalAction("wrong_rank", f"the wild card must stand for the needed "
                                     f"{_rank_name(st.need)}", rule="a sequence goes up one "
                                     "rank")
        if len({int(c) % 13 for c in laid if not is_wild[int(c)]}) > 1:
            return IllegalAction("one_rank", "lay cards of one rank only",
                                 rule="one rank per turn")
        if wilds and len(laid) > 1 and not self.multi:
            return IllegalAction("wild_alone", f"lay {CARDS[wilds[0]]} on its own",
                                 rule="a wild card is laid alone")
        if not laid:
            return None
        if (self.multi and action.cards is None) or (not self.multi and action.cards is not None):
            form = "cards: [...]" if self.multi else "card: ..."
            return IllegalAction("wrong_form", f"give the cards as {form}",
                                 rule="cards_per_turn says how many cards a turn lays")
        if wilds and action.as_rank is None:
            return IllegalAction("name_the_rank", f"say which rank {CARDS[wilds[0]]} stands "
                                 "for", rule="as_rank names the rank of the wild card")
        return IllegalAction("wrong_rank", f"{laid[0]} does not continue the sequence: play a "
                             f"{_rank_name(st.need)}", rule="a sequence goes up one rank")

    # -- what the turns prove to one seat (deal.clone_for) --------------------------------
    def infer(self, deal: Deal, seat: int, events: Sequence[Event], known: Knowledge) -> None:
        """What the turns so far prove to ``seat`` (``events``: the play's, those it may
        see): a player passed over holds no card that continues the sequence, nor the wild
        card; so does one whose turn ended without laying on ("sans 8"), or who was passed
        by silently when the turn came back round to him; one who passed with no voluntary
        stop in the rules holds the wild card and no natural card that continues (placed
        with him once only one is left and he has laid none since; with two left,
        :meth:`consistent` keeps one with him). A wild card laid carries the sequence on
        from the rank the wild card policy's event names (``named``). Read event by event
        (:class:`_WalkReading`), here all at once."""
        reading = self.reading(deal, seat)
        for e in events:
            reading.see(deal, e)
        reading.now(deal, known)

    def reading(self, deal: Deal, seat: int) -> _WalkReading:
        """The turns read event by event for ``seat`` (the play's reading tells it the
        play's events, and ``clone_for`` keeps it between decisions)."""
        return _WalkReading(self, deal, seat)

    def consistent(self, deal: Deal, seat: int) -> bool:
        """The seat on turn in an imagined deal (``seat``'s) can lay on, as the real one can
        (it would have been passed over otherwise); and every seat that passed, offered only
        a wild card, and has laid none since, still holds one. With one wild card left the
        reading places it with him; with two left it cannot say which, and only a copy that
        gives him neither is ruled out here (he would have been passed over instead)."""
        if self.wilds and not self.params.voluntary_stop:
            holders = self._wild_holders(deal, seat)
            if holders:
                owner = deal.owner
                for s in holders:
                    if not any(owner[w] == s for w in self.wilds):
                        return False
        st = deal.peek_state(RotationState)
        if st is None or deal.to_act is None:
            return True
        return bool(self._options(deal, st.turn, st)) or self._wild_held(deal, st.turn)


    def _wild_holders(self, deal: Deal, seat: int) -> tuple[int, ...]:
        """The seats ``seat`` saw pass offered only a wild card and lay none since (the
        walk over its log, from the play's first lead), worked out once per view of
        ``clone_for`` (``redeal_memo``)."""
        memo = redeal_memo(deal)
        got: tuple[int, ...] | None = memo.get(_WILD_HOLDERS)
        if got is not None:
            return got
        walk = _Walk(self, deal, Knowledge(seat))
        started = False
        for e in deal.seen_by(seat):
            k = e.kind
            if not started:  # the play's events only (an auction has passes too)
                if k is not EventKind.LED and k is not EventKind.LEAD_PASSED:
                    continue
                started = True
            walk.see(e)
        got = tuple(walk.wild_holders)
        if memo:
            memo[_WILD_HOLDERS] = got
        return got


_WILD_HOLDERS: Final = ("rotation", "wild holders")
"""The rotation's key in ``clone_for``'s per-view memo (``redeal_memo``)."""


class _Walk:
    """Play in rotation followed through one seat's events, to say what each turn proved.

    ``need`` is the rank index that continues the sequence (in ``suit``, the suit of the last
    card laid, unless the game goes by rank alone), -1 when a lead is due or the thread is
    lost (a wild card named as a rank no event shows); ``cur`` the seat the turn is at,
    ``last`` the seat that laid the last card, and ``fresh`` that the turn is still with it
    (``per_turn: run``)."""

    def __init__(self, turns: RotationTurns, deal: Deal, known: Knowledge) -> None:
        self.t = turns
        self.deal = deal
        self.known = known
        self.need = -1
        self.suit = 0
        self.last = -1
        self.cur = -1
        self.fresh = False
        self.card_seat = -1
        """The seat of the last card seen while nothing else happened (the same turn)."""
        self.wild_holders: list[int] = []
        """The seats that passed offered only a wild card, in order: each held one, which
        :meth:`held_wild` places once it is known which are not laid yet. A seat that lays a
        wild card leaves the list: the one it was known to hold may be the one laid."""
        self.wild_laid = False
        """The last card laid was a wild card, whose rank an event of the wild card policy
        may name next (Pink Nines' ``named``): the sequence is read on from that rank."""

    def fork(self, deal: Deal, known: Knowledge) -> _Walk:
        """A copy of the walk as it stands, reading ``deal`` and adding to ``known`` (to go
        on to one position's seat on turn, leaving this walk as the log left it)."""
        w = _Walk(self.t, deal, known)
        w.need, w.suit, w.last, w.cur = self.need, self.suit, self.last, self.cur
        w.fresh, w.card_seat = self.fresh, self.card_seat
        return w

    def held_wild(self, deal: Deal, known: Knowledge) -> None:
        """A seat that passed offered only a wild card held one: the one not laid yet, if
        only one is left now."""
        if not self.wild_holders:
            return
        left = [w for w in self.t.wilds if deal.played_by[w] < 0]
        if len(left) == 1:
            for s in self.wild_holders:
                known.hold(s, (left[0],))

    def continuing(self) -> list[int]:
        """The cards that would continue the sequence now, and the wild card."""
        t = self.t
        cards = ([s * 13 + self.need for s in range(4)] if t.by_rank else
                 [self.suit * 13 + self.need])
        out = [c for c in cards if not t.is_wild[c]]
        out += t.wilds
        return out

    def see(self, e: Event) -> None:
        k = e.kind
        t = self.t
        s = e.seat
        if (k is EventKind.LED or k is EventKind.PLAYED) and s is not None and \
                e.card is not None:
            if k is EventKind.PLAYED and s != self.card_seat:
                self.reach(s)  # a new turn: the seats before it were passed by
            self.card_seat = s
            c = int(e.card)
            self.wild_laid = t.is_wild[c]
            if self.wild_laid:
                self.need = -1  # named as a rank no event shows, unless one follows
                if s in self.wild_holders:  # the wild card he held may be this one
                    self.wild_holders = [h for h in self.wild_holders if h != s]
            else:
                self.need, self.suit = t.next_rank[c % 13], c // 13
            self.last = s
            if t.params.per_turn == "run":
                self.cur, self.fresh = s, True
            else:
                self.cur, self.fresh = t._next_seat(self.deal, s), False
            return
        if self.wild_laid and k is not EventKind.STOP and k is not EventKind.LEAD_PASSED \
                and k is not EventKind.PASSED_OVER and k is not EventKind.PASSED:
            rank = t.named(e, t.wild_policy.params)
            if rank >= 0:  # the rank the wild card stood for: the sequence goes on from it
                self.wild_laid = False
                if t.by_rank:  # in a suit, the card that continues is not known
                    self.need = t.next_rank[rank]
            return
        self.wild_laid = False
        if k is EventKind.STOP or k is EventKind.LEAD_PASSED:
            self.need = -1
            self.card_seat = -1
        elif (k is EventKind.PASSED_OVER or k is EventKind.PASSED) and s is not None:
            self.card_seat = -1
            if self.need < 0:
                return
            self.reach(s)
            if self.need < 0:
                return
            cards = self.continuing()
            if k is EventKind.PASSED_OVER:
                self.known.lack(s, cards)
            elif not t.params.voluntary_stop and t.wilds:
                # offered only a wild card: he held one (placed by held_wild: the one not
                # yet laid, if only one is left), and no natural card that continues
                self.wild_holders.append(s)
                self.known.lack(s, cards[:-len(t.wilds)])
            self.cur, self.fresh = t._next_seat(self.deal, s), False

    def reach(self, seat: int) -> None:
        """The turn moves on to ``seat``: every seat it passes by without an event is the
        last player, who could not lay on (when the turn comes back round to him, with
        ``dead_gap: next_rank_up``, for the next rank up)."""
        t = self.t
        steps = 0
        while self.need >= 0 and self.cur >= 0 and self.cur != seat:
            z = self.cur
            if z != self.last or steps > self.deal.n:
                self.need = -1  # a seat passed by without an event: the thread is lost
                return
            if not self.fresh and not self._round_again():
                return
            self.known.lack(z, self.continuing())
            self.fresh = False
            self.cur = t._next_seat(self.deal, z)
            steps += 1
        if self.need >= 0 and self.cur == seat == self.last and not self.fresh:
            self._round_again()  # back round to the last player, who is asked again

    def _round_again(self) -> bool:
        """The turn came back round to the last player: the next rank up is needed
        (``dead_gap: next_rank_up``); otherwise he leads, and the thread is left."""
        t = self.t
        if t.params.dead_gap != "next_rank_up":
            self.need = -1
            return False
        self.need = t.next_rank[self.need]
        return self.need >= 0


def _groups(cards: list[int]) -> list[tuple[Card, ...]]:
    """Every non-empty set of ``cards``, each sorted, smaller sets first."""
    from itertools import combinations

    return [tuple(CARDS[c] for c in g) for k in range(1, len(cards) + 1)
            for g in combinations(sorted(cards), k)]


def _rank_name(rank: int) -> str:
    r = RANKS[rank]
    return "10" if r == "T" else r


def rotation(phase: PlayPhase, params: RotationParams) -> RotationTurns:
    """Players act in turn round the table; every card laid is a decision."""
    return RotationTurns(phase, params)


def _rotation_text(p: RotationParams, by_rank: bool = True) -> str:
    need = ("a card of the needed rank (one above the last rank laid)" if by_rank else
            "the card one above the last laid, in its suit")
    t = ("Players act in turn, " + ("clockwise" if p.direction == "clockwise" else
                                     "anticlockwise") + f". The player on turn continues the "
         f"sequence with {need} if he can; a player who cannot is passed over.")
    t += (" A turn lays one or more cards of one rank." if p.cards_per_turn == "same_rank"
          else " A player starting a sequence may lay one or more cards of one rank; every "
          "later card is laid singly." if p.cards_per_turn == "same_rank_at_lead" else "")
    t += ((" After laying a card he goes on up while he holds the next rank; when he holds "
           "none his turn ends (\"sans 8\", say) and the turn passes on." if by_rank else
           " After laying a card he goes on up while he holds the next card; when he does "
           "not, his turn ends and the turn passes on.") if p.per_turn == "run"
          else " After laying his card the turn passes on." if p.cards_per_turn == "one"
          else " After laying his cards the turn passes on.")
    t += (" A player who could play may pass instead, ending his turn." if p.voluntary_stop
          else " A player who can play must.")
    t += (_continue_text(p) if p.on_return == "continue" else
          " When the turn comes back to the player who laid the last card, he starts a new "
          "sequence." if p.dead_gap == "restart_any" else
          " When nobody holds the needed rank, that rank is skipped and the next one is "
          "needed, starting with the player who laid the last card.")
    return t + _fine_text(p, f"the {p.fine_space}")


def _continue_text(p: RotationParams) -> str:
    """``on_return: continue``: the last player is one more seat asked for the card."""
    t = (" When the turn comes back to the player who laid the last card, he too must play "
         "the needed card if he holds it")
    return t + (", and otherwise starts a new sequence." if p.dead_gap == "restart_any" else
                "; when nobody holds it, that rank is skipped and the next one is needed, "
                "starting with him.")


def _fine_text(p: RotationParams, space: str) -> str:
    """``pass_fine``: what a player passed over pays, and where (``space``, in words)."""
    if not p.pass_fine:
        return ""
    chips = "1 chip" if p.pass_fine == 1 else f"{p.pass_fine} chips"
    return (f" Each time a player is passed over he pays {chips} into {space}; a player "
            "due to start a new sequence never pays.")


def _rotation_describe(variant: Any, p: RotationParams) -> str:
    """The turns as this variant plays them: by rank in any suit, or up the suit."""
    succ = variant.policy("successor")
    t = _rotation_text(p, bool(succ.impl(variant, succ.params).by_rank))
    if p.pass_fine and p.fine_space in variant.spaces:  # the space as the players call it
        label = variant.spaces[p.fine_space].label or f"the {p.fine_space}"
        t = t.replace(_fine_text(p, f"the {p.fine_space}"), _fine_text(p, label))
    return t


def _fine_space_exists(variant: Any, p: RotationParams) -> list[tuple[str, str]]:
    """Load-time check: a fine goes into a space of the layout."""
    if p.pass_fine and p.fine_space not in variant.spaces:
        return [("fine_space", f"pass_fine is paid into {p.fine_space!r}, which is not a "
                 f"layout space; expected one of: {', '.join(variant.space_ids) or 'none'}")]
    return []


@mypyc_attr(allow_interpreted_subclasses=True)
class WildCardPolicy:
    """Base class of a ``wild_card`` policy: every member of the slot's protocol
    (:class:`stops.rules.contracts.WildCard`) with its default, so that a plug-in defines
    only what its card does (``card`` and ``on_lay``) and inherits ``on_turn``."""

    def card(self, params: Any) -> int:
        """No card (-1)."""
        return -1

    def cards(self, params: Any) -> tuple[int, ...]:
        """Every wild card: the one :meth:`card` names, if any (a policy with several wild
        cards names them all here)."""
        c = self.card(params)
        return (c,) if c >= 0 else ()

    def on_lay(self, deal: Deal, seat: int, as_rank: str | None,
               params: Any) -> str | None:  # pragma: no cover - never laid
        return None

    def on_turn(self, deal: Deal, seat: int, cards: list[int], params: Any) -> str | None:
        """A turn pays nothing beyond its cards."""
        return None

    def named(self, e: Event, params: Any) -> int:
        """The rank index ``e`` says a wild card was laid as, or -1: no event of this policy
        says (a wild card that always stops needs none: the sequence ends with it)."""
        return -1


@mypyc_attr(allow_interpreted_subclasses=True)
class NoWildCard(WildCardPolicy):
    """No card stands for another rank."""


def _direction(params: RotationParams) -> str:
    """The way turns go (Nain Jaune's go to the right, F23)."""
    return str(params.direction)


def register(reg: Registry) -> None:
    reg.register_policy("turn_order", "rotation", params=RotationParams,
                        phrase="Players act in turn", text=_rotation_text,
                        describe=_rotation_describe, in_turn=True,
                        direction=_direction, states=(RotationState,),
                        check=_fine_space_exists)(rotation)
    reg.register_policy("wild_card", "none", text=lambda _: "")(NoWildCard())


__all__ = ["CARDS", "FINE_NOTE", "RotationParams", "RotationTurns", "WildCardPolicy", "rotation"]


class _WalkReading(Reading):
    """The turns read for one seat, event by event (:meth:`RotationTurns.infer`): the walk
    kept as the log left it, with what it proved; :meth:`now` goes on, on a copy, to the
    seat on turn at the position asked (the seats passed by before it), and places a wild
    card offered where only one is left: the position's own part (:meth:`_part`).

    :meth:`since` reads on from an earlier position: the walk's proofs since (its knowledge
    is journaled: it only grows) and the position's own part here, where every fact of the
    part added there still holds here (proved by the walk since, or again by the part
    here, or about a card played since): nothing taken back. It is, almost always: the
    seats the copy passed by there are those the walk passes by when the seat on turn's
    card or pass is logged. Where it is not, ``None``, and the view is built afresh."""

    def __init__(self, turns: RotationTurns, deal: Deal, seat: int) -> None:
        self.t = turns
        self.seat = seat
        self.lends = bool(turns.wilds) and not turns.params.voluntary_stop  # see consistent
        self.known = Knowledge(seat).journaled()  # only grows: see since()
        self.walk = _Walk(turns, deal, self.known)
        # for since(): the calls of now() and since() made, the position's part of the
        # last few by number (another call, knowledge() at the same position say, may come
        # between a view's two: see _PlayReading._keep), the last one's mark
        self.version = 0
        self.parts: dict[int, Knowledge] = {}
        self.at_mark: int | None = None

    def see(self, deal: Deal, e: Event) -> None:
        self.walk.deal = deal
        self.walk.see(e)

    def lend(self, memo: dict[Any, Any]) -> None:
        # the seats that passed offered only a wild card, as the walk left them: what
        # RotationTurns.consistent would otherwise walk the copy's whole log for
        memo[_WILD_HOLDERS] = tuple(self.walk.wild_holders)

    def now(self, deal: Deal, known: Knowledge) -> None:
        known.add(self.known)
        part = self._part(deal)
        known.add(part)
        self.version += 1
        self.at_mark = self._keep(part)

    def mark(self) -> int | None:
        # the last call's number and how many proofs the walk's journal held then
        return self.at_mark

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        self.version += 1
        self.at_mark = None
        was = self.parts.get(mark >> _MARK_SHIFT)
        if was is None or not known.add_since(self.known, mark & _MARK_JOURNAL):
            return None
        part = self._part(deal)
        kept = self._keep(part)
        if not self._still(deal, was, part):
            return None
        known.add(part)
        self.at_mark = kept
        return kept

    def _part(self, deal: Deal) -> Knowledge:
        """What the position itself proves, beside the walk's proofs: the wild card a seat
        was offered, once only one is left; the seats the turn passed by before the seat on
        turn (the walk gone on, on a copy)."""
        part = Knowledge(self.seat)
        self.walk.held_wild(deal, part)
        st = deal.peek_state(RotationState)
        if deal.to_act is not None and st is not None and \
                deal.variant.phases[deal.phase_idx] is self.t.phase:
            self.walk.fork(deal, part).reach(deal.to_act)
        return part

    def _keep(self, part: Knowledge) -> int:
        """``part``, this call's, kept for a later :meth:`since` by the call's number (the
        last four calls'); the call's mark."""
        parts = self.parts
        if len(parts) >= 4:
            for v in [v for v in parts if v <= self.version - 4]:
                del parts[v]
        parts[self.version] = part
        journal = self.known.journal
        assert journal is not None
        return self.version << _MARK_SHIFT | len(journal)

    def _still(self, deal: Deal, was: Knowledge, part: Knowledge) -> bool:
        """Every fact of ``was`` (the position's part at the mark) is one this position
        proves too: by the walk's proofs, by ``part`` (this position's), or, a card held,
        by the card having been played since (a fresh reading leaves it out)."""
        walk_lacks, part_lacks = self.known.lacks, part.lacks
        for h, cards in was.lacks.items():
            a, b = walk_lacks.get(h), part_lacks.get(h)
            for c in cards:
                if (a is None or c not in a) and (b is None or c not in b):
                    return False
        walk_held, part_held, played_by = self.known.held, part.held, deal.played_by
        for c, h in was.held.items():
            if played_by[c] < 0 and walk_held.get(c, _NOWHERE) != h and \
                    part_held.get(c, _NOWHERE) != h:
                return False
        return True


_MARK_SHIFT: Final = 32
_MARK_JOURNAL: Final = (1 << _MARK_SHIFT) - 1
"""A walk's mark: the call's number above, the length of its journal below."""

_NOWHERE: Final = -99
"""No place (a card no fact places)."""

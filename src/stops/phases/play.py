"""Stops play: leads, forced runs, stops, passes, going out and the block.

This is the hot path. The holder of the next card is ``deal.owner[card + 1]`` (one lookup),
and a forced run is a tight loop here rather than a policy call per card. Policies are
consulted only at leads (``first_leader``, ``after_stop``) and for the claims that asked to
watch a card.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, leads_of
from stops.engine.cards import CARDS, SUIT_NAMES
from stops.engine.deal import PLAYED, SPARE
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import event, play_events, play_pairs, stop_event
from stops.engine.legal import FixedActions, LegalSet
from stops.phases.base import Phase
from stops.rules.contracts import Handler, Triggers

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

ACE: Final = 12
STOP_WHY: Final = {SPARE: "the next card is in the spare hand",
                   PLAYED: "the next card has been played"}


@mypyc_attr(allow_interpreted_subclasses=True)
class PlayPhase(Phase):
    """The stops play itself, until someone goes out or nobody can lead."""

    name = "play"

    def sections(self) -> list[tuple[str, str]]:
        t = self.policy_text("first_leader")
        t += (" Whoever holds the next higher card of the suit must play it, and so on "
              "until the ace is played or nobody can play: the last card is a stop (its "
              "successor is in the spare hand, or already played). ")
        t += self.policy_text("after_stop")
        claims = []
        pay = self.variant.policy("pay_collection")
        if getattr(pay.impl, "claims_during_play", True):
            claims.append(self.policy_text("pay_collection"))
        else:
            claims.append("The pay cards were settled in stage one; cards played now claim "
                          "nothing.")
        if self.variant.policy("run_rule").name != "none":
            claims.append(self.policy_text("run_rule"))
        if self.rules.retire_claimed:
            claims.append("A space whose chips are won is removed from the layout for the rest "
                          "of the game (a key card with no chips on it stays).")
        return [("The play", t), ("Claims", " ".join(claims))]

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.first = variant.policy("first_leader")
        self.after = variant.policy("after_stop")
        # read once here: the compiled build then calls them without attribute lookups
        self._after_impl: Callable[..., list[int]] = self.after.impl
        self._after_params: Any = self.after.params
        self.claims = [variant.policy("pay_collection"), variant.policy("run_rule")]
        # an after_stop policy says whether a passed lead keeps its restriction (contracts)
        self.keeps: bool = getattr(self._after_params, "passed_lead_keeps_suit", True)
        seats = range(variant.players[1])
        self._led = [play_events(EventKind.LED, s) for s in seats]
        self._played = [play_events(EventKind.PLAYED, s) for s in seats]
        self._pairs = [play_pairs(s) for s in seats]
        self.triggers: Triggers = {}
        self.every: list[Handler] = []
        for b in self.claims:
            b.impl.watch(variant, b.params, self.triggers, self.every)

    # -- entering: the first lead -----------------------------------------------------------
    def enter(self, deal: Deal) -> bool:
        first = self.first.impl(deal, self.first.params)
        if first is None:
            deal.outcome = "redeal"
            deal.emit(event(EventKind.BLOCKED, note="no opening card is in any player's hand"))
            return False
        if first.cards is not None:
            deal.to_act = first.seat
            deal.scratch["lead"] = (first.seat, list(first.cards), None)
            deal.scratch["opening"] = True
            table = leads_of(first.seat)
            deal.offer(FixedActions([table[c] for c in first.cards]))
            return True
        return self._seek_leader(deal, first.seat, None)

    def _seek_leader(self, deal: Deal, seat: int, broken: int | None) -> bool:
        """Offer the lead to ``seat``; if it cannot lead, pass it left round the table."""
        after_impl = self._after_impl
        after_params = self._after_params
        ring = deal.order(seat - 1) if len(deal.active) != deal.n else None
        n = deal.n
        for k in range(len(deal.active)):
            s = ring[k] if ring is not None else (seat + k) % n
            constraint = broken if (k == 0 or self.keeps) else None
            opts = after_impl(deal, s, constraint, after_params)
            if opts:
                deal.to_act = s
                deal.scratch["lead"] = (s, opts, constraint)
                table = leads_of(s)
                deal.offer(FixedActions([table[c] for c in opts]))  # offered at once
                return True
            why = "has no card it may lead"
            if constraint is not None:
                why = (f"holds no card it may lead after the stop in {SUIT_NAMES[constraint]}")
            nxt = ring[(k + 1) % len(ring)] if ring is not None else (s + 1) % n
            deal.emit(event(EventKind.LEAD_PASSED, s, to_seat=nxt, note=why))
        deal.outcome = "blocked"
        deal.emit(event(EventKind.BLOCKED, note="nobody can lead as the rules require"))
        return False

    # -- deciding ------------------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        seat, opts, _ = deal.scratch["lead"]
        table = leads_of(seat)
        return FixedActions([table[c] for c in opts])

    def apply(self, deal: Deal, action: Action) -> bool:
        seat = action.seat
        card: int = action.card  # type: ignore[assignment]
        deal.scratch.pop("opening", None)
        owner = deal.owner
        emit = deal.events.append
        triggers = self.triggers
        every = self.every
        masks, counts, played_by, plays = deal.masks, deal.counts, deal.played_by, deal.plays
        events = self._led[seat]
        all_pairs = self._pairs
        played_events = self._played
        pairs = all_pairs[seat]
        while True:
            # play `card` from `seat`
            masks[seat][card // 13] &= ~(1 << (card % 13))
            counts[seat] -= 1
            owner[card] = PLAYED
            played_by[card] = seat
            ev = events[card]
            plays.append(pairs[card])
            emit(ev)
            hs = triggers.get(card)
            if hs is not None:
                for h in hs:
                    h(deal, seat, card)
            for h in every:
                h(deal, seat, card)
            if counts[seat] == 0:
                deal.winner = seat
                deal.outcome = "went_out"
                emit(event(EventKind.WENT_OUT, seat, CARDS[card]))
                return False
            if card % 13 == ACE:
                emit(stop_event(seat, card, "an ace is the top of its suit"))
                break
            nxt = card + 1
            o = owner[nxt]
            if o < 0:
                why = STOP_WHY.get(o, "the next card is not in the pack")
                emit(stop_event(seat, card, why))
                break
            seat, card = o, nxt
            events = played_events[seat]
            pairs = all_pairs[seat]
        return self._seek_leader(deal, seat, card // 13)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        seat, opts, broken = deal.scratch["lead"]
        c = action.card
        if c is None:
            return None
        if deal.owner[c] != seat:
            return IllegalAction("not_in_hand", f"seat {seat} does not hold {c}",
                                 rule="you can only lead a card you hold")
        allowed = ", ".join(str(CARDS[o]) for o in opts)
        if deal.scratch.get("opening"):
            return IllegalAction("must_open_with", f"play opens with {allowed}",
                                 rule="the first lead is fixed by the opening card")
        # the after_stop policy knows why its rule refuses a card, if it says so
        why = getattr(self.after.impl, "explain", None) or self.after.spec.explain
        if why is not None:
            found: IllegalAction | None = why(deal, seat, c, broken, opts)
            if found is not None:
                return found
        return IllegalAction("illegal_lead", f"you may lead {allowed}")


def register(reg: Registry) -> None:
    reg.register_phase("play", pays=_pays_nothing, requires=("deal",),
                       slots=("first_leader", "after_stop", "pay_collection",
                                          "run_rule"))(PlayPhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()

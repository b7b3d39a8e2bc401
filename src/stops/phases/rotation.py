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

from typing import TYPE_CHECKING, Literal

import attrs

from stops.engine.actions import Action, leads_of, plays_of, simple
from stops.engine.cards import CARDS, RANKS
from stops.engine.deal import PLAYED
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import event, stop_event
from stops.engine.legal import FixedActions, LegalSet
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.phases.play import PlayPhase
    from stops.rules.registry import Registry


@attrs.frozen
class RotationParams:
    direction: Literal["clockwise", "anticlockwise"] = param(
        "clockwise", "Turns pass to the left (clockwise) or to the right.")
    per_turn: Literal["run", "one_rank"] = param(
        "run", "After laying a card a player goes on while he can (run), or the turn passes "
        "(one_rank).", option="turn_length")
    voluntary_stop: bool = param(
        False, "A player on turn who could play may pass instead.")
    dead_gap: Literal["restart_any", "next_rank_up"] = param(
        "restart_any", "When nobody holds the needed rank: the last player starts a new "
        "sequence, or the rank is skipped and the next one is needed.")


class RotationState:
    """Whose turn it is (``deal.scratch["rotation"]``)."""

    __slots__ = ("last", "need", "turn")

    def __init__(self, last: int, need: int, turn: int) -> None:
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

    def __deepcopy__(self, memo: dict[int, object]) -> RotationState:
        return RotationState(self.last, self.need, self.turn)


class RotationTurns:
    """The turn-by-turn play of one variant (built once, from its play phase)."""

    def __init__(self, phase: PlayPhase, params: RotationParams) -> None:
        self.phase = phase
        self.params = params
        self.step = 1 if params.direction == "clockwise" else -1
        self.by_rank = phase.succession.by_rank
        self.next_rank = phase.succession.next_rank
        self.next_card = phase.succession.next_card

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
            return [s * 13 + st.need for s in range(4) if masks[s] & bit]
        # same suit: only the card after the last one laid continues
        last = deal.plays[-1][1] if deal.plays else None
        if last is None:
            return []
        nxt = self.next_card[int(last)]
        return [nxt] if nxt >= 0 and deal.owner[nxt] == seat else []

    def _offer_play(self, deal: Deal, st: RotationState, seat: int, cards: list[int]) -> bool:
        st.turn = seat
        deal.to_act = seat
        table = plays_of(seat)
        acts = [table[c] for c in cards]
        if self.params.voluntary_stop:
            acts.append(simple(seat, "pass"))
        deal.offer(FixedActions(acts))
        return True

    def _lead(self, deal: Deal, seat: int) -> bool:
        deal.scratch.pop("rotation", None)
        return self.phase.seek_leader(deal, seat, None)

    def _round(self, deal: Deal, st: RotationState, start: int) -> bool:
        """Go round from ``start`` for the needed rank; back at the last player, restart or
        skip the missing rank."""
        seat = start
        while True:
            if seat == st.last:
                if self.params.dead_gap == "restart_any":
                    return self._lead(deal, seat)
                st.need = self.next_rank[st.need]
                if st.need < 0:
                    return self._lead(deal, seat)
                opts = self._options(deal, seat, st)
                if opts:
                    return self._offer_play(deal, st, seat, opts)
                seat = self._next_seat(deal, seat)
                continue
            opts = self._options(deal, seat, st)
            if opts:
                return self._offer_play(deal, st, seat, opts)
            deal.emit(event(EventKind.PASSED_OVER, seat,
                            note=f"holds no {_rank_name(st.need)}"))
            seat = self._next_seat(deal, seat)

    # -- the turn protocol -----------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        st: RotationState | None = deal.scratch.get("rotation")
        if st is None:
            seat, opts, _ = deal.scratch["lead"]
            table = leads_of(seat)
            return FixedActions([table[c] for c in opts])
        cards = self._options(deal, st.turn, st)
        table = plays_of(st.turn)
        acts = [table[c] for c in cards]
        if self.params.voluntary_stop:
            acts.append(simple(st.turn, "pass"))
        return FixedActions(acts)

    def apply(self, deal: Deal, action: Action) -> bool:
        seat = action.seat
        st: RotationState | None = deal.scratch.get("rotation")
        if action.action == "pass":
            assert st is not None
            deal.emit(event(EventKind.PASSED, seat, note=f"sans {_rank_name(st.need)}"))
            return self._round(deal, st, self._next_seat(deal, seat))
        card = int(action.card)  # type: ignore[arg-type]
        deal.scratch.pop("opening", None)
        kind = EventKind.LED if action.action == "lead" else EventKind.PLAYED
        halt = self.phase.lay(deal, seat, card, kind)
        if deal.outcome == "went_out":
            return False
        nxt_rank = self.next_rank[card % 13]
        why = self.phase.stop_reason[card] or halt
        if nxt_rank < 0 or why:
            deal.emit(stop_event(seat, card, why or "the top of the order"))
            return self._lead(deal, seat)
        if st is None:
            st = RotationState(seat, nxt_rank, seat)
            deal.scratch["rotation"] = st
        st.last, st.need = seat, nxt_rank
        if self.params.per_turn == "run":
            opts = self._options(deal, seat, st)
            if opts:
                return self._offer_play(deal, st, seat, opts)
        return self._round(deal, st, self._next_seat(deal, seat))

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st: RotationState | None = deal.scratch.get("rotation")
        if action.action == "pass":
            if st is None:
                return IllegalAction("must_lead", "you must start a new sequence: lead a card",
                                     rule="the player on lead cannot pass")
            return IllegalAction("no_voluntary_stop", "you hold a card that continues the "
                                 "sequence and must play it",
                                 rule="voluntary_stop is false: a player who can play must")
        if st is None:
            if action.action != "lead":
                return IllegalAction("must_lead", "start a new sequence with a lead",
                                     rule="a new sequence is started with a lead")
            return None
        if action.action == "lead":
            return IllegalAction("must_continue", f"continue the sequence: play a "
                                 f"{_rank_name(st.need)}", rule="a lead starts a sequence only")
        c = action.card
        if c is None or deal.owner[c] != st.turn:
            return IllegalAction("not_in_hand", f"you do not hold {c}",
                                 rule="you can only play a card you hold")
        if deal.owner[c] == PLAYED:  # pragma: no cover - owner says not held
            return None
        return IllegalAction("wrong_rank", f"{c} does not continue the sequence: play a "
                             f"{_rank_name(st.need)}", rule="a sequence goes up one rank")


def _rank_name(rank: int) -> str:
    r = RANKS[rank]
    return "10" if r == "T" else r


def rotation(phase: PlayPhase, params: RotationParams) -> RotationTurns:
    """Players act in turn round the table; every card laid is a decision."""
    return RotationTurns(phase, params)


def _rotation_text(p: RotationParams) -> str:
    t = ("Players act in turn, " + ("clockwise" if p.direction == "clockwise" else
                                     "anticlockwise") + ". The player on turn continues the "
         "sequence with a card of the needed rank if he can; a player who cannot is passed "
         "over.")
    t += (" After laying a card he goes on while he can." if p.per_turn == "run" else
          " After laying his cards the turn passes.")
    t += (" A player who could play may pass instead." if p.voluntary_stop else
          " A player who can play must.")
    t += (" When the turn comes back to the player who laid the last card, he starts a new "
          "sequence with any card." if p.dead_gap == "restart_any" else
          " When nobody holds the needed rank, that rank is skipped and the next one is "
          "needed, starting with the player who laid the last card.")
    return t


def register(reg: Registry) -> None:
    reg.register_policy("turn_order", "rotation", params=RotationParams,
                        text=_rotation_text)(rotation)


__all__ = ["CARDS", "RotationParams", "RotationTurns", "rotation"]

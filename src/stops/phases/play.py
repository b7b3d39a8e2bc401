"""Stops play: leads, forced runs, stops, passes, going out and the block.

This is the hot path. The card that continues a sequence comes from the ``successor``
policy's table (``next_card[card]``, worked out once per variant) and its holder from
``deal.owner`` (one lookup each), so a forced run is a tight loop here rather than a policy
call per card. Policies are consulted only at leads (``first_leader``, ``after_stop``,
``failed_lead``) and for the claims that asked to watch a card. A ``turn_order`` other than
the default ``holder`` replaces the forced run with decisions turn by turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, leads_of
from stops.engine.cards import CARDS, SUIT_NAMES
from stops.engine.deal import ABSENT, PLAYED, SPARE
from stops.engine.determinize import Knowledge, Probe, Reading, hidden_cards, remembered
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import Event, event, play_events, play_pairs, stop_event
from stops.engine.legal import FixedActions, LegalSet
from stops.engine.vocabulary import FOLLOW, LEAD, PASS, PLAY
from stops.phases.base import Phase
from stops.policies.leads import FirstLead, OpeningSeek
from stops.policies.succession import Succession
from stops.rules.contracts import (
    AFTER_STOP,
    COMPANION,
    FAILED_LEAD,
    FIRST_LEADER,
    PAY_COLLECTION,
    RUN_RULE,
    SUCCESSOR,
    TURN_ORDER,
    WILD_CARD,
    Handler,
    Triggers,
)

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# EventKind members as Final constants: reading an enum member as a class attribute
# costs ~190 ns (a Python-level lookup in either build); these are read directly.
K_BLOCKED: Final = EventKind.BLOCKED
K_LEAD_PASSED: Final = EventKind.LEAD_PASSED
K_LED: Final = EventKind.LED
K_PLAYED: Final = EventKind.PLAYED
K_STOP: Final = EventKind.STOP
K_WENT_OUT: Final = EventKind.WENT_OUT

_DUE_NONE: Final = 0
_DUE_COMPANION: Final = 1
_DUE_OPENING: Final = 2
"""What part of its own a position of the play proves (:meth:`PlayPhase._due`)."""
_SEG_NONE: Final = 0
_SEG_SETTLED: Final = 1
_SEG_AGAIN: Final = 2
"""How a reading's ``now`` read the events up to the first lead or stop: not at all (none
yet), once for good, or again at the position (:meth:`_PlayReading.since`)."""
_JOURNAL_BITS: Final = (1 << 38) - 1
"""A mark's bits that count the journal's entries (below it: how the segment was read)."""

_SUIT_OF: Final = tuple(c // 13 for c in range(52))
_CLEAR: Final = tuple(~(1 << (c % 13)) for c in range(52))
"""A card's suit, and the mask that clears its rank bit, by card (the forced run's tables)."""

MAX_LEAD_SETS: Final = 20_000
"""Lead legal sets kept per seat (a deal meets a few dozen; this only bounds the memory)."""
_NO_LEAD: Final = (*(f"holds no card it may lead after the stop in {SUIT_NAMES[s]}"
                     for s in range(4)), "has no card it may lead")
"""Why a seat passes the lead, by the suit just stopped (4: none), written once."""

STOP_WHY: Final = {SPARE: "the next card is in the spare hand",
                   PLAYED: "the next card has been played"}


OPENING_RULE: Final = "the first lead is fixed by the opening card"

Lead = tuple[int, list[int], "int | None"]
"""A lead on offer: the seat, the cards it may lead (never changed in place: copies of the
state share it) and the suit whose stop restricts the lead (``None``: none)."""


class PlayState:
    """The play phase's deal state: the decision due in the play, as the phase offers it.

    Read through these members by the play phase and the turn order it runs (a turn order
    in rotation reads ``lead``); ``deal.clone_for`` never reads it (the phase puts it in
    line with imagined hands itself, in :meth:`PlayPhase.after_redeal`)."""

    __slots__ = ("follow", "lead", "opening")

    def __init__(self) -> None:
        self.lead: Lead | None = None
        """The lead on offer, while one is (``None`` once it is made)."""
        self.opening: str | None = None
        """While the first lead is an opening the ``first_leader`` rule fixes: the rule, in
        its words (why another lead is refused); ``None`` otherwise."""
        self.follow = -1
        """The card due from the companion card's holder, who decides how to play it (-1:
        none)."""

    def copy(self) -> PlayState:
        new = PlayState()
        new.lead, new.opening, new.follow = self.lead, self.opening, self.follow
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlayState) and (self.lead, self.opening, self.follow) == (
            other.lead, other.opening, other.follow)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PlayState(lead={self.lead!r}, opening={self.opening!r}, follow={self.follow})"


@mypyc_attr(allow_interpreted_subclasses=True)
class PlayPhase(Phase):
    """The stops play itself, until someone goes out or nobody can lead."""

    name = "play"
    state_types = (PlayState,)

    def sections(self) -> list[tuple[str, str]]:
        """The play and its claims, from the texts of the policies in force, with the
        stops this pack makes (``stops_text``)."""
        parts = [self.policy_text(slot) for slot in (
            "first_leader", "successor", "turn_order")]
        parts.append(self.stops_text())
        parts += [self.policy_text(slot) for slot in ("companion", "wild_card", "after_stop")]
        if self.in_force("failed_lead"):
            parts.append(self.policy_text("failed_lead"))
        claims = []
        pay = self.variant.policy("pay_collection")
        if not self.variant.space_ids:
            claims.append("There is no layout, so no card played wins a space.")
        elif pay.impl.claims_during_play:
            claims.append(self.policy_text("pay_collection"))
        else:
            claims.append("The layout's spaces were settled in stage one, by the cards "
                          "held; cards played now claim nothing.")
        claims.append(self.policy_text("run_rule"))
        if self.rules.retire_claimed:
            claims.append("A space whose chips are won is removed from the layout for the rest "
                          "of the game (a key card with no chips on it stays).")
        return [("The play", " ".join(p for p in parts if p)),
                ("Claims", " ".join(c for c in claims if c) or
                 "Cards played claim nothing.")]

    def stops_text(self) -> str:
        """Which cards are stops in this pack, in words: the top of each suit (every King,
        ace low), a card whose successor is out of the pack (Pope Joan's 7♦, Spinado's
        aces), and, when the holder of the next card plays it, a card whose successor is in
        the spare hand or already played. The player of a stop leads next."""
        from stops.rules.prose import and_list, rank_word

        succ = self.succession
        if succ.dead_ends:  # no top: the successor's own text says when a sequence ends
            return ""
        deck = {int(c) for c in self.variant.deck}
        order = [r for r in succ.order if any(s * 13 + r in deck for s in range(4))]
        if not order:
            return ""
        top = succ.order[-1]  # the top of the order (ace high: the ace; ace low: the King)
        if self.turns is not None:  # in rotation only the top stops by itself
            article = "An" if rank_word(top)[0] in "aeiou" else "A"
            return (f"{article} {rank_word(top)} ends the sequence: its player starts a new "
                    "one at once." if top in order else "")
        tops = [s * 13 + top for s in range(4) if s * 13 + top in deck]
        parts: list[str] = []
        if len(tops) == 4:
            parts.append(f"every {rank_word(top)} (the top of its suit)")
        elif tops:
            parts.append(and_list([f"the {CARDS[c].symbol()}" for c in tops])
                         + " (the top of its suit)")
        gone: dict[int, list[int]] = {}  # by rank: the cards whose successor is out of the pack
        for c in sorted(deck):
            nxt = self.next_card[c]
            if nxt >= 0 and nxt not in deck and not succ.stop_reason[c]:
                gone.setdefault(c % 13, []).append(c)
        for r in order:
            cards = gone.get(r, [])
            if len(cards) == 4:
                succ_rank = self.next_card[cards[0]] % 13
                parts.append(f"every {rank_word(r)} (the {rank_word(succ_rank, plural=True)} "
                             "are out of the pack)")
            else:
                parts += [f"the {CARDS[c].symbol()} (the {CARDS[self.next_card[c]].symbol()} "
                          "is out of the pack)" for c in cards]
        spare = self.variant.spare_name
        where = f"in the {spare} or " if self.variant.rules.spare_hand else ""
        parts.append(f"any card whose next card is {where}already played")
        return "The stops are " + and_list(parts) + "."

    def decision_rule(self, deal: Deal) -> str:
        """At a lead: who leads (the first lead of the deal) and what may be led, then how
        the sequence goes on; at a card due (in turn, or with the companion card): how the
        sequence goes on. Each from the text of the policy this variant put in the slot, so a
        game played in rotation is told its turns, not the forced run."""
        parts: list[str] = []
        if "lead" in deal.legal_actions().verbs:
            if not deal.plays:
                parts.append(self.policy_text("first_leader"))
            st = deal.peek_state(PlayState)
            if st is None or st.opening is None:  # an opening card is fixed by first_leader
                lead = st.lead if st is not None else None
                broken = lead[2] if lead is not None else None
                can_fail = self.in_force(FAILED_LEAD.name)
                if deal.plays and broken is not None and not self.succession.by_rank:
                    # the lead rule may turn on the suit stopped (a game played by rank
                    # alone names no suits)
                    parts.append(f"The last sequence stopped in {SUIT_NAMES[broken]}.")
                parts.append(self.policy_text("after_stop"))
                if can_fail:
                    parts.append(self.policy_text(FAILED_LEAD.name))
        parts.append(self.policy_text("successor"))
        parts.append(self.policy_text("turn_order"))
        if self.comp_card >= 0:
            parts.append(self.policy_text("companion"))
        wild = self.variant.policy(WILD_CARD)
        if wild.impl.card(wild.params) >= 0:  # a wild card is in play (not by its name)
            parts.append(self.policy_text("wild_card"))
        return " ".join(parts)

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.first = variant.policy(FIRST_LEADER)
        self.after = variant.policy(AFTER_STOP)
        # read once here: the compiled build then calls them without attribute lookups
        self._after_impl: Callable[..., list[int]] = self.after.impl
        self._after_params: Any = self.after.params
        self.failed = variant.policy(FAILED_LEAD)
        spare = variant.spare_name
        self.stop_why: dict[int, str] = {**STOP_WHY, SPARE: f"the next card is in the {spare}"}
        """Why a card is a stop when its successor is out of play (the spare's own name)."""
        succ = variant.policy(SUCCESSOR)
        self.succession: Succession = succ.impl(variant, succ.params)
        self.next_card: tuple[int, ...] = self.succession.next_card
        self.stop_reason: tuple[str, ...] = self.succession.stop_reason
        self.claims = [variant.policy(PAY_COLLECTION), variant.policy(RUN_RULE)]
        # an after_stop policy declares whether a passed lead keeps its restriction
        keeps = self.after.spec.keeps_suit
        self.keeps: bool = True if keeps is None else bool(keeps(self._after_params))
        seats = range(variant.players[1])
        # what a lead or a pass of the lead proves (_lead_proves, _pass_proves), by an int
        # made of its seat, restriction and card: what the rule answers depends on those
        # alone, for this variant, and each seat's reading asks it at every lead it reads
        # (a look-up in the variant's cache under a tuple key cost about 1.6k
        # instructions a lead, compiled); at most a few thousand entries
        self._lead_facts: dict[int, frozenset[int]] = {}
        self._pass_facts: dict[int, frozenset[int]] = {}
        # a rule that reads the seat's own hand alone (declared: hand_only) proves the same
        # whoever led or passed, so its proofs are kept under seat 0 for every seat: a
        # search meets each once, not once per seat, as the cache fills
        self._seat_part: int = 0 if self.after.spec.hand_only else 1
        self._led = [play_events(K_LED, s) for s in seats]
        self._played = [play_events(K_PLAYED, s) for s in seats]
        self._pairs = [play_pairs(s) for s in seats]
        self._lead_sets: list[dict[tuple[int, ...], FixedActions]] = [{} for _ in seats]
        """Per seat, the legal set of each set of leads seen (shared: immutable)."""
        self.triggers: Triggers = {}
        self.every: list[Handler] = []
        for b in self.claims:
            b.impl.watch(variant, b.params, self.triggers, self.every)
        self._watch: tuple[tuple[Handler, ...], ...] = tuple(
            tuple(self.triggers.get(c, ())) for c in range(52))
        """``triggers`` by card, read once here: the forced run indexes a tuple per card played
        (no dict look-up, no boxed key); an empty tuple is a card nobody watches."""
        self._stops: list[list[list[Event | None]]] = [
            [[None] * 52 for _ in seats] for _ in range(4)]
        """The shared ``stop`` events of the reasons a run stops by the pack, by reason (0: the
        card has no successor; 1, 2, 3: its successor is in the spare hand, already played,
        out of the pack: ``-owner``), seat and card. Filled as met, each slot only ever with
        :func:`stop_event` of its own seat, card and reason (so threads sharing the variant
        can only write the same event): a stop costs list reads, not a key tuple hashed."""
        self._failed_impl: Any = self.failed.impl
        self._failed_params: Any = self.failed.params
        self.companion = variant.policy(COMPANION)
        self.comp_card: int = self.companion.impl.card(self.companion.params)
        """The companion card (-1: none): its holder decides each card due from him."""
        self.comp_flag: str = self.companion.impl.flag(self.companion.params)
        turns = variant.policy(TURN_ORDER)
        self.turns: Any = turns.impl(self, turns.params)
        """``None``: the holder of the next card plays it (this class's forced run);
        otherwise the object that runs the play as decisions, turn by turn."""

    def lay(self, deal: Deal, seat: int, card: int, kind: EventKind) -> str | None:
        """``seat`` lays ``card`` (a lead or a play in turn): the hand, the events, the
        claims; ends the deal if the hand is now empty. Returns a claim's reason to make the
        card a stop, if one gave it. (The forced run in :meth:`apply` does the same inline.)
        """
        m = deal.masks[seat]
        s = card // 13
        m[s] = m[s] & ~(1 << (card % 13))  # not `&=`: see Deal.give
        counts = deal.counts
        counts[seat] = counts[seat] - 1
        deal.owner[card] = PLAYED
        deal.played_by[card] = seat
        deal.plays.append(self._pairs[seat][card])
        deal.events.append((self._led if kind is K_LED else self._played)[seat][card])
        halt: str | None = None
        for h in self.triggers.get(card, ()):
            halt = h(deal, seat, card) or halt
        for h in self.every:
            halt = h(deal, seat, card) or halt
        if deal.counts[seat] == 0:
            deal.winner = seat
            deal.outcome = "went_out"
            deal.events.append(event(K_WENT_OUT, seat, CARDS[card]))
        return halt

    # -- entering: the first lead -----------------------------------------------------------
    def enter(self, deal: Deal) -> bool:
        if deal.outcome is not None:
            return False  # decided before play (a turn-up that ends the deal)
        first = self.first.impl(deal, self.first.params)
        if first is None:
            deal.outcome = "redeal"
            deal.events.append(event(K_BLOCKED,
                                     note="no opening card is in any player's hand"))
            return False
        if first.seek is not None:
            # an opening like any other lead: a seat that cannot make it fails it (G.0 3)
            deal.state(PlayState).opening = first.rule or OPENING_RULE
            return self.seek_leader(deal, first.seat, first.constraint, first.seek)
        if first.cards is not None:
            deal.to_act = first.seat
            st = deal.state(PlayState)
            st.lead = (first.seat, list(first.cards), None)
            st.opening = first.rule or OPENING_RULE
            if self.turns is not None:  # a wild card or several cards: the turns say how
                deal.offer(self.turns.legal(deal))
                return True
            table = leads_of(first.seat)
            deal.offer(FixedActions([table[c] for c in first.cards]))
            return True
        return self.seek_leader(deal, first.seat, None)

    def seek_leader(self, deal: Deal, seat: int, broken: int | None,
                    seek: OpeningSeek | None = None, st: PlayState | None = None) -> bool:
        """Offer the lead to ``seat``; if it cannot lead, pass it left round the table.

        Each seat that cannot lead runs ``failed_lead.failed``; after a full round,
        ``failed_lead.full_round`` gives a new restriction to go round with once more, or
        the deal is blocked. ``seek`` (an opening the first leader policy gave) says what
        may be led instead of ``after_stop``; its restriction binds every seat it passes to.
        ``st`` is the deal's :class:`PlayState`, if the caller has it at hand.
        """
        after_impl = self._after_impl
        after_params = self._after_params
        ring = deal.order(seat - 1) if len(deal.active) != deal.n else None
        n = deal.n
        rounds = 0
        keeps = self.keeps or seek is not None
        while True:
            for k in range(len(deal.active)):
                s = ring[k] if ring is not None else (seat + k) % n
                constraint = broken if (k == 0 or keeps) else None
                if seek is None:
                    opts = after_impl(deal, s, constraint, after_params)
                else:
                    opts = seek.options(deal, s, constraint if constraint is not None else 0)
                if opts:
                    deal.to_act = s
                    if st is None:
                        st = deal.state(PlayState)
                    st.lead = (s, opts, constraint)
                    if self.turns is None:
                        if self.comp_card >= 0:
                            deal.offer(FixedActions(self._with_companion(deal, s, opts)))
                        else:  # at once: _leads, inline (a call less per lead)
                            key = tuple(opts)
                            got = self._lead_sets[s].get(key)
                            deal.offer(got if got is not None
                                       else self._new_leads(s, opts, key))
                    return True
                why = (_NO_LEAD[constraint if constraint is not None else 4] if seek is None
                       else seek.why_not(constraint if constraint is not None else 0))
                nxt = ring[(k + 1) % len(ring)] if ring is not None else (s + 1) % n
                deal.events.append(event(K_LEAD_PASSED, s, None, 0, None, nxt, (), why))
                self._failed_impl.failed(deal, s, self._failed_params)
            again = self._failed_impl.full_round(deal, broken, self._failed_params)
            rounds += 1
            if again is None or rounds > 1:
                break
            broken = again
        deal.outcome = "blocked"
        deal.events.append(event(K_BLOCKED, note="nobody can lead as the rules require"))
        return False

    # -- deciding ------------------------------------------------------------------------
    def legal(self, deal: Deal) -> LegalSet:
        if self.turns is not None:
            legal: LegalSet = self.turns.legal(deal)
            return legal
        st = deal.state(PlayState)
        if st.follow >= 0:
            return FixedActions(self._follows(deal.to_act, st.follow))  # type: ignore[arg-type]
        lead = st.lead
        assert lead is not None  # no card is due: a lead is on offer
        seat, opts, _ = lead
        if self.comp_card >= 0:
            return FixedActions(self._with_companion(deal, seat, opts))
        return self._leads(seat, opts)

    def _leads(self, seat: int, opts: list[int]) -> FixedActions:
        """The legal set of leading one of ``opts``: one shared object per seat and set of
        cards (legal sets are immutable), so a lead builds nothing it built before."""
        key = tuple(opts)
        got = self._lead_sets[seat].get(key)
        return got if got is not None else self._new_leads(seat, opts, key)

    def _new_leads(self, seat: int, opts: list[int], key: tuple[int, ...]) -> FixedActions:
        """:meth:`_leads` for a set of cards not met before (``key`` is ``tuple(opts)``,
        already made by the caller, who looked it up: a miss, about half the leads of a
        Three-in-One run, then builds the key and looks once, not twice)."""
        table = leads_of(seat)
        got = FixedActions([table[c] for c in opts])
        cache = self._lead_sets[seat]
        if len(cache) < MAX_LEAD_SETS:
            cache[key] = got
        return got

    def apply(self, deal: Deal, action: Action) -> bool:
        st: PlayState = deal.states[PlayState]
        st.lead = st.opening = None  # made: the next lead is worked out afresh
        if self.turns is not None:
            return bool(self.turns.apply(deal, action))
        seat = action.seat
        card: int = action.card  # type: ignore[assignment]
        owner = deal.owner
        comp = self.comp_card
        follow = attach = False
        if comp >= 0:  # only a variant with a companion card has follows and attachments
            st.follow = -1
            follow = action.action == "follow"
            attach = bool(action.flags)
        log = deal.events  # a typed list: the compiled build appends directly
        watch = self._watch
        every = self.every
        next_card = self.next_card
        masks, counts, played_by = deal.masks, deal.counts, deal.played_by
        # ``Any``: the shared (seat, card) pairs go into ``plays`` as the objects they are (a
        # typed tuple would be unpacked and built again per card in the compiled build)
        plays: list[Any] = deal.plays
        events = self._played[seat] if follow else self._led[seat]
        all_pairs: list[list[Any]] = self._pairs
        played_events = self._played
        pairs = all_pairs[seat]
        while True:
            # play `card` from `seat`
            hand = masks[seat]
            suit = _SUIT_OF[card]
            hand[suit] = hand[suit] & _CLEAR[card]
            left = counts[seat] - 1
            counts[seat] = left
            owner[card] = PLAYED
            played_by[card] = seat
            plays.append(pairs[card])
            log.append(events[card])
            halt: str | None = None
            hs = watch[card]
            if hs:
                for h in hs:
                    halt = h(deal, seat, card) or halt
            if every:
                for h in every:
                    halt = h(deal, seat, card) or halt
            if left == 0:
                deal.winner = seat
                deal.outcome = "went_out"
                log.append(event(K_WENT_OUT, seat, CARDS[card]))
                return False
            if attach:
                # the companion card goes down straight after this one (out of sequence)
                b = self.companion
                halt = b.impl.attach(deal, seat, card, b.params, self.lay)
                if deal.outcome == "went_out":
                    return False
                log.append(stop_event(seat, card, halt or "a companion card makes it a stop"))
                break
            nxt = next_card[card]
            if nxt < 0:
                e = self._stops[0][seat][card]
                log.append(e if e is not None else self._stop(0, seat, card))
                break
            if halt is not None:
                log.append(stop_event(seat, card, halt))
                break
            o = owner[nxt]
            if o < 0:
                e = self._stops[-o][seat][card]
                log.append(e if e is not None else self._stop(-o, seat, card))
                break
            if comp >= 0 and owner[comp] == o and nxt != comp:
                # the holder of the companion card decides how to play the card due from him
                return self._offer_follow(deal, o, nxt)
            seat, card = o, nxt
            events = played_events[seat]
            pairs = all_pairs[seat]
        broken = _SUIT_OF[card]
        if comp < 0:
            # seek_leader's first step, inline: the player of the stop leads next if the
            # ``after_stop`` rule lets him, as it does at most stops (no call to seek_leader,
            # none to _leads for a legal set met before)
            opts = self._after_impl(deal, seat, broken, self._after_params)
            if opts:
                deal.to_act = seat
                st.lead = (seat, opts, broken)
                key = tuple(opts)
                got = self._lead_sets[seat].get(key)
                deal.offer(got if got is not None else self._new_leads(seat, opts, key))
                return True
        return self.seek_leader(deal, seat, broken, None, st)

    def _stop(self, why: int, seat: int, card: int) -> Event:
        """The shared ``stop`` event of ``seat``'s ``card`` for a reason of the pack (``why``:
        0, no successor; else ``-owner`` of the successor), kept in ``_stops`` the first time
        it is met (the run reads the table itself, and calls this only for a slot not yet
        filled)."""
        reason = (self.stop_reason[card] if why == 0
                  else self.stop_why.get(-why, "the next card is not in the pack"))
        e = stop_event(seat, card, reason)
        self._stops[why][seat][card] = e
        return e

    def _offer_follow(self, deal: Deal, seat: int, card: int) -> bool:
        deal.to_act = seat
        deal.state(PlayState).follow = card
        deal.offer(FixedActions(self._follows(seat, card)))
        return True

    def _follows(self, seat: int, card: int) -> list[Action]:
        plain = Action(seat, "follow", card=CARDS[card])
        return [plain, Action(seat, "follow", card=CARDS[card], flags=(self.comp_flag,))]

    def _with_companion(self, deal: Deal, seat: int, opts: list[int]) -> list[Action]:
        """The leads of ``opts``, each also offered with the companion card attached when
        ``seat`` holds it (and it is not the card led)."""
        table = leads_of(seat)
        out = [table[c] for c in opts]
        comp = self.comp_card
        if comp >= 0 and deal.owner[comp] == seat:
            out += [Action(seat, "lead", card=CARDS[c], flags=(self.comp_flag,))
                    for c in opts if c != comp]
        return out

    def meaning(self, deal: Deal, action: Action) -> str:
        """A lead of one card names the suit its sequence runs in (a game played by rank
        alone names none), a pass is a turn without a card; everything else as the base
        class says it."""
        if action.action == "pass":
            return "pass: you play no card this turn"
        text = super().meaning(deal, action)
        c = action.card
        if action.action == "lead" and c is not None and not self.succession.by_rank:
            text += f" in {SUIT_NAMES[c // 13]}"
        return text

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        if self.turns is not None:
            found: IllegalAction | None = self.turns.explain(deal, action)
            return found
        st = deal.peek_state(PlayState)
        if st is None:
            return None
        due = st.follow
        if due >= 0:
            if action.action != "follow" or action.card != due:
                return IllegalAction("must_follow", f"play the {CARDS[due]}, which is due from "
                                     "you (with or without your companion card)",
                                     rule="the holder of the next card plays it")
            return None
        if action.action == "follow":
            return IllegalAction("nothing_to_follow", "no card is due from you: lead",
                                 rule="a follow decision is offered only inside a sequence")
        if action.flags and (self.comp_card < 0 or deal.owner[self.comp_card] != action.seat):
            return IllegalAction("no_companion", f"you do not hold the card that "
                                 f"{action.flags[0]} attaches",
                                 rule="a companion card goes down only with its holder's card")
        if st.lead is None:
            return None
        if action.action == "pass":
            return IllegalAction("must_lead", "you must lead: you hold a card the rules let "
                                 "you lead", rule="a player due to lead who holds a card he "
                                 "may lead must lead it; only one who holds none passes")
        seat, opts, broken = st.lead
        c = action.card
        if c is None:
            return None
        if deal.owner[c] != seat:
            return IllegalAction("not_in_hand", f"seat {seat} does not hold {c}",
                                 rule="you can only lead a card you hold")
        allowed = ", ".join(str(CARDS[o]) for o in opts)
        if st.opening is not None:
            return IllegalAction("must_open_with", f"play opens with {allowed}",
                                 rule=st.opening)
        # the after_stop policy knows why its rule refuses a card, if it says so
        why = self.after.spec.explain
        if why is not None:
            explained: IllegalAction | None = why(deal, seat, c, broken, opts)
            if explained is not None:
                return explained
        return IllegalAction("illegal_lead", f"you may lead {allowed}")

    # -- what the play proves to one seat (deal.clone_for) -----------------------------------
    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """What the play so far proves to ``seat`` about the cards it cannot see.

        Each rule obeyed in the open tells something, and the policies say what by being
        asked about other cards (:class:`~stops.engine.determinize.Probe`): a player who
        passed the lead holds no card he might have led; one who led a card holds none that
        the rule would have had him lead instead (a lower one of its suit, for the lowest-card
        rules); an opening card proves that no seat held a card that would have opened
        before it, and before it is played, that no seat holds one that would open instead
        of the seat to open. A stop "in the spare hand" puts its next card there, and a card
        due from a companion's holder is his, with the companion. Read event by event
        (:class:`_PlayReading`), here the whole log at once."""
        reading = self.reading(deal, seat)
        for e in deal.seen_by(seat):  # kept per seat: clone_for shares the real deal's
            reading.see(deal, e)
        reading.now(deal, known)

    def reading(self, deal: Deal, seat: int) -> _PlayReading:
        """The play read event by event for ``seat`` (``clone_for`` keeps it between
        decisions): see :meth:`infer`."""
        turns: Reading | None = self.turns.reading(deal, seat) if self.turns is not None \
            else None
        return _PlayReading(self, seat, turns)

    def _read(self, deal: Deal, at: _PlayReading, e: Event, known: Knowledge | None,
              opening: FirstLead | None) -> None:
        """One event of the play read from ``at``'s state (``first``, ``broken``,
        ``passes``), what it proves added to ``known`` (``None``: the state only). Before
        the first lead or stop, a pass or lead proves by the opening rule as it stands at
        the position asked (``opening``), so those events are read again at each one."""
        k = e.kind
        seek = opening.seek if opening is not None else None
        if k is K_STOP and e.card is not None:
            c = int(e.card)
            nxt = self.next_card[c]
            if known is not None and e.note == self.stop_why[SPARE] and nxt >= 0:
                known.hold(SPARE, (nxt,))
            at.broken = None if self.turns is not None else c // 13
            at.passes = 0
            at.first = False
        elif k is K_LEAD_PASSED and e.seat is not None:
            if known is not None:
                if at.first and seek is not None and opening is not None:
                    known.lack(e.seat, self._seek_proves(
                        deal, seek, e.seat, self._seek_restriction(deal, opening, at.passes),
                        -1))
                else:
                    known.lack(e.seat, self._pass_proves(
                        deal, e.seat, self._restriction(deal, at.broken, at.passes)))
            at.passes += 1
        elif k is K_LED and e.seat is not None and e.card is not None:
            c = int(e.card)
            if known is not None:
                if at.first and seek is not None and opening is not None:
                    known.lack(e.seat, self._seek_proves(
                        deal, seek, e.seat, self._seek_restriction(deal, opening, at.passes),
                        c))
                elif at.first and not at.passes and self._opens(deal, e.seat, c):
                    for x, ruled in self._opening_proves(deal, e.seat, c):
                        if ruled:
                            known.lack(x, ruled)
                else:
                    known.lack(e.seat, self._lead_proves(
                        deal, e.seat, self._restriction(deal, at.broken, at.passes), c))
            at.first = False
            at.passes = 0
            at.broken = None

    def _now(self, deal: Deal, seat: int, known: Knowledge) -> bool:
        """What the position itself proves: a card due from a companion's holder is his,
        with the companion; an opening still due rules out the cards that would open
        instead. Whether there was such a part (see :meth:`_due`)."""
        due = self._due(deal)
        if due == _DUE_COMPANION:
            st = deal.peek_state(PlayState)
            assert st is not None and deal.to_act is not None
            known.hold(deal.to_act, (st.follow, self.comp_card))
        elif due == _DUE_OPENING:
            assert deal.to_act is not None
            self._pending_opening(deal, seat, deal.to_act, known)
        return due != _DUE_NONE

    def _due(self, deal: Deal) -> int:
        """Which part of its own the position proves (:meth:`_now`): ``_DUE_COMPANION``, a
        companion's card due; ``_DUE_OPENING``, an opening still due; ``_DUE_NONE``. Asked
        alone by a reading's fast path (:meth:`_PlayReading.since`), which must not add
        such a part, without working it out."""
        to_act = deal.to_act
        if to_act is None or deal.variant.phases[deal.phase_idx] is not self:
            return _DUE_NONE
        st = deal.peek_state(PlayState)
        if st is None:
            return _DUE_NONE
        if st.follow >= 0 and self.comp_card >= 0:
            return _DUE_COMPANION
        if st.opening is not None:
            return _DUE_OPENING
        return _DUE_NONE

    def _restriction(self, deal: Deal, broken: int | None, passes: int) -> int | None:
        """The restriction on the lead after ``passes`` seats passed it since the stop in
        ``broken`` (as :meth:`seek_leader` goes round)."""
        ring = len(deal.active)
        if passes >= ring:
            broken = self.failed.impl.full_round(deal, broken, self.failed.params)
        return broken if (passes % ring == 0 or self.keeps) else None

    def _seek_restriction(self, deal: Deal, opening: FirstLead, passes: int) -> int:
        """The colour an opening that goes round as a lead binds after ``passes`` seats
        failed it (as :meth:`seek_leader` goes round: flipped once after a full round)."""
        if passes >= len(deal.active):
            flipped = self.failed.impl.full_round(deal, opening.constraint, self.failed.params)
            return flipped if flipped is not None else opening.constraint
        return opening.constraint

    def _seek_proves(self, deal: Deal, seek: OpeningSeek, seat: int, constraint: int,
                     card: int) -> frozenset[int]:
        """What an opening that goes round as a lead proves of ``seat``: having failed it
        (``card`` -1), that he held no card the opening rule would have let him open with;
        having opened with ``card``, that he held none beside which it would not have."""
        def work() -> frozenset[int]:
            out = []
            probe = Probe(deal, {card: seat} if card >= 0 else {})
            try:
                for d in _pack(deal):
                    if d == card:
                        continue
                    probe.move(d, seat)
                    opts = seek.options(deal, seat, constraint)
                    if (card not in opts) if card >= 0 else bool(opts):
                        out.append(d)
                    probe.move(d, SPARE)
            finally:
                probe.close()
            return frozenset(out)
        return remembered(deal, ("seek", seat, constraint, card), work)

    def _pass_proves(self, deal: Deal, seat: int, broken: int | None) -> frozenset[int]:
        """The cards ``seat`` cannot hold, having passed the lead under ``broken``: each card
        with which alone the ``after_stop`` rule would have let him lead (kept per variant
        in the phase: see ``_lead_facts``)."""
        b = 0 if broken is None else broken + 1
        if not 0 <= b < 5:  # not a suit (against the contract): the variant's cache only
            return self._prove_pass(deal, seat, broken)
        key = seat * self._seat_part * 5 + b
        got = self._pass_facts.get(key)
        if got is None:
            got = self._pass_facts[key] = self._prove_pass(deal, seat, broken)
        return got

    def _prove_pass(self, deal: Deal, seat: int, broken: int | None) -> frozenset[int]:
        """:meth:`_pass_proves`, worked out by the rule and remembered."""
        def work() -> frozenset[int]:
            out = []
            probe = Probe(deal, {})
            try:
                for d in _pack(deal):
                    probe.move(d, seat)
                    if self._after_impl(deal, seat, broken, self._after_params):
                        out.append(d)
                    probe.move(d, SPARE)
            finally:
                probe.close()
            return frozenset(out)
        return remembered(deal, ("pass", seat * self._seat_part, broken), work)

    def _lead_proves(self, deal: Deal, seat: int, broken: int | None,
                     card: int) -> frozenset[int]:
        """The cards ``seat`` did not hold when it led ``card`` under ``broken``: each card
        beside which the ``after_stop`` rule would not have let him lead ``card`` (kept per
        variant in the phase: see ``_lead_facts``)."""
        b = 0 if broken is None else broken + 1
        if not 0 <= b < 5:  # not a suit (against the contract): the variant's cache only
            return self._prove_lead(deal, seat, broken, card)
        key = (seat * self._seat_part * 5 + b) * 52 + card
        got = self._lead_facts.get(key)
        if got is None:
            got = self._lead_facts[key] = self._prove_lead(deal, seat, broken, card)
        return got

    def _prove_lead(self, deal: Deal, seat: int, broken: int | None,
                    card: int) -> frozenset[int]:
        """:meth:`_lead_proves`, worked out by the rule and remembered."""
        def work() -> frozenset[int]:
            out = []
            probe = Probe(deal, {card: seat})
            try:
                for d in _pack(deal):
                    if d == card:
                        continue
                    probe.move(d, seat)
                    if card not in self._after_impl(deal, seat, broken, self._after_params):
                        out.append(d)
                    probe.move(d, SPARE)
            finally:
                probe.close()
            return frozenset(out)
        return remembered(deal, ("lead", seat * self._seat_part, broken, card), work)

    def _first_is(self, deal: Deal, seat: int, card: int | None) -> bool:
        """The ``first_leader`` rule, on the table as it is now, has ``seat`` open (with
        ``card`` among its opening cards, if one is named)."""
        first = self.first.impl(deal, self.first.params)
        return (first is not None and first.seat == seat and first.cards is not None
                and (card is None or card in first.cards))

    def _opens(self, deal: Deal, seat: int, card: int) -> bool:
        """The first lead, ``card`` by ``seat``, was an opening card the rule named (not a
        free lead): with that card alone in the hands, the rule names it."""
        def work() -> bool:
            probe = Probe(deal, {card: seat})
            try:
                return self._first_is(deal, seat, card)
            finally:
                probe.close()
        return remembered(deal, ("opens", deal.dealer, deal.active, seat, card), work)

    def _opening_proves(self, deal: Deal, seat: int, card: int
                        ) -> tuple[tuple[int, frozenset[int]], ...]:
        """What ``seat``'s opening with ``card`` rules out, by holder: the cards that, held
        there beside it, would have opened instead."""
        def work() -> tuple[tuple[int, frozenset[int]], ...]:
            probe = Probe(deal, {card: seat})
            try:
                return _ruled_out(probe, deal.active, [d for d in _pack(deal) if d != card],
                                  SPARE, lambda: self._first_is(deal, seat, card))
            finally:
                probe.close()
        return remembered(deal, ("opening", deal.dealer, deal.active, seat, card), work)

    def _pending_opening(self, deal: Deal, seat: int, opener: int, known: Knowledge) -> None:
        """``opener`` is to open and has not yet: no other seat holds a card that would open
        instead, however good the opener's hand. Asked of the rule with every card ``seat``
        cannot place in the opener's hand (or, if ``seat`` opens, in none).

        What the rule answers depends only on where the cards are put on the probe, the
        dealer and the seats playing (as :meth:`_opens` assumes), so it is remembered per
        variant under those: the positions of a deal before its opening (the spare hand's
        exchanges) ask it again and again of the same cards, a rule call per other seat and
        hidden card."""
        hidden = hidden_cards(deal, known)
        played_by = deal.played_by
        where = {c: h for c, h in known.held.items() if played_by[c] < 0}
        park = opener if opener != seat else SPARE
        for c in hidden:
            where[c] = park
        placed = bytearray(52)  # where each card is put (holder + 3; 0: out of the probe)
        for c, h in where.items():
            placed[c] = h + 3
        key = ("pending", deal.dealer, deal.active, seat, opener, bytes(placed))

        def work() -> tuple[tuple[int, frozenset[int]], ...]:
            probe = Probe(deal, where)
            try:
                if not self._first_is(deal, opener, None):
                    # the rule does not pick the opener by the cards he and the others hold
                    # (a fixed seat opens, as after a stop: G.0 3): where they lie proves
                    # nothing
                    return ()
                return _ruled_out(probe, [x for x in deal.active if x not in (seat, opener)],
                                  hidden, park, lambda: self._first_is(deal, opener, None))
            finally:
                probe.close()

        for x, ruled in remembered(deal, key, work):
            if ruled:
                known.lack(x, ruled)

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """The lead due now, worked out again from the imagined hands: the opening card is
        the one the imagined opener holds (his real one may lie anywhere ``seat`` has not
        seen), a lead after a stop is what his imagined hand may lead; ``False`` if the
        seat to act could not be where it is. A past lead's choices (from a hand ``seat``
        never saw) are not kept, nor another seat's plain follows: no event shows that its
        holder was asked, so the copy's decisions do not either."""
        if self.comp_card >= 0:
            deal.actions[:] = [a for a in deal.actions
                               if a.action != "follow" or a.seat == seat or a.flags]
        if deal.to_act is None or deal.variant.phases[deal.phase_idx] is not self:
            return True  # the play is over: its state went with it
        if self.turns is not None and not self.turns.consistent(deal, seat):
            return False
        st = deal.state(PlayState)
        lead = st.lead  # on offer now, or None (made: a card due, a turn in rotation)
        if lead is None:
            return True
        s, _, broken = lead
        if st.opening is not None:
            first = self.first.impl(deal, self.first.params)
            if first is None:
                return False
            if first.seek is not None:  # the duty to open goes round as a lead after a stop
                if s == seat:
                    # on offer to ``seat`` itself: its choices are worked out from its own
                    # hand, the same in every copy of its view, so the copy's lead (the real
                    # one's, copied) stands (working them out again was about a tenth of a
                    # Tripoley copy's cost, pure)
                    return True
                opts = first.seek.options(deal, s, broken if broken is not None else 0)
                if not opts:
                    return False
                st.lead = (s, list(opts), broken)
                return True
            if first.seat != s or first.cards is None:
                return False
            st.lead = (s, list(first.cards), None)
            return True
        if s == seat:
            # the lead on offer to ``seat`` itself: its choices are what it sees offered, and
            # its hand is the same in every copy of its view, so the copy's lead (the real
            # one's, copied) stands as it is (working it out again cost Poch's copy about a
            # tenth of a clone())
            return True
        opts = self._after_impl(deal, s, broken, self._after_params)
        if not opts:
            return False
        st.lead = (s, list(opts), broken)
        return True


def _ruled_out(probe: Probe, seats: Iterable[int], cards: Iterable[int], back: int,
               still: Callable[[], bool]) -> tuple[tuple[int, frozenset[int]], ...]:
    """For each of ``seats``, the ``cards`` that, moved there on ``probe`` one at a time,
    make the opening rule answer otherwise (``still()`` false): what that seat cannot hold.
    Each card goes back to ``back`` after its question."""
    out: list[tuple[int, frozenset[int]]] = []
    for x in seats:
        ruled: list[int] = []
        for d in cards:
            probe.move(d, x)
            if not still():
                ruled.append(d)
            probe.move(d, back)
        out.append((x, frozenset(ruled)))
    return tuple(out)


def _pack(deal: Deal) -> list[int]:
    """The cards of the variant's pack, in card order."""
    return [c for c in range(52) if deal.owner[c] != ABSENT]


class NoCompanion:
    """No card may be played out of sequence with another."""

    def card(self, params: None) -> int:
        return -1

    def flag(self, params: None) -> str:
        return ""

    def attach(self, deal: Deal, seat: int, card: int, params: None,
               lay: Callable[..., str | None]) -> str | None:  # pragma: no cover - never
        return None


def holder(phase: PlayPhase, params: None) -> None:
    """Whoever holds the next card plays it at once, out of turn: a forced run, not a
    decision. Only leads are decisions."""
    return None


def register(reg: Registry) -> None:
    reg.register_policy(
        "turn_order", "holder", phrase="Whoever holds the next card must play it at once",
        text=lambda _: (
            "Whoever holds the next card must play it at once, out of turn, and so on until "
            "nobody can: the last card played is a stop, and its player leads next."))(holder)
    reg.register_policy("companion", "none", text=lambda _: "")(NoCompanion())
    reg.register_phase("play", pays=_pays_nothing, requires=("deal",),
                       slots=("first_leader", "successor", "turn_order", "companion",
                              "wild_card", "after_stop", "failed_lead", "pay_collection",
                              "run_rule"),
                       verbs=(LEAD, PLAY, FOLLOW, PASS))(PlayPhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()


_PLAY_KINDS: Final = frozenset((K_LED, K_LEAD_PASSED, K_STOP))
"""The events the play's own reading reads (its turns, if any, read every event)."""


class _PlayReading(Reading):
    """The play read for one seat, event by event (:meth:`PlayPhase.infer`): from the
    first lead or pass of the lead on, each event proves what the rule in force then
    proves, kept in ``known``; the events up to the first lead or stop (``segment``) prove
    by the opening rule as it stands at the position asked, so :meth:`now` reads them
    again (a pass or two and a lead). The turns' own reading (``turns``) is told the same
    events."""

    def __init__(self, phase: PlayPhase, seat: int, turns: Reading | None) -> None:
        # without turns, only the leads, passes of the lead and stops prove anything here
        self.kinds = None if turns is not None else _PLAY_KINDS
        self.lends = turns is not None and turns.lends  # the turns' (lend)
        self.phase = phase
        self.seat = seat
        self.turns = turns
        self.started = False
        self.first = True
        self.broken: int | None = None
        self.passes = 0
        self.segment: list[Event] = []
        self.segment_known: Knowledge | None = None
        self.known = Knowledge(seat).journaled()  # only grows: see since()
        # for since(): the calls of now() and since() made, the segment read again at the
        # last few of them by number (the opening rule going round as a lead: another
        # call, knowledge() at the same position say, may come between a view's two), the
        # last one's mark (None: a part of the position's own was added)
        self.version = 0
        self.segs: dict[int, Knowledge] = {}
        self.turn_marks: dict[int, int] = {}
        self.at_mark: int | None = None

    def see(self, deal: Deal, e: Event) -> None:
        k = e.kind
        if not self.started:
            if k is not K_LED and k is not K_LEAD_PASSED:
                return
            self.started = True
        if self.turns is not None:
            self.turns.see(deal, e)
        if k is not K_LED and k is not K_LEAD_PASSED and k is not K_STOP:
            return  # the cards played in sequence prove nothing here (the turns read them)
        if self.first:
            self.segment.append(e)
            self.phase._read(deal, self, e, None, None)
        else:
            self.phase._read(deal, self, e, self.known, None)

    def now(self, deal: Deal, known: Knowledge) -> None:
        phase = self.phase
        self.version += 1
        state = _SEG_NONE
        if self.segment:
            opening = phase.first.impl(deal, phase.first.params)
            if (opening is None or opening.seek is None) and not self.first:
                # the opening rule does not go round as a lead: what the segment proves
                # does not depend on it, and the segment is complete: read it once
                known.add(self._settled(deal, opening))
                state = _SEG_SETTLED
            else:
                seg = Knowledge(self.seat)
                self._again(deal, seg, opening)
                self._keep(seg)
                known.add(seg)
                state = _SEG_AGAIN
        known.add(self.known)
        turns_at: int | None = None
        if self.turns is not None:
            self.turns.now(deal, known)
            turns_at = self.turns.mark()
        due = phase._now(deal, self.seat, known)
        self.at_mark = None if due or (self.turns is not None and turns_at is None) \
            else self._mark(state)
        self._keep_turns(turns_at)

    def mark(self) -> int | None:
        # the last now()'s call, how many proofs its journal held and how the segment was
        # read; None where it added a part of the position's own
        return self.at_mark

    def _mark(self, state: int) -> int:
        journal = self.known.journal
        assert journal is not None
        return self.version << 40 | len(journal) << 2 | state

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        # now() less what it added at the mark (a recent call's: see _keep): the segment's
        # proofs where they were not added then (complete and settled now), or read again
        # and the same as then (the opening rule goes round as a lead: read by it as it
        # stands here); the proofs read since, from the journal; the turns' reading's own
        # since (None where it has none); and no part of the position's own (an opening
        # still due, a companion's card: None, and now() is asked)
        phase = self.phase
        state = mark & 3
        self.version += 1
        self.at_mark = None
        turns_at: int | None = None
        if self.turns is not None:
            # the turns' reading read on from where it stood at the mark (the rotation's
            # walk: what it proved since, and the position's own part if nothing of the
            # mark's is taken back), or now() is asked
            turns_was = self.turn_marks.get(mark >> 40)
            if turns_was is None:
                return None
            turns_at = self.turns.since(deal, known, turns_was)
            if turns_at is None:
                return None
        got = _SEG_NONE
        if state == _SEG_SETTLED and not self.first:
            # the segment was complete at the mark, and the opening rule did not go round
            # as a lead there: read for good then, and added then. Whether a rule goes
            # round is the rule's, not the position's (see FirstLead.seek), so it is not
            # asked again (a call of the rule at every new position, about 3k instructions
            # compiled Boodle)
            got = _SEG_SETTLED
        elif self.segment:
            opening = phase.first.impl(deal, phase.first.params)
            if (opening is None or opening.seek is None) and not self.first:
                if state == _SEG_AGAIN:
                    return None
                if state == _SEG_NONE:
                    known.add(self._settled(deal, opening))
                got = _SEG_SETTLED
            else:
                was = self.segs.get(mark >> 40)
                seg = Knowledge(self.seat)
                self._again(deal, seg, opening)
                self._keep(seg)
                if state == _SEG_AGAIN:
                    if was is None or seg.held != was.held or seg.lacks != was.lacks:
                        return None
                else:
                    known.add(seg)
                got = _SEG_AGAIN
        if phase._due(deal) != _DUE_NONE or \
                not known.add_since(self.known, mark >> 2 & _JOURNAL_BITS):
            return None
        self.at_mark = self._mark(got)
        self._keep_turns(turns_at)
        return self.at_mark

    def lend(self, memo: dict[Any, Any]) -> None:
        if self.turns is not None:
            self.turns.lend(memo)

    def _keep_turns(self, turns_at: int | None) -> None:
        """The turns' reading's mark at this call, kept by the call's number (the last four
        calls', as :meth:`_keep`) for a later :meth:`since`."""
        if self.turns is None:
            return
        marks = self.turn_marks
        if len(marks) >= 4:
            for v in [v for v in marks if v <= self.version - 4]:
                del marks[v]
        if turns_at is None:
            marks.pop(self.version, None)
        else:
            marks[self.version] = turns_at

    def _keep(self, seg: Knowledge) -> None:
        """The segment as this call read it again, kept for a later since() by the call's
        number (the last four calls': a view's previous position is its seat's last call
        but for a knowledge() between them)."""
        segs = self.segs
        if len(segs) >= 4:
            for v in [v for v in segs if v <= self.version - 4]:
                del segs[v]
        segs[self.version] = seg

    def _settled(self, deal: Deal, opening: FirstLead | None) -> Knowledge:
        """What the complete segment proves where the opening rule does not go round as a
        lead: read once, the first time it is asked."""
        got = self.segment_known
        if got is None:
            got = self.segment_known = Knowledge(self.seat)
            self._again(deal, got, opening)
        return got

    def _again(self, deal: Deal, known: Knowledge, opening: FirstLead | None) -> None:
        """The segment read again, by the opening rule as it stands (``opening``)."""
        again = _PlayReading(self.phase, self.seat, None)
        for e in self.segment:
            self.phase._read(deal, again, e, known, opening)


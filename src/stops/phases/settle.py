"""Settlement: end-of-deal claims, the going-out reward or the block outcome."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from stops._mypyc import mypyc_attr
from stops.engine.chips import Ledger
from stops.engine.deal import ABSENT, SPARE
from stops.engine.determinize import (
    Knowledge,
    Probe,
    Reading,
    dealt_afresh,
    redeal_memo,
    remembered,
)
from stops.engine.errors import StopsError
from stops.engine.eventkind import EventKind
from stops.engine.events import MAX_SEATS, event
from stops.phases.base import Phase
from stops.phases.turn_up import TrumpClaimPolicy
from stops.policies.claims import ClaimPolicy

if TYPE_CHECKING:
    from stops.engine.cards import Card
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# EventKind members as Final constants: reading an enum member as a class attribute
# costs ~190 ns (a Python-level lookup in either build); these are read directly.
K_DEAL_ENDED: Final = EventKind.DEAL_ENDED
_new: Final = tuple.__new__
"""Builds a named tuple by position (its own ``__new__`` is interpreted Python)."""
K_CLAIMED: Final = EventKind.CLAIMED
_ANSWERS: Final = ("claims by holding", "answers")
"""Key of the answers per claim key (``ClaimPolicy.held_key``) in a view's ``redeal_memo``."""
MAX_ANSWERS: Final = 4096
"""Answers kept per view (cleared when full: a long search at one position meets many
keys)."""
_PLAYS: Final = ("claims by holding", "plays read")
"""Key of a view's list of the plays whose cards the claim policy's key reads."""
_READER: Final = ("claims by holding", "key reader")
"""Key of a view's reader of its copies' keys (``ClaimPolicy.held_key_reader``), or
``False`` where there is none."""


_WENT_OUT: Final = tuple(event(K_DEAL_ENDED, s, note=f"seat {s} went out")
                         for s in range(MAX_SEATS))
"""The ``deal_ended`` event of each seat going out, built once."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SettlePhase(Phase):
    """Pays what the end of the deal owes: shared claims, then the reward for going out or
    the block's payments. Takes no decisions."""

    name = "settle"
    title = "End of the deal"

    def describe(self) -> str:
        t = ("Play ends at once when a player plays their last card, even in the middle "
             "of a sequence. " + self.policy_text("going_out_reward") + " ")
        if self.in_force("block_outcome"):  # a lead that nobody can make (or no opener)
            t += self.policy_text("block_outcome")
        t = t.rstrip()
        t += {"pay_what_you_can": " A player who cannot pay in full pays what they have.",
              "debt": " A player who cannot pay in full goes into debt.",
              "eliminate": " A player who cannot pay in full pays what they have and, "
              "like any player left without chips, is out for the rest of the session; "
              "the session ends when fewer than two players are left."
              }[self.rules.chip_shortfall]
        if not self.variant.space_ids:
            return t
        return t + " Chips not won stay on the layout for the next deal."

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.claims = [variant.policy("pay_collection"), variant.policy("run_rule")]
        self._ends: list[tuple[ClaimPolicy | None, Any, Any]] = [
            (b.impl if isinstance(b.impl, ClaimPolicy) else None, b.impl, b.params)
            for b in self.claims]
        """Each claim rule's ``end``: a :class:`ClaimPolicy` (every built-in one) called
        through its native method table in the compiled build, any other object by name."""
        self.reward = variant.policy("going_out_reward")
        self.block = variant.policy("block_outcome")

    def enter(self, deal: Deal) -> bool:
        for native, impl, params in self._ends:
            if native is not None:
                native.end(deal, params)
            else:
                impl.end(deal, params)
        winner = deal.winner
        if deal.outcome == "went_out" and winner is not None:
            self.reward.impl(deal, winner, self.reward.params)
            if 0 <= winner < len(_WENT_OUT):
                deal.emit(_WENT_OUT[winner])  # shared: its content is fixed by the seat
                return False
            note = f"seat {winner} went out"
        elif deal.outcome in ("blocked", "redeal"):
            deal.next_deal = self.block.impl(deal, self.block.params)
            note = "blocked" if deal.outcome == "blocked" else "no opening card; redeal"
        else:
            note = deal.outcome or "ended"
        deal.emit(event(K_DEAL_ENDED, winner, note=note))
        return False



@mypyc_attr(allow_interpreted_subclasses=True)
class ClaimHeldPhase(Phase):
    """Stage one of Three-in-One: layout spaces pay the players who hold their cards."""

    name = "claim_held"
    title = "Stage one: pay cards"

    def describe(self) -> str:
        return self.policy_text("pay_collection")

    def sections(self) -> list[tuple[str, str]]:
        """Stage one is the pay cards (Three-in-One's word), or the trumps held when the
        spaces stand for trumps (Poch's honours, marriage and sequence)."""
        text = self.describe()
        return [(self.stage_title, text)] if text else []

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.policy = variant.policy("pay_collection")
        self._held: ClaimPolicy | None = (self.policy.impl if isinstance(
            self.policy.impl, ClaimPolicy) else None)
        """The claim rule when it is a :class:`ClaimPolicy` (every built-in one), called
        natively in the compiled build; any other object by name."""
        self.stage_title: str = ("Stage one: the cards held" if
                                 isinstance(self.policy.impl, TrumpClaimPolicy) else self.title)

    def enter(self, deal: Deal) -> bool:
        # plain loops over the layout and the new events (no generator objects, no slice
        # of the log): this runs once a deal. Lists made into frozensets once (no set
        # copied into one), and each shown card made a plain int by adding 0 (``int(c)`` is
        # a generic call per card in the compiled build; a ``Card`` plus 0 is an exact int
        # in both builds)
        retired = deal.retired
        live: list[str] = []
        for sid, chips in deal.ledger.layout.items():
            if chips > 0 and sid not in retired:
                live.append(sid)
        log = deal.events
        start = len(log)
        native = self._held
        if native is not None:
            native.held(deal, self.policy.params)
        else:
            self.policy.impl.held(deal, self.policy.params)
        claims: list[tuple[str, int]] = []
        shown: list[tuple[str, int, tuple[int, ...]]] = []
        for i in range(start, len(log)):
            e = log[i]
            if e.kind is K_CLAIMED:
                space, seat = e.space, e.seat
                if space is not None and seat is not None:
                    claims.append((space, seat))
                    cards: tuple[int, ...] = e.cards
                    shown.append((space, seat, tuple([c + 0 for c in cards])))
        # the named tuple by position through ``tuple.__new__``: its own ``__new__`` is
        # interpreted Python, a frame per deal in the compiled build
        deal.publish(_new(HeldClaims, (frozenset(claims), frozenset(live), frozenset(shown))))
        return False

    # -- what the claims by holding prove to one seat (deal.clone_for) ---------------------
    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """A card that would have won a space by being held, in a hand, and did not: it was
        in no hand then (each card is asked of the rule alone in each seat's hand)."""
        got = deal.result(HeldClaims)
        if got is not None:
            self._unclaimed(deal, got, known)

    def reading(self, deal: Deal, seat: int) -> Reading:
        """The claims by holding are made once, before play: what they prove is worked out
        the first time it is asked and kept for the later positions (:class:`_HeldReading`)."""
        return _HeldReading(self, seat)

    def _unclaimed(self, deal: Deal, got: HeldClaims, known: Knowledge) -> None:
        """What the claims by holding ``got`` prove (see :meth:`infer`), added to ``known``."""
        every = frozenset(deal.variant.space_ids)

        def work() -> tuple[tuple[int, int, frozenset[tuple[str, int, tuple[int, ...]]]], ...]:
            out = []  # with every space holding chips: what each card alone would win
            impl, params = self.policy.impl, self.policy.params
            # the table the rule is asked about: every card in play in the spare hand (as a
            # probe leaves it), one card at a time in a seat's hand; read by the policy's
            # key where it has one (no run of its rule per card and seat)
            alone = [ABSENT if o == ABSENT else SPARE for o in deal.owner]
            for x in deal.active:
                for d in range(52):
                    if alone[d] == ABSENT:
                        continue
                    alone[d] = x
                    key = impl.held_key(deal, params, alone)
                    alone[d] = SPARE
                    claims = None if key is None else self._key_claims(deal, key, every)
                    if claims is None:
                        claims = self._claims(deal, {d: x}, every)
                    if claims:
                        out.append((x, d, claims))
            return tuple(out)

        # what a card wins may depend on the turn-up (a trump honour): what the policy reads
        # of it is in the key (a plug-in's answer that cannot be a key is refused by name,
        # where it would have failed as a bare TypeError deep in the variant's memory)
        turn_up = self.policy.impl.held_turn_up(deal, self.policy.params)
        try:
            hash(turn_up)
        except TypeError:
            raise StopsError(
                f"pay_collection policy {self.policy.name!r}: held_turn_up must return a "
                f"hashable value, got {type(turn_up).__name__}") from None
        key = ("held", deal.dealer, deal.active, turn_up)

        def unclaimed() -> tuple[tuple[int, frozenset[int]], ...]:
            out: dict[int, list[int]] = {}
            for x, d, claims in remembered(deal, key, work):
                if any(sid in got.live and (sid, s) not in got.claims for sid, s, _ in claims):
                    out.setdefault(x, []).append(d)
            return tuple((x, frozenset(ds)) for x, ds in out.items())

        # the same claims prove the same to every seat: worked out once for them all
        for x, cards in remembered(deal, (*key, got.live, got.claims), unclaimed):
            known.lack(x, cards)

    def hands_fit(self, deal: Deal, seat: int) -> bool:
        """An imagined deal whose hands, as they were at this stage, would have made other
        claims by holding than the real ones (a combination nobody claimed) could not have
        come about; nor one that makes the same claims with other cards shown (Poch's
        sequence: a seat shown holding QH-KH-AH did not hold the JH too, or he would have
        shown JH-QH-KH-AH)."""
        got = deal.result(HeldClaims)
        if got is None:
            return True
        memo = redeal_memo(deal)
        # where the policy reads its key from the cards dealt afresh alone (a reader made
        # at the position's first copy: ClaimPolicy.held_key_reader), a copy's key is read
        # so, and its answer kept per key as below: no table made per copy
        read = memo.get(_READER)
        if read:
            held = read(deal.owner)
            answers: dict[object, bool] = memo[_ANSWERS]
            ok = answers.get(held)
            if ok is not None:
                return ok
            claims = self._key_claims(deal, held, got.live)
            if claims is not None:
                if len(answers) > MAX_ANSWERS:
                    answers.clear()
                ok = answers[held] = claims == got.shown
                return ok
        return self._fits(deal, got, memo)

    def _fits(self, deal: Deal, got: HeldClaims, memo: dict[Any, Any]) -> bool:
        """:meth:`hands_fit` from the copy's table as it was at this stage, its key read
        from the whole table; at a position's first copy, the reader of later copies' keys
        made (see :meth:`hands_fit`)."""
        # the hands as they were at this stage: the cards played put back with their
        # players, read from the list of plays (public: (player, card) as each was played),
        # not from a pass over the pack. Only those whose holders the policy's key reads
        # (ClaimPolicy.held_cards), listed once per view: the same for every copy of it
        plays: list[tuple[int, Card]] | None = memo.get(_PLAYS)
        if plays is None:
            # a list of its own, either way: the copy's list of plays grows when a search
            # plays on from it, and the view's must not
            cards = self.policy.impl.held_cards(deal, self.policy.params)
            if cards is None:
                plays = list(deal.plays)
            else:
                read = set(cards)
                plays = [(p, c) for p, c in deal.plays if c in read]
            if memo:
                memo[_PLAYS] = plays
        where = list(deal.owner)
        for p, c in plays:
            where[c] = p
        held = self.policy.impl.held_key_now(deal, self.policy.params, where)
        if held is None:
            return self._same_claims(deal, got, where, len(plays))
        # the same key, the same claims: the answer is remembered per key, for the variant
        # (across views) and, by the key alone, for the view (the rest of the variant's key
        # is the same for every copy of one view: a lookup, not a key of six parts built
        # and hashed per copy)
        answers: dict[object, bool] | None = memo.get(_ANSWERS)
        if answers is None or len(answers) > MAX_ANSWERS:
            answers = {}
            if memo:
                memo[_ANSWERS] = answers
        if memo and _READER not in memo:
            self._make_reader(deal, memo, where, held)
        ok = answers.get(held)
        if ok is None:
            # the claims read from the key where the policy can (no run of its rule on an
            # imagined table: a third of Poch's copy), else the rule's answer remembered
            claims = self._key_claims(deal, held, got.live)
            if claims is not None:
                ok = answers[held] = claims == got.shown
            else:
                key = ("held again", held, got.live, got.shown, deal.dealer, deal.active)
                ok = answers[held] = remembered(
                    deal, key, partial(self._same_claims, deal, got, where, len(plays)))
        return ok

    def _make_reader(self, deal: Deal, memo: dict[Any, Any], where: list[int],
                     held: tuple[object, ...]) -> None:
        """The policy's reader of later copies' keys at this position
        (``ClaimPolicy.held_key_reader``), kept in the memo if it gives, for this copy,
        the key the whole table gave; else ``False`` is kept (none, or one that does not:
        every copy's table is then made and read)."""
        memo[_READER] = False
        afresh = dealt_afresh(deal)
        if afresh is None:
            return
        ask: Any = self.policy.impl.held_key_reader
        read: Any = ask(deal, self.policy.params, where, afresh)
        if read is not None and callable(read) and read(deal.owner) == held:
            memo[_READER] = read

    def _same_claims(self, deal: Deal, got: HeldClaims, where: list[int], put_back: int
                     ) -> bool:
        """Whether the rule, run on the copy's hands as they were at this stage, makes the
        claims made (``where``: each card's holder then, the ``put_back`` cards played that
        the policy reads put back with their players; a function made only where it is
        asked, not at every copy)."""
        # every card played put back, the rule runs on them: ``where`` itself where the
        # policy names no cards (its list is then every play), else made again
        every = where
        if put_back != len(deal.plays):
            every = list(deal.owner)
            for p, c in deal.plays:
                every[c] = p
        return self._claims(deal, {c: h for c, h in enumerate(every) if h != ABSENT},
                            got.live) == got.shown

    def _key_claims(self, deal: Deal, key: tuple[object, ...], live: frozenset[str]
                    ) -> frozenset[tuple[str, int, tuple[int, ...]]] | None:
        """The policy's ``key_claims``, its answer checked: a plug-in's that is neither
        ``None`` nor a frozenset (a list, say) would compare unequal to every claim and so
        refuse every imagined deal, ``clone_for`` then failing after all its tries with no
        word of why; it is refused by name instead."""
        got = self.policy.impl.key_claims(deal, self.policy.params, key, live)
        if got is not None and not isinstance(got, frozenset):
            raise StopsError(
                f"pay_collection policy {self.policy.name!r}: key_claims must return a "
                f"frozenset of (space, seat, cards) or None, got {type(got).__name__}")
        return got

    def _claims(self, deal: Deal, where: dict[int, int],
                live: frozenset[str]) -> frozenset[tuple[str, int, tuple[int, ...]]]:
        """Who would claim which space by holding, showing which cards, were exactly the
        cards in ``where`` in those hands and the ``live`` spaces holding chips. Run aside:
        the deal's chips, log and cards are left as they were."""
        probe = Probe(deal, where)
        saved = (deal.ledger, deal.retired, deal.events, deal.short)
        deal.ledger = Ledger(list(deal.ledger.stacks), dict.fromkeys(live, 1000), track=False)
        deal.retired = set()
        deal.events = []
        deal.emit = deal.events.append
        deal.short = set()
        try:
            self.policy.impl.held(deal, self.policy.params)
            return frozenset((e.space, e.seat, tuple([int(c) for c in e.cards]))
                             for e in deal.events if e.kind is K_CLAIMED
                             and e.space is not None and e.seat is not None)
        finally:
            deal.ledger, deal.retired, deal.events, deal.short = saved
            deal.emit = deal.events.append
            probe.close()


class HeldClaims(NamedTuple):
    """What the claims by holding won (published by the ``claim_held`` phase): each
    (space, seat), the spaces that then held chips, and each claim with the cards it
    showed (space, seat, cards: what ``clone_for``'s copies must show again). Public: every
    claim is shown."""

    claims: frozenset[tuple[str, int]]
    live: frozenset[str]
    shown: frozenset[tuple[str, int, tuple[int, ...]]] = frozenset()


def register(reg: Registry) -> None:
    reg.register_phase("claim_held", pays=_pays_nothing, requires=("deal",),
                       slots=("pay_collection",))(ClaimHeldPhase)
    reg.register_phase("settle", pays=_pays_nothing, requires=("play",),
                       slots=("going_out_reward", "block_outcome"))(SettlePhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()


class _HeldReading(Reading):
    """What the claims by holding prove to one seat (:meth:`ClaimHeldPhase.infer`), worked
    out once for the claims made and what the answer depends on (the dealer, the seats in
    play, the turn-up), and added at every later position."""

    def __init__(self, phase: ClaimHeldPhase, seat: int) -> None:
        self.kinds = frozenset()  # it reads no event: the claims are published
        self.phase = phase
        self.seat = seat
        self.got: HeldClaims | None = None
        self.key: tuple[Any, ...] = ()
        self.known = Knowledge(seat)
        self.worked = 0  # how many times ``known`` was worked out (see mark)
        self.added = 0  # the mark of the last now(): 0 nothing added (no claims yet), else
        # the ``known`` it added, by when it was worked out (1 + 2 * worked)

    def now(self, deal: Deal, known: Knowledge) -> None:
        got = deal.result(HeldClaims)
        if got is None:
            self.added = 0
            return
        key = (deal.dealer, deal.active, deal.last_dealt)
        if got is not self.got or key != self.key:
            self.known = Knowledge(self.seat)
            self.phase._unclaimed(deal, got, self.known)
            self.got, self.key = got, key
            self.worked += 1
        known.add(self.known)
        self.added = 1 + 2 * self.worked

    def mark(self) -> int | None:
        return self.added

    def since(self, deal: Deal, known: Knowledge, mark: int) -> int | None:
        # the same claims, worked out for the same dealer, seats and turn-up, as ``known``
        # was then: nothing new
        got = deal.result(HeldClaims)
        if got is None:
            return 0 if mark == 0 else None
        if mark == 1 + 2 * self.worked and got is self.got and \
                (deal.dealer, deal.active, deal.last_dealt) == self.key:
            return mark
        return None


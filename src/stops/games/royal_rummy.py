"""Royal Rummy's ace side-bet (docs/family-rulings.md G.3, G21, G.0 item 15, G.11 14).

With ``ace_bet: true`` (a preset of ``variants/royal-rummy.yaml``) the layout gains four
``wager`` spaces, ``ace-C`` ``ace-D`` ``ace-H`` ``ace-S`` (one per ace, staked by nobody), and
three phases of this module do something; without wager spaces they pass unseen, so the
flow can name them always:

* ``ace_bet``, after ``stake`` and before ``deal``: the dealer ``wager``s ``{space, chips}``
  (1 chip up to his stack) on one wager space, or ``pass``es; after a wager each other
  player in turn from the dealer's left ``cover``s it (puts the same number of chips on that
  space; only if his stack allows) or ``pass``es. Events ``wagered`` and ``covered``.
* ``ace_claim``, right after ``deal`` and before ``spare_hand`` (G21): the seat that was
  dealt that ace is found. If it is the dealer or a coverer, it takes every chip on the space
  (carried chips included; event ``claimed``). Otherwise (he did not bet, or the ace was dealt
  to the extra hand) the chips stay on the space, for later wagers to add to (G.11 14:
  cleared only at the session's end).
* ``ace_late``, after ``spare_hand``: under ``ace_bet_timing: after_spare`` (HR) the betting
  is made here, after the extra hand has been swapped or sold, and the holder is the one who
  holds the ace after any swap.

A won side-bet is public: ``ace_claim.infer`` tells every seat's imagined deals
(``deal.clone_for``) where that ace lies. The heuristic bot's play of the bet is
:func:`ace_bet_advice`, reached through the phases' aids.

Each phase does nothing under the other timing, so the flow can name all three.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, Literal

import attrs

from stops.engine.actions import Action, simple
from stops.engine.cards import CARDS
from stops.engine.determinize import SPARE
from stops.engine.errors import IllegalAction
from stops.engine.events import Event, event, shared
from stops.engine.legal import Amounts, Fixed, LegalActions, LegalSet
from stops.engine.vocabulary import SWAPS_SPARE, EventType, Verb
from stops.phases.aids import BotView, PhaseAids, Prompt, Teller, Telling
from stops.phases.base import Phase, in_chips
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.determinize import Knowledge
    from stops.engine.observation import Observation
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

WAGERED: Final = "wagered"
COVERED: Final = "covered"
K_PASSED: Final = "passed"
WAGER_KIND: Final = "wager"


@attrs.frozen
class AceBetSettings:
    ace_bet_timing: Literal["before_deal", "after_spare"] = param(
        "before_deal", "When the ace side-bet is made: before the cards are dealt, or after "
        "the extra hand has been swapped or sold (the holder of the ace is then whoever has "
        "it after any swap). docs/family-rulings.md G21.", option="ace_bet_timing")


def wager_spaces(variant: Variant) -> dict[str, int]:
    """The variant's wager spaces and the card each bets on, in layout order (worked out
    once per variant)."""
    key = ("wager spaces",)
    got = variant.cache.get(key)
    if got is None:
        got = variant.cache[key] = {s.id: int(s.card) for s in variant.layout
                                    if s.kind == WAGER_KIND and s.card is not None}
    return got  # type: ignore[return-value]


class AceBetState:
    """The side-bet of this deal (public): the seats still to be asked, the space and
    amount wagered (``""`` and 0 before a wager) and the seats that bet (the dealer, then
    each coverer)."""

    __slots__ = ("bettors", "chips", "queue", "space")

    def __init__(self) -> None:
        self.queue: list[int] = []
        self.space = ""
        self.chips = 0
        self.bettors: list[int] = []

    def copy(self) -> AceBetState:
        new = AceBetState()
        new.queue, new.space, new.chips, new.bettors = (list(self.queue), self.space,
                                                        self.chips, list(self.bettors))
        return new

    def _fields(self) -> tuple[object, ...]:
        return (self.queue, self.space, self.chips, self.bettors)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AceBetState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"AceBetState{self._fields()!r}"


class _Betting(Phase):
    """The betting both phases share: the dealer's wager, then the covers."""

    title = "The ace side-bet"
    state_types = (AceBetState,)

    @classmethod
    def aids(cls) -> PhaseAids:
        """The side-bet's prompt in ``stops play`` and the heuristic bot's play of it."""
        return ACE_BET_AIDS

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        # one setting for both phases, declared by ace_bet (ace_claim requires it in the flow)
        self.settings: AceBetSettings = variant.settings("ace_bet") or AceBetSettings()
        self.spaces = wager_spaces(variant)
        self.before_deal = self.settings.ace_bet_timing == "before_deal"

    def _start(self, deal: Deal) -> bool:
        st = deal.reset_state(AceBetState)
        if deal.dealer not in deal.active:
            return self._done(deal, st)
        st.queue = [deal.dealer]
        return self._ask(deal, st)

    def _ask(self, deal: Deal, st: AceBetState) -> bool:
        if not st.queue:
            return self._done(deal, st)
        deal.to_act = st.queue[0]
        return True

    def _done(self, deal: Deal, st: AceBetState) -> bool:
        return False

    def legal(self, deal: Deal) -> LegalSet:
        st = deal.state(AceBetState)
        seat = st.queue[0]
        stack = deal.ledger.stacks[seat]
        if not st.space:  # the dealer's wager
            if stack < 1:
                return LegalActions(Fixed((simple(seat, "pass"),)))
            return LegalActions(Fixed((simple(seat, "pass"),)),
                                *(Amounts(seat, "wager", range(1, stack + 1), space)
                                  for space in self.spaces))
        if stack >= st.chips:
            return LegalActions(Fixed((simple(seat, "pass"), simple(seat, "cover"))))
        return LegalActions(Fixed((simple(seat, "pass"),)))

    def apply(self, deal: Deal, action: Action) -> bool:
        st = deal.state(AceBetState)
        seat = st.queue.pop(0)
        verb = action.action
        if verb == "wager":
            space = action.space or ""
            chips = action.chips or 0
            deal.ledger.move(seat, space, chips)
            deal.emit(event(WAGERED, seat, chips=chips, space=space))
            st.space, st.chips, st.bettors = space, chips, [seat]
            st.queue = deal.order(seat, include_self=False)
        elif verb == "cover":
            deal.ledger.move(seat, st.space, st.chips)
            deal.emit(event(COVERED, seat, chips=st.chips, space=st.space))
            st.bettors.append(seat)
        else:
            deal.emit(shared(K_PASSED, seat))
        return self._ask(deal, st)

    # -- refusals and meanings -----------------------------------------------------------
    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = deal.state(AceBetState)
        seat = action.seat
        stack = deal.ledger.stacks[seat]
        verb = action.action
        if verb == "wager":
            if st.space:
                return IllegalAction("already_wagered", f"the dealer has wagered on {st.space}:"
                                     f" cover ({in_chips(st.chips)}) or pass",
                                     rule="one wager a deal, by the dealer; the others cover")
            space = action.space or ""
            if space not in self.spaces:
                return IllegalAction("not_a_wager_space", f"{space or 'no space'} is not a "
                                     "side-bet space; wager on one of "
                                     + ", ".join(self.spaces),
                                     rule="the ace side-bet is made on an ace's space")
            chips = action.chips or 0
            if chips < 1:
                return IllegalAction("bad_amount", "wager at least 1 chip",
                                     rule="a wager is 1 chip or more")
            if chips > stack:
                return IllegalAction("insufficient_chips", f"you have only {in_chips(stack)}"
                                     if stack > 0 else "you have no chips to wager",
                                     rule="a wager may not exceed the player's chips")
        if verb == "cover":
            if not st.space:
                return IllegalAction("nothing_to_cover", "nobody has wagered: there is "
                                     "nothing to cover", rule="a player covers only the "
                                     "dealer's wager")
            if stack < st.chips:
                return IllegalAction("insufficient_chips", f"covering costs "
                                     f"{in_chips(st.chips)} and you have "
                                     f"{in_chips(max(stack, 0))}: pass",
                                     rule="a player covers only if his chips allow")
        return None

    def meaning(self, deal: Deal, action: Action) -> str:
        st = deal.state(AceBetState)
        if action.action == "wager":
            card = CARDS[self.spaces.get(action.space or "", 0)].name()
            return (f"wager {in_chips(action.chips)} on {action.space}: you bet that the "
                    f"{card} is dealt to you or to a player who covers")
        if action.action == "cover":
            return (f"cover: you put {in_chips(st.chips)} on {st.space} too, and win it if "
                    "you hold that ace")
        return "pass: you do not wager" if not st.space else "pass: you stay out of the bet"

    # -- the rules text -------------------------------------------------------------------
    def describe(self) -> str:
        return ace_bet_text(self.variant, self.settings) if self.spaces else ""

    def sections(self) -> list[tuple[str, str]]:
        """The side-bet's section, where it is made: before the deal (``ace_bet``) or after
        the extra hand (``ace_claim``)."""
        here = self.before_deal == (self.name == "ace_bet")
        return [(self.title, self.describe())] if here and self.spaces else []

    def decision_rule(self, deal: Deal) -> str:
        return ace_bet_text(self.variant, self.settings)


class AceBetPhase(_Betting):
    """The side-bet before the deal (``ace_bet_timing: before_deal``); nothing otherwise."""

    name = "ace_bet"

    def enter(self, deal: Deal) -> bool:
        if not self.spaces or not self.before_deal:
            return False
        return self._start(deal)


class AceClaimPhase(_Betting):
    """Right after the deal, before the extra hand (``before_deal``, G21): the holder of the
    ace wagered on, as dealt, takes the space if he bet; nothing under ``after_spare``."""

    name = "ace_claim"

    def enter(self, deal: Deal) -> bool:
        if not self.spaces or not self.before_deal:
            return False
        return self._done(deal, deal.reset_state(AceBetState))

    def _done(self, deal: Deal, st: AceBetState) -> bool:
        # the bet as the events tell it (made in this phase or in ace_bet, whose state is
        # dropped with it): the space wagered on and every seat that put chips on it
        space = ""
        bettors: list[int] = []
        for e in deal.events:
            if e.kind == WAGERED and e.seat is not None:
                space, bettors = e.space or "", [e.seat]
            elif e.kind == COVERED and e.seat is not None:
                bettors.append(e.seat)
        if space not in self.spaces:
            return False
        ace = self.spaces[space]
        holder = self._holder(deal, ace)
        if holder in bettors:
            shown = (ace,) if deal.owner[ace] == holder else ()
            deal.claim(holder, space, f"was dealt {CARDS[ace]}", shown=shown)
        return False

    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """A side-bet won tells everyone where its ace is: with its winner (after the extra
        hand), or (``before_deal``) where the hand it was dealt in has gone since, the extra
        hand's swaps followed (they all come before the claim)."""
        for e in deal.events:
            if e.kind != "claimed" or e.visible_to is not None or e.seat is None:
                continue
            ace = self.spaces.get(e.space or "")
            if ace is None or deal.played_by[ace] >= 0:
                continue
            place = e.seat
            if self.before_deal:
                for s in deal.events:
                    if s.kind in SWAPS_SPARE and s.visible_to is None and s.seat is not None:
                        place = SPARE if place == s.seat else (s.seat if place == SPARE
                                                               else place)
            known.hold(place, (ace,))

    def _holder(self, deal: Deal, ace: int) -> int:
        """The seat holding ``ace`` (as dealt under ``before_deal``; now, after any swap,
        under ``after_spare``), or -1 when it is in the extra hand."""
        if not self.before_deal:
            return deal.owner[ace]
        card = CARDS[ace]
        return next((s for s, hand in enumerate(deal.dealt_hands) if card in hand), -1)


class AceLatePhase(AceClaimPhase):
    """After the extra hand (``after_spare``, HR): the side-bet is made now, then the holder
    of the ace wagered on, after any swap, takes the space if he bet; nothing under
    ``before_deal``."""

    name = "ace_late"

    def enter(self, deal: Deal) -> bool:
        if not self.spaces or self.before_deal:
            return False
        return self._start(deal)


def ace_bet_text(variant: Variant, s: AceBetSettings) -> str:
    """The side-bet in words, with this variant's settings."""
    spaces = list(wager_spaces(variant))
    spare = variant.spare_name or "spare hand"
    when = ("Before the cards are dealt" if s.ace_bet_timing == "before_deal" else
            f"After the {spare} has been swapped or sold, before play")
    return (f"{when}, the dealer may bet on one ace: he puts 1 chip or more (no more than he "
            f"has) on its space ({', '.join(spaces)}), or passes. After a bet, each other "
            "player in turn from the dealer's left may cover it, putting the same number of "
            "chips on that space (only if he has that many), or pass. "
            + ("Once the cards are dealt, the player who was dealt that ace" if
               s.ace_bet_timing == "before_deal" else "The player who holds that ace")
            + " takes every chip on its space, those left from earlier deals included, if he "
            f"is the dealer or covered; if he did not bet, or the ace is in the {spare}, the "
            "chips stay on the space for later bets. Nobody stakes on these spaces otherwise"
            + ("; chips left on them are shared out with the rest at the end of the session."
               if variant.rules.leftover_at_match_end == "share" else "."))


def _checks(variant: Any) -> list[str]:
    return []


def _pays(variant: Any) -> tuple[str, ...]:
    return tuple(wager_spaces(variant))


# -- a bot's play of the side-bet ---------------------------------------------------------


def ace_bet_advice(obs: Observation, legal: Sequence[Action]) -> Action | None:
    """A sensible side-bet decision for ``obs.seat``, from what it sees: its hand (empty
    before the deal), the chips on the layout and the wager so far. ``None`` when the
    decision on offer is not the side-bet's.

    The dealer wagers when he holds an ace (after the extra hand): on the richest space of
    the aces he holds, a tenth of his chips (at least 1, at most 5). Before the deal he holds
    nothing and wagers 1 chip only where chips carried from earlier deals make the bet worth
    it (3 or more on a space), else passes. A player covers rarely: when he holds the ace
    bet on, or (before the deal) when the space holds at least four times the wager.
    """
    verbs = {a.action for a in legal}
    if not verbs <= {"wager", "cover", "pass"} or "pass" not in verbs:
        return None
    seat = obs.seat
    stack = obs.stacks[seat]
    hand = {int(c) for c in obs.hand}
    pas = simple(seat, "pass")
    if "wager" in verbs:
        wagers = [a for a in legal if a.action == "wager" and a.chips is not None]
        spaces = sorted({a.space for a in wagers if a.space}, key=lambda s: -obs.layout.get(s, 0))
        held = [s for s in spaces if _ace_of(s) in hand]
        if held:
            want = max(1, min(5, stack // 10))
            space = held[0]
        elif not hand and spaces and obs.layout.get(spaces[0], 0) >= 3:
            want, space = 1, spaces[0]
        else:
            return pas
        mine = [a for a in wagers if a.space == space]
        return min(mine, key=lambda a: (abs((a.chips or 0) - want), a.chips or 0), default=pas)
    if "cover" in verbs:
        bet = next((e for e in reversed(obs.events) if e.kind == WAGERED), None)
        if bet is not None and bet.space:
            if _ace_of(bet.space) in hand:
                return simple(seat, "cover")
            chips = bet.chips or 0
            if not hand and obs.layout.get(bet.space, 0) >= 4 * max(chips, 1) * 2:
                return simple(seat, "cover")
    return pas


_SUITS: Final = "CDHS"


def _ace_of(space: str) -> int:
    """The ace a wager space of the usual names (``ace-H``) bets on, or -1."""
    if space.startswith("ace-") and len(space) == 5 and space[4] in _SUITS:
        return _SUITS.index(space[4]) * 13 + 12
    return -1


# -- the vocabulary ------------------------------------------------------------------------


def _wagered(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} wagers {in_chips(e.chips)} on {e.space}"


def _covered(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} covers with {in_chips(e.chips)} on {e.space}"


ACE_BET_EVENTS: Final = (
    EventType(WAGERED, "``seat`` (the dealer) wagered ``chips`` on the wager ``space``",
              _wagered),
    EventType(COVERED, "``seat`` covered the wager, putting ``chips`` on ``space``", _covered),
)
"""The kinds of event the side-bet logs (a pass is the engine's ``passed``; the win is the
engine's ``claimed``)."""

ACE_BET_VERBS: Final = (
    Verb("wager", ("space", "chips"), meaning=lambda a: f"wager {in_chips(a.chips)} on "
         f"{a.space}: you bet on who holds that ace", doc="the dealer's side-bet of ``chips`` "
         "on a ``wager`` space (Royal Rummy)"),
    Verb("cover", meaning=lambda a: "cover: you match the dealer's wager",
         doc="match the dealer's side-bet (Royal Rummy)"),
)
"""The side-bet's decisions besides ``pass``."""


class AceBetTeller(Teller):
    """The side-bet told to one player ("you wager 3 chips on ace-H", "seat 2 covers")."""

    def lines(self, e: Event, t: Telling) -> list[str] | None:
        if e.kind == WAGERED:
            return [f"{t.verb(e.seat, 'wager', 'wagers')} {in_chips(e.chips)} on {e.space}"]
        if e.kind == COVERED:
            return [f"{t.verb(e.seat, 'cover', 'covers')} with {in_chips(e.chips)} on "
                    f"{e.space}"]
        return None


class AceBetAids(PhaseAids):
    """What the side-bet brings to the apps: its narration, how ``stops play`` asks (a space
    and an amount rather than a menu of every amount) and the heuristic bot's play."""

    def teller(self) -> Teller | None:
        return AceBetTeller()

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        amounts = [a.chips for a in legal if a.action == "wager" and a.chips is not None]
        if amounts:
            spaces = sorted({a.space for a in legal if a.action == "wager" and a.space})
            return Prompt(f"Your side-bet: wager 1 to {max(amounts)} chips on one of "
                          f"{', '.join(spaces)} (e.g. 'wager {spaces[0]} 2'), or pass.",
                          rule=True, menu=False)
        if any(a.action == "cover" for a in legal):
            return Prompt("The dealer has wagered: cover (match it) or pass.", rule=True)
        return Prompt("The side-bet: pass.", rule=True)

    def advise(self, view: BotView) -> Action | None:
        return ace_bet_advice(view.obs, view.legal)


ACE_BET_AIDS: Final = AceBetAids()


def register(reg: Registry) -> None:
    """The ace side-bet's three phases (each declares the verbs and events it may log)."""
    reg.register_phase("ace_bet", settings=AceBetSettings, check=_checks, pays=_pays,
                       verbs=ACE_BET_VERBS, events=ACE_BET_EVENTS)(AceBetPhase)
    reg.register_phase("ace_claim", requires=("ace_bet", "deal"), pays=_pays,
                       verbs=ACE_BET_VERBS, events=ACE_BET_EVENTS)(AceClaimPhase)
    reg.register_phase("ace_late", requires=("ace_bet", "spare_hand"), pays=_pays,
                       verbs=ACE_BET_VERBS, events=ACE_BET_EVENTS)(AceLatePhase)


__all__ = ["AceBetPhase", "AceBetSettings", "AceBetState", "AceClaimPhase", "AceLatePhase",
           "ace_bet_advice",
           "ace_bet_text", "wager_spaces"]

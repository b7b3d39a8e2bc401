"""The contracts between the engine, phases and policies, in one place.

A variant file names **phases** (the ``flow``) and fills **policy slots** (the ``rules``).
This module states what a phase must provide, what each slot's policies must provide, and —
once, here — the order in which the engine calls them through a deal.

Order of hooks through a deal
=============================

``Table.new_deal`` builds a :class:`~stops.engine.deal.Deal`; the deal then runs the phases of
``flow`` in order. For each phase the deal calls ``phase.enter(deal)``, which runs every step
that needs no decision and returns ``True`` when a seat must decide (``deal.to_act`` set, and
usually the decisions offered with ``deal.offer(legal)``), or ``False`` when the phase is done
and the deal moves on. While a phase waits, ``legal(deal)`` lists the decisions,
``apply(deal, action)`` carries out a legal one and returns whether another decision is due
in the phase, and ``explain(deal, action)`` says why an illegal one is refused.

The built-in phases call their slots in this order (a variant leaves out the phases it does
not need):

1. ``stake`` — ``stake_rule(deal, seat, params) -> StakePlan`` once per seat, clockwise from
   the dealer's left; a plan with a choice becomes ``stake`` decisions.
2. ``deal`` — deals the pack (the ``deal`` phase's settings say how).
3. ``spare_hand`` — the ``spare_protocol`` object runs its own ``enter / legal / apply /
   explain`` (the dealer's swap or sale, paid exchanges).
4. ``claim_held`` — ``pay_collection.held(deal, params)`` pays spaces whose cards are held.
5. a game's own stage before play (Three-in-One's betting round) — publishes its result
   with ``deal.publish`` for later policies (a ``first_leader`` that names its winner).
6. ``play`` — once per variant, ``successor(variant, params)`` builds the tables of what
   continues each card and ``turn_order(phase, params)`` says who plays it. Then per deal:
   ``first_leader(deal, params)`` once; for every lead ``after_stop(deal, seat, broken_suit,
   params)`` lists the cards ``seat`` may lead; while it is empty ``failed_lead.failed``
   runs and the lead passes left, and after a full round ``failed_lead.full_round`` decides
   between going round again (with a new restriction) and a block. Each card played runs
   the claim handlers that ``pay_collection.watch`` and ``run_rule.watch`` registered for it,
   in registration order; a handler that returns a reason (text) makes that card a stop.
7. ``settle`` — ``pay_collection.end`` and ``run_rule.end``; then ``going_out_reward(deal,
   winner, params)`` if someone went out, or ``block_outcome(deal, params)`` after a block.
8. After the deal, the table calls ``match_end(table, params)`` to know whether the session
   is over, and then (with ``leftover_at_match_end: share``) ``final_share(table, params)``
   for how the chips left on the layout are shared.

Phases hand results to later phases through ``deal.publish(value)`` / ``deal.result(Type)``,
one typed value per type; the engine never looks inside. What a phase or policy remembers
during a deal is its own typed state, ``deal.state(MyState)`` (made on first use), declared
by the phase (``state_types``) or the policy (``register_policy(..., states=...)``); the
engine copies it with the deal and drops a phase's when the deal moves past the phase.

A policy is registered together with its parameters (an attrs class made with
:func:`stops.rules.registry.param`), its plain-English text, its load-time checks and — for
``after_stop`` — its refusal explanations: see
:meth:`stops.rules.registry.Registry.register_policy`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

import attrs

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.deal import Deal
    from stops.engine.errors import IllegalAction
    from stops.engine.events import Event
    from stops.engine.legal import LegalSet
    from stops.engine.table import Table

P = TypeVar("P")
P_co = TypeVar("P_co", covariant=True)


class PhaseProtocol(Protocol):
    """What a phase provides. ``stops.phases.base.Phase`` implements every method with a
    harmless default; a phase class is registered with ``register_phase`` and built once per
    variant with the variant as its only argument."""

    name: ClassVar[str]
    state_types: ClassVar[tuple[type, ...]]
    """The classes of per-deal state the phase keeps (``deal.state(T)``, see
    :class:`stops.engine.deal.DealState`); dropped when the deal moves past the phase."""
    normalize: Callable[[Deal, Action], Action] | None
    """Fills in a field a player may omit (the fixed amount of a stake), or ``None`` (the
    default of ``stops.phases.base.Phase``). What a phase *is* rather than does is declared
    when it is registered (``PhaseSpec``: ``requires``, ``slots``, ``settings``,
    ``turns_up``)."""

    def enter(self, deal: Deal) -> bool: ...
    def legal(self, deal: Deal) -> LegalSet: ...
    def apply(self, deal: Deal, action: Action) -> bool: ...
    def explain(self, deal: Deal, action: Action) -> IllegalAction | None: ...
    def describe(self) -> str: ...
    def decision_rule(self, deal: Deal) -> str:
        """The rule behind the decision on offer, in the variant's own words (``?`` in
        ``stops play``); the base class answers with the phase's ``stops rules`` section."""
        ...


class DealShape(Protocol):
    """The shape of a variant's deal: how many cards each hand gets, which sizes a stacked
    deal must keep, and what the players call the spare hand.

    The phase that deals declares how to build one when it is registered (``register_phase``'s
    ``shape``); the variant builds it once and holds it as ``Variant.deal_shape``, so the
    table, records and texts ask the deal phase for its own shape without importing it (the
    engine sits below the phases) and the variant itself knows no deal shapes."""

    spare_name: str
    """The players' word for the cards dealt to nobody (spare hand, talon, dead hand,
    widow); the variant copies it to ``Variant.spare_name`` for every text that names it."""

    def sizes(self, players: int) -> list[int]:
        """Cards per seat from the dealer's left for ``players`` players and, last, the
        spare hand's (absent when the variant deals none)."""
        ...

    def stacked_sizes(self, players: int) -> list[int] | None:
        """The sizes stacked hands must have (each seat's from the dealer's left, then the
        spare's), or ``None`` when any sizes that make up the pack will do."""
        ...


# -- one protocol per policy slot -------------------------------------------------------------


class StakeRule(Protocol):
    """``stake_rule``: the stake plan of one seat (fixed stakes and at most one choice). A
    rule that excuses the last deal's winner declares ``exempts_winner(params)`` when
    registered (``PolicySpec``)."""

    def __call__(self, deal: Deal, seat: int, params: Any, /) -> Any: ...


class SpareProtocol(Protocol):
    """``spare_protocol``: a small phase of its own (see :class:`PhaseProtocol`)."""

    def enter(self, deal: Deal) -> bool: ...
    def legal(self, deal: Deal) -> LegalSet: ...
    def apply(self, deal: Deal, action: Action) -> bool: ...
    def explain(self, deal: Deal, action: Action) -> IllegalAction | None: ...


Handler = Callable[["Deal", int, int], "str | None"]
"""A claim hook: ``handler(deal, seat, card)`` after ``seat`` played ``card``. It returns
``None``, or a reason (text) to make that card a stop whatever follows it."""
Triggers = dict[int, list[Handler]]
"""Claim hooks by card: the play loop calls ``triggers[card]`` after that card is played."""


class ClaimPolicy(Protocol):
    """``pay_collection`` and ``run_rule``: claims on the layout.

    ``watch`` runs once per variant and registers hooks per card (``triggers``) or for every
    card (``every``); ``held`` runs in the ``claim_held`` phase; ``end`` at settlement;
    ``bound_cards`` tells a display which cards the spaces stand for in one deal.
    ``stops.policies.claims.ClaimPolicy`` is the base class that implements every member
    with a default (claims nothing, ``claims_during_play = True``); a plug-in subclasses it.
    """

    claims_during_play: bool
    """Whether the claims happen as cards are played (``False``: they were settled by holding
    in ``claim_held``, stage one of Three-in-One): the printed rules and ``stops check`` say
    which."""

    def watch(self, variant: Any, params: Any, triggers: Triggers,
              every: list[Handler]) -> None: ...
    def held(self, deal: Deal, params: Any) -> None: ...
    def end(self, deal: Deal, params: Any) -> None: ...
    def bound_cards(self, deal: Deal, params: Any) -> dict[str, tuple[int, ...]]:
        """The cards each space stands for in this deal beyond the layout's own card spaces
        (the trump compartments once the trump suit is known), for a display; ``{}`` by
        default."""
        ...


class FirstLeader(Protocol):
    """``first_leader``: who leads first (a ``FirstLead``), or ``None`` to redeal."""

    def __call__(self, deal: Deal, params: Any, /) -> Any: ...


class AfterStop(Protocol):
    """``after_stop``: the cards ``seat`` may lead after a stop in ``broken_suit`` (``None``
    for an unrestricted lead). Empty: the seat cannot lead and the lead passes left. Declared
    when registered (``PolicySpec``): ``keeps_suit(params)``, whether a seat that receives a
    passed lead is bound by the same restriction (without it, he is), and ``explain``, why a
    card is refused."""

    def __call__(self, deal: Deal, seat: int, broken_suit: int | None, params: Any, /
                 ) -> list[int]: ...


class Successor(Protocol):
    """``successor``: once per variant, the tables of what continues each card
    (a ``Succession``: next card by suit, next rank, the cards that always stop)."""

    def __call__(self, variant: Any, params: Any, /) -> Any: ...


class TurnOrder(Protocol):
    """``turn_order``: ``None`` for the default (the holder of the next card plays it at
    once, a forced run inside the play phase), or, built once per variant from the play
    phase, an object that runs the play as decisions (``legal / apply / explain``, like a
    phase), and for ``deal.clone_for`` says what its turns prove to a seat
    (``infer(deal, seat, play_events, knowledge)``, and the same read one event at a time:
    ``reading(deal, seat)``, a :class:`~stops.engine.determinize.Reading` the play phase's
    own reading tells the play's events) and whether an imagined deal, dealt for ``seat``,
    lets the seat on turn be there and keeps what its turns proved that a fact of one card
    cannot say (``consistent(deal, seat) -> bool``: a seat that passed offered only a wild
    card holds one of them). A turn order that plays turn by
    turn declares ``in_turn=True`` when registered, and ``direction(params)`` the way turns
    go (``PolicySpec``): the checks and the first lead read those, never its name."""

    def __call__(self, phase: Any, params: Any, /) -> Any: ...


class FailedLead(Protocol):
    """``failed_lead``: what a lead that cannot be made costs. ``failed(deal, seat, params)``
    may move chips (a penalty) as the lead passes on; ``full_round(deal, broken_suit,
    params)`` says, when nobody could lead, the new restriction to go round with once more
    (a colour flip), or ``None`` for a block."""

    def failed(self, deal: Deal, seat: int, params: Any) -> None: ...
    def full_round(self, deal: Deal, broken_suit: int | None, params: Any) -> int | None: ...


class Companion(Protocol):
    """``companion``: a card that may go down out of sequence together with a card its holder
    plays (Spinado's A♦). ``card(params)`` is that card (-1: none) and ``flag(params)`` the
    decision field that attaches it (``{"action": "lead", ..., FLAG: true}``). Its holder
    decides every card due from him in a sequence (a ``follow`` decision, with or without
    the flag). ``attach(deal, seat, card, params, lay)`` lays the companion straight after
    ``card`` (with ``lay(deal, seat, companion, kind)``), pays what it pays, and returns why
    the card is now a stop."""

    def card(self, params: Any) -> int: ...
    def flag(self, params: Any) -> str: ...
    def attach(self, deal: Deal, seat: int, card: int, params: Any,
               lay: Callable[..., str | None]) -> str | None: ...


class WildCard(Protocol):
    """``wild_card``: a card that may stand for any rank when laid in turn (the Comet's
    9♦): ``card(params)`` (-1: none) and ``cards(params)`` (every wild card: Pink Nines has
    two); ``on_lay(deal, seat, as_rank, params)`` pays what laying
    it pays and returns why it ends the sequence (``None``: it does not by itself);
    ``on_turn(deal, seat, cards, params)``, after each whole turn in rotation, pays what a turn
    pays (the Comet's King bonus) and likewise returns a reason or ``None``;
    ``named(event, params)`` reads the rank an event of its own says a wild card was laid as
    (-1: the event says none), so that what later turns prove is read on from that rank
    (``deal.clone_for``). ``stops.phases.rotation.WildCardPolicy`` is the base class with
    every member's default (no card; a turn pays nothing more; no event names a rank). The
    play reads them once per variant."""

    def card(self, params: Any) -> int: ...
    def cards(self, params: Any) -> tuple[int, ...]: ...
    def on_lay(self, deal: Deal, seat: int, as_rank: str | None, params: Any) -> str | None: ...
    def on_turn(self, deal: Deal, seat: int, cards: list[int], params: Any) -> str | None: ...
    def named(self, e: Event, params: Any) -> int: ...


class GoingOutReward(Protocol):
    """``going_out_reward``: pay the first player out (with ``deal.claim`` / ``deal.pay``)."""

    def __call__(self, deal: Deal, winner: int, params: Any, /) -> None: ...


class BlockOutcome(Protocol):
    """``block_outcome``: settle a blocked deal; returns ``"rotate"`` or ``"same_dealer"``."""

    def __call__(self, deal: Deal, params: Any, /) -> str: ...


class MatchEnd(Protocol):
    """``match_end``: whether the session is over, asked after every deal. A function has no
    declared members, so its capabilities are declared when it is registered
    (``PolicySpec``): ``before_first_deal=True`` (asked before the first deal too) and
    ``why=`` (``why(table, params)``: why it ended the session)."""

    def __call__(self, table: Table, params: Any, /) -> bool: ...


class FinalShare(Protocol):
    """``final_share``: how chips left on the layout are shared when the session ends (with
    ``leftover_at_match_end: share``): groups of spaces, each pooled and split in proportion
    to the weights by seat, odd chips one at a time clockwise from the last dealer's left
    among the seats still in the session; or, when a group has a third item, among those
    seats in that order (a share-out by hands dealt: the winners, from the final dealer's left). A
    policy whose weights are what each seat put on each space declares
    ``tracks_contributions=True`` when registered (``PolicySpec``): the ledger keeps that
    account only then."""

    def __call__(self, table: Table, params: Any, /) -> list[tuple[Any, ...]]: ...


@attrs.frozen
class Slot(Generic[P_co]):
    """A policy slot: its name, what it decides, and the protocol its policies implement.

    ``variant.policy(AFTER_STOP)`` is typed by the slot, so a phase that calls a policy is
    checked against the slot's protocol.
    """

    name: str
    doc: str
    protocol: object
    """The :class:`typing.Protocol` a policy for this slot implements (``P_co``)."""
    signature: str
    brings: tuple[str, ...] = ()
    """The other slots a policy of this slot may bring into force; a policy says which it
    does with its parameters (``brings`` when registered), and one that does not say is
    taken to bring them all (see :func:`stops.rules.prose.in_force`)."""


STAKE_RULE: Slot[StakeRule] = Slot(
    "stake_rule", "Who puts how many chips on which spaces before the deal.", StakeRule,
    "(deal, seat, params) -> StakePlan")
SPARE_PROTOCOL: Slot[SpareProtocol] = Slot(
    "spare_protocol", "What may be done with the spare hand before play.", SpareProtocol,
    "an object with enter / legal / apply / explain")
PAY_COLLECTION: Slot[ClaimPolicy] = Slot(
    "pay_collection", "When card, combination and run spaces pay.", ClaimPolicy,
    "a ClaimPolicy: watch / held / end, claims_during_play")
RUN_RULE: Slot[ClaimPolicy] = Slot(
    "run_rule", "A prize for a run played by one player.", ClaimPolicy, "a ClaimPolicy")
FIRST_LEADER: Slot[FirstLeader] = Slot(
    "first_leader", "Who leads first.", FirstLeader, "(deal, params) -> FirstLead | None",
    ("block_outcome",))  # no leader at all: the deal is redealt as the block outcome says
AFTER_STOP: Slot[AfterStop] = Slot(
    "after_stop", "What may be led, after a stop and at a free lead.", AfterStop,
    "(deal, seat, broken_suit | None, params) -> list[card]",
    ("failed_lead",))  # a player with cards who may not lead any of them
SUCCESSOR: Slot[Successor] = Slot(
    "successor", "What card continues a sequence.", Successor,
    "(variant, params) -> Succession")
TURN_ORDER: Slot[TurnOrder] = Slot(
    "turn_order", "Who plays the next card of a sequence.", TurnOrder,
    "(play_phase, params) -> None | turns object")
COMPANION: Slot[Companion] = Slot(
    "companion", "A card that may go down out of sequence with another.", Companion,
    "object: card(params), flag(params), attach(deal, seat, card, params, lay)")
WILD_CARD: Slot[WildCard] = Slot(
    "wild_card", "A card that may stand for any rank in play in rotation.", WildCard,
    "object: card(params), cards(params), on_lay(deal, seat, as_rank, params), "
    "on_turn(deal, seat, cards, params), named(event, params)")
FAILED_LEAD: Slot[FailedLead] = Slot(
    "failed_lead", "What happens when a player cannot lead as the rules require.", FailedLead,
    "object: failed(deal, seat, params); full_round(deal, broken_suit, params)",
    ("block_outcome",))  # nobody at all can lead
GOING_OUT_REWARD: Slot[GoingOutReward] = Slot(
    "going_out_reward", "What the first player out wins.", GoingOutReward,
    "(deal, winner, params) -> None")
BLOCK_OUTCOME: Slot[BlockOutcome] = Slot(
    "block_outcome", "What happens when nobody can lead.", BlockOutcome,
    "(deal, params) -> 'rotate' | 'same_dealer'")
MATCH_END: Slot[MatchEnd] = Slot(
    "match_end", "When the session ends.", MatchEnd, "(table, params) -> bool")
FINAL_SHARE: Slot[FinalShare] = Slot(
    "final_share", "How chips left on the layout are shared at the end of the session.",
    FinalShare, "(table, params) -> [(spaces, weights by seat[, seats for odd chips])]")

SLOTS: tuple[Slot[Any], ...] = (
    STAKE_RULE, SPARE_PROTOCOL, PAY_COLLECTION, RUN_RULE, SUCCESSOR, TURN_ORDER, COMPANION,
    WILD_CARD,
    FIRST_LEADER, AFTER_STOP, FAILED_LEAD, GOING_OUT_REWARD, BLOCK_OUTCOME, MATCH_END,
    FINAL_SHARE,
)
"""Every built-in slot, in the order a deal first consults them."""


@attrs.frozen
class BoundPolicy(Generic[P]):
    """A policy chosen for a slot in one variant, with its parameters structured."""

    slot: str
    name: str
    impl: P
    params: Any
    spec: Any
    """The :class:`~stops.rules.registry.PolicySpec` it was registered with."""

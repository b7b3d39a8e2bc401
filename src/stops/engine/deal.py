"""One deal: the state machine that runs a variant's phases until the deal is over.

The :class:`Deal` owns the mutable state of one hand (who holds which card, chips, the event
log) and steps through the variant's phases. Phases run every forced step themselves and stop
only when a seat has a real decision to make, so ``current_seat`` / ``legal_actions`` /
``apply`` is the whole step API.

Validity is decided in one place: an action is legal iff it is in :meth:`Deal.legal_actions`.
``apply`` checks that *before* touching anything, so an illegal action raises
:class:`~stops.engine.errors.IllegalAction` and leaves the deal exactly as it was.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import CARDS, Card
from stops.engine.chips import Account, Ledger
from stops.engine.errors import Explanation, IllegalAction, StopsError
from stops.engine.eventkind import EventKind
from stops.engine.events import Event, event, shared, staked_event
from stops.engine.legal import FixedActions, LegalActions, LegalSet, holds
from stops.engine.rng import deal_key, deal_shuffle, keyed_order
from stops.engine.session_end import SessionEnd
from stops.engine.text import shown

if TYPE_CHECKING:
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant

# EventKind members as Final constants: reading an enum member as a class attribute
# costs ~190 ns (a Python-level lookup in either build); these are read directly.
K_CLAIMED: Final = EventKind.CLAIMED
K_DEAL_STARTED: Final = EventKind.DEAL_STARTED
K_PAID: Final = EventKind.PAID
K_RETIRED: Final = EventKind.RETIRED

SPARE: Final = -1
"""``owner[card]`` for a card in the spare (dead) hand."""
PLAYED: Final = -2
"""``owner[card]`` for a card already played."""
ABSENT: Final = -3
"""``owner[card]`` for a card removed from the pack."""

NO_LEGAL: Final = LegalActions()
NONE: Final[frozenset[int]] = frozenset()
NO_SPACES: Final[frozenset[str]] = frozenset()
"""Shared empty sets (every ``frozenset()`` is a new object of ~200 bytes, kept by every deal
and every kept record)."""

R = TypeVar("R")

_ROUND: Final[dict[tuple[int, int, bool], tuple[int, ...]]] = {
    (n, after, include): tuple([(after + k) % n for k in range(1, n + 1)][:n if include else -1])
    for n in range(1, 17) for after in range(n) for include in (True, False)}
"""``Deal.order`` when every seat plays, by (seats, seat, include_self): built at import
for tables of up to 16 seats (built whole: no deal grows it while another thread reads
it)."""
_EVERY_SEAT: Final = tuple(tuple(range(n)) for n in range(65))
"""``active`` when every seat plays, by seat count (one shared tuple, not one per deal)."""
_PARTIAL: Final[Callable[..., Callable[..., Any]]] = functools.partial
"""``functools.partial``, read once: :meth:`Deal.reseed` (every copy ``clone_for`` deals)
looked it up in the module at every call, compiled."""

Hands = tuple[tuple[Card, ...], ...]
RecordWork = Callable[[Hands, tuple[Card, ...]], tuple[Hands, tuple[Card, ...]]]
"""Works out a deal's record (hands as dealt, spare as dealt) from the one it holds: see
:meth:`Deal.defer_record`."""


class DealState(Protocol):
    """What a class of per-deal state provides (see :meth:`Deal.state`).

    A phase or policy keeps what it must remember during one deal (whose turn it is, the
    bids so far) in an object of its own class, made with no arguments by ``Deal.state``
    the first time it is asked for, and declares the class: a phase in
    ``Phase.state_types`` (dropped when the deal moves past the phase), a policy with
    ``register_policy(..., states=...)`` (kept for the whole deal). ``copy()`` is what
    ``Deal.clone`` calls: an independent copy, deep enough that a change to either never
    shows in the other. A state class should also compare by value (``==``: the
    conformance checks compare states before and after a refused decision) and pickle (a
    plain class with a no-argument ``__init__``, or an attrs class, does).
    """

    def copy(self) -> Any: ...


S = TypeVar("S", bound=DealState)


@mypyc_attr(allow_interpreted_subclasses=True)
class HandCheck:
    """One hand of an imagined deal checked alone, from its cards: what a phase's facts
    say of ``holder``'s hand (a hand he showed as his best must still be his best), asked
    by ``clone_for`` of each deal it imagines *before* it makes the copy's hands (see
    :meth:`Step.hand_checks`). A refused deal then costs a mask per hand and this check,
    not the copy's hands put in place and every phase's checks of them; and the walk
    towards a deal that fits (where whole deals seldom do) steps by the two or three hands
    a step changes.

    ``hand`` is the holder's whole hand in the imagined deal as one 52-bit mask (bit ``c``:
    card ``c``), the cards he is known to hold among them. A check draws nothing and
    changes nothing; it may keep its answers per hand."""

    def __init__(self, holder: int) -> None:
        self.holder = holder

    def __repr__(self) -> str:
        return f"{type(self).__name__}(holder={self.holder!r})"

    def fits(self, hand: int) -> bool:
        """Whether ``hand`` could be the holder's (``True`` by default)."""
        return True

    def culprits(self, hand: int) -> frozenset[int]:
        """Where :meth:`fits` said no: the cards of ``hand`` that put it at fault, which
        the walk moves first (empty, the default: any of his hidden cards)."""
        return frozenset()


@mypyc_attr(allow_interpreted_subclasses=True)
class Step:
    """What a deal calls on the phase in progress at every decision: ``enter``, ``legal``
    and ``apply`` (see :mod:`stops.phases`; :class:`stops.phases.Phase` is a ``Step``).

    It lives here, in the engine, so that the deal can name it: the compiled build then
    calls a built-in phase through its native method table instead of a generic Python
    method call (a method looked up by name, its arguments checked and unboxed: three such
    calls at every decision). A phase that is not a ``Step`` (any object with the three
    methods, as :mod:`stops.phases` allows) is wrapped in :class:`PhaseStep`."""

    redeals: bool = True
    """Whether ``clone_for`` must call this phase's ``after_redeal`` on its imagined deals:
    :class:`stops.phases.Phase` clears it where the class keeps the default (which does
    nothing), so a copy calls only the phases with something to put in line (each call
    that only returned True cost a pure copy about one per cent)."""

    checks_hands: bool = False
    """Whether ``clone_for`` must ask this phase's ``hands_fit`` of its imagined deals:
    :class:`stops.phases.Phase` sets it where the class has one of its own."""

    checks_each_hand: bool = False
    """Whether this phase's checks of the hands are :meth:`hand_checks`, one hand at a
    time (``clone_for`` then asks those, never ``hands_fit``): :class:`stops.phases.Phase`
    sets it where the class has its own."""

    infers: bool = True
    """Whether ``clone_for`` must ask this phase's ``infer`` at each new position a seat meets
    (where the phase has no reading of its own): :class:`stops.phases.Phase` clears it where
    the class keeps the default (which adds nothing)."""

    def enter(self, deal: Deal) -> bool:
        return False

    def legal(self, deal: Deal) -> LegalSet:
        return NO_LEGAL

    def apply(self, deal: Deal, action: Action) -> bool:
        raise IllegalAction("wrong_phase", "this phase takes no decisions")

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """See :meth:`stops.phases.Phase.after_redeal` (nothing by default). Named here so
        that ``clone_for`` calls a built-in phase's through the native method table in the
        compiled build (a generic method call, looked up by name and its arguments boxed,
        cost a few hundred instructions a phase on every imagined deal)."""
        return True

    def hands_fit(self, deal: Deal, seat: int) -> bool:
        """See :meth:`stops.phases.Phase.hands_fit` (every deal fits by default). Named here
        for the native method table, as :meth:`after_redeal` is."""
        return True

    def hand_checks(self, deal: Deal, seat: int) -> list[HandCheck]:
        """See :meth:`stops.phases.Phase.hand_checks` (none by default)."""
        return []

    def misfits(self, deal: Deal, seat: int) -> frozenset[int]:
        """See :meth:`stops.phases.Phase.misfits` (none by default)."""
        return frozenset()

    def misfit_cards(self, deal: Deal, seat: int) -> frozenset[int]:
        """See :meth:`stops.phases.Phase.misfit_cards` (none by default)."""
        return frozenset()


class PhaseStep(Step):
    """A phase that is not a :class:`Step`, called through its own methods (generic calls,
    as every phase was called before ``Step``). ``normalize`` and ``state_types`` are the
    phase's, read once."""

    def __init__(self, phase: Any) -> None:
        self.phase: Any = phase
        self.normalize: Any = phase.normalize
        self.state_types: tuple[type, ...] = tuple(phase.state_types)

    def enter(self, deal: Deal) -> bool:
        return bool(self.phase.enter(deal))

    def legal(self, deal: Deal) -> LegalSet:
        got: LegalSet = self.phase.legal(deal)
        return got

    def apply(self, deal: Deal, action: Action) -> bool:
        return bool(self.phase.apply(deal, action))


def steps_of(phases: Sequence[Any]) -> tuple[Step, ...]:
    """A variant's phases as the deal calls them: each :class:`Step` itself, any other
    phase wrapped (built once per variant, by the variant)."""
    return tuple([p if isinstance(p, Step) else PhaseStep(p) for p in phases])


class Deal:
    """One deal of a variant at a table. Create it with :meth:`stops.Table.new_deal`."""

    __slots__ = (
        "_dealt_hands", "_dealt_spare", "_given_hands", "_given_spare", "_imagined", "_legal",
        "_on_end", "_pay_what_you_can", "_phases", "_record", "_shuffle", "_views", "ace_low",
        "actions", "active", "counts", "deal_index", "dealer", "emit", "events", "exempt",
        "last_dealt", "ledger", "masks", "n",
        "next_deal", "outcome", "owner", "phase_idx", "played_by", "plays", "results",
        "retired", "rules", "seed", "session_end", "short", "skip_stakes", "spare",
        "spare_known",
        "stacked", "start_layout", "start_retired", "start_stacks", "states", "to_act",
        "variant", "winner"
    )

    def __init__(
        self,
        variant: Variant,
        *,
        players: int,
        dealer: int,
        stacks: Sequence[int],
        layout: Mapping[str, int],
        retired: Iterable[str] = (),
        hands: Sequence[Sequence[Card]] | None = None,
        spare: Sequence[Card] | None = None,
        shuffle: Callable[[list[Card]], None] | None = None,
        deal_index: int = 0,
        skip_stakes: bool = False,
        on_end: Callable[[Deal], None] | None = None,
        seed: int | str | None = None,
        active: Sequence[int] | None = None,
        exempt: Iterable[int] = (),
        last_dealt: int = -1,
        _blank: bool = False,
        _bare: bool = False,
    ) -> None:
        if _bare:  # imagined_copy sets every field itself (a native class runs __init__)
            return
        self.session_end: SessionEnd | None = None
        """Set by the table when its session ends after this deal: the closing share-out
        and the chips each seat ends with. A copy, a pickle or a save does not carry it (it
        is the table's, as ``table.stacks`` is)."""
        self.variant = variant
        self._phases: tuple[Step, ...] = variant.steps
        self.rules = variant.rules
        self._pay_what_you_can = variant.rules.chip_shortfall != "debt"
        self.ace_low: bool = variant.rules.ace == "low"
        """The variant's rank order puts the ace below the two."""
        self.last_dealt: int = last_dealt
        """The last card dealt: kept by the deal phase, or given with stacked hands (a
        record's ``turn_up``); a turn-up is read from it. -1: not known."""
        self.n = players
        self.active: tuple[int, ...] = (
            _EVERY_SEAT[players] if active is None and 0 <= players < len(_EVERY_SEAT)
            else tuple(range(players)) if active is None else tuple(sorted(active)))
        """The seats taking part (all, unless ``chip_shortfall: eliminate`` removed some)."""
        self.exempt: frozenset[int] = frozenset(exempt) if exempt else NONE
        """Seats excused from this deal's stake (a record's ``exempt``; a stake rule reads
        it)."""
        self.short: set[int] = set()
        """Seats that could not pay a compulsory payment in full during this deal."""
        self.dealer = dealer
        self.deal_index = deal_index
        self.seed = seed
        """The table's seed (with ``deal_index`` it fixes the shuffle)."""
        self.skip_stakes = skip_stakes
        self.start_stacks = tuple(stacks)
        self.start_layout = {k: v for k, v in layout.items() if v}
        self.start_retired: frozenset[str] = frozenset(retired) if retired else NO_SPACES
        space_ids = variant.space_ids
        if layout.__class__ is dict and len(layout) == len(space_ids) and \
                tuple(layout) == space_ids:
            # a table's layout (every space, in the variant's order): the ledger's copy of
            # it is the same dict, made in C (this runs at every deal)
            self.ledger = Ledger(stacks, layout, track=variant.tracks_contributions)
        else:
            self.ledger = Ledger(stacks, {sid: layout.get(sid, 0) for sid in space_ids},
                                 track=variant.tracks_contributions)
            for sid, v in layout.items():
                if sid not in self.ledger.layout and v:
                    self.ledger.layout[sid] = v
        self.retired: set[str] = set(retired)
        self.events: list[Event] = []
        self.emit = self.events.append
        self._views: dict[int, tuple[list[Event], int, tuple[Event, ...]]] = {}
        self._imagined: dict[Any, Any] | None = None
        """``clone_for``'s memory of what each seat knows at the point reached (kept by
        :mod:`stops.engine.determinize`, made on its first call; never copied: a copy works
        it out afresh)."""
        self.actions: list[Action] = []
        # cards: owner table and per-seat suit bitmasks (bit r of masks[s][suit] = rank r held)
        self.owner: list[int] = [ABSENT] * 52
        self.masks: list[list[int]] = [[0, 0, 0, 0] for _ in range(players)]
        self.counts: list[int] = [0] * players
        self.spare: set[int] = set()
        self.spare_known: frozenset[int] = NONE
        self.played_by: list[int] = [-1] * 52
        self.plays: list[tuple[int, Card]] = []
        self._dealt_hands: tuple[tuple[Card, ...], ...] = ()
        self._dealt_spare: tuple[Card, ...] = ()
        self._record: RecordWork | None = None  # see defer_record
        self._given_hands = hands
        self._given_spare = spare
        self.stacked = hands is not None
        """Dealt from given hands rather than shuffled by the seed."""
        self._shuffle = shuffle
        # flow
        self.to_act: int | None = None
        self.phase_idx = 0
        self.outcome: str | None = None
        self.winner: int | None = None
        self.next_deal = "rotate"
        self.results: dict[type, object] = {}
        """What phases hand on to later phases and policies, one typed value per type (see
        :meth:`publish`)."""
        self.states: dict[type, Any] = {}
        """The per-deal state of phases and policies, one object per class (read it with
        :meth:`state`; the engine only copies, drops and pickles it). A phase's hot path may
        read its own as ``deal.states[T]`` where it surely exists (one lookup, no call)."""
        self._legal: LegalSet | None = None
        self._on_end = on_end
        if _blank:  # clone() and unpickling fill in the state themselves
            return
        self.events.append(shared(K_DEAL_STARTED, dealer))  # fixed by the dealer: shared
        self._advance_from(0)

    # -- the step API ---------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.to_act is None

    @property
    def current_seat(self) -> int | None:
        """The seat that must decide next, or ``None`` once the deal is over."""
        return self.to_act

    @property
    def phase(self) -> str:
        """The name of the phase in progress (``"over"`` at the end)."""
        if self.to_act is None:
            return "over"
        return self.variant.flow[self.phase_idx]

    def legal_actions(self, seat: int | None = None) -> LegalSet:
        """The decisions open to ``seat`` (default: the seat to act); empty for anyone else."""
        if self.to_act is None or (seat is not None and seat != self.to_act):
            return NO_LEGAL
        legal = self._legal
        if legal is None:
            legal = self._legal = self._phases[self.phase_idx].legal(self)
        return legal

    def apply(self, decision: Action | Mapping[str, Any]) -> list[Event]:
        """Make a decision. Returns the events it caused (forced plays included).

        Raises :class:`IllegalAction` (with a ``code``) and changes nothing if the rules do
        not allow it.
        """
        # ``type(x) is``, not ``x.__class__ is``: the compiled build reads the type directly
        # (``__class__`` is a generic attribute look-up there, a few hundred instructions)
        action = (decision if type(decision) is Action
                  else action_from_dict(decision))  # type: ignore[arg-type]
        if self.to_act is None:
            raise _deal_over()
        phase = self._phases[self.phase_idx]
        ph: Any = phase  # ``normalize`` is an optional attribute: read generically
        if ph.normalize is not None:
            action = ph.normalize(self, action)
        legal = self._legal
        if legal is None:
            legal = self._legal = phase.legal(self)
        # a FixedActions (the common legal set) is asked directly: ``in`` would go through
        # its Python-level ``__contains__`` (two calls more per decision, pure; a slot call
        # compiled), and ``action`` is an Action here, which is all that adds
        if not (holds(legal, action) if type(legal) is FixedActions else action in legal):
            raise self._refusal(action)
        # _carry_out, inline: the hot path of every decision
        events = self.events
        start = len(events)
        self._legal = None
        self.actions.append(action)
        if not phase.apply(self, action):
            self._advance_from(self.phase_idx + 1)
        return events[start:]

    def _carry_out(self, phase: Step, action: Action) -> list[Event]:
        """Record a legal ``action`` and let ``phase`` carry it out (``apply_index``; ``apply``
        does the same inline); the events it caused."""
        events = self.events
        start = len(events)
        self._legal = None
        self.actions.append(action)
        if not phase.apply(self, action):
            self._advance_from(self.phase_idx + 1)
        return events[start:]

    def legal_count(self) -> int:
        """How many decisions the seat to act has (0 once the deal is over): the size of
        :meth:`legal_actions`, for drivers that pick by index (see :meth:`apply_index`)."""
        if self.to_act is None:
            return 0
        legal = self._legal
        if legal is None:
            legal = self._legal = self._phases[self.phase_idx].legal(self)
        return len(legal)

    def apply_index(self, i: Any) -> list[Event]:
        """Make the ``i``-th decision of :meth:`legal_actions` (OpenSpiel-style integer
        actions, for drivers and bots). The same as ``apply(legal_actions()[i])``, without
        looking the action up in the legal set it came from.

        ``i`` is typed ``Any`` so that both builds refuse a bad index the same way: it
        raises :class:`IllegalAction` (code ``bad_index``) and changes nothing if ``i`` is
        not a whole number in ``range(legal_count())``.
        """
        if self.to_act is None:
            raise _deal_over()
        phase = self._phases[self.phase_idx]
        legal = self._legal
        if legal is None:
            legal = self._legal = phase.legal(self)
        if i.__class__ is not int and not isinstance(i, bool) and hasattr(i, "__index__"):
            i = i.__index__()  # the index protocol: a numpy integer from a learning framework
        if i.__class__ is not int or not 0 <= i < len(legal):
            raise IllegalAction("bad_index", f"decision index {shown(i)} is not in range(0, "
                                f"{len(legal)}): the seat to act has {len(legal)} choices",
                                rule="an index picks one of legal_actions(), in order")
        action = legal[i]
        ph: Any = phase
        if ph.normalize is not None:
            action = ph.normalize(self, action)
        return self._carry_out(phase, action)

    def offer(self, legal: LegalSet) -> None:
        """A phase offers the seat to act exactly these decisions (computed while entering or
        applying, so ``legal_actions`` need not compute them again)."""
        self._legal = legal

    @property
    def dealt_hands(self) -> Hands:
        """Each seat's hand as dealt, in card order (every card played back with its player,
        every swap undone); ``()`` before the deal is dealt."""
        if self._record is not None:
            self._work_out_record()
        return self._dealt_hands

    @dealt_hands.setter
    def dealt_hands(self, hands: Hands) -> None:
        if self._record is not None:
            self._work_out_record()  # the spare's record stays right
        self._dealt_hands = hands

    @property
    def dealt_spare(self) -> tuple[Card, ...]:
        """The spare hand as dealt, in card order (``()`` if none)."""
        if self._record is not None:
            self._work_out_record()
        return self._dealt_spare

    @dealt_spare.setter
    def dealt_spare(self, spare: tuple[Card, ...]) -> None:
        if self._record is not None:
            self._work_out_record()
        self._dealt_spare = spare

    def defer_record(self, work: RecordWork) -> None:
        """Let ``work`` make this deal's record from the one it holds now, the first time
        the record is read (``dealt_hands``, ``dealt_spare``, a copy, a save): ``clone_for``
        imagines many deals of which a search reads few records, and sorting every hand of
        every copy cost it about a ``clone()``. O(1) here."""
        self._record = work

    def _work_out_record(self) -> None:
        work = self._record
        if work is not None:
            self._record = None
            self._dealt_hands, self._dealt_spare = work(self._dealt_hands, self._dealt_spare)

    def forget_offer(self) -> None:
        """Work the decisions on offer out again when next asked (the cards changed hands
        outside any phase: ``clone_for``'s imagined deal)."""
        self._legal = None

    def publish(self, result: object) -> None:
        """Hand a phase's result on to later phases and policies (one value per type).

        For example a phase that plays for a pot publishes who won it, and a first-leader
        policy reads it with ``deal.result(ThatResult)``. The engine never
        looks inside: it only keeps the value with the deal (clones, saves by replay).
        """
        self.results[type(result)] = result

    def result(self, kind: type[R]) -> R | None:
        """The result of type ``kind`` an earlier phase published, or ``None``."""
        found = self.results.get(kind)
        return found if isinstance(found, kind) else None

    def state(self, kind: type[S]) -> S:
        """This deal's state of class ``kind``, made with ``kind()`` the first time it is
        asked for (a :class:`DealState`: a phase's or policy's memory of this deal).

        The class must be declared by a phase of the variant (``Phase.state_types``) or a
        policy it uses (``register_policy(..., states=...)``): a state no rule declares
        would never be dropped with its phase, so asking for one is a
        :class:`~stops.engine.errors.StopsError`. Each deal, and each copy of one, has its
        own; only the module that declares a class reads or changes it (others ask that
        module, through the typed members it offers).
        """
        got: S | None = self.states.get(kind)  # no cast(): a call on every read
        if got is None:
            got = self.reset_state(kind)
        return got

    def peek_state(self, kind: type[S]) -> S | None:
        """This deal's state of class ``kind`` if it has been made, else ``None`` (never
        makes one: for code that only looks, such as ``explain`` and a display)."""
        got: S | None = self.states.get(kind)
        return got

    def reset_state(self, kind: type[S]) -> S:
        """A fresh ``kind()`` as this deal's state of that class, replacing any (a phase
        starting over)."""
        if kind not in self.variant.state_types:
            raise StopsError(
                f"{kind.__name__} is not declared as deal state by any phase or policy of "
                f"{self.variant.name}: a phase lists it in state_types, a policy in "
                "register_policy(..., states=...)")
        made = kind()
        self.states[kind] = made
        return made

    def drop_state(self, kind: type) -> None:
        """Forget this deal's state of class ``kind`` (the next :meth:`state` makes a new
        one)."""
        self.states.pop(kind, None)

    def can(self, action: Action | Mapping[str, Any]) -> bool:
        try:
            a = action if isinstance(action, Action) else action_from_dict(action)
        except IllegalAction:
            return False
        return a in self.legal_actions()

    def explain(self, action: Any) -> IllegalAction | Explanation:
        """What ``action`` (an Action or its dict form) would do now, without doing it.

        A decision the rules allow gets an :class:`~stops.engine.errors.Explanation` (what
        it does, in the variant's words); any other gets the :class:`IllegalAction` that
        ``apply`` would raise (returned, not raised). Both have ``legal``, ``code``,
        ``message`` and ``rule``, so a user interface can show why a card is greyed out or
        what clicking it does. Never changes the deal.
        """
        if action.__class__ is not Action:
            try:
                action = action_from_dict(action)
            except IllegalAction as e:
                return e
        if self.to_act is not None and action.seat == self.to_act:
            phase: Any = self.variant.phases[self.phase_idx]
            if phase.normalize is not None:
                try:
                    action = phase.normalize(self, action)
                except IllegalAction as e:
                    return e
            if action in self.legal_actions():
                return Explanation(action.action, phase.meaning(self, action), action,
                                   rule=phase.decision_rule(self))
        return self._refusal(action)

    def _refusal(self, action: Action) -> IllegalAction:
        """Why ``action``, known not to be legal now, is refused (what ``apply`` raises)."""
        if self.to_act is None:
            return IllegalAction("deal_over", "the deal is over")
        if not 0 <= action.seat < self.n:
            return IllegalAction("bad_seat", f"there is no seat {action.seat} at a table of "
                                 f"{self.n} (seats are 0..{self.n - 1})")
        if action.seat != self.to_act:
            return IllegalAction(
                "not_your_turn",
                f"seat {action.seat} cannot act now: it is seat {self.to_act}'s decision "
                f"({self.phase} phase)",
                rule="the engine asks one seat at a time, clockwise from the dealer's left",
            )
        legal = self.legal_actions()
        phase = self.variant.phases[self.phase_idx]
        explained: IllegalAction | None = phase.explain(self, action)
        if explained is not None:
            return explained
        if action.flags and not any(set(action.flags) <= set(a.flags) for a in legal):
            return IllegalAction(
                "flag_not_offered",
                f"{', '.join(action.flags)} is not offered now: no decision on offer takes it",
                rule="a yes/no field goes only on the decisions a rule of this game offers "
                     "it with")
        if action.action not in legal.verbs:
            return IllegalAction(
                "wrong_action",
                f"{action.action!r} is not possible now ({self.phase} phase); "
                f"possible: {', '.join(legal.verbs)}",
            )
        return IllegalAction("illegal", f"{action} is not allowed now; legal: {legal!r}")

    # -- flow -----------------------------------------------------------------------------
    def _advance_from(self, idx: int) -> None:
        phases = self._phases
        states = self.states
        if idx:
            done: Any = phases[idx - 1]  # ``state_types``: a class attribute, read generically
            for kind in done.state_types:
                states.pop(kind, None)
        while idx < len(phases):
            self.phase_idx = idx
            self._legal = None  # a phase may set it while entering (a lead it computed)
            phase = phases[idx]
            if phase.enter(self):
                return
            ph: Any = phase
            for kind in ph.state_types:
                states.pop(kind, None)
            idx += 1
        self.to_act = None
        self.phase_idx = len(phases) - 1
        if self._on_end is not None:
            self._on_end(self)

    def order(self, after: int, *, include_self: bool = True) -> list[int]:
        """The seats in play, clockwise, starting with the one to the left of ``after``
        (and ending with ``after`` itself if it plays and ``include_self``)."""
        n = self.n
        act = self.active
        if len(act) == n and 0 <= after < n <= 16:
            # everyone plays (the usual case): the order round the table is fixed by the
            # seat count and the seat, read from a table built at import (a stake rule and
            # the going-out payments ask for it at every deal); a new list each time, which
            # callers may change
            return list(_ROUND[(n, after, include_self)])
        seats = [(after + k) % n for k in range(1, n + 1)]
        out = [s for s in seats if s in act] if len(act) != n else seats
        if not include_self and out and out[-1] == after:
            out.pop()
        return out

    # -- cards ----------------------------------------------------------------------------
    def take_given(self) -> tuple[Sequence[Sequence[Card]] | None, Sequence[Card] | None]:
        """The hands and spare hand this deal was given to deal (``None``: shuffle), handed
        to the phase that deals them once: the deal then keeps its own copies
        (``dealt_hands``), never the caller's."""
        given = (self._given_hands, self._given_spare)
        self._given_hands = self._given_spare = None
        return given

    def shuffle(self, pack: list[Card]) -> None:
        """Shuffle ``pack`` in place as this deal's seed says (the table's shuffle of this
        deal; left as it is if the deal has none)."""
        if self._shuffle is not None:
            self._shuffle(pack)

    def shuffle_order(self, n: int) -> Sequence[int] | None:
        """The order this deal's shuffle puts a pack of ``n`` cards in, as indices into the
        pack, first to last, when it is the table's keyed shuffle (``None`` otherwise: call
        :meth:`shuffle`). The deal phase reads each hand through it, so no shuffled pack is
        built: the same cards in the same order as :meth:`shuffle` gives."""
        sh = self._shuffle
        if (isinstance(sh, functools.partial) and sh.func is deal_shuffle
                and len(sh.args) == 2 and not sh.keywords):
            seed, index = sh.args
            return keyed_order(n, deal_key(seed, index))
        return None

    def reseed(self, seed: int) -> None:
        """Forget how this deal's cards were dealt and take ``seed`` as its seed: a deal not
        yet dealt deals by the table's shuffle of ``seed``; stacked hands not yet dealt are
        forgotten; hands already dealt count as stacked (no seed deals them). For a copy
        that must not keep the real seed (``clone_for``)."""
        self.seed = seed
        self._shuffle = _PARTIAL(deal_shuffle, seed, self.deal_index)
        self._given_hands = self._given_spare = None
        self.stacked = bool(self.dealt_hands)

    def detach(self) -> None:
        """Report to nobody when the deal ends (the table lets go of a finished deal; a copy
        is detached from the start)."""
        self._on_end = None

    def give(self, seat: int, card: int) -> None:
        self.owner[card] = seat
        m = self.masks[seat]
        s = card // 13
        m[s] = m[s] | 1 << (card % 13)  # an item's `|=` is a generic call compiled (see docs)
        counts = self.counts
        counts[seat] = counts[seat] + 1

    def take(self, seat: int, card: int) -> None:
        m = self.masks[seat]
        s = card // 13
        m[s] = m[s] & ~(1 << (card % 13))
        counts = self.counts
        counts[seat] = counts[seat] - 1

    def hand(self, seat: Any) -> list[Card]:
        """The cards ``seat`` holds, sorted by suit then rank. (``seat`` is typed ``Any``
        so that a bad one is refused with a TableError, in the compiled build too.)"""
        if seat.__class__ is not int or not 0 <= seat < self.n:
            from stops.engine.table import TableError

            raise TableError(f"no seat {shown(seat)} at a table of {self.n} (seats are "
                             f"0..{self.n - 1})")
        return list(self.held(seat))

    def held(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` (a seat of this table: not checked) holds, in card order, as a
        tuple: each suit's low and high ranks read from two tables built at import and
        joined, with no list, sort or loop over the cards (the poker stage's legal set reads
        the hand this way at every selection). A memo of whole suits missed for most random
        hands of the first thousands of deals, each miss a loop over the suit's ranks."""
        m = self.masks[seat]
        lo = _LOW_RANKS
        hi = _HIGH_RANKS
        a = m[0]
        b = m[1]
        c = m[2]
        d = m[3]
        return (lo[a & 127] + hi[a >> 7] + lo[128 | b & 127] + hi[64 | b >> 7]
                + lo[256 | c & 127] + hi[128 | c >> 7] + lo[384 | d & 127] + hi[192 | d >> 7])

    def lowest_in_suit(self, seat: int, suit: int) -> int | None:
        """The lowest card ``seat`` holds in ``suit``, in the variant's rank order."""
        m = self.masks[seat][suit]
        if not m:
            return None
        if self.ace_low and m & 4096:
            return suit * 13 + 12
        return suit * 13 + (m & -m).bit_length() - 1

    def swap_with_spare(self, seat: int) -> None:
        """``seat``'s hand and the spare hand change places (no chips move). The new suit
        masks are built straight from the spare cards, and the old hand read from its masks:
        no sorted hand is built (the order of these writes does not matter)."""
        owner = self.owner
        old: set[int] = set()
        for suit, m in enumerate(self.masks[seat]):
            if m:
                old.update(_suit_cards(suit, m))
        masks = [0, 0, 0, 0]
        spare = self.spare
        for c in spare:
            owner[c] = seat
            s = c // 13
            masks[s] = masks[s] | 1 << (c % 13)
        self.masks[seat] = masks
        self.counts[seat] = len(spare)
        for c in old:
            owner[c] = SPARE
        self.spare = old
        self.spare_known = frozenset({seat})

    # -- chips ----------------------------------------------------------------------------
    def pay(self, src: Account, dst: Account, chips: int, note: str = "",
            *, compulsory: bool = True) -> int:
        """Move chips for a payment, honouring ``chip_shortfall``; returns what was paid."""
        if isinstance(src, int) and compulsory and self._pay_what_you_can:
            have = max(0, self.ledger.stacks[src])
            if chips > have:
                self.short.add(src)
                chips = have
        if chips <= 0:
            return 0
        self.ledger.move(src, dst, chips)
        seat = src if isinstance(src, int) else None
        # event()'s fields by position: a call with keywords costs more in the pure build
        if isinstance(dst, str):
            self.events.append(event(K_PAID, seat, None, chips, dst, None, (), note))
        else:
            self.events.append(event(K_PAID, seat, None, chips,
                                     src if isinstance(src, str) else None, dst, (), note))
        return chips

    def bonus(self, receiver: int, chips: int, note: str = "") -> int:
        """Every other seat in play pays ``receiver`` ``chips``, in seat order from his left
        (a seat-to-seat bonus, docs/family-rulings.md F4: the King bonuses, the A♦, the comet).

        Compulsory, so it honours ``chip_shortfall`` as :meth:`pay` does; one ``bonus`` event
        per payer (``seat`` pays ``to_seat``). Returns the total received."""
        if chips <= 0:
            return 0
        total = 0
        stacks = self.ledger.stacks
        for payer in self.order(receiver, include_self=False):
            amount = chips
            if self._pay_what_you_can:
                have = max(0, stacks[payer])
                if amount > have:
                    self.short.add(payer)
                    amount = have
            if amount <= 0:
                continue
            self.ledger.move(payer, receiver, amount)
            self.emit(event(EventKind.BONUS, payer, chips=amount, to_seat=receiver, note=note))
            total += amount
        return total

    def stake(self, seat: int, space: str, chips: int) -> None:
        """A stake: compulsory, so it may run a stack into debt unless the rules say not."""
        if self._pay_what_you_can:
            have = max(0, self.ledger.stacks[seat])
            if chips > have:
                self.short.add(seat)
                chips = have
            if not chips:
                return
        ledger = self.ledger
        stacks = ledger.stacks
        stacks[seat] = stacks[seat] - chips
        layout = ledger.layout
        layout[space] = layout.get(space, 0) + chips
        if ledger.contributed is not None:
            ledger.contribute(seat, space, chips)
        self.events.append(staked_event(seat, chips, space))

    def stake_many(self, seat: int, stakes: tuple[tuple[str, int], ...]) -> None:
        """Several stakes by one seat (the common case: one chip on every space)."""
        if self._pay_what_you_can:
            for space, chips in stakes:
                self.stake(seat, space, chips)
            return
        cache = self.variant.cache
        key = ("staked", seat, stakes)
        evs = cache.get(key)
        if evs is None:
            evs = cache[key] = tuple(staked_event(seat, c, s) for s, c in stakes)
        ledger = self.ledger
        layout = ledger.layout
        total = 0
        for space, chips in stakes:
            total += chips
            layout[space] = layout.get(space, 0) + chips
            if ledger.contributed is not None:
                ledger.contribute(seat, space, chips)
        self.events.extend(evs)  # type: ignore[arg-type]
        stacks = ledger.stacks
        stacks[seat] = stacks[seat] - total

    def claim(self, seat: int, space: str, note: str = "", chips: int | None = None,
              shown: tuple[int, ...] = ()) -> int:
        """``seat`` wins ``chips`` (default: all) from a live layout space.

        ``shown`` are cards the claim reveals to everyone (a pay card claimed by holding it).
        """
        have = self.ledger.layout.get(space)
        if have is None or space in self.retired:
            return 0
        amount = have if chips is None else min(chips, have)
        if amount <= 0:
            return 0
        self.ledger.move(space, seat, amount)
        self.events.append(event(K_CLAIMED, seat, None, amount, space, None,
                        tuple([CARDS[c] for c in shown]) if shown else (), note))
        if self.rules.retire_claimed and chips is None:
            self.retire(space)
        return amount

    def retire(self, space: str) -> None:
        if space not in self.retired:
            self.retired.add(space)
            self.events.append(event(K_RETIRED, space=space))

    def is_live(self, space: str) -> bool:
        return space not in self.retired

    # -- views ----------------------------------------------------------------------------
    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self.ledger.stacks)

    @property
    def layout(self) -> dict[str, int]:
        return dict(self.ledger.layout)

    def returns(self) -> tuple[int, ...]:
        """Each seat's change in chips over this deal so far."""
        return tuple(a - b for a, b in zip(self.ledger.stacks, self.start_stacks, strict=True))

    def log(self, seat: int | None = None) -> list[Event]:
        """The events ``seat`` may see (``None``: the public log)."""
        return [e for e in self.events if e.visible(seat)]

    def seen_by(self, seat: int) -> tuple[Event, ...]:
        """The events ``seat`` may see, as a tuple, kept per seat and extended by the events
        logged since it was last asked: the log only grows, so an agent that observes after
        every decision pays for each event once, not for the whole log every time."""
        events = self.events
        view = self._views.get(seat)
        if view is not None and view[0] is events and view[1] <= len(events):
            _, upto, seen = view
            if upto == len(events):
                return seen
            seen = seen + tuple([e for e in events[upto:]
                                 if e.visible_to is None or seat in e.visible_to])
        else:  # first asked, or the log was replaced (a copy, a restored save)
            # ``Event.visible`` written out: a method of a named tuple is a Python-level
            # call in the compiled build, most of this loop's cost
            seen = tuple([e for e in events if e.visible_to is None or seat in e.visible_to])
        self._views[seat] = (events, len(events), seen)
        return seen

    def observe(self, seat: Any) -> Observation:
        """Everything ``seat`` may know now, and nothing more."""
        from stops.engine.observation import observe

        return observe(self, seat)

    def record(self) -> dict[str, Any]:
        """This deal as a replayable deal record (docs/concepts.md, Records)."""
        from stops.engine.recording import deal_record

        return deal_record(self)

    def to_dict(self, *, key: Any = None, seat: Any = None) -> dict[str, Any]:
        """This deal, finished or not, as JSON-safe data; with ``key``, signed with
        HMAC-SHA256 (see :meth:`stops.Table.to_dict`).

        The full save (no ``seat``) is the host's: its deal record, every hand and the seed
        that dealt it. ``seat=s`` gives instead what seat ``s`` may see (its observation,
        format ``stops.deal.seat/1``), for handing to that player; it cannot be restored.
        """
        from stops.engine.saving import deal_to_dict

        return deal_to_dict(self, key=key, seat=seat)

    @staticmethod
    def from_dict(data: Mapping[str, Any], *, registry: Any = None,
                  key: Any = None) -> Deal:
        """Restore a deal saved with :meth:`to_dict`, at exactly the point it was saved
        (with ``key``, only if its signature is valid). Its cards are dealt again from its
        seed; a deal dealt from stacked hands restores only with ``key``."""
        from stops.engine.saving import deal_from_dict

        return deal_from_dict(data, registry=registry, key=key)

    # -- copies -------------------------------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy of this deal, at exactly this point (like OpenSpiel's
        ``state.clone()``): applying to one never changes the other. It copies the state
        directly (no replay), so it costs microseconds. The copy is detached from the table:
        finishing it does not update ``table.stacks``.
        """
        new = Deal(self.variant, players=self.n, dealer=self.dealer, stacks=self.start_stacks,
                   layout=self.start_layout, retired=self.start_retired,
                   shuffle=self._shuffle, deal_index=self.deal_index,
                   skip_stakes=self.skip_stakes, seed=self.seed, active=self.active,
                   _blank=True)
        new._fill(self._state(), copy_containers=True)
        return new

    def imagined_copy(self, owner: list[int], masks: list[list[int]], counts: list[int],
                      spare: set[int], events: list[Event], blind: bool = False) -> Deal:
        """A :meth:`clone` with ``owner``, ``masks``, ``counts``, ``spare`` and ``events``
        (each copied) in place of the deal's own: ``clone_for``'s every imagined deal.
        The fields are set straight across, without the blank deal :meth:`clone` first
        builds and then fills (about half of a ``clone()`` in the pure build, paid again by
        every copy a search samples); what no step changes in place (the variant, the start
        of the deal, the record as dealt, tuples and frozensets) is shared, as a clone's
        ``_fill`` shares it. ``tests/engine/test_clone.py`` holds it slot by slot to
        ``clone()``, so a field added to the deal and not set here fails there.

        With ``blind``, a copy that is only read, then dropped: ``clone_for``'s blanked copy,
        which a seat's view is read from (the phases' readings and ``infer``, which read
        the events and the public state only and change nothing) before the copy it hands
        back is made from the view. Its hands are ``owner``, ``masks``, ``counts`` and
        ``spare`` themselves, its log ``events`` itself (its ``emit`` appends to it), and
        its other containers the deal's own (its states a dict of its own, so a state made
        by asking for it is made there); no copy at all but of the scalars (a copy of every
        container, paid to be thrown away, was about a quarter of a ``clone()`` at every
        new position, compiled Boodle). The seed is not the deal's: 0, with no shuffle
        (the hands not dealt count as stacked), as nothing is dealt from it."""
        if not _ALLOC_BARE:  # which way a bare deal is made here, found once
            _ALLOC_BARE.append(__file__.endswith(".py"))
        if _ALLOC_BARE[0]:
            # interpreted: allocated with no __init__ call at all (binding the keywords of
            # Deal's signature, only for __init__ to return, was a fifth of the copy)
            new: Deal = _ALLOC(Deal)
        else:  # compiled: a native class's allocation runs __init__, which returns at once
            new = Deal(self.variant, players=self.n, dealer=self.dealer, stacks=(),
                       layout=_NO_LAYOUT, _bare=True)
        new.session_end = None
        new.variant = self.variant
        new._phases = self._phases
        new.rules = self.rules
        new._pay_what_you_can = self._pay_what_you_can
        new.ace_low = self.ace_low
        new.last_dealt = self.last_dealt
        new.n = self.n
        new.active = self.active
        new.exempt = self.exempt
        new.dealer = self.dealer
        new.deal_index = self.deal_index
        new.seed = self.seed
        new.skip_stakes = self.skip_stakes
        new.start_stacks = self.start_stacks
        new.start_retired = self.start_retired
        new._views = {}
        new._imagined = None
        new._record = None
        new._dealt_hands = self.dealt_hands  # tuples of cards: shared
        new._dealt_spare = self.dealt_spare
        new.spare_known = self.spare_known
        new.to_act = self.to_act
        new.phase_idx = self.phase_idx
        new.outcome = self.outcome
        new.winner = self.winner
        new.next_deal = self.next_deal
        new._on_end = None  # a copy is detached from the table
        if blind:
            new.seed = 0
            new._shuffle = None
            new._given_hands = new._given_spare = None
            new.stacked = bool(new._dealt_hands)
            new.short = self.short
            new.start_layout = self.start_layout
            new.ledger = self.ledger
            new.retired = self.retired
            new.events = events
            new.emit = events.append
            new.actions = self.actions
            new.owner = owner
            new.masks = masks
            new.counts = counts
            new.spare = spare
            new.played_by = self.played_by
            new.plays = self.plays
            new.results = self.results
            new.states = dict(self.states)
            new._legal = None
            return new
        new.short = set(self.short)
        new.start_layout = dict(self.start_layout)
        new.ledger = self.ledger.copy()
        new.retired = set(self.retired)
        new.events = list(events)
        new.emit = new.events.append
        new.actions = list(self.actions)
        new.owner = list(owner)
        # plain loops, not comprehensions (each a function call of its own, pure: about a
        # thousand instructions apiece on every imagined deal)
        new_masks: list[list[int]] = []
        for m in masks:
            new_masks.append(list(m))
        new.masks = new_masks
        new.counts = list(counts)
        new.spare = set(spare)
        new.played_by = list(self.played_by)
        new.plays = list(self.plays)
        new._given_hands = self._given_hands
        new._given_spare = self._given_spare
        new.stacked = self.stacked
        new._shuffle = self._shuffle
        new.results = dict(self.results)  # the values are immutable
        states: dict[type, Any] = {}
        for k, v in self.states.items():
            states[k] = v.copy()
        new.states = states
        new._legal = self._legal  # immutable
        return new

    def __copy__(self) -> Deal:
        return self.clone()

    def __deepcopy__(self, memo: dict[int, object]) -> Deal:
        new = self.clone()
        memo[id(self)] = new
        return new

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unpickle_deal, (self.variant, self.n, self._state()))

    def _state(self) -> tuple[Any, ...]:
        """Everything that changes during a deal, in :meth:`_fill`'s order."""
        return (self.dealer, self.start_stacks, self.start_layout, self.start_retired,
                self.deal_index, self.skip_stakes, self.seed, self.active, self.short,
                self.ledger.stacks, self.ledger.layout, self.retired, self.events,
                self.actions, self.owner, self.masks, self.counts, self.spare,
                self.spare_known, self.played_by, self.plays, self.dealt_hands,
                self.dealt_spare, self._given_hands, self._given_spare, self.to_act,
                self.phase_idx, self.outcome, self.winner, self.next_deal,
                self.results, self.states, self._legal, self._on_end, self._shuffle,
                self.stacked, self.ledger.contributed, self.last_dealt, self.exempt)

    def _fill(self, state: tuple[Any, ...], *, copy_containers: bool) -> None:
        (self.dealer, start_stacks, start_layout, start_retired, self.deal_index,
         self.skip_stakes, self.seed, active, short, stacks, layout, retired, events,
         actions, owner, masks, counts, spare, spare_known, played_by, plays, dealt_hands,
         dealt_spare, given_hands, given_spare, self.to_act, self.phase_idx, self.outcome,
         self.winner, self.next_deal, results, states, legal, on_end,
         shuffle, self.stacked, contributed, self.last_dealt, self.exempt) = state
        self.start_stacks = tuple(start_stacks)
        self.start_layout = dict(start_layout)
        self.start_retired = frozenset(start_retired)
        self.active = tuple(active)
        self._record = None
        self._dealt_hands = tuple(tuple(h) for h in dealt_hands)
        self._dealt_spare = tuple(dealt_spare)
        self.spare_known = frozenset(spare_known)
        self.results = dict(results)  # the values are immutable
        self._views = {}
        self._imagined = None
        self._given_hands = given_hands
        self._given_spare = given_spare
        self._shuffle = shuffle
        if copy_containers:
            self.short = set(short)
            self.ledger = Ledger(list(stacks), dict(layout), track=contributed is not None)
            if contributed is not None:
                self.ledger.contributed = {k: list(v) for k, v in contributed.items()}
            self.retired = set(retired)
            self.events = list(events)
            self.actions = list(actions)
            self.owner = list(owner)
            self.masks = [list(m) for m in masks]
            self.counts = list(counts)
            self.spare = set(spare)
            self.played_by = list(played_by)
            self.plays = list(plays)
            self.states = {k: v.copy() for k, v in states.items()} if states else {}
            self._legal = legal  # immutable
            self._on_end = None  # a copy is detached from the table
        else:
            self.short = short
            self.ledger = Ledger(stacks, layout, track=contributed is not None)
            self.ledger.contributed = contributed
            self.retired = retired
            self.events = events
            self.actions = actions
            self.owner = owner
            self.masks = masks
            self.counts = counts
            self.spare = spare
            self.played_by = played_by
            self.plays = plays
            self.states = states
            self._legal = None
            self._on_end = on_end
        self.emit = self.events.append

    def clone_for(self, seat: int, rng: Any) -> Deal:
        """A copy of this deal as ``seat`` might imagine it: the cards ``seat`` cannot see
        are dealt again at random (with ``rng``, a :class:`random.Random` or
        :class:`stops.engine.rng.Rng`), keeping everything it has seen (for
        information-set search, e.g. ISMCTS). See :func:`stops.engine.determinize.clone_for`.
        """
        if not _CLONE_FOR:  # imported once, on first use (an import statement per call
            # cost a search's repeated call a twentieth of its time)
            from stops.engine.determinize import clone_for

            _CLONE_FOR.append(clone_for)
        return _CLONE_FOR[0](self, seat, rng)

    def __repr__(self) -> str:
        return (f"<Deal {self.variant.name} players={self.n} dealer={self.dealer} "
                f"phase={self.phase} to_act={self.to_act}>")



_NO_LAYOUT: Final[dict[str, int]] = {}
"""The layout :meth:`Deal.imagined_copy` passes to a bare deal (which reads none)."""

_ALLOC: Final[Callable[[type[Deal]], Deal]] = object.__new__
"""Allocates a deal with no ``__init__`` call: :meth:`Deal.imagined_copy`'s bare deal where
this module runs interpreted (a compiled native class cannot be allocated so)."""

_ALLOC_BARE: Final[list[bool]] = []
"""Whether :meth:`Deal.imagined_copy` allocates its bare deal by :data:`_ALLOC` (this module
runs interpreted: its file is a ``.py``), found at the first copy (a compiled module's
``__file__`` is set only once its body has run)."""

_CLONE_FOR: Final[list[Callable[[Deal, int, Any], Deal]]] = []
"""``determinize.clone_for``, once :meth:`Deal.clone_for` has imported it."""


def _half_cards(bits: range, width: int) -> tuple[tuple[Card, ...], ...]:
    """For each suit and each set of the ranks ``bits`` (``width`` bits from the lowest of
    them), its cards, lowest first: the table is indexed ``suit << width | submask``."""
    out: list[tuple[Card, ...]] = []
    for suit in range(4):
        for sub in range(1 << width):
            out.append(tuple([CARDS[suit * 13 + r] for r in bits
                              if sub >> (r - bits.start) & 1]))
    return tuple(out)


_LOW_RANKS: Final = _half_cards(range(0, 7), 7)
"""The cards of each suit's ranks 0-6 by their 7 mask bits (4 x 128 tuples, built at
import)."""
_HIGH_RANKS: Final = _half_cards(range(7, 13), 6)
"""The cards of each suit's ranks 7-12 by their 6 mask bits (4 x 64 tuples)."""


def _suit_cards(suit: int, m: int) -> tuple[Card, ...]:
    """The cards of ``suit`` whose rank bits are set in ``m``, lowest first: the two tables'
    halves joined (one tuple concatenation, no loop over the ranks)."""
    return _LOW_RANKS[suit << 7 | m & 127] + _HIGH_RANKS[suit << 6 | m >> 7]


def _deal_over() -> IllegalAction:
    return IllegalAction("deal_over", "the deal is over; no more decisions are taken",
                         rule="a deal ends when someone goes out or play is blocked")


def _unpickle_deal(variant: Variant, players: int, state: tuple[Any, ...]) -> Deal:
    deal = Deal(variant, players=players, dealer=0, stacks=(0,) * players, layout={},
                _blank=True)
    deal._fill(state, copy_containers=False)
    return deal

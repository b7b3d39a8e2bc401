"""The base class of phases (see :mod:`stops.phases`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action
from stops.engine.deal import HandCheck, Step
from stops.engine.errors import IllegalAction
from stops.engine.legal import LegalActions, LegalSet
from stops.engine.vocabulary import VERBS
from stops.phases.aids import NO_AIDS, PhaseAids

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.determinize import Knowledge, Reading
    from stops.rules.variant import Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class Phase(Step):
    """A step of a deal. Subclasses override what they need; see :mod:`stops.phases`.
    (A :class:`~stops.engine.deal.Step`: the deal calls ``enter``, ``legal`` and ``apply``
    through the native method table in the compiled build.)"""

    name: ClassVar[str] = ""
    state_types: ClassVar[tuple[type, ...]] = ()
    """The classes of per-deal state this phase keeps (read with ``deal.state(T)``); the
    deal drops them when it moves past the phase (see :class:`stops.engine.deal.DealState`)."""
    normalize: Callable[[Deal, Action], Action] | None = None
    """Optionally fills in a field a player may omit (the fixed amount of a stake)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.rules = variant.rules
        # clone_for calls after_redeal only where a class (native or interpreted) has its own
        self.redeals = type(self).after_redeal is not Phase.after_redeal
        # and hands_fit only where a class has its own
        self.checks_hands = type(self).hands_fit is not Phase.hands_fit
        # or, where a class has its own, its checks of each hand alone
        self.checks_each_hand = type(self).hand_checks is not Phase.hand_checks
        # and asks infer (where there is no reading) only where a class has its own
        self.infers = type(self).infer is not Phase.infer

    def enter(self, deal: Deal) -> bool:
        return False

    def legal(self, deal: Deal) -> LegalSet:
        return LegalActions()

    def apply(self, deal: Deal, action: Action) -> bool:
        raise IllegalAction("wrong_phase", f"the {self.name} phase takes no decisions")

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        return None

    def meaning(self, deal: Deal, action: Action) -> str:
        """What the legal ``action`` does, for ``deal.explain`` (a user interface shows it
        on a choice: "bid 4 chips for the widow"), in this variant's words.

        The base class says it from the verb alone, naming the spare hand as the variant
        does; a phase whose decisions mean more (a lead starts a sequence in a suit)
        overrides it. It must not change the deal.
        """
        from stops.rules.prose import spare_named

        return spare_named(self.variant, plain_meaning(action))

    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """``deal.clone_for(seat, ...)`` asks what ``seat`` can tell of the cards it cannot
        see from this phase's events (those it may see): add it to ``known``, where a card
        is or which cards a holder cannot hold. ``deal`` is already the copy, with every
        card ``seat`` cannot see taken out of the hands: read the events and the public
        state only (nothing by default), and change nothing: its log, chips, plays and
        phase states are the real deal's own objects, shared, not copied (a copy of each
        at every new position cost a quarter of a ``clone()``); an event emitted there is
        refused.

        This is all a phase needs to declare what its events prove. ``clone_for`` asks it
        again at each new position a seat meets, reading the whole log each time; a phase
        that reads it event by event says so with :meth:`reading` instead."""
        return None

    def reading(self, deal: Deal, seat: int) -> Reading | None:
        """A resumable :meth:`infer` for ``seat`` (a :class:`~stops.engine.determinize.Reading`
        that ``clone_for`` keeps on the real deal and tells each new event once), or ``None``
        (the default): :meth:`infer` is asked again at each new position. A reading must add
        exactly what :meth:`infer` adds at every position; a search that meets a new position
        at every decision then pays for the events logged since, not for the whole log."""
        return None

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """``deal.clone_for(seat, rng)`` dealt the cards ``seat`` cannot see again: make any
        private state this phase keeps about them consistent (nothing by default). Return
        ``False`` if this imagined deal could not have come about (another is dealt)."""
        return True

    def hands_fit(self, deal: Deal, seat: int) -> bool:
        """``deal.clone_for(seat, rng)`` dealt the cards ``seat`` cannot see again: whether
        the hands dealt could have come about, by this phase's facts (``True`` by default).
        A check of the hands alone: it reads the copy's cards, its public state and what
        the phase keeps per view (``redeal_memo``), draws nothing and changes nothing.

        ``clone_for`` asks every phase that has one before it calls any phase's
        :meth:`after_redeal`, and stops at the first that says no: where most deals are
        refused (Tripoley after its showdown), a refused deal then costs only the checks,
        not every phase's work of putting its state in line. A phase whose
        :meth:`after_redeal` would only say yes or no says so here instead."""
        return True

    def hand_checks(self, deal: Deal, seat: int) -> list[HandCheck]:
        """Where this phase's :meth:`hands_fit` is a check of some hands, each alone (a
        hand shown as its holder's best must still be his best): those checks, one
        :class:`~stops.engine.deal.HandCheck` per hand, for the copies ``clone_for`` deals
        from one view of ``seat`` (``deal`` is the first such copy, its hidden cards not yet
        dealt: read its public state and ``redeal_memo`` only). Asked once per view; empty
        (the default) where there is nothing to check.

        A phase that has them is never asked its ``hands_fit`` by ``clone_for``: the checks
        are asked of each deal's hands as they are dealt, before the copy's hands are made,
        so a deal they refuse costs a mask per hand and the checks, and the walk towards a
        deal that fits re-checks only the hands a step changes. They must say exactly what
        ``hands_fit`` says: every check fits if and only if ``hands_fit`` is true (a test
        holds the built-in ones to it)."""
        return []

    def misfits(self, deal: Deal, seat: int) -> frozenset[int]:
        """After :meth:`hands_fit` or :meth:`after_redeal` said no: the seats whose
        imagined hands this phase's facts rule out (a hand shown as its holder's best that
        his other cards would better). ``clone_for`` then deals just their hidden cards
        again, with the spare hand's, rather than the whole deal, where whole deals seldom
        fit. Empty (the default): the whole deal is dealt again."""
        return frozenset()

    def misfit_cards(self, deal: Deal, seat: int) -> frozenset[int]:
        """After :meth:`misfits` named seats at fault: the cards in their hands that put them
        there (of a hand shown as its holder's best, the cards of his better five that are
        not the hand shown), which the walk towards a deal that fits moves first. Empty
        (the default): any of those seats' hidden cards."""
        return frozenset()

    title: ClassVar[str] = ""
    """The heading of this phase's section in ``stops rules``."""

    def describe(self) -> str:
        """This phase in plain English, for ``stops rules`` (empty: nothing to say)."""
        return ""

    def sections(self) -> list[tuple[str, str]]:
        """``(heading, text)`` sections for ``stops rules``; by default ``describe()``."""
        text = self.describe()
        return [(self.title or self.name, text)] if text else []

    def decision_rule(self, deal: Deal) -> str:
        """The rule behind the decision this phase offers now, in this variant's own words,
        for a player who asks why (``?`` in ``stops play``).

        By default the phase's whole section of ``stops rules``: every sentence there is true
        of this variant. A phase whose decisions follow different rules (a lead, a card due in
        turn; choosing a poker hand, betting) says only the ones that govern the decision on
        offer, from the texts its policies registered with their parameters.
        """
        return " ".join(text for _, text in self.sections())

    def policy_text(self, slot: str) -> str:
        """The rule of the policy this variant put in ``slot``, as it reads in this variant
        (:func:`stops.rules.prose.policy_text`: in the game's own word for the spare hand;
        empty when the rule has nothing to tell its players)."""
        from stops.rules.prose import policy_text

        return policy_text(self.variant, slot)

    @classmethod
    def aids(cls) -> PhaseAids:
        """What this phase brings to the programs around the engine: the narration and
        prompts of ``stops play``, the heuristic bot's play, the tallies of ``stops
        simulate``, the learning environment's features (:mod:`stops.phases.aids`).

        A class method, so that a bot, which knows the phase only by the name in its
        observation, can ask the registry's class; none by default. A phase with a
        decision of its own overrides it to return its :class:`~stops.phases.aids.PhaseAids`
        (the built-in ones keep theirs in a module of their own, imported here lazily).
        """
        return NO_AIDS

    def in_force(self, slot: str) -> bool:
        """Whether the rule of ``slot`` can apply in a deal of this variant
        (:func:`stops.rules.prose.in_force`)."""
        from stops.rules.prose import in_force

        return slot in in_force(self.variant)


def laid(action: Action) -> str:
    """The cards of a decision, as a player reads them (``5♦``, ``2♠ 2♥ as 3``)."""
    cards = action.cards if action.cards is not None else (
        (action.card,) if action.card is not None else ())
    text = " ".join(c.symbol() for c in cards)
    if action.as_rank is not None:
        text += f" as {'10' if action.as_rank == 'T' else action.as_rank}"
    return text


def in_chips(n: int | None) -> str:
    """``"4 chips"``, ``"1 chip"`` (empty for no amount)."""
    return "" if n is None else f"{n} chip" + ("" if n == 1 else "s")


def plain_meaning(action: Action) -> str:
    """``"<decision>: <what it does>"`` for any decision, from its verb and fields (the
    base of :meth:`Phase.meaning`; "spare hand" is put in the variant's word by the phase).

    The engine's own verbs are said here; any other verb by the ``meaning`` its phase
    registered with it (:class:`~stops.engine.vocabulary.Verb`), else by its verb and fields.
    """
    verb = action.action
    text = laid(action)
    flags = "".join(f" with {f}" for f in action.flags)
    if verb == "stake":
        what = f"stake {in_chips(action.chips)} on {action.space}".replace("stake  on",
                                                                          "stake on")
        return f"{what}: your stake goes on that space of the layout"
    if verb == "lead":
        return f"lead {text}{flags}: starts a sequence"
    if verb == "play":
        return f"play {text}{flags}: goes on with the sequence"
    if verb == "follow":
        return f"follow with {text}{flags}: plays the card due from you; the sequence goes on"
    if verb == "pass":
        return "pass: you let this turn go by"
    spec = VERBS.get(verb)
    if spec is not None and spec.meaning is not None:
        return spec.meaning(action)
    amount = f" {in_chips(action.chips)}" if action.chips is not None else ""
    return f"{verb}{' ' + text if text else ''}{amount}{flags}"

"""The base class of phases (see :mod:`stops.phases`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action
from stops.engine.errors import IllegalAction
from stops.engine.legal import LegalActions, LegalSet

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.determinize import Knowledge
    from stops.rules.variant import Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class Phase:
    """A step of a deal. Subclasses override what they need; see :mod:`stops.phases`."""

    name: ClassVar[str] = ""
    scratch_keys: ClassVar[tuple[str, ...]] = ()
    """Keys of ``deal.scratch`` this phase owns; dropped when the deal moves past it."""
    normalize: Callable[[Deal, Action], Action] | None = None
    """Optionally fills in a field a player may omit (the fixed amount of a stake)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.rules = variant.rules

    def enter(self, deal: Deal) -> bool:
        return False

    def legal(self, deal: Deal) -> LegalSet:
        return LegalActions()

    def apply(self, deal: Deal, action: Action) -> bool:
        raise IllegalAction("wrong_phase", f"the {self.name} phase takes no decisions")

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        return None

    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """``deal.clone_for(seat, ...)`` asks what ``seat`` can tell of the cards it cannot
        see from this phase's events (those it may see): add it to ``known``, where a card
        is or which cards a holder cannot hold. ``deal`` is already the copy, with every
        card ``seat`` cannot see taken out of the hands: read the events and the public
        state only (nothing by default)."""
        return None

    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """``deal.clone_for(seat, rng)`` dealt the cards ``seat`` cannot see again: make any
        private state this phase keeps about them consistent (nothing by default). Return
        ``False`` if this imagined deal could not have come about (another is dealt)."""
        return True

    title: ClassVar[str] = ""
    """The heading of this phase's section in ``stops rules``."""

    def describe(self) -> str:
        """This phase in plain English, for ``stops rules`` (empty: nothing to say)."""
        return ""

    def sections(self) -> list[tuple[str, str]]:
        """``(heading, text)`` sections for ``stops rules``; by default ``describe()``."""
        text = self.describe()
        return [(self.title or self.name, text)] if text else []

    def policy_text(self, slot: str) -> str:
        """The plain-English text of the policy this variant put in ``slot``.

        Policies say "spare hand"; a game that calls it otherwise (the dummy, the dead hand,
        the widow, the talon: the deal phase's ``spare_name``) reads its own word."""
        b = self.variant.policy(slot)
        if b.spec.text is not None:
            text = str(b.spec.text(b.params))
        else:
            text = str(b.spec.doc or f"{slot}: {b.name}")
        name = getattr(self.variant.settings("deal"), "spare_name", "spare hand")
        if name != "spare hand" and "spare hand" in text:
            text = text.replace("the spare hand", f"the {name}").replace(
                "a spare hand", f"a {name}").replace("spare hand", name)
        return text

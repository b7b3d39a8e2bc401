"""A worked plug-in that adds a decision: Boodle with a card shown (``show_card``).

A house rule some tables play: after the deal, before the first lead, each player in turn from
the dealer's left shows the table one card of their hand. The card stays in the hand and is
played as usual; everyone now knows where it is. No ``rules:`` value says that, and no engine
verb means "show a card": this module brings the whole rule in one place, as a phase with its
own decision and its own event, registered with it:

* the verb ``declare`` with one ``card`` (``{"seat": 1, "action": "declare", "card": "QH"}``),
  with what one choice means for ``deal.explain`` and the ``?`` of ``stops play``;
* the event ``declared`` (``seat`` showed ``cards``), with its one line of narration, and
  ``shows=True``: the card is the seat's own, so a bot's imagined deals keep it in that hand.

From then on ``stops.Action`` accepts ``declare`` (a malformed one is an ``IllegalAction``
naming the field), records store and replay it, ``stops replay`` tells it, ``stops rules``
prints the phase's text, ``stops play`` takes ``declare qh`` (or just ``qh``) and the
PettingZoo adapter numbers it (52 indices), all without an edit of the library.

``boodle-show-card.yaml`` extends Boodle and puts the phase in its flow. YAML never imports
code, so name this module on the command line::

    stops rules --plugins examples/plugin_decision.py examples/boodle-show-card.yaml
    stops simulate --plugins examples/plugin_decision.py examples/boodle-show-card.yaml
    stops play --plugins examples/plugin_decision.py examples/boodle-show-card.yaml

or, from Python, load it with the registry :func:`plugin_registry` builds (a copy of the
default one: the default registry never learns the phase). The verb and the event kind are
the library's global vocabulary once registered, like the verbs of the built-in phases.

Run ``python examples/plugin_decision.py`` for one seeded deal.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Final

import stops
from stops.engine.errors import IllegalAction
from stops.engine.events import event
from stops.engine.legal import LegalActions, LegalSet
from stops.engine.vocabulary import EventType, Verb
from stops.phases.base import Phase, laid

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.rules.registry import Registry

HERE = Path(__file__).resolve().parent
VARIANT_FILE = HERE / "boodle-show-card.yaml"
PLUGIN_NAME = "plugin_decision"
PHASE_NAME = "show_card"

DECLARED: Final = "declared"
"""This phase's kind of event (a plain string: ``e.kind == "declared"``)."""


def _declared(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} shows {' '.join(str(c) for c in e.cards)} to the table"


DECLARE = Verb(
    "declare", ("card",),
    meaning=lambda a: f"declare {laid(a)}: you show this card of your hand to everyone; it "
                      "stays in your hand",
    doc="show the table one card of the hand (``card``); it stays in the hand",
    label="show it to the table")
"""The phase's decision: one card of the seat's hand."""

DECLARED_EVENT = EventType(
    DECLARED, "``seat`` showed ``cards`` (one card of their hand) to the table; it stays in "
    "the hand", _declared, shows=True)


class ShowCard(Phase):
    """Before the first lead each player in turn, from the dealer's left, shows the table
    one card of their hand; it stays in the hand."""

    name = PHASE_NAME
    title = "Showing a card"

    def describe(self) -> str:
        return ("Before the first lead each player in turn, from the dealer's left, shows one "
                "card of their hand to everyone. The card stays in the hand and is played as "
                "usual.")

    def _due(self, deal: Deal) -> int | None:
        """The seat that shows next (``None``: everyone has shown). The deal's own events
        say how far the round has gone, so the phase keeps no state of its own."""
        done = sum(1 for e in deal.events if e.kind == DECLARED)
        seats = [s for s in deal.order(deal.dealer) if deal.hand(s)]
        return seats[done] if done < len(seats) else None

    def enter(self, deal: Deal) -> bool:
        seat = self._due(deal)
        deal.to_act = seat
        return seat is not None

    def legal(self, deal: Deal) -> LegalSet:
        seat = deal.to_act
        assert seat is not None
        return LegalActions.of(tuple(stops.Action(seat, "declare", card=c)
                                     for c in sorted(deal.hand(seat))))

    def apply(self, deal: Deal, action: Action) -> bool:
        assert action.card is not None
        deal.emit(event(DECLARED, action.seat, cards=(action.card,)))
        return self.enter(deal)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        if action.action == "declare":
            return IllegalAction("not_in_hand", f"you can show only a card of your hand, not "
                                 f"{action.card}", rule=self.describe())
        return None


def register(registry: Registry) -> None:
    """Entry-point style hook: add the ``show_card`` phase, its verb and its event."""
    registry.register_phase(PHASE_NAME, requires=("deal",), plugin=PLUGIN_NAME,
                            pays=lambda variant: (), verbs=(DECLARE,),
                            events=(DECLARED_EVENT,))(ShowCard)


def plugin_registry() -> Registry:
    """A copy of the default registry with this module's phase; the default is untouched."""
    registry = stops.default_registry().copy()
    register(registry)
    return registry


def main() -> None:
    variant = stops.load_variant(VARIANT_FILE, registry=plugin_registry())
    print(variant.title, "-", " ".join(v.name for v in variant.verbs()))
    table = stops.Table(variant, seats=4, chips=30, seed=11, dealer=0)
    deal = table.new_deal()
    rng = random.Random(11)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        if deal.phase == PHASE_NAME:
            print("   ", deal.explain(legal[0]).message)
        deal.apply(legal[rng.randrange(len(legal))])
    for e in deal.events:
        if e.kind in (DECLARED, "claimed"):
            print("   ", e.describe())
    print(f"    outcome: {deal.outcome}, winner: {deal.winner}")


if __name__ == "__main__":
    main()

"""What a bot is, and how a deal is played by bots.

A bot is handed a :class:`~stops.engine.observation.Observation` (``deal.observe(seat)``) and
answers with one :class:`~stops.engine.actions.Action` that is legal now. It never sees the
:class:`Deal` itself, so a bot cannot cheat by reading another hand or the spare hand: whatever
it knows came through the same filter a human player's screen would use.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from stops.engine.actions import Action
from stops.rules.registry import Registry

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant


@runtime_checkable
class Bot(Protocol):
    """What :func:`play_deal` (or any host program) needs from a player program.

    ``name`` identifies the strategy in reports. ``act`` receives the observation of the seat
    to act (``obs.current_seat == obs.seat``) and must return one of ``obs.legal_actions``,
    or an equal :class:`Action` it built itself. The observation lists at most
    :data:`stops.engine.observation.MAX_LISTED_ACTIONS` actions; a bot may construct a legal action
    that the list left out, but it is then responsible for its legality.

    A bot must not keep a reference to the deal: the observation is its whole world, which
    keeps bots honest and lets them run against recorded or remote games.
    """

    name: str

    def act(self, obs: Observation) -> Action:
        """Choose this seat's decision."""
        ...


def legal_of(obs: Observation) -> Sequence[Action]:
    """The listed legal actions; a bot asked to act out of turn is a host bug, so it raises."""
    if not obs.legal_actions:
        raise ValueError(f"seat {obs.seat} has no decision to make "
                         f"(phase {obs.phase}, seat to act: {obs.current_seat})")
    return obs.legal_actions


class BotFactory(Protocol):
    """How a bot is made: a seed, the registry the variant was loaded with (``None``: the
    default one), where the bot finds what each phase brings, and the variant itself when
    the caller has it (its rules are no secret: what each layout space pays)."""

    def __call__(self, seed: int = 0, registry: Registry | None = None, *,
                 variant: Variant | None = None) -> Bot: ...


def play_deal(deal: Deal, bots: Sequence[Bot], *, max_decisions: int = 100_000) -> int:
    """Play ``deal`` to its end, each seat's decisions taken by ``bots[seat]`` from
    ``deal.observe(seat)`` only. Returns the number of decisions.

    An illegal answer raises :class:`~stops.engine.errors.IllegalAction` from ``deal.apply``, which
    leaves the deal unchanged, so a faulty bot is caught at the decision that went wrong.
    """
    if len(bots) != deal.n:
        raise ValueError(f"need {deal.n} bots (one per seat), got {len(bots)}")
    n = 0
    while deal.current_seat is not None:
        seat = deal.current_seat
        deal.apply(bots[seat].act(deal.observe(seat)))
        n += 1
        if n > max_decisions:
            raise RuntimeError(f"deal did not finish within {max_decisions} decisions")
    return n

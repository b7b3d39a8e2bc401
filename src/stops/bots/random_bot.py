"""The random bot: uniform over the legal actions, the baseline every strategy is measured
against and a cheap fuzzer of the engine."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from stops.engine.actions import Action
from stops.rules.registry import Registry

if TYPE_CHECKING:
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant

from stops.bots.base import legal_of


class RandomBot:
    """Uniform over the listed legal actions, from its own seeded generator.

    The generator is private so that two random bots (or a random bot and the engine's
    shuffle) never share state: a replay with the same seeds gives the same choices.
    """

    name: str = "random"

    def __init__(self, seed: int = 0, registry: Registry | None = None, *,
                 variant: Variant | None = None) -> None:
        """``registry`` and ``variant`` are accepted like every bot factory's (see
        :data:`BOTS`); a random choice needs no rules."""
        self.seed = seed
        self._rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        legal = legal_of(obs)
        return legal[self._rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed})"

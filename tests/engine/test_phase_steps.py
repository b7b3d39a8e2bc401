"""A deal calls its phases as :class:`~stops.engine.deal.Step` objects (session 12).

Every built-in phase is a ``Step`` (through :class:`stops.phases.Phase`), which the compiled
build calls through its native method table. A phase that is not one (any object with
``enter``, ``legal``, ``apply``, ``explain``, ``normalize`` and ``state_types``, as
:mod:`stops.phases` allows) is wrapped in a :class:`~stops.engine.deal.PhaseStep` and called
by name, as before: it must play the very same games, refuse the same decisions with the same
codes, and be the phase the deal names.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.engine.deal import PhaseStep, Step
from stops.engine.errors import IllegalAction
from stops.engine.rng import Rng
from stops.phases.play import PlayPhase
from stops.rules.registry import default_registry


class DuckPlay:
    """The play phase as a plain object, no :class:`~stops.phases.Phase`: every call goes
    to a ``PlayPhase`` it keeps."""

    state_types = PlayPhase.state_types
    normalize = None

    def __init__(self, variant: Any) -> None:
        self.inner = PlayPhase(variant)
        self.calls = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def enter(self, deal: stops.Deal) -> bool:
        self.calls += 1
        return self.inner.enter(deal)

    def legal(self, deal: stops.Deal) -> Any:
        self.calls += 1
        return self.inner.legal(deal)

    def apply(self, deal: stops.Deal, action: Any) -> bool:
        self.calls += 1
        return self.inner.apply(deal, action)


def _variant(name: str, duck: bool) -> Any:
    if not duck:
        return stops.load_variant(name)
    reg = default_registry().copy()
    reg.register_phase("play", requires=("deal",), replace=True)(DuckPlay)
    return stops.load_variant(name, registry=reg)


def _trace(variant: Any, seed: int) -> list[Any]:
    """Every decision's legal set, a refused decision's code, and the events, over a few
    random deals (the same draws whatever the phases' classes)."""
    table = stops.Table(variant, seats=4, chips=50, seed=seed)
    rng = Rng(seed)
    out: list[Any] = []
    for _ in range(3):
        if table.is_over:
            break
        deal = table.new_deal()
        while deal.to_act is not None:
            legal = list(deal.legal_actions())
            out.append((deal.phase, legal))
            wrong = {"seat": (deal.to_act + 1) % deal.n, "action": "pass"}
            try:
                deal.apply(wrong)
            except IllegalAction as e:
                out.append(e.code)
            deal.apply(legal[rng.below(len(legal))])
        out.append([e.to_dict() for e in deal.events])
    return out


def test_every_built_in_phase_is_a_step() -> None:
    for name in stops.list_variants():
        v = stops.load_variant(name)
        assert len(v.steps) == len(v.phases)
        # the built-in phases are called as themselves, never through a wrapper
        assert all(s is p and isinstance(s, Step) for s, p in zip(v.steps, v.phases, strict=True))


@pytest.mark.parametrize("name", ["boodle", "three-in-one"])
def test_a_phase_that_is_no_step_plays_the_same_games(name: str) -> None:
    native = _variant(name, duck=False)
    duck = _variant(name, duck=True)
    i = duck.flow.index("play")
    # by hand: the duck is not a Step, so the variant wraps it, and the deal still names
    # the duck itself as its phase (``variant.phases``), the wrapper only as its step
    assert isinstance(duck.steps[i], PhaseStep) and duck.steps[i].phase is duck.phases[i]
    assert not isinstance(duck.phases[i], Step)
    for seed in (1, 2):
        assert _trace(duck, seed) == _trace(native, seed)
    # and it was called: the play went through the wrapper, not around it
    assert duck.phases[i].calls > 0

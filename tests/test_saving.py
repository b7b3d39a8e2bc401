"""Saving and restoring tables and deals in progress (for a host game's save/load)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import stops
from tiers import campaign


@campaign(40, suppress=[HealthCheck.too_slow])
@given(st.sampled_from(stops.list_variants()), st.integers(0, 2**31), st.integers(0, 400))
def test_a_saved_table_continues_identically(name: str, seed: int, cut: int) -> None:
    """Play, save at an arbitrary decision, restore from JSON, and finish both: identical."""
    lo, _ = stops.load_variant(name).players
    original = stops.Table(name, seats=lo + 1 if lo + 1 <= 6 else lo, chips=40, seed=seed,
                           deals=3)
    rng = random.Random(seed)
    steps = 0
    saved = None
    while not original.is_over:
        deal = original.new_deal()
        while not deal.is_terminal:
            if steps == cut:
                saved = json.dumps(original.to_dict())
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            steps += 1
    if saved is None:
        return
    restored = stops.Table.from_dict(json.loads(saved))
    # make the same choices as the original: they are in its deal records
    choices = [a for rec in original.records for a in rec["actions"]]
    k = cut
    while not restored.is_over:
        deal = restored.deal if restored.deal is not None and not restored.deal.is_terminal \
            else restored.new_deal()
        while not deal.is_terminal:
            deal.apply(choices[k])
            k += 1
    assert restored.stacks == original.stacks
    assert restored.layout == original.layout
    assert restored.records == original.records
    assert restored.dealer == original.dealer


def test_a_deal_in_progress_round_trips() -> None:
    table = stops.Table("three-in-one", seats=4, chips=50, seed=5)
    deal = table.new_deal()
    for _ in range(6):
        deal.apply(deal.legal_actions()[-1])
    data = json.loads(json.dumps(deal.to_dict()))
    again = stops.Deal.from_dict(data)
    assert again.current_seat == deal.current_seat
    assert again.phase == deal.phase
    assert again.events == deal.events
    assert list(again.legal_actions()) == list(deal.legal_actions())


def test_a_malformed_save_is_a_clear_error() -> None:
    with pytest.raises(stops.RecordError):
        stops.Table.from_dict({"format": "nope"})
    table = stops.Table("boodle", seats=3, seed=1)
    data = table.to_dict()
    data["stacks"] = "lots"
    with pytest.raises(stops.RecordError):
        stops.Table.from_dict(data)

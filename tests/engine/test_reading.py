"""Issue 24: what a seat knows, read on from one decision to the next (both builds run these).

``clone_for`` keeps, per seat, each phase's reading of the log on the real deal and reads only
the events logged since its last position (:class:`stops.engine.determinize.Reading`). That is
a speed-up only if it changes nothing: at every decision of random deals of every built-in
game, the knowledge read on must be the knowledge read from the start of the log (every
phase's ``infer`` asked afresh), for the seat to act and for every seat now and then (so a
reading resumes after one event, and after many), and a copy of the deal, which keeps no
reading, must start cold and find the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import stops
from stops.engine.determinize import Knowledge, _known, knowledge
from stops.rules.variant import list_variants


def _facts(k: Knowledge) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
    """Where cards are known to lie and what each holder is known to lack (no empty sets)."""
    return dict(k.held), {h: frozenset(c) for h, c in k.lacks.items() if c}


def _check(deal: Any, seat: int) -> None:
    resumed = _facts(knowledge(deal, seat))
    fresh = _facts(_known(deal, seat, False))
    assert resumed == fresh, (seat, len(deal.events))


@pytest.mark.parametrize("name", list_variants())
def test_knowledge_read_on_is_knowledge_read_from_the_start(name: str) -> None:
    # Nothing here is derived by hand: the oracle is the whole-log reading that the
    # hand-derived deals of tests/engine/test_determinize.py and tests/phases check. This
    # holds the resumable readings to it, position by position.
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    for seed in range(4):
        deal = stops.Table(variant, seats=seats, seed=seed, chips=100).new_deal()
        rng = random.Random(seed)
        step = 0
        while not deal.is_terminal:
            seat = deal.current_seat
            if seat is not None:
                _check(deal, seat)
            if step % (3 + seed) == 0:  # every seat, some after many events unread
                for s in range(deal.n):
                    _check(deal, s)
            if step == 7:  # a copy midway keeps no reading: it starts cold
                copy = deal.clone()
                assert copy._imagined is None
                for s in range(copy.n):
                    assert _facts(knowledge(copy, s)) == _facts(_known(deal, s, False))
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            step += 1

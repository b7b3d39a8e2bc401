"""chip_shortfall: eliminate (ruling 5): a player who cannot pay is out of the session."""

from __future__ import annotations

import random

import stops
from stops.testing import check_variant

ELIMINATE = {"chip_shortfall": "eliminate"}


def test_a_short_stake_eliminates_after_the_deal() -> None:
    # Boodle, dealer seat 0 owes 2 on each of the 4 boodle cards (8) but has 1 chip:
    # pays 1 on AH (the first space) and nothing more; the others pay 1 on each.
    table = stops.Table("boodle", seats=4, chips=[1, 20, 20, 20], dealer=0, seed=3,
                        options=ELIMINATE)
    deal = table.new_deal()
    assert deal.short == {0}
    assert deal.layout == {"AH": 4, "KC": 3, "QD": 3, "JS": 3}
    assert deal.stacks[0] == 0
    rng = random.Random(1)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    assert 0 in table.eliminated
    assert any(e.kind == "eliminated" and e.seat == 0 for e in table.events)
    # seat 0 takes no part in the next deal: no cards, no stakes, never deals
    nxt = table.new_deal()
    assert nxt.active == (1, 2, 3)
    assert nxt.counts[0] == 0
    assert nxt.dealer in (1, 2, 3)
    assert not any(e.seat == 0 for e in nxt.events if e.kind in ("staked", "dealt"))
    # every seat that plays gets cards: 52 cards among 3 hands and the spare
    assert sum(nxt.counts) + len(nxt.spare) == 52
    record = nxt.record()
    assert record["out"] == [0]


def test_sessions_end_when_fewer_than_two_are_left() -> None:
    for seed in range(12):
        table = stops.Table("boodle", seats=3, chips=6, seed=seed, options=ELIMINATE,
                            deals=500)
        total = table.total_chips()
        rng = random.Random(seed)
        while not table.is_over:
            deal = table.new_deal()
            while not deal.is_terminal:
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
            assert table.total_chips() == total
            assert all(table.stacks[s] > 0 for s in range(3) if s not in table.eliminated)
        if len(table.eliminated) >= 2:
            assert table.end_reason() == "fewer than two players are left"


def test_eliminate_conforms() -> None:
    for name in ("boodle", "three-in-one", "pot-and-kitty", "pope-joan", "spinado"):
        variant = stops.load_variant(name, options=ELIMINATE)
        check_variant(variant, seats=[3, 5], deals=4, leak_samples=2)

"""The heuristic bot's reader keeps the cards laid this deal and reads on from the plays it
counted at its last decision (``_Reader.played_of``)."""

from __future__ import annotations

import random

import stops
from stops.bots import make_bot
from stops.bots.heuristic import _Reader


def test_played_read_on_then_afresh() -> None:
    # By hand: a 4-seat Boodle deal played by random decisions to its end; at every
    # decision the reader's cards equal the set of every card in
    # ``obs.plays`` (read on from the count before: each call adds only the plays since).
    # Then a second deal: its observation fails notes_of's check of the log read before,
    # the reader starts afresh and the first deal's cards are gone.
    variant = stops.load_variant("boodle")
    bot = make_bot("heuristic", 0, variant.registry, variant=variant)
    reader = _Reader(bot._reading())
    table = stops.Table(variant, seats=4, seed=3, chips=50)
    deal = table.new_deal()
    rng = random.Random(1)
    checked = 0
    while deal.current_seat is not None:
        obs = deal.observe(0)
        reader.notes_of(obs)
        got = reader.played_of(obs)
        assert got == {int(c) for _, c in obs.plays}
        checked += 1
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    obs = deal.observe(0)  # the deal over: every card laid read on
    reader.notes_of(obs)
    assert reader.played_of(obs) == {int(c) for _, c in deal.plays}
    assert checked > 5 and reader.played[0] == len(deal.plays) > 12
    other = stops.Table(variant, seats=4, seed=4, chips=50).new_deal()
    obs = other.observe(0)
    reader.notes_of(obs)
    assert reader.played_of(obs) == {int(c) for _, c in obs.plays} == set()

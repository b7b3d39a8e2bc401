"""The heuristic bot's reader keeps the cards laid this deal and reads on from the plays it
counted at its last decision (``_Reader.played_of``), one reader per seat."""

from __future__ import annotations

import random
from collections.abc import Sequence

import stops
from stops.bots import make_bot
from stops.bots.heuristic import _Reader
from stops.engine.events import Event


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


def test_poker_notes_are_the_scan_of_the_log_they_replaced() -> None:
    # The poker advice bets by the hand the seat chose and the bets and raises so far; it
    # read both from the whole log at every bet, and now reads the seat's notes, read on
    # from its last decision. At every decision of several Three-in-One deals (a seat's
    # notes kept from decision to decision): the notes hold what the old scan gave, and
    # reading the events one call each (``read``) gives the notes one call reading them
    # all (``read_all``).
    from stops.phases.aids import Notes
    from stops.phases.poker import BET, RAISED, SELECTED
    from stops.phases.poker_aids import AIDS

    variant = stops.load_variant("three-in-one")
    bots = [make_bot("heuristic", s, variant.registry, variant=variant) for s in range(4)]
    readers = [_Reader(bots[0]._reading()) for _ in range(4)]
    table = stops.Table(variant, seats=4, seed=5, chips=50)
    bets_seen = chosen_seen = 0
    for _ in range(3):
        deal = table.new_deal()
        while deal.current_seat is not None:
            seat = deal.current_seat
            obs = deal.observe(seat)
            notes = readers[seat].notes_of(obs)
            cards: tuple[int, ...] = ()
            raises = 0
            for e in obs.events:
                if e.kind == SELECTED and e.seat == seat and e.cards:
                    cards = tuple(e.cards)
                elif e.kind in (RAISED, BET):
                    raises += 1
            assert (notes.chosen, notes.bets) == (cards, raises)
            one = Notes()
            for e in obs.events:
                if e.kind in AIDS.reads:
                    AIDS.read(e, seat, one)
            assert one == notes
            bets_seen += raises > 0
            chosen_seen += bool(cards)
            deal.apply(bots[seat].act(obs))
    assert bets_seen and chosen_seen


def test_one_bot_playing_every_seat_reads_each_event_once_a_seat() -> None:
    # The ISMCTS bot's rollouts hand one heuristic bot every seat's decisions in turn. Its
    # notes are kept per seat, each read on from that seat's previous decision, so over a
    # deal each seat reads each event it may see at most once. By hand: a seat's events of
    # the kinds read number at most the deal's events of those kinds; a single reader for
    # every seat started again at every change of seat and read some events over and over
    # (these four Three-in-One deals: 431 reads where one reader a seat makes 216, of 75
    # events of the kinds read).
    from stops.phases.aids import Notes, PhaseAids

    class Counting(PhaseAids):
        def __init__(self, inner: PhaseAids) -> None:
            self.inner = inner
            self.count = 0

        def read_all(self, events: Sequence[Event], seat: int, notes: Notes) -> None:
            self.count += len(events)
            self.inner.read_all(events, seat, notes)

    variant = stops.load_variant("three-in-one")
    bot = make_bot("heuristic", 0, variant.registry, variant=variant)
    counters = []
    for s in range(4):
        reader = bot._notes_reader(s)
        assert reader.only is not None  # the poker stage's aids read every kind read
        counter = Counting(reader.only)
        reader.only = counter
        counters.append(counter)
    kinds = frozenset(bot._reading())
    table = stops.Table(variant, seats=4, seed=3, chips=50)
    for _ in range(4):
        deal = table.new_deal()
        before = [c.count for c in counters]
        while deal.to_act is not None:
            seat = deal.to_act
            deal.apply(bot.act(deal.observe(seat)))
        read = sum(1 for e in deal.events if e.kind in kinds)
        assert read > 10
        for c, b in zip(counters, before, strict=True):
            assert c.count - b <= read
    assert sum(c.count for c in counters) > 0

"""The fast paths of issue 15 give exactly what the plain ones give.

Kept records are built lazily, a finished deal does not tie its table in a cycle, and the
integer step API (``legal_count`` / ``apply_index``) plays the same games as
``legal_actions`` / ``apply``.
"""

from __future__ import annotations

import gc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import stops
from stops.apps.playout import play_random
from stops.engine.recording import FinishedDeal
from stops.engine.rng import Rng, _key_order, deal_key

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
        if table.records and "final_hands" in table.records[-1]:
            # the session's last record also carries its share-out's cards (FAMILY-RULINGS-2
            # G.9): the table adds them after the deal, which knows nothing of them
            assert table.is_over
            expected[-1] = {**expected[-1], "final_hands": table.final_hands}
        assert table.records == expected
        assert table.record()["deals"] == expected


def test_kept_deals_pickle_by_both_names() -> None:
    """A kept deal (``engine.finished``, compiled in the compiled build) is the class the
    records' module names too, so tables pickled before it moved load; a table's kept deals
    survive a pickle and give the same records."""
    import pickle

    import stops.engine.finished as finished

    assert FinishedDeal is finished.FinishedDeal
    table = stops.Table("boodle", seats=4, seed=2, keep_records=True)
    play_random(table.new_deal(), Rng(2))
    again = pickle.loads(pickle.dumps(table))
    assert again.records == table.records
    kept = pickle.loads(pickle.dumps(FinishedDeal(table.deal)))
    assert kept.record() == table.deal.record() and kept.is_terminal
    old = FinishedDeal()  # the state a table pickled before the class moved holds
    old.__setstate__((None, {name: getattr(kept, name) for name in finished.FIELDS}))
    assert old.record() == kept.record()


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


@pytest.mark.parametrize("name", BUILTINS)
def test_apply_index_plays_the_same_games(name: str) -> None:
    from stops.apps.playout import play_random_indexed

    for n in _seats(name):
        a = stops.Table(name, seats=n, seed=11, keep_records=True)
        b = stops.Table(name, seats=n, seed=11, keep_records=True)
        ra, rb = Rng(4), Rng(4)
        for _ in range(3):
            if a.is_over:
                break
            da, db = a.new_deal(), b.new_deal()
            assert play_random(da, ra) == play_random_indexed(db, rb)
            assert da.events == db.events
            assert db.legal_count() == 0
        assert a.records == b.records
        assert a.stacks == b.stacks


def test_apply_index_refuses_a_bad_index_and_changes_nothing() -> None:
    deal = stops.Table("three-in-one", seats=4, seed=1).new_deal()
    n = deal.legal_count()
    assert n == len(deal.legal_actions()) > 0
    before = deal.record()
    for bad in (-1, n, True, 1.0, "0", None):
        with pytest.raises(stops.IllegalAction) as e:
            deal.apply_index(bad)
        assert e.value.code == "bad_index"
    assert deal.record() == before
    expected = deal.legal_actions()[n - 1]
    events = deal.apply_index(n - 1)
    assert deal.actions[-1] == expected and events
    while not deal.is_terminal:
        deal.apply_index(0)
    assert deal.legal_count() == 0
    with pytest.raises(stops.IllegalAction) as e:
        deal.apply_index(0)
    assert e.value.code == "deal_over"


def test_a_seed_deals_the_same_cards_as_it_always_has() -> None:
    """The portable shuffle is a contract: seed 1's first Boodle deal, as every version of
    stops has dealt it (a saved seed must replay on a newer release)."""
    deal = stops.Table("boodle", seats=4, chips=50, seed=1).new_deal()
    assert [" ".join(map(str, deal.hand(s))) for s in range(4)] == [
        "3C 5C AC 3D 4D 9D 3H QH 2S 3S", "7C 2D 5D 8D QD 8H KH 7S 9S TS AS",
        "4C 6C 7D TD AD 9H JH 4S 5S 8S KS", "2C 8C TC JC QC KC AH 6S JS QS"]
    assert " ".join(map(str, deal.dealt_spare)) == "9C 6D JD KD 2H 4H 5H 6H 7H TH"


def _keys(draw: st.DrawFn) -> list[int]:
    """64-bit keys, often with two sharing their top 44 bits, or equal."""
    keys = draw(st.lists(st.integers(0, 2**64 - 1), min_size=2, max_size=60))
    a, b = draw(st.integers(0, len(keys) - 1)), draw(st.integers(0, len(keys) - 1))
    how = draw(st.sampled_from(["none", "prefix", "equal"]))
    if how == "prefix":
        keys[b] = (keys[a] >> 20 << 20) | draw(st.integers(0, 2**20 - 1))
    elif how == "equal":
        keys[b] = keys[a]
    return keys


@settings(max_examples=400)
@given(st.composite(_keys)())
def test_the_fast_key_order_is_the_sort_by_key(keys: list[int]) -> None:
    """``_key_order`` sorts keys as doubles of their top 44 bits; shared prefixes must fall
    back to the exact sort, so the order is always ``sorted(range(n), key=...)``."""
    stream = b"".join(k.to_bytes(8, "big") for k in keys)
    assert list(_key_order(stream, len(keys))) == sorted(range(len(keys)),
                                                          key=keys.__getitem__)


@pytest.mark.parametrize("name", ["three-in-one", "tripoley", "poch", "nain-jaune"])
def test_a_seats_view_of_the_log_grows_with_it(name: str) -> None:
    """``observe`` keeps each seat's visible events and extends them with the new ones: at
    every step, for every seat, they are exactly the events it may see, in a copy, after a
    save is restored and after the log is asked for twice without a change."""
    import random

    table = stops.Table(name, seats=4, seed=3)
    deal = table.new_deal()
    rng = random.Random(3)
    step = 0
    while not deal.is_terminal:
        for seat in range(4):
            want = tuple(e for e in deal.events if e.visible(seat))
            assert deal.observe(seat).events == want
            assert deal.observe(seat).events == want  # asked again, nothing new
        if step % 7 == 3:
            copy = deal.clone()
            copy.apply(rng.choice(list(copy.legal_actions())))
            for seat in range(4):  # the copy moved on; the original's views did not
                assert copy.observe(seat).events == tuple(e for e in copy.events
                                                          if e.visible(seat))
                assert deal.observe(seat).events == tuple(e for e in deal.events
                                                          if e.visible(seat))
        deal.apply(rng.choice(list(deal.legal_actions())))
        step += 1
    for seat in range(4):
        assert deal.observe(seat).events == tuple(e for e in deal.events if e.visible(seat))


def test_observation_fields_in_order() -> None:
    # observe() builds the Observation as one tuple, by position: the fields' order is held
    # here, and each field is checked against the deal it shows
    from stops.engine.observation import Observation, sequence_of

    assert list(Observation._fields) == [
        "seat", "players", "dealer", "phase", "current_seat", "hand", "hand_sizes",
        "spare_size", "spare", "stacks", "layout", "retired", "plays", "sequence",
        "legal_actions", "events", "is_terminal", "determinizer"]
    table = stops.Table("three-in-one", seats=4, chips=50, seed=3)
    deal = table.new_deal()
    while deal.phase != "play" or len(deal.plays) < 3:
        deal.apply(deal.legal_actions()[0])
    seat = deal.current_seat
    assert seat is not None
    obs = deal.observe(seat)
    assert (obs.seat, obs.players, obs.dealer, obs.phase, obs.current_seat) == (
        seat, 4, deal.dealer, "play", seat)
    assert obs.hand == tuple(deal.hand(seat)) and obs.hand_sizes == tuple(deal.counts)
    assert obs.spare_size == len(deal.spare) and obs.spare is None
    assert obs.stacks == deal.stacks and obs.layout == deal.layout
    assert obs.plays == tuple(deal.plays) and obs.retired == frozenset(deal.retired)
    assert obs.sequence and obs.sequence == sequence_of(obs.events)
    assert list(obs.legal_actions) == list(deal.legal_actions())
    assert obs.events == deal.seen_by(seat) and obs.is_terminal is False
    assert obs.can_imagine


def test_an_observation_is_a_frozen_record_whose_equality_leaves_out_the_determinizer(
) -> None:
    # made as one tuple (not an attrs class) since session 14: what the attrs class gave
    # is held here: no field can be set, equality and repr are the view's alone, a copy
    # with changes, pickling drops the binding to the deal
    import pickle

    import pytest

    deal = stops.Table("boodle", seats=4, seed=5).new_deal()
    deal.apply(deal.legal_actions()[0])
    seat = deal.current_seat
    assert seat is not None
    obs, again = deal.observe(seat), deal.observe(seat)
    assert obs is not again and obs.determinizer is not again.determinizer
    assert obs == again and not obs != again  # noqa: SIM202 (``!=`` is held as well)
    with pytest.raises(AttributeError):
        obs.seat = 3  # type: ignore[misc]
    bare = obs.replace(determinizer=None)
    assert bare == obs and not bare.can_imagine and obs.can_imagine
    other = obs.replace(seat=(seat + 1) % 4)
    assert other != obs and other.seat != obs.seat and other.hand == obs.hand
    assert obs != tuple(obs) and obs != "x" and (obs == 3) is False
    assert "determinizer" not in repr(obs) and repr(obs).startswith("Observation(seat=")
    back = pickle.loads(pickle.dumps(obs))
    assert back == obs and back.determinizer is None


def test_stacked_hands_given_out_of_order_are_dealt_in_card_order() -> None:
    # Boodle, 3 seats, stacked. Seat 0 is given 9S 2C KH 5D ... in no order; by hand, card
    # order is suit by suit (clubs, diamonds, hearts, spades: index = suit * 13 + rank),
    # lowest rank first, so its dealt hand (and the "dealt" event it sees) must read
    # 2C 7C AC 5D TD KH 3S 9S QS; the spare is sorted the same way.
    hands = [["9S", "2C", "KH", "5D", "QS", "AC", "3S", "TD", "7C"]]
    rest = [c for c in (r + s for s in "CDHS" for r in "23456789TJQKA")
            if c not in hands[0]]
    hands += [rest[0:9][::-1], rest[9:18][::-1]]
    spare = rest[18:][::-1]
    table = stops.Table("boodle", seats=3, chips=50, seed=1, dealer=2)
    deal = table.new_deal(hands=hands, spare=spare)
    assert [str(c) for c in deal.dealt_hands[0]] == [
        "2C", "7C", "AC", "5D", "TD", "KH", "3S", "9S", "QS"]
    for s in range(3):
        assert list(deal.dealt_hands[s]) == sorted(deal.dealt_hands[s])
        assert list(deal.dealt_hands[s]) == deal.hand(s)
        seen = [e for e in deal.events if e.kind == "dealt" and e.seat == s]
        assert len(seen) == 1 and seen[0].cards == deal.dealt_hands[s]
    assert list(deal.dealt_spare) == sorted(deal.dealt_spare)


def test_below_draws_as_it_always_has() -> None:
    # Rng.below is rejection sampling on getrandbits(n.bit_length()): a draw >= n is thrown
    # away and drawn again. A seeded Random making those very calls must give the same
    # numbers, draw after draw (so each leaves the generator where the reference is).
    import random

    sizes = [1, 2, 3, 5, 7, 12, 13, 52, 100, 1287, 2**20 + 1]
    rng, ref = Rng(2024), random.Random(2024)
    for n in sizes * 20:
        k = n.bit_length()
        want = ref.getrandbits(k)
        while want >= n:
            want = ref.getrandbits(k)
        assert rng.below(n) == want
    with pytest.raises(ValueError):
        rng.below(0)


@pytest.mark.parametrize("case", ["pair", "chain", "three", "first_last", "low_bits"])
def test_the_fast_key_order_finds_every_shared_prefix(case: str) -> None:
    """Keys sharing their top 44 bits, placed so that the doubles (prefix, then index) sort
    them in the wrong order: the zero-word test on the sorted doubles must send each case to
    the exact sort. By hand: keys 0 and 1 share the prefix P; key 0's low 20 bits are larger,
    so by key item 1 comes first, while by double (same prefix, index 0 < 1) item 0 would.
    "chain" puts two such pairs next to each other in sorted order (a borrow out of one
    zero word must not hide the next), "three" three keys on one prefix, "first_last" the
    smallest and largest positions of the sorted order, "low_bits" keys differing only in
    bit 0."""
    p = 0x123456789AB << 20  # a 44-bit prefix, shifted to the top of a 64-bit key
    hi = 0xFFFFF
    spread = [(i * 0x9E3779B97F4A7C15) % 2**64 for i in range(1, 20)]
    keys = {
        "pair": [p | hi, p | 1, *spread],
        "chain": [p | hi, p | 1, (p + (1 << 20)) | hi, (p + (1 << 20)) | 2, *spread],
        "three": [p | 7, p | 5, p | 6, *spread],
        "first_last": [hi, 1, *spread, (2**44 - 1) << 20 | hi, (2**44 - 1) << 20],
        "low_bits": [p | 1, p, *spread],
    }[case]
    stream = b"".join(k.to_bytes(8, "big") for k in keys)
    by_key = sorted(range(len(keys)), key=keys.__getitem__)
    assert list(_key_order(stream, len(keys))) == by_key
    assert by_key.index(1) < by_key.index(0)  # the case the doubles alone get wrong


@pytest.mark.parametrize("seed", [0, 1, -7, 2**70, "text seed", "it's"])
def test_a_deals_shuffle_key_is_the_repr_of_its_parts(seed: int | str) -> None:
    """``deal_key`` formats plain integers directly; the bytes must be exactly the ``repr``
    of ``(seed, "deal", index)`` that the seeded stream has always hashed."""
    for index in (0, 3, 10**6):
        assert deal_key(seed, index) == repr((seed, "deal", index)).encode()


def _dealt_from_a_shuffled_pack(deal: stops.Deal) -> tuple[object, ...]:
    """The hands, spare and last card dealt as the deal phase deals them from a shuffled
    pack (the path a shuffle that is not the table's takes): shuffle the whole pack, then
    one card at a time round the dealer's left (and the spare), each hand sorted."""
    from stops.engine.deal import SPARE
    from stops.engine.rng import deal_shuffle
    from stops.phases.dealing import deal_order

    pack = list(deal.variant.deck)
    deal_shuffle(deal.seed, deal.deal_index, pack)  # type: ignore[arg-type]
    order = deal_order(deal.n, deal.dealer, deal.variant.rules.spare_hand,
                       deal.variant.rules.deal_spare_position == "first", deal.active)
    got = {who: pack[i::len(order)] for i, who in enumerate(order)}
    spare = got.get(SPARE, [])
    return (tuple(tuple(sorted(got.get(s, []))) for s in range(deal.n)),
            tuple(sorted(spare)), spare[-1] if spare else -1)


@pytest.mark.parametrize("name", ["boodle", "three-in-one", "newmarket", "spin",
                                  "rummoli", "tripoley", "royal-rummy"])
def test_hands_read_through_the_shuffles_order_are_the_shuffled_packs(name: str) -> None:
    """The deal phase reads each hand through the keyed shuffle's order instead of shuffling
    the pack: every seat count and dealer must get the very hands, spare and last card dealt
    (a turn-up's card) that dealing the shuffled pack gives."""
    variant = stops.load_variant(name)
    assert variant.deal_shape is not None and variant.deal_shape.shape == "n_plus_one"
    lo, hi = variant.players
    for seats in range(lo, hi + 1):
        table = stops.Table(variant, seats=seats, chips=50, seed=seats * 7 + 1)
        for _ in range(3):
            deal = table.new_deal()
            assert (deal.dealt_hands, deal.dealt_spare, deal.last_dealt) == \
                _dealt_from_a_shuffled_pack(deal)
            play_random(deal, Rng(seats))
            if table.is_over:
                break


def _placed_by_hand(deal: stops.Deal) -> tuple[object, ...]:
    """What the deal phase's plain placing gives for ``deal``'s dealt hands: every card's
    owner (a seat, SPARE -1, or ABSENT -3 for a card the pack lacks), each seat's suit masks
    (bit r of mask s: rank r of suit s held) and count, and the ``dealt`` events in seat order
    (a seat out of the session gets none) followed by the spare's."""
    from stops.engine.deal import ABSENT, SPARE

    owner = [ABSENT] * 52
    masks = [[0, 0, 0, 0] for _ in range(deal.n)]
    events = []
    for seat, hand in enumerate(deal.dealt_hands):
        if not hand and seat not in deal.active:
            continue
        for c in hand:
            owner[c] = seat
            masks[seat][c // 13] |= 1 << (c % 13)
        events.append(("dealt", seat, len(hand), tuple(hand), frozenset({seat})))
    for c in deal.dealt_spare:
        owner[c] = SPARE
    if deal.variant.rules.spare_hand:
        events.append(("spare_dealt", None, len(deal.dealt_spare), (), None))
    return owner, masks, [len(h) for h in deal.dealt_hands], events, set(deal.dealt_spare)


@pytest.mark.parametrize("name", BUILTINS)
def test_owners_masks_and_events_of_the_deal_are_the_plain_placing(name: str) -> None:
    """The deal phase reads the hands through the shuffle's order and places them by its own
    loop: for every built-in at every seat count and several
    dealers (a stripped pack's missing cards stay ABSENT, a seat out of the session gets
    nothing), the hands, spare and last card dealt must be the shuffled pack's, and owners,
    masks, counts, the ``dealt`` events and the spare what placing those hands card by card
    gives. By hand for one case: Boodle, 4 seats, seed 1 (the contract test above) gives
    seat 0 3C 5C AC 3D 4D 9D 3H QH 2S 3S, so its club mask is 2, 5 and ace: bits 1, 3, 12
    = 0b1000000001010, and 9C (index 7) is the spare's, owner -1."""
    import functools

    from stops.engine.rng import deal_shuffle

    variant = stops.load_variant(name)
    lo, hi = variant.players
    shape = variant.deal_shape.shape if variant.deal_shape is not None else ""

    def check(deal: stops.Deal) -> None:
        while not deal.dealt_hands and not deal.is_terminal:  # stakes chosen before the deal
            deal.apply(deal.legal_actions()[0])
        if shape == "n_plus_one":  # the sized shapes deal by a plan: the tests above
            assert (deal.dealt_hands, deal.dealt_spare, deal.last_dealt) == \
                _dealt_from_a_shuffled_pack(deal)
        owner, masks, counts, events, spare = _placed_by_hand(deal)
        assert deal.owner == owner and deal.masks == masks and deal.counts == counts
        assert deal.spare == spare
        got = [(e.kind, e.seat, e.chips, e.cards, e.visible_to) for e in deal.events
               if e.kind in ("dealt", "spare_dealt")]
        assert got == events

    for seats in range(lo, hi + 1):
        table = stops.Table(variant, seats=seats, chips=50, seed=seats * 11 + 3)
        for _ in range(3):
            deal = table.new_deal()
            check(deal)
            play_random(deal, Rng(seats))
            if table.is_over:
                break
    if hi > lo:  # seat 1 out of the session (chip_shortfall: eliminate), dealer seat 2
        layout = dict.fromkeys(variant.space_ids, 0)
        for index in range(3):
            check(stops.Deal(variant, players=hi, dealer=2, stacks=[50] * hi, layout=layout,
                             shuffle=functools.partial(deal_shuffle, 5, index), seed=5,
                             deal_index=index, active=[s for s in range(hi) if s != 1]))
    if name == "boodle":
        deal = stops.Table("boodle", seats=4, chips=50, seed=1).new_deal()
        assert deal.masks[0][0] == 0b1000000001010 and deal.owner[7] == -1

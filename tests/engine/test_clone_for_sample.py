"""Issue 24: what a repeated ``clone_for`` at one position pays (both builds run these).

A copy from a kept view is cloned with the view's hands and log in place, its record's
fixed hands come from codes worked out once per view, the phases keep per view what is the
same for every copy (``redeal_memo``), and the claims by holding are checked per key of the
imagined hands (``ClaimPolicy.held_key``). These tests hold each shortcut to what the long
way gives.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import attrs
import pytest

import stops
from stops.engine.cards import CARDS, parse_card
from stops.engine.deal import ABSENT, PLAYED, SPARE
from stops.engine.determinize import (
    MAX_TABLED,
    Probe,
    _swap,
    cards_of,
    held_cards,
    pick,
    pick_sorted,
    redeal_memo,
)
from stops.engine.rng import Rng
from stops.engine.vocabulary import SWAPS_SPARE
from stops.games.poch import best_run, best_sequence
from stops.phases.held_runs import best_run_lanes, has_pair, lane_mask, run_lanes
from stops.phases.settle import ClaimHeldPhase, HeldClaims
from stops.policies.claims import (
    Award,
    _plan_groups,
    awarded_claims,
    holders_plan,
    holds_pay_card,
    pay_card_among,
    pay_masks,
    whole_holders,
    whole_holders_by,
)
from stops.policies.succession import pack_order
from stops.rules.variant import list_variants, variant_from_mapping
from support import midway


def _eager_dealt(copy: stops.Deal, seat: int) -> dict[int, tuple[Any, ...]]:
    """The copy's hands as dealt, worked out the long way from its cards and its log: every
    card played back with its player, every public swap with the spare hand undone (the
    seat's own hand is the real one's: not compared)."""
    hands: dict[int, set[int]] = {p: set() for p in range(copy.n)}
    hands[SPARE] = set()
    for c in range(52):
        if copy.played_by[c] >= 0:
            hands[copy.played_by[c]].add(c)
        elif copy.owner[c] >= 0 or copy.owner[c] == SPARE:
            hands[copy.owner[c]].add(c)
    for e in reversed(copy.events):
        if e.kind in SWAPS_SPARE and e.visible_to is None and e.seat is not None:
            hands[e.seat], hands[SPARE] = hands[SPARE], hands[e.seat]
    return {p: tuple(CARDS[c] for c in sorted(cs)) for p, cs in hands.items() if p != seat}


@pytest.mark.parametrize("name", list_variants())
def test_a_copys_record_is_the_eager_one(name: str) -> None:
    # Every built-in, three points of a deal, the first copy at a position (no view kept)
    # and three more from the kept view: the copy's dealt hands, as its record gives them,
    # are its cards with the plays and the public swaps undone, and every card of the pack
    # lies in exactly one of them.
    lo, hi = stops.load_variant(name).players
    for seed, steps in ((1, 3), (2, 9), (3, 17)):
        deal = midway(name, seed, steps, seats=min(max(4, lo), hi))
        if deal.is_terminal or not deal.dealt_hands:
            continue
        seat = deal.current_seat
        assert seat is not None
        rng = random.Random(seed)
        for _ in range(4):
            copy = deal.clone_for(seat, rng)
            eager = _eager_dealt(copy, seat)
            for p, hand in eager.items():
                got = copy.dealt_spare if p == SPARE else copy.dealt_hands[p]
                assert tuple(got) == hand, (name, seed, p)
            rec = copy.record()
            every = [c for h in rec["hands"] for c in h] + list(rec["spare"])
            assert sorted(every) == sorted(str(c) for c in copy.variant.deck)
            assert copy._imagined is None  # the view's memo is not left on the copy


def test_pick_draws_every_choice_alike() -> None:
    # Two of four cards: six choices, each drawn about 6000 / 6 = 1000 times (a binomial
    # with sd about 29: 850 to 1150 is over five sd). The pick is k distinct cards of the
    # hand; fewer cards than asked give all of them.
    rng = random.Random(5)
    counts = Counter(tuple(sorted(pick(rng, [3, 8, 21, 40], 2))) for _ in range(6000))
    assert len(counts) == 6
    assert all(850 < n < 1150 for n in counts.values()), counts
    assert sorted(pick(rng, [7, 9], 5)) == [7, 9]
    assert pick(rng, [7, 9, 11], 0) == []


def test_pick_sorted_draws_every_choice_alike() -> None:
    # The poker re-picks' draw: a row of the table of every choice of k positions. Two of
    # five cards: C(5, 2) = 10 choices, each drawn about 10000 / 10 = 1000 times (a binomial
    # with sd 30: 850 to 1150 is five sd), each in the hand's own order; with a stops Rng
    # too. Fewer cards than asked give all of them; k = 0 the empty choice.
    hand = [3, 8, 21, 40, 50]
    for rng in (random.Random(5), Rng(5)):
        counts = Counter(pick_sorted(rng, hand, 2) for _ in range(10000))
        assert set(counts) == {(a, b) for i, a in enumerate(hand) for b in hand[i + 1:]}
        assert all(850 < n < 1150 for n in counts.values()), counts
    rng = random.Random(1)
    assert pick_sorted(rng, [7, 9], 5) == (7, 9)
    assert pick_sorted(rng, [7, 9, 11], 3) == (7, 9, 11)
    assert pick_sorted(rng, [7, 9, 11], 0) == ()
    # a hand larger than the table's: k of its cards, in order, none twice
    big = list(range(0, 2 * (MAX_TABLED + 2), 2))
    got = pick_sorted(rng, big, 5)
    assert len(set(got)) == 5 and set(got) <= set(big) and list(got) == sorted(got)


class _Fixed(random.Random):
    """A ``random.Random`` whose ``random()`` gives the values listed, in turn."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self.values = list(values)

    def random(self) -> float:
        return self.values.pop(0)


def test_pick_sorted_rows_by_hand() -> None:
    # The table's rows are the choices of positions in combinations' order. Two of four:
    # (0,1) (0,2) (0,3) (1,2) (1,3) (2,3); a draw of 0.5 takes row int(0.5 * 6) = 3, the
    # positions (1, 2): the hand's 2nd and 3rd cards, as the objects given (Cards stay
    # Cards: a poker copy's selection needs no conversion). One of five: 0.6 takes
    # position int(0.6 * 5) = 3. None of three still takes one draw (the stream goes on
    # as it did: one row, the empty choice), and three of three takes none.
    hand = [CARDS[3], CARDS[8], CARDS[21], CARDS[40]]
    rng = _Fixed([0.5, 0.6, 0.99, 0.25])
    got = pick_sorted(rng, hand, 2)
    assert got == (CARDS[8], CARDS[21]) and all(type(c) is type(CARDS[0]) for c in got)
    assert pick_sorted(rng, [3, 8, 21, 40, 50], 1) == (40,)
    assert pick_sorted(rng, [3, 8, 21], 0) == ()
    assert pick_sorted(rng, [3, 8, 21], 3) == (3, 8, 21)
    assert rng.values == [0.25]


def test_held_cards_are_the_pack_cards_of_the_masks() -> None:
    # The hand read from the masks as Card objects, lowest first: cards_of's indices.
    deal = stops.Table("three-in-one", seats=4, chips=50, seed=3).new_deal()
    while not any(deal.counts):
        deal.apply(deal.legal_actions()[0])
    for s in range(deal.n):
        got = held_cards(deal, s)
        assert got == [CARDS[c] for c in cards_of(deal, s)]
        assert all(c is CARDS[int(c)] for c in got)


def test_has_pair_by_hand() -> None:
    # cards are suit * 13 + rank: 0 and 13 are the twos of clubs and diamonds, a pair; 0, 1,
    # 2 three ranks of one suit, none; 51 and 12 the aces of spades and clubs, a pair
    assert has_pair([0, 13])
    assert not has_pair([0, 1, 2])
    assert has_pair([5, 51, 30, 12])
    assert not has_pair([])


def test_cards_of_reads_the_masks() -> None:
    deal = midway("boodle", 4, 5)
    for s in range(deal.n):
        assert cards_of(deal, s) == [int(c) for c in deal.hand(s)]


def test_redeal_memo_outside_clone_for_is_a_throwaway() -> None:
    # A phase's after_redeal called on a deal clone_for is not dealing keeps nothing.
    deal = midway("three-in-one", 1, 6)
    memo = redeal_memo(deal)
    memo["x"] = 1
    assert redeal_memo(deal) == {}
    assert deal._imagined is None


def _where(*held: tuple[int, str]) -> list[int]:
    """Every card in the spare hand but the ones given, as (seat, "9C 10C ...")."""
    where = [SPARE] * 52
    for s, cards in held:
        for t in cards.split():
            where[int(parse_card(t))] = s
    return where


def test_best_run_by_hand() -> None:
    # Poch's pack, ace high: 7 8 9 T J Q K A, positions 0..7. Dealer 0: ties go to the
    # seat first from his left, seats 1, 2, 3, 0.
    order = pack_order("high", stops.load_variant("poch").deck)
    seats = [1, 2, 3, 0]
    # seat 1 holds 7-8-9 of hearts (3 cards, top 9 at position 2), seat 2 9-T-J of clubs
    # (3 cards, top J at position 4), seat 3 Q-K of spades (2 cards: no sequence). Both
    # rankings: equal length, the higher top wins: seat 2's run.
    where = _where((1, "7H 8H 9H"), (2, "9C TC JC"), (3, "QS KS"))
    for length_first in (True, False):
        assert best_run(where, seats, order, 3, length_first, -1) == (
            2, tuple(int(parse_card(t)) for t in ("9C", "TC", "JC")))
    # seat 0 adds 7-8-9-T of diamonds (4 cards, top T at 3): longest first, seat 0's run;
    # highest top first, seat 2's still (J at 4 over T at 3).
    where = _where((1, "7H 8H 9H"), (2, "9C TC JC"), (3, "QS KS"), (0, "7D 8D 9D TD"))
    assert best_run(where, seats, order, 3, True, -1)[0] == 0  # type: ignore[index]
    assert best_run(where, seats, order, 3, False, -1)[0] == 2  # type: ignore[index]
    # seats 1 and 2 both hold 9-T-J (hearts, clubs): a tie goes to seat 1, first from the
    # dealer's left; with clubs trumps, seat 2's run in trumps wins it.
    where = _where((1, "9H TH JH"), (2, "9C TC JC"))
    assert best_run(where, seats, order, 3, True, -1)[0] == 1  # type: ignore[index]
    assert best_run(where, seats, order, 3, True, 0)[0] == 2  # type: ignore[index]
    # a card of the stretch held elsewhere (the 8 in the spare hand) breaks the run in two
    where = _where((1, "7H 9H TH JH"))
    assert best_run(where, seats, order, 3, True, -1) == (
        1, tuple(int(parse_card(t)) for t in ("9H", "TH", "JH")))


def _runs_by_hand(where: list[int], seats: list[int], order: tuple[int, ...], shortest: int,
                  length_first: bool, trumps: int) -> tuple[int, tuple[int, ...]] | None:
    """The best run as the rule reads: every maximal stretch of a suit in rank order held
    by one seat, at least ``shortest`` long, ranked by (length, top) or (top, length), a
    trump run above an equal other, then the seat first in ``seats``, the lower suit, the
    lower start."""
    best: tuple[tuple[int, ...], int, tuple[int, ...]] | None = None
    for suit in range(4):
        row = [where[suit * 13 + r] for r in order]
        q = 0
        while q < len(row):
            e = q
            while e + 1 < len(row) and row[e + 1] == row[q]:
                e += 1
            h = row[q]
            if e - q + 1 >= shortest and h in seats:
                size, top = e - q + 1, e
                rank = (size, top) if length_first else (top, size)
                key = (*rank, 1 if suit == trumps else 0,
                       -seats.index(h), -suit, -q)
                if best is None or key > best[0]:
                    best = (key, h, tuple(suit * 13 + order[x] for x in range(q, e + 1)))
            q = e + 1
    return None if best is None else (best[1], best[2])


def _random_holdings(rng: random.Random, orders: list[tuple[int, ...]],
                     ) -> tuple[tuple[int, ...], list[int], list[int]]:
    """A rank order of ``orders``, who holds each card of it (seats, some maybe not
    listed, the spare hand, or out) and the seats listed: the runs tests' random input."""
    order = rng.choice(orders)
    holders = rng.choice([(0, 1), (0, 1, 2, 3, SPARE), (0, 1, 2, SPARE, ABSENT)])
    where = [ABSENT] * 52
    for suit in range(4):
        for r in order:
            where[suit * 13 + r] = rng.choice(holders)
    return order, where, rng.sample([0, 1, 2, 3], rng.choice([1, 2, 4]))


def test_best_run_on_any_rank_order_and_length() -> None:
    # The run found by the search of the rows in C is the one read by hand, for rank
    # orders of the whole pack (ace high or low), of Poch's 32 cards and with gaps, and
    # for runs of 1 to 13 cards; holders may be seats not listed, the spare hand or absent.
    rng = random.Random(4)
    orders = [tuple(range(13)), (12, *range(12)), tuple(range(5, 13)), (0, 2, 4, 6, 8, 10)]
    for _ in range(3000):
        order, where, seats = _random_holdings(rng, orders)
        shortest = rng.choice([1, 2, 3, 4, 13])
        length_first = rng.random() < 0.5
        trumps = rng.randrange(-1, 4)
        assert best_run(where, seats, order, shortest, length_first, trumps) == \
            _runs_by_hand(where, seats, order, shortest, length_first, trumps)


def _lanes_of(where: list[int], seats: list[int], played: dict[int, set[int]],
              order: tuple[int, ...]) -> tuple[list[list[int]], list[int], int, int]:
    """The inputs of ``best_run_lanes`` for holdings ``where`` split into hands now
    (masks) and cards played (``played``, put back in ``where`` by the caller)."""
    lanes = run_lanes(order)
    assert lanes is not None
    low, width = lanes
    masks = [[0, 0, 0, 0] for _ in range(4)]
    plays = []
    for s in seats:
        suits = [0, 0, 0, 0]
        for c in played.get(s, ()):
            suits[c // 13] |= 1 << (c % 13)
        plays.append(lane_mask(suits, low, width))
    for c, h in enumerate(where):
        if 0 <= h < 4 and c not in played.get(h, ()):
            masks[h][c // 13] |= 1 << (c % 13)
    return masks, plays, low, width


def test_run_lanes_only_for_consecutive_orders() -> None:
    # Ace high over the whole pack: ranks 0..12, lanes of 14 bits; Poch's 32 cards 5..12,
    # lanes of 9; an ace low (A first) or a gap reads card by card.
    assert run_lanes(tuple(range(13))) == (0, 14)
    assert run_lanes(tuple(range(5, 13))) == (5, 9)
    assert run_lanes((12, *range(12))) is None
    assert run_lanes((0, 2, 4, 6)) is None


def test_best_run_lanes_by_hand() -> None:
    # Poch's pack (ranks 7..A, indices 5..12), seats from the dealer's left 1, 2, 0,
    # sequences of 3 or more, length first, hearts (suit 2) trumps. By hand:
    # seat 0 holds 8C 9C TC (clubs 6-8: a run of 3, top position 8-5 = 3) and played JC
    # (9): with it his clubs run 8C-JC, 4 cards, top position 4;
    # seat 1 holds 7H 8H 9H (hearts 5-7: 3 cards, top position 2, trumps);
    # seat 2 holds QS KS AS (spades 10-12: 3 cards, top position 7).
    # Keys (length, top, trump): seat 0 (4, 4, 0), seat 1 (3, 2, 1), seat 2 (3, 7, 0):
    # seat 0 wins with 8C 9C TC JC, the longest. Height first the keys are (top, length,
    # trump): seat 2's (7, 3, 0) wins with QS KS AS.
    order = tuple(range(5, 13))
    where = [ABSENT] * 52
    for c in ("8C", "9C", "TC", "JC"):
        where[int(parse_card(c))] = 0
    for c in ("7H", "8H", "9H"):
        where[int(parse_card(c))] = 1
    for c in ("QS", "KS", "AS"):
        where[int(parse_card(c))] = 2
    seats = [1, 2, 0]
    played = {0: {int(parse_card("JC"))}}
    masks, plays, low, width = _lanes_of(where, seats, played, order)
    clubs = tuple(int(parse_card(c)) for c in ("8C", "9C", "TC", "JC"))
    spades = tuple(int(parse_card(c)) for c in ("QS", "KS", "AS"))
    assert best_run_lanes(masks, seats, plays, low, width, 3, True, 2) == (0, clubs)
    assert best_run_lanes(masks, seats, plays, low, width, 3, False, 2) == (2, spades)
    assert best_run(where, seats, order, 3, True, 2) == (0, clubs)
    # Sequences of 5 or more: nobody has one.
    assert best_run_lanes(masks, seats, plays, low, width, 5, True, 2) is None


def test_best_run_lanes_is_best_run() -> None:
    # On random holdings of consecutive rank orders (the whole pack, Poch's 32 cards),
    # among seats, unlisted seats, the spare hand and cards out, some played: the lanes
    # find the run the pass over every cell finds, ties and all.
    rng = random.Random(6)
    orders = [tuple(range(13)), tuple(range(5, 13)), tuple(range(3, 9))]
    for _ in range(3000):
        order, where, seats = _random_holdings(rng, orders)
        played: dict[int, set[int]] = {s: {c for c in range(52) if where[c] == s
                                           and rng.random() < 0.3} for s in seats}
        shortest = rng.choice([1, 2, 3, 4, 13])
        length_first = rng.random() < 0.5
        trumps = rng.randrange(-1, 4)
        masks, plays, low, width = _lanes_of(where, seats, played, order)
        assert best_run_lanes(masks, seats, plays, low, width, shortest, length_first,
                              trumps) == best_run(where, seats, order, shortest,
                                                  length_first, trumps)


@pytest.mark.parametrize("rank", ["length_first", "height_first"])
@pytest.mark.parametrize("ace", ["high", "low"])
def test_best_sequence_is_the_runs_by_hand(rank: str, ace: str) -> None:
    # On random deals of Poch's pack among four seats and the spare hand, the rule (read
    # from the seats' masks where the rank order is consecutive, ace high; card by card
    # where it is not, ace low) finds the run the reading by hand finds, and the pass per
    # suit that clone_for's check reads finds it too.
    variant = stops.load_variant("poch")
    if ace == "low":
        variant = stops.load_variant("poch", options={"ace": "low"})
    params = attrs.evolve(variant.policy("pay_collection").params, sequence_rank=rank)
    deal = stops.Table(variant, seats=4, chips=50, seed=3).new_deal()
    order = pack_order(variant.rules.ace, variant.deck)
    assert (run_lanes(order) is None) == (ace == "low")
    rng = random.Random(9)
    pack = [int(c) for c in variant.deck]
    runs = 0
    for trial in range(300):
        where = [ABSENT] * 52
        for c in pack:
            where[c] = rng.choice((0, 1, 2, 3, SPARE))
        trumps = trial % 5 - 1
        probe = Probe(deal, {c: h for c, h in enumerate(where) if h != ABSENT})
        try:
            got = best_sequence(deal, params, trumps)
        finally:
            probe.close()
        seats = deal.order(deal.dealer)
        assert got == _runs_by_hand(where, seats, order, params.sequence_min,
                                    rank == "length_first", trumps)
        assert best_run(where, seats, order, params.sequence_min, rank == "length_first",
                        trumps) == got
        runs += got is not None
    assert runs > 30


def test_poch_key_from_the_masks_is_the_key_card_by_card() -> None:
    # clone_for's check of a Poch copy reads the sequence from each seat's masks and his
    # plays (held_key_now); on the real deal and on copies at every decision after the
    # claims, with a run in some of them, it is the key read card by card from the same
    # holdings (the hands with every play put back).
    runs = checked = 0
    for seed in range(1, 7):
        _check_poch_keys(seed, counts := [0, 0])
        checked += counts[0]
        runs += counts[1]
    assert checked and runs


def _check_poch_keys(seed: int, counts: list[int]) -> None:
    """One deal of Poch's keys, both ways, at every decision after the claims; ``counts``
    gets the keys checked and those with a sequence."""
    deal = stops.Table("poch", seats=4, chips=50, seed=seed).new_deal()
    phase = next(p for p in deal.variant.phases if isinstance(p, ClaimHeldPhase))
    pol = phase.policy
    rng = random.Random(seed)
    while not deal.is_terminal:
        if deal.result(HeldClaims) is not None:
            seat = deal.current_seat if deal.current_seat is not None else 0
            for d in [deal] + [deal.clone_for(seat, rng) for _ in range(5)]:
                where = list(d.owner)
                for c, p in enumerate(d.played_by):
                    if p >= 0:
                        where[c] = p
                key = pol.impl.held_key_now(d, pol.params, where)
                assert key == pol.impl.held_key(d, pol.params, where)
                counts[0] += 1
                counts[1] += key is not None and len(key) > 1 and key[1] is not None
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])


def _after_the_claims(variant: Any) -> tuple[stops.Deal, ClaimHeldPhase]:
    """A deal of ``variant`` (seed 2, four seats, the first legal decision each time) played
    to just after its claims by holding, if it has them, with its ``claim_held`` phase."""
    deal = stops.Table(variant, seats=4, chips=50, seed=2).new_deal()
    while "claim_held" in deal.variant.flow and deal.result(HeldClaims) is None:
        legal = deal.legal_actions()
        deal.apply(legal[0])
    return deal, next(p for p in deal.variant.phases if isinstance(p, ClaimHeldPhase))


@pytest.mark.parametrize("name", ["three-in-one", "tripoley", "tripoley-colours", "poch"])
def test_the_same_key_the_same_claims(name: str) -> None:
    # The claims by holding run on a probe of random hands (each card of the pack in a
    # random seat or the spare hand, every space live): hands with equal keys make equal
    # claims. And the check clone_for runs on a copy, remembered per key, says what the
    # probe of the whole hands says.
    deal, phase = _after_the_claims(name)
    pol = phase.policy
    live = frozenset(deal.variant.space_ids)
    rng = random.Random(4)
    pack = [int(c) for c in deal.variant.deck]
    seen: dict[Any, Any] = {}
    keys = 0
    for _ in range(400):
        where = [ABSENT] * 52
        for c in pack:
            where[c] = rng.choice((0, 1, 2, 3, SPARE))
        key = pol.impl.held_key(deal, pol.params, where)
        assert key is not None
        claims = phase._claims(deal, {c: h for c, h in enumerate(where) if h != ABSENT}, live)
        if key in seen:
            assert seen[key] == claims, (key, seen[key], claims)
        else:
            seen[key] = claims
            keys += 1
    assert keys > 3  # the keys told some hands apart
    # a key of Three-in-One's kind: whole holders of each group, PLAYED-marked when split
    assert whole_holders(_where((2, "KH QH")), ((int(parse_card("KH")),
                                                 int(parse_card("QH"))),)) == (2,)
    assert whole_holders(_where((2, "KH"), (1, "QH")), ((int(parse_card("KH")),
                                                        int(parse_card("QH"))),)) == (-2,)


_CLAIM_RULES: list[tuple[str, dict[str, Any]]] = [
    ("three-in-one", {}),
    ("three-in-one", {"pay_collection": {"use": "stage_one", "ten_share": "per_sequence"}}),
    ("three-in-one", {"pay_collection": {"use": "stage_one", "ten_share": "lowest_seat",
                                         "dead_hand_blocks": True},
                      "retire_claimed": True}),
    ("tripoley", {}),
    ("poch", {}),
    ("poch", {"pay_collection": {"use": "trumps_held", "honours": {"ace": "A", "king": "K"},
                                 "pairs": {"marriage": ["K", "Q"]}, "sequence_space": "sequence",
                                 "sequence_rule": "trump_run"}}),
    ("poch", {"pay_collection": {"use": "trumps_held", "honours": {"ace": "A"},
                                 "pairs": {"marriage": ["K", "Q"], "ace": ["A", "K"]},
                                 "sequence_space": "sequence", "sequence_min": 4,
                                 "sequence_rank": "height_first"},
              "retire_claimed": True}),
]


@pytest.mark.parametrize(("name", "rules"), _CLAIM_RULES)
def test_the_claims_read_from_the_key_are_the_rules(name: str, rules: dict[str, Any]) -> None:
    # clone_for's check of a copy reads the claims by holding from the policy's key
    # (ClaimPolicy.key_claims) where it ran the rule on a probe: on random holdings (each
    # card in a seat, the spare hand, or played) and random live spaces, the claims read
    # from the key without paying are those the rule pays on the probe, shares, retired
    # spaces and a space named twice (Poch's ace, an honour and a pair) included. (What
    # the rule pays is held to the rulings by the games' own stacked deals.)
    deal, phase = _after_the_claims(
        variant_from_mapping({"name": "x", "extends": name, "rules": rules}))
    pol = phase.policy
    spaces = sorted(deal.variant.space_ids)
    rng = random.Random(5)
    pack = [int(c) for c in deal.variant.deck]
    made = 0
    for _ in range(300):
        where = [ABSENT] * 52
        for c in pack:
            where[c] = rng.choice((0, 1, 2, 3, SPARE, SPARE, PLAYED))
        live = frozenset(s for s in spaces if rng.random() < 0.8)
        key = pol.impl.held_key(deal, pol.params, where)
        assert key is not None
        got = pol.impl.key_claims(deal, pol.params, key, live)
        want = phase._claims(deal, {c: h for c, h in enumerate(where) if h != ABSENT}, live)
        assert got == want, (key, live)
        made += bool(want)
    assert made > 30  # most holdings claimed something


def test_awarded_claims_by_hand() -> None:
    # What paying the awards would claim, read without paying (live spaces of 1000 chips):
    # a space shared by seats 1, 2 and 1 again (333 each, one chip left) claims once per
    # seat, with its cards shown; a whole claim after it takes the chip left; a whole claim
    # first leaves nothing to share; a space not live pays nobody.
    share = Award("a", (1, 2, 1), {1: (5,), 2: (6,)}, "", True)
    whole = Award("a", (3,), {3: (7,)}, "", False)
    live = frozenset({"a"})
    assert awarded_claims([share, whole], live) == {("a", 1, (5,)), ("a", 2, (6,)),
                                                    ("a", 3, (7,))}
    assert awarded_claims([whole, share], live) == {("a", 3, (7,))}
    assert awarded_claims([whole, Award("a", (2,), {2: (8,)}, "", False)], live) == \
        {("a", 3, (7,))}
    assert awarded_claims([share], frozenset({"b"})) == frozenset()


def test_whole_holders_by_a_plan_is_whole_holders() -> None:
    # the plan's getter of first cards and its checks of the longer groups give the very
    # key the card-by-card walk gives: Three-in-One's stage-one groups, a single group, and
    # groups of one card only, on random holdings (seats, the spare hand, cards played or
    # out), ties of holder within a group common
    rng = random.Random(8)
    deal = stops.Table(stops.load_variant("three-in-one"), seats=4, seed=1).new_deal()
    groups_of = [
        tuple(tuple(int(c) for c in g) for g in
              ((38,), (37,), (36,), (35,), (34,), (37, 36), (6, 7, 8), (19, 20, 21))),
        ((6, 7, 8),),
        ((3,), (40,)),
        (),
    ]
    pol = deal.variant.policy("pay_collection")  # the policy's key goes by the plan
    got = pol.impl.held_key(deal, pol.params, list(deal.owner))
    assert got == whole_holders(list(deal.owner), _plan_groups(deal))
    for groups in groups_of:
        plan = holders_plan(groups)
        for _ in range(300):
            where = [rng.choice((0, 1, 2, SPARE, -2, ABSENT)) if rng.random() < 0.4
                     else rng.choice((0, 1)) for _ in range(52)]
            assert whole_holders_by(where, plan) == whole_holders(where, groups), groups


def test_pay_card_among_is_holds_pay_card() -> None:
    # Tripoley's pay cards: A K Q J T of hearts, K-Q of hearts, an 8-9-10 of one suit. A
    # hand of 8 9 T of clubs holds one (the run); 8 9 of clubs and the J of spades none; the
    # T of hearts alone is a pay card. Then random hands: the set test is the probe's.
    deal = stops.Table("tripoley", seats=4, chips=50, seed=1).new_deal()
    cards = [int(parse_card(t)) for t in ("8C", "9C", "TC")]
    assert pay_card_among(deal, set(cards))
    assert not pay_card_among(deal, {cards[0], cards[1], int(parse_card("JS"))})
    assert pay_card_among(deal, {int(parse_card("TH"))})
    rng = random.Random(2)
    for _ in range(300):
        hand = set(rng.sample(range(52), rng.randrange(1, 14)))
        probe = Probe(deal, dict.fromkeys(hand, 1))
        try:
            expect = holds_pay_card(deal, 1)
        finally:
            probe.close()
        assert pay_card_among(deal, hand) == expect


def test_pay_masks_are_pay_card_among() -> None:
    # The same pay cards as masks (SparePhase.after_redeal's check of each imagined deal): a
    # hand holds one when some group's bits are all set in it. By hand: 8 9 T of clubs is
    # the run 8-9-10 of clubs, so its mask holds the group; 8 9 of clubs with the J of spades
    # no group whole; the T of hearts alone is the card space's card. Then random hands:
    # the mask test is the set test.
    deal = stops.Table("tripoley", seats=4, chips=50, seed=1).new_deal()
    groups = pay_masks(deal)

    def holds(cards: set[int]) -> bool:
        bits = sum(1 << c for c in cards)
        return any(bits & g == g for g in groups)

    assert holds({int(parse_card(t)) for t in ("8C", "9C", "TC")})
    assert not holds({int(parse_card(t)) for t in ("8C", "9C", "JS")})
    assert holds({int(parse_card("TH"))})
    rng = random.Random(3)
    for _ in range(300):
        hand = set(rng.sample(range(52), rng.randrange(1, 14)))
        assert holds(hand) == pay_card_among(deal, hand)


@pytest.mark.parametrize("name", ["boodle", "three-in-one", "tripoley", "poch", "rummoli"])
def test_a_copys_lazy_record_reads_alike_every_way(name: str) -> None:
    # The copy's record is worked out when first read (Deal.defer_record). Two copies
    # drawn with the same rng state are the same imagined deal; one is read at once, the
    # other first cloned, pickled, or has its spare's record set alone: each way, the
    # record read is the first one's (the clone and the pickle work it out, a setter keeps
    # the other half).
    import pickle

    deal = midway(name, 2, 9)
    seat = deal.current_seat
    assert seat is not None
    deal.clone_for(seat, random.Random(0))  # a kept view: the copies below take the fast way
    state = random.Random(7).getstate()

    def copy() -> stops.Deal:
        rng = random.Random()
        rng.setstate(state)
        return deal.clone_for(seat, rng)

    first = copy()
    want = (first.dealt_hands, first.dealt_spare)
    eager = _eager_dealt(first, seat)  # the long way, from the copy's cards and log
    assert all(tuple(want[1] if p == SPARE else want[0][p]) == h for p, h in eager.items())
    assert want[0][seat] == deal.dealt_hands[seat]  # the seat's own hand is its real one
    cloned = copy().clone()
    assert (cloned.dealt_hands, cloned.dealt_spare) == want
    loaded = pickle.loads(pickle.dumps(copy()))
    assert (loaded.dealt_hands, loaded.dealt_spare) == want
    spare_set = copy()
    spare_set.dealt_spare = ()
    assert (spare_set.dealt_hands, spare_set.dealt_spare) == (want[0], ())
    assert first.record()["hands"] == [[str(c) for c in h] for h in want[0]]


def test_defer_record_works_it_out_once() -> None:
    # A deferred record is made on the first read from the record the deal held, once:
    # Boodle after its deal (hands already dealt), the work swaps seat 0's hand with the
    # spare's, so the reads give exactly that and the work is called one time.
    deal = midway("boodle", 3, 2)
    hands, spare = deal.dealt_hands, deal.dealt_spare
    calls: list[int] = []

    def work(h: tuple[Any, ...], s: tuple[Any, ...]) -> tuple[Any, ...]:
        calls.append(1)
        return (s, *h[1:]), h[0]

    deal.defer_record(work)
    assert not calls  # nothing worked out yet
    assert deal.dealt_spare == hands[0]
    assert deal.dealt_hands == (spare, *hands[1:])
    assert deal.dealt_hands[0] == spare
    assert len(calls) == 1


def test_the_walk_draws_with_a_stops_rng() -> None:
    # A step of the walk (_swap) with a stops Rng, which has no random(): two places, so
    # no rotation round three is possible and the step is a swap. By hand: seat 0 (the
    # misfit) gives one of its cards 1, 2 for one of seat 1's 3, 4, so each place keeps
    # two cards, one of each pair. A random.Random walks as before (the same draws).
    at = {0: [1, 2], 1: [3, 4]}
    allowed = {c: [0, 1] for c in (1, 2, 3, 4)}
    for rng in (Rng(3), random.Random(3)):
        for _ in range(20):
            out = _swap(at, {0}, allowed, rng)
            assert len(out[0]) == len(out[1]) == 2
            assert len(set(out[0]) & {1, 2}) == 1 and len(set(out[0]) & {3, 4}) == 1
            assert sorted(out[0] + out[1]) == [1, 2, 3, 4]
    assert at == {0: [1, 2], 1: [3, 4]}  # the deal walked from is left as it was


def test_a_step_of_the_walk_leaves_the_deal_it_walked_from() -> None:
    # Three places, every card allowed anywhere: steps are swaps of two and rotations round
    # three (_rotate, a quarter of the steps). By hand: each step keeps every place's count
    # and the six cards; the deal walked from keeps its lists unchanged (a step copies only
    # the lists it writes, and shares the others), chained as the walk chains them.
    at = {0: [1, 2], 1: [3, 4], 2: [5, 6]}
    allowed = {c: [0, 1, 2] for c in range(1, 7)}
    rng = random.Random(5)
    walked = at
    for _ in range(200):
        before = {h: list(cs) for h, cs in walked.items()}
        out = _swap(walked, {0, 1}, allowed, rng)
        assert walked == before
        assert [len(out[h]) for h in (0, 1, 2)] == [2, 2, 2]
        assert sorted(out[0] + out[1] + out[2]) == [1, 2, 3, 4, 5, 6]
        assert out != before  # a step moves something
        walked = out
    assert at == {0: [1, 2], 1: [3, 4], 2: [5, 6]}


@pytest.mark.parametrize("n", [5, 16, 17, 26])
def test_pick_sorted_gives_back_the_cards_it_was_given(n: int) -> None:
    # A hand of the pack's own Card objects, n cards (17 and 26: more than MAX_TABLED, so
    # picked by Fisher-Yates steps, whose swaps the compiled build once turned into plain
    # ints: a copy's select then recorded '15' for 4D). By hand: whatever is picked, each
    # item is one of the given objects itself, in the order given, and prints as a card.
    from stops.engine.determinize import pick_sorted

    hand = [CARDS[c] for c in range(0, 52, 2)][:n]
    for rng in (random.Random(3), Rng(3)):
        got = pick_sorted(rng, list(hand), 5)
        assert len(got) == 5 and all(any(c is h for h in hand) for c in got)
        assert list(got) == sorted(got) and all(str(c) == str(CARDS[int(c)]) for c in got)
        assert all(len(str(c)) == 2 for c in got)


def _refused_by_name(impl: Any, match: str) -> stops.Deal:
    """A deal of Three-in-One just after its claims by holding, at a seat's decision, whose
    ``claim_held`` policy is swapped for ``impl`` while a seat's copy is asked for: the
    call must stop with a ``StopsError`` matching ``match`` and leave the deal as it was
    (checked here). The deal is returned with its own policy back."""
    from stops.engine.errors import StopsError

    deal = stops.Table(stops.load_variant("three-in-one"), seats=4, seed=3).new_deal()
    while deal.result(HeldClaims) is None or deal.current_seat is None:
        deal.apply(deal.legal_actions()[0])
    phase = next(p for p in deal.variant.phases if isinstance(p, ClaimHeldPhase))
    kept = phase.policy
    before = (list(deal.events), list(deal.owner), deal.to_dict())
    try:
        phase.policy = attrs.evolve(kept, impl=impl)
        with pytest.raises(StopsError, match=match):
            deal.clone_for(deal.current_seat, random.Random(1))
    finally:
        phase.policy = kept
    assert (list(deal.events), list(deal.owner), deal.to_dict()) == before
    return deal


def test_a_claim_policy_whose_key_claims_are_no_set_is_refused_by_name() -> None:
    """A plug-in claim policy whose ``key_claims`` answers a list (which equals no set of
    claims, so every imagined deal would be refused and ``clone_for`` fail after all its
    tries, saying nothing of why) is refused by name when a seat's view is read; the deal
    is left as it was."""
    from stops.policies.claims import StageOne

    class Listy(StageOne):
        def key_claims(self, deal: Any, params: Any, key: Any, live: Any) -> Any:
            got = super().key_claims(deal, params, key, live)
            return None if got is None else sorted(got)

    _refused_by_name(Listy(), "key_claims must return a frozenset")


def test_a_claim_policy_whose_turn_up_part_is_no_key_is_refused_by_name() -> None:
    """A plug-in claim policy whose ``held_turn_up`` gives what cannot be a key (a list) is
    refused by name when a seat's view is read, not with a bare ``TypeError`` from the
    variant's memory; the deal is left as it was, and the policy's own answer is the
    default's once mended."""
    from stops.policies.claims import StageOne

    class Listy(StageOne):
        def held_turn_up(self, deal: Any, params: Any) -> object:
            return [deal.last_dealt]

    deal = _refused_by_name(Listy(), "held_turn_up must return a hashable value")
    assert deal.current_seat is not None
    assert deal.clone_for(deal.current_seat, random.Random(1)).n == 4

"""Issue 24: the claims by holding read per copy from the cards dealt afresh alone.

``clone_for`` checks every copy of a position against the claims by holding made
(``ClaimHeldPhase.hands_fit``). A policy may give a reader of that check's key per position
(``ClaimPolicy.held_key_reader``): what cannot change between the position's copies worked
out once, the rest read from each copy's owners. These tests hold stage one's reader to the
key read from the whole table, by hand and on ``clone_for``'s own copies, and the phase to
keeping only a reader that agrees with the key of the copy it was made from.
"""

from __future__ import annotations

import random

import pytest

import stops
from stops.engine.deal import PLAYED, SPARE
from stops.engine.determinize import dealt_afresh, redeal_memo
from stops.phases.settle import _READER, ClaimHeldPhase
from stops.policies.claims import _HeldKeyReader, whole_holders


def test_the_reader_by_hand() -> None:
    # By hand: five groups; cards 1, 3, 4, 6 and 7 are dealt afresh, the others stay.
    # (0,): 0 stays with seat 2, so its key is 2 in every copy. (1, 2): 2 stays with seat
    # 1, so the group is whole (1) only where the copy deals 1 to seat 1. (3, 4, 5): 5
    # stays in the spare hand, whole (SPARE) only where 3 and 4 go there too. (6, 7): both
    # move, whole where they go together. (8, 9): split for good (seats 0 and 1).
    groups = ((0,), (1, 2), (3, 4, 5), (6, 7), (8, 9))
    afresh = frozenset({1, 3, 4, 6, 7})
    where = [2, 0, 1, 0, 0, SPARE, 0, 3, 0, 1]
    read = _HeldKeyReader(groups, where, afresh).read
    assert read(where) == (2, PLAYED, PLAYED, PLAYED, PLAYED) == whole_holders(where, groups)
    owner = [2, 1, 1, SPARE, SPARE, SPARE, 3, 3, 0, 1]
    assert read(owner) == (2, 1, SPARE, 3, PLAYED) == whole_holders(owner, groups)
    owner = [2, 3, 1, SPARE, 0, SPARE, 0, 3, 0, 1]
    assert read(owner) == (2, PLAYED, PLAYED, PLAYED, PLAYED) == whole_holders(owner, groups)


def _positions(name: str, seed: int, every: int) -> list[tuple[stops.Deal, int]]:
    """Copies of a random deal of ``name`` at every ``every``-th decision, with the seat to
    act (the real deal moved on after each)."""
    variant = stops.load_variant(name)
    deal = stops.Table(variant, seats=4, seed=seed, chips=100).new_deal()
    rng = random.Random(seed)
    out: list[tuple[stops.Deal, int]] = []
    k = 0
    while not deal.is_terminal:
        seat = deal.current_seat
        if k % every == 1 and seat is not None:
            out.append((deal.clone(), seat))
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
        k += 1
    return out


def _key_of_whole_table(phase: ClaimHeldPhase, copy: stops.Deal) -> object:
    """The check's key read from the copy's whole table (every card played put back)."""
    where = list(copy.owner)
    for p, c in copy.plays:
        where[c] = p
    return phase.policy.impl.held_key_now(copy, phase.policy.params, where)


@pytest.mark.parametrize("name", ["three-in-one", "tripoley", "tripoley-colours"])
def test_the_reader_gives_the_whole_tables_key_on_every_copy(name: str) -> None:
    # By the rule: two copies of one position differ only in where the cards dealt afresh
    # lie, so the reader made from one copy's table gives every other copy's key.
    read_copies = 0
    for seed in (1, 2):
        for deal, seat in _positions(name, seed, 4):
            phase = next(p for p in deal.variant.phases if isinstance(p, ClaimHeldPhase))
            first = deal.clone_for(seat, random.Random(seed))
            view = deal._imagined[seat]  # the position's view, its memo lent as clone_for does
            first._imagined = view.memo
            afresh = dealt_afresh(first)
            assert afresh is not None and set(afresh) == view.unseen
            where = list(first.owner)
            for p, c in first.plays:
                where[c] = p
            read = phase.policy.impl.held_key_reader(first, phase.policy.params, where,
                                                    afresh)
            first._imagined = None
            assert read is not None
            for k in range(8):
                copy = deal.clone_for(seat, random.Random(100 * seed + k))
                assert read(copy.owner) == _key_of_whole_table(phase, copy)
                read_copies += 1
    assert read_copies >= 40  # five positions or more of each of two deals


def test_a_reader_that_disagrees_is_not_kept() -> None:
    # By the rule: the phase keeps a reader only if it gives the copy it was made from the
    # key that copy's whole table gives; told another key, it keeps none (False), and a
    # deal that is not a copy being dealt has no cards dealt afresh.
    deal, seat = _positions("tripoley", 3, 4)[3]
    phase = next(p for p in deal.variant.phases if isinstance(p, ClaimHeldPhase))
    copy = deal.clone_for(seat, random.Random(1))
    assert dealt_afresh(copy) is None and redeal_memo(copy) == {}
    copy._imagined = dict(deal._imagined[seat].memo)
    where = list(copy.owner)
    for p, c in copy.plays:
        where[c] = p
    held = _key_of_whole_table(phase, copy)
    memo = redeal_memo(copy)
    memo.pop(_READER, None)
    phase._make_reader(copy, memo, where, ("not the key",))
    assert memo[_READER] is False
    del memo[_READER]
    phase._make_reader(copy, memo, where, held)
    assert memo[_READER] and memo[_READER](copy.owner) == held

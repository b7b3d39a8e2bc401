"""A deal record's hands must have the sizes the deal gives (FAMILY-RULINGS F.0, F15).

F.0: "each hand must have the size the deal shape gives for that player count, or the record
is rejected with a clear message". Every built-in of the family (F.1-F.7) says so with
``stacked_sizes: as_dealt``, which holds under every deal shape: ``n_plus_one`` (the odd cards
to the seats nearest the dealer's left), ``equal_plus_dead`` and ``table`` (``hand_sizes``).
The three games of docs/rulings.md keep ``any`` (its ruling 1: records store the hands, whatever
their sizes).

The property: deal a random deal, move a few cards from one hand to another hand or to the
spare; the record is refused with a RecordError that names the first seat (from the dealer's
left) whose hand has the wrong size, the size it holds and the size the deal gives it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stops

LEGACY = {"boodle", "three-in-one", "pot-and-kitty"}
"""The games of docs/rulings.md (and their children): any hand sizes that make up the pack."""


def _family() -> list[str]:
    out = []
    for name in stops.list_variants():
        if not any(name == g or name.startswith(g + "-") for g in LEGACY):
            out.append(name)
    return out


FAMILY = _family()
SHAPES: list[tuple[str, dict[str, Any]]] = (
    [(name, {}) for name in FAMILY]
    + [(name, {"deal_shape": "n_plus_one"}) for name in FAMILY
       if stops.load_variant(name).settings("deal").shape != "n_plus_one"]
    + [(name, {"deal_shape": "equal_plus_dead"}) for name in ("newmarket", "tripoley")])
"""Every family built-in under its own deal shape, and under n_plus_one (F15's option for
Pope Joan; an option any of them may be given) or equal_plus_dead."""


def test_every_shape_is_covered_and_checked() -> None:
    shapes = {stops.load_variant(n, options=o).settings("deal").shape for n, o in SHAPES}
    assert shapes == {"n_plus_one", "equal_plus_dead", "table"}
    for name, opts in SHAPES:
        v = stops.load_variant(name, options=opts)
        lo, hi = v.players
        shape = v.deal_shape
        assert shape is not None
        assert all(shape.stacked_sizes(n) is not None for n in range(lo, hi + 1)), (name, opts)
    for name in LEGACY:
        shape = stops.load_variant(name).deal_shape
        assert shape is not None and shape.stacked_sizes(4) is None


def _dealt(name: str, opts: dict[str, Any], seats: int, seed: int,
           dealer: int) -> dict[str, Any]:
    table = stops.Table(name, seats=seats, seed=seed, dealer=dealer % seats, options=opts)
    deal = table.new_deal()
    while deal.phase == "stake":   # stake decisions come before the deal (newmarket-peel)
        deal.apply(deal.legal_actions()[0])
    return deal.record()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHAPES), st.data())
def test_any_wrong_hand_size_is_refused_naming_the_seat(
        shape: tuple[str, dict[str, Any]], data: st.DataObject) -> None:
    name, opts = shape
    lo, hi = stops.load_variant(name, options=opts).players
    seats = data.draw(st.integers(lo, hi), "seats")
    rec = _dealt(name, opts, seats, data.draw(st.integers(0, 2**32), "seed"),
                 data.draw(st.integers(0, seats - 1), "dealer"))
    stops.replay(rec, partial=True)                      # as dealt: replays
    rng = random.Random(data.draw(st.integers(0, 2**32), "moves"))
    hands = [list(h) for h in rec["hands"]]
    spare = list(rec["spare"])
    dealt = [len(h) for h in hands]
    donor = rng.randrange(seats)
    to = rng.choice([s for s in range(seats) if s != donor] + ["spare"])
    if to == "spare" and not spare:
        to = (donor + 1) % seats
    for _ in range(rng.randint(1, min(3, dealt[donor] - 1))):
        card = hands[donor].pop(rng.randrange(len(hands[donor])))
        (spare if to == "spare" else hands[to]).append(card)   # type: ignore[index]
    order = [(rec["dealer"] + k) % seats for k in range(1, seats + 1)]
    first = next(s for s in order if len(hands[s]) != dealt[s])
    with pytest.raises(stops.RecordError) as info:
        stops.replay(dict(rec, hands=hands, spare=spare), partial=True)
    assert info.value.seat == first
    text = str(info.value)
    assert f"seat {first} holds {len(hands[first])} cards" in text, text
    assert f" {dealt[first]}" in text.split("cards;", 1)[1], text


def test_record_error_names_both_sizes_for_each_shape() -> None:
    # Hand-derived, one per shape, 4 players, dealer 3 (seat 0 is the dealer's left):
    # - pope-joan n_plus_one: 51 cards into 5 hands = 10 r 1: seat 0 11, the others 10, dead 10;
    # - pope-joan equal_plus_dead: floor(51 / 5) = 10 each, the dead hand 11;
    # - nain-jaune table: hand_sizes 4 players 12 each, the talon 4.
    # Moving one card from seat 2 to seat 1: seat 0 is right, seat 1 (the first wrong one from
    # the dealer's left) holds one card more than dealt: 11 where 10, 11 where 10, 13 where 12.
    cases = [("pope-joan", {"deal_shape": "n_plus_one"}, [11, 10, 10, 10], "it 10"),
             ("pope-joan", {}, [10, 10, 10, 10], "each player 10 (and the spare 11)"),
             ("nain-jaune", {}, [12, 12, 12, 12], "each player 12 (and the spare 4)")]
    for name, opts, sizes, says in cases:
        rec = _dealt(name, opts, 4, 7, 3)
        assert [len(h) for h in rec["hands"]] == sizes
        hands = [list(h) for h in rec["hands"]]
        hands[1].append(hands[2].pop())
        with pytest.raises(stops.RecordError) as info:
            stops.replay(dict(rec, hands=hands))
        assert info.value.seat == 1
        assert f"seat 1 holds {sizes[1] + 1} cards; this deal gives {says}" in str(info.value)


def test_a_house_variant_record_with_a_table_of_hand_sizes_survives_json(tmp_path: Path) -> None:
    """A house rule of a game dealt by a table (Nain Jaune's ``hand_sizes: {3: 15, ...}``)
    is embedded in its records as resolved rules; written as JSON, the table's keys become
    text ("3"), and the record must still replay. A key that is not a number is refused."""
    house = tmp_path / "my-nain.yaml"
    house.write_text("extends: nain-jaune\nname: my-nain\nrules:\n  starting_chips: 60\n",
                     encoding="utf-8")
    deal = stops.Table(stops.load_variant(str(house)), seats=3, seed=4).new_deal()
    rng = random.Random(1)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    rec = json.loads(json.dumps(deal.record()))
    assert isinstance(rec["variant"], dict)  # embedded, not named
    assert stops.replay(rec).stacks == deal.stacks
    rec["variant"]["rules"]["hand_sizes"]["x"] = 3
    with pytest.raises(stops.RecordError, match=r"rules\.hand_sizes.*'x'"):
        stops.replay(rec)

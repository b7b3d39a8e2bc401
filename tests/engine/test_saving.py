"""Saving and restoring tables and deals in progress (for a host game's save/load)."""

from __future__ import annotations

import contextlib
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
    lo, hi = stops.load_variant(name).players
    original = stops.Table(name, seats=min(lo + 1, hi, 6), chips=40, seed=seed, deals=3)
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


# -- issue 22 item 6: a save cannot bring back stacked hands without a signature -------------

KEY = b"host-secret-key-0123456789"


def _midway_table(name: str = "boodle", seed: int = 5, steps: int = 3) -> stops.Table:
    table = stops.Table(name, seats=4, chips=50, seed=seed)
    deal = table.new_deal()
    for _ in range(steps):
        deal.apply(deal.legal_actions()[0])
    return table


def _stack_the_spare(cur: dict[str, object], seat: int, k: int = 9) -> None:
    """The old cheat: move ``k`` of ``seat``'s cards into the spare hand, so that it goes
    out at once (its hand of 13 down to 4 cards in Boodle's four-handed deal)."""
    hands = cur["hands"]
    assert isinstance(hands, list)
    spare = cur["spare"]
    assert isinstance(spare, list)
    cur["spare"] = spare + hands[seat][:k]
    hands[seat] = hands[seat][k:]


def test_a_save_claiming_a_stacked_deal_needs_the_signature() -> None:
    table = _midway_table()
    data = json.loads(json.dumps(table.to_dict()))
    assert data["stacked"] is False
    forged = json.loads(json.dumps(data))
    forged["stacked"] = True  # the one boolean that brought the cheat back
    _stack_the_spare(forged["current"], 1)
    with pytest.raises(stops.RecordError, match="stacked"):
        stops.Table.from_dict(forged)
    # signed by the host, the same forgery fails its signature; the honest save restores
    signed = table.to_dict(key=KEY)
    tampered = json.loads(json.dumps(signed))
    tampered["stacked"] = True
    _stack_the_spare(tampered["current"], 1)
    with pytest.raises(stops.RecordError, match="signature"):
        stops.Table.from_dict(tampered, key=KEY)
    again = stops.Table.from_dict(signed, key=KEY)
    assert again.deal is not None and again.deal.counts == table.deal.counts  # type: ignore[union-attr]


def test_an_unsigned_table_save_is_dealt_again_from_its_seed() -> None:
    table = _midway_table()
    data = json.loads(json.dumps(table.to_dict()))
    _stack_the_spare(data["current"], 1)  # without the flag: the seed's hands are checked
    with pytest.raises(stops.RecordError, match="seed deals"):
        stops.Table.from_dict(data)


def test_a_deal_save_is_dealt_again_from_its_seed() -> None:
    deal = _midway_table().deal
    assert deal is not None
    data = json.loads(json.dumps(deal.to_dict()))
    assert data["seed"] == 5
    again = stops.Deal.from_dict(data)
    assert again.events == deal.events and not again.stacked
    forged = json.loads(json.dumps(data))
    _stack_the_spare(forged, 1)
    with pytest.raises(stops.RecordError, match="hands"):
        stops.Deal.from_dict(forged)
    del forged["seed"]  # now it claims stacked hands: only a signature vouches for them
    with pytest.raises(stops.RecordError, match="seed"):
        stops.Deal.from_dict(forged)


def test_a_stacked_deal_save_restores_only_under_its_signature() -> None:
    table = stops.Table("boodle", seats=3, seed=1)
    deck = [str(c) for c in table.variant.deck]
    deal = table.new_deal(hands=[deck[i::4] for i in range(3)], spare=deck[3::4])
    deal.apply(deal.legal_actions()[0])
    plain = json.loads(json.dumps(deal.to_dict()))
    assert "seed" not in plain
    with pytest.raises(stops.RecordError, match="signed"):
        stops.Deal.from_dict(plain)
    signed = json.loads(json.dumps(deal.to_dict(key=KEY)))
    assert stops.Deal.from_dict(signed, key=KEY).events == deal.events
    with pytest.warns(stops.SignatureNotChecked), pytest.raises(stops.RecordError):
        stops.Deal.from_dict(signed)  # the key not given: it says so, and refuses


def test_a_signed_save_restored_without_its_key_says_so() -> None:
    table = _midway_table()
    signed = table.to_dict(key=KEY)
    with pytest.warns(stops.SignatureNotChecked, match="not checked"):
        again = stops.Table.from_dict(signed)
    assert again.deal is not None  # dealt again from the seed, as an unsigned save is
    deal = table.deal
    assert deal is not None
    with pytest.warns(stops.SignatureNotChecked):
        stops.Deal.from_dict(deal.to_dict(key=KEY))


# -- issue 22 item 7: a form for one seat, with nothing it may not see ---------------------------

def _card_strings(data: object) -> set[str]:
    """Every text value in ``data`` that names a card (dict keys are not values)."""
    out: set[str] = set()
    if isinstance(data, dict):
        for v in data.values():
            out |= _card_strings(v)
    elif isinstance(data, list):
        for v in data:
            out |= _card_strings(v)
    elif isinstance(data, str):
        with contextlib.suppress(ValueError):
            out.add(str(stops.parse_card(data)))
    return out


@pytest.mark.parametrize("name", ["boodle", "three-in-one", "newmarket", "pope-joan", "comet"])
def test_the_seat_form_shows_that_seat_nothing_hidden(name: str) -> None:
    table = _midway_table(name, seed=8, steps=6)
    deal = table.deal
    assert deal is not None and not deal.is_terminal
    for seat in range(4):
        form = json.loads(json.dumps(table.to_dict(seat=seat)))
        assert form["format"] == "stops.table.seat/1" and form["seat"] == seat
        assert "seed" not in json.dumps(form) and "records" not in form
        assert "current" not in form and "hands" not in json.dumps(form)
        assert form["deal"] == deal.observe(seat).to_dict()
        # the cards it names: its own, the ones played, and what it was shown
        seen = {str(c) for c in deal.hand(seat)} | {str(c) for _, c in deal.plays}
        for e in deal.log(seat):
            seen |= {str(c) for c in e.cards} | ({str(e.card)} if e.card is not None else set())
        if seat in deal.spare_known:
            seen |= {str(stops.CARDS[c]) for c in deal.spare}
        named = _card_strings(form) - set(table.variant.space_ids)
        assert named <= seen, sorted(named - seen)
        deal_form = json.loads(json.dumps(deal.to_dict(seat=seat)))
        assert deal_form["format"] == "stops.deal.seat/1" and "seed" not in deal_form
        assert _card_strings(deal_form) - set(table.variant.space_ids) <= seen
        for restore in (stops.Table.from_dict, stops.Deal.from_dict):
            for f in (form, deal_form):
                with pytest.raises(stops.RecordError, match="one seat's view"):
                    restore(f)


def test_the_full_save_shows_every_hand_and_the_seed() -> None:
    """Why the seat form exists: the host's save holds what no player may see."""
    table = _midway_table()
    data = table.to_dict(key=KEY)  # signed, and still readable by whoever holds it
    deal = table.deal
    assert deal is not None
    assert data["seed"] == 5
    assert data["current"]["hands"] == [[str(c) for c in h] for h in deal.dealt_hands]

"""Saves and deal records are structured through typed models (issue 20): each problem is a
RecordError naming the key path, down to the list index or mapping key, and changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import stops
from stops.engine.recording import check_record


def _save() -> dict[str, Any]:
    """A four-seat Boodle table, seed 1, its first deal dealt and not yet played."""
    t = stops.Table("boodle", seats=4, seed=1)
    t.new_deal()
    out: dict[str, Any] = json.loads(json.dumps(t.to_dict()))
    return out


# Each case derived by hand from the save's model (TableState): the key path is the field,
# then [index] into a list or .key into a mapping; the message is the hook's or the check's.
@pytest.mark.parametrize(("key", "value", "says"), [
    # stacks are chips: 10**16 is beyond MAX_CHIPS (10**15), the third seat's is named
    ("stacks", [50, 50, 10**16, 50], "'stacks[2]': expected a whole number of chips not beyond"),
    # a layout pile is 0..MAX_CHIPS: -3 on AH is below it, named by the space
    ("layout", {"AH": -3}, "'layout.AH': expected a whole number of chips from 0"),
    # text where a list is expected is refused as a whole, not split into characters
    ("start_stacks", "50", "'start_stacks': expected a list, got '50'"),
    ("options", [1], "'options': expected a mapping, got a list"),
    ("current", [1, 2], "'current': expected a mapping, got a list"),
    # deal_limit is null or >= 1 (an attrs bound, worded as the loader's)
    ("deal_limit", 0, "'deal_limit': expected a number >= 1, got 0"),
    ("deals_played", -1, "'deals_played': expected a whole number from 0"),
    ("seats", True, "'seats': expected a whole number, got true (a boolean)"),
    ("keep_records", -2, "'keep_records': expected true, false or a whole number >= 0"),
    # a misspelt key is unknown, with the near one suggested
    ("skip_stake", False, "unknown key 'skip_stake' in a saved table (did you mean skip_stakes?)"),
])
def test_a_bad_save_names_the_key_path(key: str, value: Any, says: str) -> None:
    data = _save()
    data[key] = value
    before = copy.deepcopy(data)
    with pytest.raises(stops.RecordError) as e:
        stops.Table.from_dict(data)
    assert says in str(e.value)
    assert data == before


def test_a_missing_key_and_a_variant_bound_keep_their_words() -> None:
    data = _save()
    del data["dealer"]
    with pytest.raises(stops.RecordError, match=r"^'dealer' is missing$"):
        stops.Table.from_dict(data)
    data = _save()
    data["seats"] = 9   # Boodle seats 3 to 8 (its players), checked after the types
    with pytest.raises(stops.RecordError, match=r"^'seats' must be between 3 and 8, got 9$"):
        stops.Table.from_dict(data)


@pytest.mark.parametrize(("record", "says"), [
    ({"result": {"stacks": [1], "x": 1}}, "'result.x': unknown key 'x'"),
    ({"result": 3}, "'result': expected a mapping, got 3"),
    ({"layout": {"pot": 10**16}}, "'layout.pot': chips must be at most"),
    ({"result": {"layout": {"pot": "5"}}}, "'result.layout.pot': expected a whole number of"),
    ({"players": None}, "'players': expected a whole number, got nothing (null)"),
    ({"players": 53}, "'players' must be between 2 and 52"),
    ({"stakes": 1}, "'stakes': expected true or false, got 1"),
    ({"format": "stops.deal/2"}, "'format' must be stops.deal/1 (a deal record)"),
    ({"turn_up": 5}, "'turn_up' must be a card such as 5C"),
    ({"exempt": [1, 1]}, "'exempt' must be a list of distinct seats"),
])
def test_a_bad_record_names_the_key_path(record: dict[str, Any], says: str) -> None:
    with pytest.raises(stops.RecordError) as e:
        check_record(record)
    assert says in str(e.value)


def test_a_good_record_and_save_pass() -> None:
    t = stops.Table("boodle", seats=4, seed=1)
    deal = t.new_deal()
    check_record(json.loads(json.dumps(deal.record())))
    again = stops.Table.from_dict(_save())
    assert again.deal is not None and list(again.stacks) == [50, 50, 50, 50]

"""Issue 21, the programmer embedding ``stops``: read-only table state, ``deal.explain`` for
legal decisions too, and a ``stops --version`` that loads nothing it does not need. Each test
failed on the code before the change."""

from __future__ import annotations

import pickle

import pytest

import stops


def play_out(deal: stops.Deal) -> None:
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])


# -- Table.stacks and Table.layout are read-only --------------------------------------------


def test_table_stacks_and_layout_refuse_writes_and_chips_stay_conserved() -> None:
    # Boodle, 4 seats of 50 chips and an empty layout: 200 chips in all. Before, table.stacks
    # was the table's own list: ``stacks[0] += 100`` made 300 chips out of nothing, and
    # ``layout["AH"] = 7`` put 7 more on the board. Now each write raises and the total
    # stays 200, before and after a deal (chips only move between stacks and the layout).
    table = stops.Table("boodle", seats=4, chips=50, seed=7)
    assert table.stacks == (50, 50, 50, 50) and isinstance(table.stacks, tuple)
    with pytest.raises(TypeError):
        table.stacks[0] += 100  # type: ignore[index]
    with pytest.raises(TypeError):
        table.layout["AH"] = 7  # type: ignore[index]
    with pytest.raises(AttributeError):
        table.stacks = (999, 0, 0, 0)  # type: ignore[misc]
    assert table.stacks == (50, 50, 50, 50) and dict(table.layout) == dict.fromkeys(
        ("AH", "KC", "QD", "JS"), 0)
    assert table.total_chips() == 200
    play_out(table.new_deal())
    assert table.total_chips() == 200
    assert sum(table.stacks) + sum(table.layout.values()) == 200
    # a copy is the caller's to change; the table is untouched
    mine = dict(table.layout)
    mine["AH"] = 1000
    assert table.total_chips() == 200


def test_read_only_table_still_pickles_and_saves() -> None:
    table = stops.Table("boodle", seats=3, chips=50, seed=11)
    play_out(table.new_deal())
    again = pickle.loads(pickle.dumps(table))
    assert again.stacks == table.stacks and dict(again.layout) == dict(table.layout)
    with pytest.raises(TypeError):
        again.layout["KC"] = 1  # type: ignore[index]

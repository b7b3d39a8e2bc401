"""Issue 21, the programmer embedding ``stops``: read-only table state, ``deal.explain`` for
legal decisions too, and a ``stops --version`` that loads nothing it does not need. Each test
failed on the code before the change."""

from __future__ import annotations

import pickle
import subprocess
import sys

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


# -- deal.explain answers for a legal decision too --------------------------------------------


def _state(deal: stops.Deal) -> tuple[object, ...]:
    return (len(deal.events), tuple(deal.actions), deal.current_seat, deal.phase,
            deal.stacks, dict(deal.layout), tuple(tuple(deal.hand(s)) for s in range(deal.n)),
            tuple(deal.legal_actions()))


def test_explain_says_what_a_legal_lead_does_and_why_an_illegal_one_is_refused() -> None:
    # Boodle, 4 seats, dealer 0: the stakes are fixed (no decision), the spare hand is not
    # used, so seat 1 (the dealer's left) makes the first lead: "the lowest card of any
    # suit" he holds. Seat 1 holds 5D 9D 4S: he may lead 5D (lowest diamond) or 4S, never
    # 9D (not his lowest diamond), and seat 2 may not act at all.
    from support import new_deal

    table = stops.Table("boodle", seats=4, chips=50, seed=1, dealer=0)
    deal = new_deal(table, [["2C", "3C"], ["5D", "9D", "4S"], ["6D", "7D"], ["KC", "AH"]])
    assert deal.phase == "play" and deal.current_seat == 1
    before = _state(deal)

    said = deal.explain({"seat": 1, "action": "lead", "card": "5D"})
    assert isinstance(said, stops.Explanation) and said.legal
    assert said.code == "lead"
    assert said.message == "lead 5♦: starts a sequence in diamonds"
    assert said.action == stops.Action(1, "lead", card=stops.parse_card("5D"))
    assert "lowest card" in said.rule  # the rule behind the choice, as ``?`` shows it

    refused = deal.explain({"seat": 1, "action": "lead", "card": "9D"})
    assert isinstance(refused, stops.IllegalAction) and not refused.legal
    assert refused.code != "not_your_turn"
    wrong_seat = deal.explain({"seat": 2, "action": "lead", "card": "6D"})
    assert isinstance(wrong_seat, stops.IllegalAction) and wrong_seat.code == "not_your_turn"

    assert _state(deal) == before  # explaining changed nothing
    deal.apply(said.action)  # and the explained decision is the one apply takes
    assert deal.plays[0][1] == stops.parse_card("5D")


def test_explain_fills_in_an_omitted_stake_and_names_the_spare_hand() -> None:
    # Pot-and-kitty: each player puts 1 chip on a card space of his choice, choosing in turn
    # from the dealer's left (dealer 0: seat 1 first). A stake without chips is the fixed
    # 1, which explain fills in as apply would.
    table = stops.Table("pot-and-kitty", seats=4, chips=50, seed=5, dealer=0)
    deal = table.new_deal()
    assert deal.phase == "stake" and deal.current_seat == 1
    before = _state(deal)
    said = deal.explain({"seat": 1, "action": "stake", "space": "KH"})
    assert isinstance(said, stops.Explanation)
    assert said.action.chips == 1 and said.code == "stake"
    assert said.message.startswith("stake 1 chip on KH")
    assert _state(deal) == before
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])
    # the dealer's options on the spare hand, in this game's words
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    swap = deal.explain({"seat": 0, "action": "swap"})
    assert swap.legal and swap.message.startswith("swap: you take the spare hand")


def test_explain_of_a_finished_deal_is_still_refused() -> None:
    deal = stops.Table("boodle", seats=3, chips=50, seed=2).new_deal()
    play_out(deal)
    out = deal.explain({"seat": 0, "action": "lead", "card": "2C"})
    assert isinstance(out, stops.IllegalAction) and out.code == "deal_over"


# -- stops --version loads nothing it does not need --------------------------------------------

_PROBE = """
import sys
from stops.apps.cli import main
try:
    main(["--version"])
except SystemExit:
    pass
heavy = ("yaml", "attrs", "cattrs", "stops.builtins", "stops.engine.deal",
         "stops.engine.table", "stops.rules.variant", "stops.phases.play")
print(" ".join(m for m in heavy if m in sys.modules) or "none")
"""


def _env() -> dict[str, str]:
    import os
    from pathlib import Path

    src = str(Path(stops.__file__).resolve().parent.parent)
    return {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}


def test_version_imports_neither_the_engine_nor_yaml() -> None:
    # Before, ``import stops`` loaded every game (and yaml, attrs, cattrs) before argparse
    # could answer --version: about 0.45 s. Counting modules is robust on a loaded machine.
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         env=_env(), timeout=60, check=True)
    assert out.stdout.splitlines()[-1] == "none", out.stdout
    assert out.stdout.startswith(f"stops {stops.__version__} (distribution stops-cards")


def test_version_answers_quickly() -> None:
    # About 0.08 s on an idle machine (0.45 s before); the bound is generous for a loaded one.
    import subprocess
    import sys
    import time

    best = 99.0
    for _ in range(3):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "stops", "--version"], capture_output=True,
                       env=_env(), timeout=60, check=True)
        best = min(best, time.perf_counter() - t0)
    assert best < 1.0


def test_a_lazy_package_still_offers_every_name() -> None:
    import subprocess
    import sys

    probe = ("import stops; missing = [n for n in stops.__all__ if not hasattr(stops, n)]; "
             "print(missing, isinstance(stops.COMPILED, bool), "
             "stops.Table('boodle', seats=3, seed=1).new_deal().phase)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=_env(), timeout=60, check=True)
    assert out.stdout.split() == ["[]", "True", "play"]
    with pytest.raises(AttributeError):
        stops.NoSuchThing  # type: ignore[attr-defined]  # noqa: B018


FIRST_USE_IN_THREADS = """
import threading, stops
errors = []
def go(name):
    try:
        stops.Table(stops.load_variant(name), seats=4, seed=1).new_deal()
    except Exception as e:
        errors.append(repr(e))
names = ["comet", "boodle", "tripoley", "nain-jaune"] * 3
threads = [threading.Thread(target=go, args=(n,)) for n in names]
for t in threads: t.start()
for t in threads: t.join()
print(errors)
"""


def test_first_use_from_many_threads_at_once_finds_every_builtin() -> None:
    """``import stops`` loads the games on first use: threads that all ask at once wait for
    the one installing them, none sees a registry half filled (a fresh interpreter)."""
    done = subprocess.run([sys.executable, "-c", FIRST_USE_IN_THREADS], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"

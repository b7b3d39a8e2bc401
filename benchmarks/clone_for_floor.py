"""How cheap ``clone_for``'s first call at a position could be: issue 24's row measured as
``agent.py`` measures it, beside the least any determinization must pay there.

    PYTHONPATH=src python benchmarks/clone_for_floor.py
    PYTHONPATH=src python benchmarks/clone_for_floor.py --games boodle --deals 80 --rounds 7

The positions are ``agent.py``'s: deals of random play, at every fifth decision the seat to
act (at a table of four, its previous call twenty decisions before, or none yet in the
deal). At each, timed one after the other on the real deal, in an order that alternates:

* ``clone``: ``deal.clone()``, the row's yardstick;
* ``first``: ``deal.clone_for(seat, rng)``, the seat's first call at this position
  (``agent.py``'s ``clone_for``: the view read on, or read from the start of the log where
  the seat has none yet in this deal, then a copy dealt);
* ``again``: ``clone_for`` of the same seat again at once, ``--samples`` times (10 by
  default; the mean of them): the view kept, a copy dealt each time, as a search samples
  copies of one position. What any design pays at least for the copy it hands back, since
  today's copy is dealt from the view without reading anything (``x warm``: its ratio to as
  many ``clone()`` calls in a row at the position, the like with like of a search's samples);
* ``read``: the least any design must do to bring a seat's view up to date, in plain Python:
  each event logged since the seat's previous call (all of them at its first call in a
  deal) looked at once, the seat's visibility of it tested and each card it names put in
  an integer mask. No rule's proof is read, nothing is grouped or kept: a lower bound of
  a view read on, not a view.

Printed per game: the median microseconds of each over the rounds and the ratios to
``clone``; ``first`` also split into ``new`` (the seat's first call in the deal: its view
read from the start of the log) and ``on`` (its view read on from its previous call), with
``new %`` the share of the calls that are new; and ``again + read``, the floor of the first
call for a design that deals its copy as today's does and reads the log as cheaply as
anything can. In the compiled build ``read`` still runs interpreted (this script is not
compiled), so there it is an upper bound of the floor's part, not the floor. Times are this
process's CPU time, less what reading the clock adds (``agent.py``'s ``_clock_cost``). No
test asserts these numbers.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any, Final

from agent import _check_games, _clock_cost  # this folder's: run as a script, it is on the path

import stops
from stops.rules.variant import list_variants

CLOCK = time.process_time
BITS = tuple(1 << c for c in range(52))


def read(deal: Any, seat: int, upto: int, known: int) -> tuple[int, int]:
    """The least reading of ``deal``'s events from ``upto``: each one ``seat`` may see has
    its cards put into the mask ``known``. Returns where it stopped and the mask."""
    events = deal.events
    bits = BITS
    for i in range(upto, len(events)):
        e = events[i]
        vt = e.visible_to
        if vt is None or seat in vt:
            c = e.card
            if c is not None:
                known |= bits[c]
            for c in e.cards:
                known |= bits[c]
    return len(events), known


def _read_into(got: list[tuple[int, int]], deal: Any, seat: int, upto: int,
               known: int) -> None:
    """:func:`read`, its answer put in ``got`` (timed as one of the calls)."""
    got.append(read(deal, seat, upto, known))


ORDERS: Final = (("first", "again", "read", "clone", "clones"),
                 ("clone", "clones", "read", "first", "again"))
"""The order the figures are timed in at a position, turn about (``again`` right after
``first``, ``clones`` after ``clone``)."""


def _timed(calls: dict[str, tuple[Callable[[], object], int]], order: tuple[str, ...],
           tick: float) -> dict[str, float]:
    """Seconds per call of each of ``calls`` (a function and how many times it is called in
    one timed interval), timed in ``order``, less what reading the clock adds."""
    out: dict[str, float] = {}
    for key in order:
        fn, times = calls[key]
        t0 = CLOCK()
        for _ in range(times):
            fn()
        out[key] = (CLOCK() - t0 - tick) / times
    return out


def one_round(name: str, deals: int, seed: int, tick: float, samples: int) -> dict[str, float]:
    """Mean microseconds per call of each figure over ``deals`` deals of random play
    (``again``: over ``samples`` calls a position, timed as one)."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    rng = random.Random(seed)
    table = stops.Table(variant, seats=seats, seed=seed, chips=100)
    tot = dict.fromkeys(("clone", "clones", "first", "again", "read", "new", "on"), 0.0)
    n = new = 0
    for _ in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, seed=rng.randrange(10**9), chips=100)
        deal = table.new_deal()
        pick = random.Random(rng.randrange(10**9))
        kept: dict[int, tuple[int, int]] = {}  # per seat: read up to, mask
        k = 0
        while not deal.is_terminal:
            legal = deal.legal_actions()
            seat = deal.current_seat
            if k % 5 == 2 and seat is not None:
                upto, known = kept.get(seat, (0, 0))
                draw = random.Random(k)
                got: list[tuple[int, int]] = []
                calls: dict[str, tuple[Callable[[], object], int]] = {
                    "clone": (deal.clone, 1),
                    "clones": (deal.clone, samples),
                    "read": (partial(_read_into, got, deal, seat, upto, known), 1),
                    "first": (partial(deal.clone_for, seat, draw), 1),
                    "again": (partial(deal.clone_for, seat, draw), samples),
                }
                try:
                    t = _timed(calls, ORDERS[n % 2], tick)
                except stops.StopsError:  # a position no imagined deal fits: not timed
                    if not got:
                        _read_into(got, deal, seat, upto, known)
                else:
                    for key, v in t.items():
                        tot[key] += v
                    n += 1
                    if seat in kept:
                        tot["on"] += t["first"]
                    else:
                        tot["new"] += t["first"]
                        new += 1
                kept[seat] = got[0]
            deal.apply(legal[pick.randrange(len(legal))])
            k += 1
    out = {key: 1e6 * v / max(n, 1) for key, v in tot.items()}
    out["new"] = 1e6 * tot["new"] / max(new, 1)
    out["on"] = 1e6 * tot["on"] / max(n - new, 1)
    out["share"] = new / max(n, 1)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="*", default=["boodle", "three-in-one"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--samples", type=int, default=10,
                    help="repeated calls a position, their mean timed as 'again' (default 10)")
    args = ap.parse_args()
    names = args.games or list_variants()
    _check_games(names, "clone_for_floor.py")
    if args.rounds < 1 or args.deals < 1 or args.samples < 1:
        ap.error("--rounds, --deals and --samples must be at least 1")
    tick = _clock_cost()
    build = "compiled" if stops.COMPILED else "pure"
    print(f"stops {stops.__version__}, {build} build; medians of {args.rounds} rounds, "
          "microseconds of CPU time (x: ratio to clone)")
    print(f"{'game':20}{'clone':>8}{'first':>9}{'x':>7}{'new x':>8}{'on x':>7}{'new %':>7}"
          f"{'again':>8}{'x':>6}{'x warm':>7}{'read':>7}{'x':>6}{'again+read x':>14}")
    for name in names:
        rounds = [one_round(name, args.deals, args.seed + r, tick, args.samples)
                  for r in range(args.rounds)]

        def med(key: str, rounds: list[dict[str, float]] = rounds) -> float:
            return statistics.median(r[key] for r in rounds)

        def ratio(key: str, rounds: list[dict[str, float]] = rounds) -> float:
            return statistics.median(r[key] / r["clone"] for r in rounds)

        floor = statistics.median((r["again"] + r["read"]) / r["clone"] for r in rounds)
        warm = statistics.median(r["again"] / r["clones"] for r in rounds)
        share = 100 * statistics.median(r["share"] for r in rounds)
        print(f"{name:20}{med('clone'):8.1f}{med('first'):9.1f}{ratio('first'):7.2f}"
              f"{ratio('new'):8.2f}{ratio('on'):7.2f}{share:7.0f}"
              f"{med('again'):8.1f}{ratio('again'):6.2f}{warm:7.2f}{med('read'):7.1f}"
              f"{ratio('read'):6.2f}"
              f"{floor:14.2f}")


if __name__ == "__main__":
    main()

"""What ``deal.clone_for(seat, rng)`` costs beside ``deal.clone()``, per built-in game.

    PYTHONPATH=src python benchmarks/clone_for.py
    PYTHONPATH=src python benchmarks/clone_for.py --rounds 15 --calls 200 --games boodle

Each game is played with random decisions to the middle of a deal (half the decisions a
whole deal of that seed takes), then timed in interleaved rounds, so that the machine's
speed, which wanders from minute to minute, weighs on every figure alike:

* ``clone``: ``deal.clone()``;
* ``clone_for``: ``deal.clone_for(seat, rng)`` again and again from one position (a search
  from one position: what the seat knows is worked out once and kept);
* ``first``: ``clone_for`` from a position met for the first time (a copy of the deal each
  time, made untimed), so what the seat knows is worked out every time, from the start of
  the log (a copy keeps nothing of the real deal's);
* ``next``: ``clone_for`` at a new position one decision on in the same deal (a copy where
  every seat had asked for a copy, then one decision made, untimed): what a search pays at
  each new decision, its seats' readings of the log read on by the events logged since.
  Each of the hundred copies is met once, cold in the caches, where ``clone()`` is timed
  on one deal again and again;
* ``cold``: ``clone()`` of a copy met once (a hundred copies, each cloned once), the
  yardstick like with like for ``next`` (a cold ``clone()`` costs 1.7 to 1.9 warm ones:
  docs/performance.md, "clone_for's first call by the clock");
* ``walk``: at every decision of ``--walk-deals`` deals of random play (seeds from
  ``--seed``), ``clone_for`` of the seat to act and ``clone()`` of the deal, each timed
  once on the real deal just moved, in turn first: what a search bot at every seat pays at
  each of its decisions before its later samples there (the seat's view read on from its
  own previous decision), beside a copy made under the same conditions.

Printed: the median microseconds per call of each over the rounds, and the ratios
``clone_for / clone``, ``first / clone``, ``next / clone`` and ``next / cold`` (the median
of each round's ratio), and ``walk``'s ratio (all its ``clone_for`` time over all its
``clone()`` time). Times are this process's CPU time (the walk's each less what reading the
clock adds: ``agent.py``'s ``_clock_cost``). No test asserts these numbers.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import time
from typing import Any

from agent import _check_games, _clock_cost  # this folder's: run as a script, it is on the path

import stops
from stops.rules.variant import list_variants

CLOCK = time.process_time


def mid_deal(name: str, seed: int) -> Any:
    """A deal of ``name`` halfway through (by decisions), seat to act still deciding."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    whole = stops.Table(variant, seats=seats, seed=seed, chips=100).new_deal()
    rng = random.Random(seed)
    steps = 0
    while not whole.is_terminal:
        legal = whole.legal_actions()
        whole.apply(legal[rng.randrange(len(legal))])
        steps += 1
    deal = stops.Table(variant, seats=seats, seed=seed, chips=100).new_deal()
    rng = random.Random(seed)
    for _ in range(steps // 2):
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


def walk(name: str, seed: int, deals: int, tick: float) -> tuple[float, float]:
    """Mean microseconds of ``clone()`` and of the seat to act's ``clone_for`` at every
    decision of ``deals`` deals of random play of ``name`` (see the module's ``walk``)."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    table = stops.Table(variant, seats=seats, seed=seed, chips=100)
    pick, rng = random.Random(seed), random.Random(seed + 1)
    tc = tf = 0.0
    n = k = 0
    for d in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, seed=seed + d + 1, chips=100)
        deal = table.new_deal()
        while not deal.is_terminal:
            seat = deal.current_seat
            if seat is not None:
                try:
                    if k % 2:
                        t0 = CLOCK()
                        deal.clone()
                        t1 = CLOCK()
                        deal.clone_for(seat, rng)
                        t2 = CLOCK()
                        c, f = t1 - t0, t2 - t1
                    else:
                        t0 = CLOCK()
                        deal.clone_for(seat, rng)
                        t1 = CLOCK()
                        deal.clone()
                        t2 = CLOCK()
                        f, c = t1 - t0, t2 - t1
                    tc += c - tick
                    tf += f - tick
                    n += 1
                except stops.StopsError:  # a position no imagined deal fits: not timed
                    pass
            legal = deal.legal_actions()
            deal.apply(legal[pick.randrange(len(legal))])
            k += 1
    return 1e6 * tc / max(n, 1), 1e6 * tf / max(n, 1)


def per_call(fn: Any, calls: int) -> float:
    """Microseconds per call of ``fn(i)`` for ``i`` in ``range(calls)``."""
    start = CLOCK()
    for i in range(calls):
        fn(i)
    return (CLOCK() - start) / calls * 1e6


def measure(deal: Any, rounds: int, calls: int) -> dict[str, float]:
    seat = deal.current_seat if deal.current_seat is not None else 0
    rng = random.Random(1)
    clone_t: list[float] = []
    for_t: list[float] = []
    first_t: list[float] = []
    next_t: list[float] = []
    ratio_for: list[float] = []
    ratio_first: list[float] = []
    ratio_next: list[float] = []
    cold_t: list[float] = []
    ratio_cold: list[float] = []
    deal.clone_for(seat, rng)  # warm: the variant's caches of what rules prove
    legal = deal.legal_actions()
    step = legal[random.Random(2).randrange(len(legal))]  # the same decision in every copy
    for _ in range(rounds):
        gc.collect()
        copies = [deal.clone() for _ in range(calls)]
        colds = [deal.clone() for _ in range(calls)]
        moved = [deal.clone() for _ in range(calls)]
        for m in moved:
            for s in range(m.n):
                m.clone_for(s, rng)
            m.apply(step)
        to_act = [m.current_seat if m.current_seat is not None else seat for m in moved]
        c = per_call(lambda i: deal.clone(), calls)
        f = per_call(lambda i: deal.clone_for(seat, rng), calls)
        g = per_call(lambda i, copies=copies: copies[i].clone_for(seat, rng), calls)
        h = per_call(lambda i, moved=moved, to_act=to_act: moved[i].clone_for(to_act[i], rng),
                     calls)
        k = per_call(lambda i, colds=colds: colds[i].clone(), calls)
        clone_t.append(c)
        for_t.append(f)
        first_t.append(g)
        next_t.append(h)
        ratio_for.append(f / c)
        ratio_first.append(g / c)
        ratio_next.append(h / c)
        cold_t.append(k)
        ratio_cold.append(h / k)
    return {"clone": statistics.median(clone_t), "clone_for": statistics.median(for_t),
            "first": statistics.median(first_t), "next": statistics.median(next_t),
            "ratio": statistics.median(ratio_for),
            "ratio_first": statistics.median(ratio_first),
            "ratio_next": statistics.median(ratio_next), "cold": statistics.median(cold_t),
            "ratio_cold": statistics.median(ratio_cold)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--calls", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--games", nargs="*", default=None)
    ap.add_argument("--walk-deals", type=int, default=10,
                    help="deals of random play of the walk (0: no walk)")
    args = ap.parse_args()
    names = args.games or list_variants()
    _check_games(names, "clone_for.py")
    tick = _clock_cost()
    print(f"{'game':28} {'clone us':>9} {'clone_for':>10} {'first':>9} {'next':>9} "
          f"{'cold':>7} {'for/clone':>10} {'first/clone':>12} {'next/clone':>11} "
          f"{'next/cold':>10} {'walk/clone':>11}")
    ratios = []
    nexts = []
    colds = []
    walks = []
    for name in names:
        deal = mid_deal(name, args.seed)
        try:
            r = measure(deal, args.rounds, args.calls)
        except stops.StopsError as e:
            print(f"{name:28} clone_for failed: {e}")
            continue
        ratios.append(r["ratio"])
        nexts.append(r["ratio_next"])
        colds.append(r["ratio_cold"])
        w = "-"
        if args.walk_deals:
            wc, wf = walk(name, args.seed, args.walk_deals, tick)
            walks.append(wf / wc)
            w = f"{wf / wc:.2f}"
        print(f"{name:28} {r['clone']:9.1f} {r['clone_for']:10.1f} {r['first']:9.1f} "
              f"{r['next']:9.1f} {r['cold']:7.1f} {r['ratio']:10.2f} {r['ratio_first']:12.2f} "
              f"{r['ratio_next']:11.2f} {r['ratio_cold']:10.2f} {w:>11}  ({deal.phase})")
    if ratios:
        print(f"median clone_for/clone over the games: {statistics.median(ratios):.2f}; "
              f"next/clone: {statistics.median(nexts):.2f}; "
              f"next/cold: {statistics.median(colds):.2f}"
              + (f"; walk/clone: {statistics.median(walks):.2f}" if walks else ""))


if __name__ == "__main__":
    main()

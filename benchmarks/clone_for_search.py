"""What ``clone_for`` costs a search bot: issue 24's ``clone_for`` rows at the positions an
ISMCTS bot decides at, and the share of its decisions they take.

    PYTHONPATH=src python benchmarks/clone_for_search.py
    PYTHONPATH=src python benchmarks/clone_for_search.py --games tripoley --deals 12

``clone_for_floor.py`` times ``clone_for`` at the positions of random play. A search meets
others: every seat here is the ``ismcts`` bot (``--iterations`` a decision, its default
150), and where a seat has more than one legal action its decision is timed and the
position kept (a ``clone()`` of the deal, the seat), with how many deals the search asked
its observation to imagine (``ISMCTSBot.last_imagined``: one ``clone_for`` of the real deal
each). Then, at each kept position, timed one after the other:

* ``cold``: one ``clone()``, the first on a copy of the position (``clone_for_floor.py``'s
  ``clone``);
* ``first``: ``clone_for`` of the seat, the first on that copy, so its view is read from
  the start of the log (the bot's own first call at a decision may read on from its
  previous decision's view: this is the most it pays);
* ``again``: the mean of ``--samples`` more calls (20 by default), as the search's later
  determinizations at the decision;
* ``clones``: the mean of as many ``clone()`` calls in a row (``x warm`` is ``again`` over
  it, as in ``clone_for_floor.py``).

Each is the median over ``--rounds`` fresh copies of the position (3 by default).

Printed per game, over all kept positions (totals, not medians: a position's weight is its
share of the search): the decisions, the mean decision in ms, ``first`` over ``cold``,
``x warm``, the deals a decision imagined, and ``share``: what the decisions' ``clone_for``
calls cost, ``first + (imagined - 1) * again`` per decision, as a part of the decisions'
time, and ``first %`` the part of it the first calls are. Then the same per phase of the
game (``--phases``). Times are this process's CPU time
less what reading the clock adds (``agent.py``'s ``_clock_cost``). No test asserts them.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from agent import _check_games, _clock_cost  # this folder's: run as a script, it is on the path

import stops
from stops.bots import make_bot
from stops.bots.ismcts import ISMCTSBot

CLOCK = time.process_time


def play(name: str, deals: int, iterations: int, seed: int,
         tick: float) -> list[tuple[Any, int, float, int]]:
    """``deals`` deals of ``name`` with every seat the ISMCTS bot: each decision with more
    than one legal action as (a clone of the deal before it, the seat, the decision's
    seconds, the deals its search imagined)."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    rng = random.Random(seed)
    table = stops.Table(variant, seats=seats, seed=seed, chips=100)
    bots: list[ISMCTSBot] = []
    for s in range(seats):
        bot = make_bot(f"ismcts:iterations={iterations}", seed + s, variant=variant)
        assert isinstance(bot, ISMCTSBot)
        bots.append(bot)
    out: list[tuple[Any, int, float, int]] = []
    for _ in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, seed=rng.randrange(10**9), chips=100)
        deal = table.new_deal()
        while deal.current_seat is not None:
            seat = deal.current_seat
            bot = bots[seat]
            if deal.legal_count() > 1:
                kept = deal.clone()
                obs = deal.observe(seat)
                t0 = CLOCK()
                action = bot.act(obs)
                spent = CLOCK() - t0 - tick
                out.append((kept, seat, spent, bot.last_imagined))
            else:
                action = bot.act(deal.observe(seat))
            deal.apply(action)
    return out


def costs(position: tuple[Any, int, float, int], samples: int, rounds: int,
          tick: float) -> dict[str, float]:
    """The seconds of ``cold``, ``first``, ``again`` and ``clones`` at one kept position (see
    the module's docstring), each the median over ``rounds`` fresh copies of it (a first
    call is timed once a copy: one garbage collection in it would weigh on the totals), with
    the decision's own."""
    deal, seat, spent, imagined = position
    got = [_costs(deal.clone(), seat, samples, tick) for _ in range(rounds)]
    out = {k: statistics.median(r[k] for r in got) for k in got[0]}
    out["decision"] = spent
    out["imagined"] = float(imagined)
    return out


def _costs(deal: Any, seat: int, samples: int, tick: float) -> dict[str, float]:
    """One round of :func:`costs`, on ``deal`` (a copy met for the first time)."""
    draw = random.Random(7)
    t0 = CLOCK()
    deal.clone()
    t1 = CLOCK()
    with contextlib.suppress(stops.StopsError):  # no deal fits: timed, as the search pays it
        deal.clone_for(seat, draw)
    t2 = CLOCK()
    for _ in range(samples):
        with contextlib.suppress(stops.StopsError):
            deal.clone_for(seat, draw)
    t3 = CLOCK()
    for _ in range(samples):
        deal.clone()
    t4 = CLOCK()
    return {"cold": t1 - t0 - tick, "first": t2 - t1 - tick,
            "again": (t3 - t2 - tick) / samples, "clones": (t4 - t3 - tick) / samples}


def _row(label: str, rows: list[dict[str, float]]) -> str:
    """One printed line over ``rows`` (totals over the positions)."""
    tot: defaultdict[str, float] = defaultdict(float)
    paid = 0.0
    for r in rows:
        for k, v in r.items():
            tot[k] += v
        paid += r["first"] + (r["imagined"] - 1) * r["again"]
    n = len(rows)
    return (f"{label:28}{n:6}{1e3 * tot['decision'] / n:9.1f}"
            f"{tot['first'] / tot['cold']:8.2f}{tot['again'] / tot['clones']:8.2f}"
            f"{tot['imagined'] / n:9.1f}{100 * paid / tot['decision']:8.1f}"
            f"{100 * tot['first'] / tot['decision']:8.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", nargs="*",
                    default=["boodle", "three-in-one", "tripoley", "poch", "rummoli"])
    ap.add_argument("--deals", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=150)
    ap.add_argument("--samples", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3,
                    help="fresh copies of each position timed, the median kept (default 3)")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--phases", action="store_true", help="a line per phase of each game too")
    args = ap.parse_args()
    _check_games(args.games, "clone_for_search.py")
    if min(args.deals, args.iterations, args.samples, args.rounds) < 1:
        ap.error("--deals, --iterations, --samples and --rounds must be at least 1")
    tick = _clock_cost()
    build = "compiled" if stops.COMPILED else "pure"
    print(f"stops {stops.__version__}, {build} build; ismcts:iterations={args.iterations} at "
          "every seat; totals over the positions a seat searched")
    print(f"{'game':28}{'dec.':>6}{'ms/dec':>9}{'first x':>8}{'x warm':>8}"
          f"{'imagined':>9}{'share %':>8}{'first %':>8}")
    for name in args.games:
        kept = play(name, args.deals, args.iterations, args.seed, tick)
        if not kept:
            print(f"{name:28}{0:6}")
            continue
        rows = [costs(p, args.samples, args.rounds, tick) for p in kept]
        print(_row(name, rows))
        if args.phases:
            by: dict[str, list[dict[str, float]]] = defaultdict(list)
            for (deal, _s, _t, _i), r in zip(kept, rows, strict=True):
                by[str(deal.phase)].append(r)
            for phase, got in by.items():
                print(_row(f"  {phase}", got))


if __name__ == "__main__":
    main()

"""Speed as a ratio to the bare reference, measured in the same run (issue 15).

    python benchmarks/ratio.py                      # the build this interpreter imports
    python benchmarks/ratio.py --rounds 5 --seconds 1.5
    python benchmarks/ratio.py --bare path/to/other/bare_stops.py
    python benchmarks/ratio.py --memory             # also bytes per finished deal

``bare_stops.py`` (a copy is beside this file) is a hand-tuned, single-purpose, stdlib-only
Boodle and Three-in-One loop with the same kind of random decisions; it is the "physical
limit" of a pure-Python engine. This machine's absolute speed varies by +-30 % from minute to
minute, so an absolute deals/s says little: each round times the bare loop and the library
back to back, case by case, and the figure is the median over rounds of
``library deals/s / bare deals/s``. Both are timed by this process's CPU time, so other
processes on the machine do not count against either side.

The library plays through its public step API with events on: ``legal_actions()`` and
``apply()`` with uniformly random legal decisions (``stops.apps.playout.play_random``), one
core, 50-chip stacks, a new table (with the default ``keep_records``) whenever a session ends.

Both builds: run this script with the interpreter of each install, e.g. the pure editable
install and a compiled wheel (``STOPS_COMPILE=1 pip wheel .``, see docs/performance.md):

    PYTHONPATH=src python benchmarks/ratio.py
    /path/to/compiled-venv/bin/python benchmarks/ratio.py

(the compiled venv must not have ``src`` on its path, or it imports the pure sources).
No test asserts these numbers.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from types import ModuleType
from typing import Any

import stops
from stops.apps.playout import play_random
from stops.engine.rng import Rng

HERE = Path(__file__).resolve().parent
CLOCK = time.process_time
"""CPU time of this process: other work on a shared machine then slows neither side's clock
(``--wall`` times by the wall clock instead)."""
CASES = [("boodle", 5), ("three-in-one", 4), ("boodle", 3), ("boodle", 8),
         ("three-in-one", 3), ("three-in-one", 6)]
DEFAULT_CASES = CASES[:2]
TARGETS = {"pure": {("boodle", 5): 0.10, ("three-in-one", 4): 0.075},
           "compiled": {("boodle", 5): 0.25, ("three-in-one", 4): 0.20}}
"""Issue 24's goals for random play (docs/performance.md, "Random play")."""


def load_bare(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bare_stops", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def bare_rate(bare: ModuleType, name: str, players: int, seconds: float) -> float:
    """The bare loop's deals/s over about ``seconds`` (no conservation check: a timed run)."""
    deals, took = 2000, 0.0
    while True:
        t0 = CLOCK()
        bare.simulate(name, players, deals, 1, False)
        took = CLOCK() - t0
        if took >= seconds * 0.5:
            return deals / took
        deals = int(deals * min(10.0, seconds / max(took, 1e-3)))


class Library:
    """The library's random playout, kept between rounds (the variant is loaded once)."""

    def __init__(self, name: str, players: int, indexed: bool = False) -> None:
        self.play = play_random
        if indexed:
            from stops.apps.playout import play_random_indexed

            self.play = play_random_indexed
        self.variant = stops.load_variant(name)
        self.players = players
        self.rng = Rng(12345)
        self.sessions = 0
        self.table = self._table()
        self.decisions = 0
        self.deals = 0

    def _table(self) -> stops.Table:
        self.sessions += 1
        return stops.Table(self.variant, seats=self.players, chips=50, seed=self.sessions)

    def rate(self, seconds: float) -> float:
        rng = self.rng
        deals = 0
        start = CLOCK()
        deadline = start + seconds
        while CLOCK() < deadline:
            for _ in range(50):
                if self.table.is_over:
                    self.table = self._table()
                self.decisions += self.play(self.table.new_deal(), rng)
                deals += 1
        elapsed = CLOCK() - start
        self.deals += deals
        return deals / elapsed


def memory(name: str, players: int, deals: int = 400) -> tuple[float, float]:
    """Bytes a table keeps per finished deal: (one finished Deal with its log, one record).

    The first is the finished deal object a caller may hold (its events and state); the
    second is what ``keep_records=True`` adds per deal, over ``keep_records=False``.
    """
    variant = stops.load_variant(name)

    def held(keep: Any) -> int:
        rng = Rng(3)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        tables: list[stops.Table] = []
        for _ in range(deals):
            if not tables or tables[-1].is_over:
                tables.append(stops.Table(variant, seats=players, chips=50, seed=len(tables),
                                          keep_records=keep))
            play_random(tables[-1].new_deal(), rng)
        for t in tables:
            t.deal = None  # keep what the table keeps of finished deals, not the last deal
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        del tables
        return after - before

    rng = Rng(7)
    tables = [stops.Table(variant, seats=players, chips=50, seed=i, keep_records=False)
              for i in range(deals)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    kept = []
    for table in tables:
        deal = table.new_deal()
        play_random(deal, rng)
        kept.append(deal)
    gc.collect()
    per_deal = (tracemalloc.get_traced_memory()[0] - before) / deals
    tracemalloc.stop()
    del kept, tables
    held(True)  # first fill the caches every deal shares (legal sets, events, plans)
    per_record = (held(True) - held(False)) / deals
    return per_deal, per_record


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bare", type=Path, default=HERE / "bare_stops.py",
                    help="path to bare_stops.py (default: the copy beside this script)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median)")
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per timing")
    ap.add_argument("--all", action="store_true",
                    help="also 3 and 8 players (Boodle), 3 and 6 (Three-in-One)")
    ap.add_argument("--case", action="append", default=[], metavar="GAME:PLAYERS",
                    help="only these cases, e.g. --case three-in-one:6")
    ap.add_argument("--indexed", action="store_true",
                    help="play through legal_count()/apply_index() instead (the simulator's "
                    "path)")
    ap.add_argument("--memory", action="store_true",
                    help="also bytes per finished deal and per kept record")
    ap.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU time")
    args = ap.parse_args(argv)
    if args.wall:
        global CLOCK
        CLOCK = time.perf_counter
    cases = CASES if args.all else DEFAULT_CASES
    if args.case:
        cases = [(c.split(":")[0], int(c.split(":")[1])) for c in args.case]
    bare = load_bare(args.bare)
    build = "compiled" if stops.COMPILED else "pure"
    path = "legal_count/apply_index" if args.indexed else "legal_actions/apply"
    print(f"stops {stops.__version__}, {build} build, Python {sys.version.split()[0]}, "
          f"{path}; bare: {args.bare}")
    libs = {c: Library(*c, indexed=args.indexed) for c in cases}
    ratios: dict[tuple[str, int], list[float]] = {c: [] for c in cases}
    rates: dict[tuple[str, int], list[tuple[float, float]]] = {c: [] for c in cases}
    for r in range(args.rounds):
        for c in cases:
            # alternate which goes first, so a slow spell does not always hit the same side
            if r % 2:
                lib = libs[c].rate(args.seconds)
                b = bare_rate(bare, c[0], c[1], args.seconds)
            else:
                b = bare_rate(bare, c[0], c[1], args.seconds)
                lib = libs[c].rate(args.seconds)
            ratios[c].append(lib / b)
            rates[c].append((lib, b))
        print(f"round {r + 1}: " + "  ".join(f"{g}{p} {ratios[(g, p)][-1]:.3f}"
                                             for g, p in cases), flush=True)
    print(f"\n{'game':14} {'players':>7} {'ratio':>7} {'target':>7} {'lib/s':>9} "
          f"{'bare/s':>9} {'us/deal':>8} {'us/dec':>7}")
    for c in cases:
        med = statistics.median(ratios[c])
        lib = statistics.median(x for x, _ in rates[c])
        b = statistics.median(y for _, y in rates[c])
        t = TARGETS[build].get(c)
        per_dec = 1e6 / lib * libs[c].deals / max(libs[c].decisions, 1)
        print(f"{c[0]:14} {c[1]:>7} {med:7.3f} {t if t else '':>7} {lib:9.0f} {b:9.0f} "
              f"{1e6 / lib:8.1f} {per_dec:7.2f}")
    if args.memory:
        print(f"\n{'game':14} {'players':>7} {'finished deal':>14} {'record':>8}  bytes")
        for c in cases:
            per_deal, per_record = memory(*c)
            print(f"{c[0]:14} {c[1]:>7} {per_deal:14.0f} {per_record:8.0f}")


if __name__ == "__main__":
    main()

"""What ``clone_for`` costs beside ``clone()``, counted by cachegrind: instructions, cache
misses and mispredicted branches per call, which load does not move.

    PYTHONPATH=src python benchmarks/clone_for_counts.py                 # boodle, the pure build
    /path/to/compiled-venv/bin/python benchmarks/clone_for_counts.py --games boodle three-in-one

``clone_for.py`` times the calls by the clock, which wanders by tens of percent from minute to
minute on a shared machine; this counts them. Each game is set up as ``clone_for.py`` sets
it up (random play to the middle of a deal with seed 7, every seat's view taken, then the
same decision made in ``--calls`` copies), in a child process under ``valgrind
--tool=cachegrind`` with its cache and branch simulation, twice: once making the calls, once
not. The difference over ``--calls`` is one call, with the interpreter's start, the imports,
the variant's build and the setup taken out. Three calls are counted:

* ``clone``: ``deal.clone()`` of the middle deal (the row's yardstick);
* ``next``: ``clone_for`` of the seat to act in each copy, a position met for the first time
  (``clone_for.py``'s ``next``: the seat's view read on from its previous one, then a copy
  dealt from it);
* ``again``: ``clone_for`` again at one of those positions (``clone_for.py``'s
  ``clone_for``: the view kept, only the copy dealt).

Printed per call: ``Ir`` (instructions), ``I1`` (first-level instruction cache misses),
``D1`` (first-level data cache misses, reads and writes), ``LL`` (last-level misses),
``Bm`` (mispredicted branches, conditional and indirect), and ``CEst``, the usual rough
estimate of cycles from them (KCachegrind's: ``Ir + 10 (Bm + I1 + D1) + 100 LL``), each
with its ratio to ``clone``'s. Instructions alone understate what the clock sees where a
call runs much code once (misses of the instructions themselves, branches the predictor has
not learnt): the misses say where, though the clock sees more still than the estimate
(docs/performance.md, "clone_for's first call by the clock"). The children run with
``PYTHONHASHSEED=0`` (dict probes follow string hashes), with the cyclic collector off for
the counted calls (a full collection fell inside them in one run and not the other) and,
where ``setarch`` is found, with the address layout fixed (the simulated caches' misses
follow the addresses). Needs valgrind; a game takes about two minutes in either build. No
test asserts these numbers.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = """
import gc
import random
import sys

sys.path.insert(0, sys.argv[5])  # this folder: clone_for.py's positions, not a copy of them
from clone_for import mid_deal

name, mode, calls, do = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4] == "1"
deal = mid_deal(name, 7)
seat = deal.current_seat if deal.current_seat is not None else 0
rng = random.Random(1)
deal.clone_for(seat, rng)
legal = deal.legal_actions()
step = legal[random.Random(2).randrange(len(legal))]
moved = [deal.clone() for _ in range(calls + 1)]
for m in moved:
    for s in range(m.n):
        m.clone_for(s, rng)
    m.apply(step)
to_act = [m.current_seat if m.current_seat is not None else seat for m in moved]
last = moved.pop()  # warms what the variant keeps of the position met
last.clone_for(to_act.pop(), rng)
deal.clone()
if mode == "again":
    moved[0].clone_for(to_act[0], rng)
# the collector off from here in both runs: a full collection of the copies' heap fell
# inside the counted calls in one run and outside them in the other, by tens of thousands
gc.collect()
gc.disable()
if do:
    if mode == "clone":
        for _ in range(calls):
            deal.clone()
    elif mode == "next":
        for i in range(calls):
            moved[i].clone_for(to_act[i], rng)
    else:
        again, who = moved[0], to_act[0]
        for _ in range(calls):
            again.clone_for(who, rng)
"""

EVENTS = ("Ir", "I1", "D1", "LL", "Bm", "CEst")


def count(game: str, mode: str, calls: int, do: bool) -> dict[str, int]:
    """The events of one child process (``do``: making the calls), summed as printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cachegrind.out"
        # the addresses fixed (no randomized layout, where setarch can say so), so that the
        # simulated caches see the same layout in both runs
        fixed = ["setarch", platform.machine(), "-R"] if shutil.which("setarch") else []
        done = subprocess.run(
            [*fixed, "valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
             f"--cachegrind-out-file={out}", sys.executable, "-c", CHILD, game, mode,
             str(calls), "1" if do else "0", str(Path(__file__).resolve().parent)],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
            check=False)
        if done.returncode != 0 or not out.exists():
            # the child's own last words, not valgrind's summary that follows them
            said = [ln for ln in done.stderr.splitlines() if not ln.startswith("==")]
            raise SystemExit(f"cachegrind failed for {game} {mode}: "
                             + "\n".join(said[-20:]))
        names: list[str] = []
        totals: list[int] = []
        for line in out.read_text().splitlines():
            if line.startswith("events:"):
                names = line.split()[1:]
            elif line.startswith("summary:"):
                totals = [int(x) for x in line.split()[1:]]
    got = dict(zip(names, totals, strict=True))
    ll = got["ILmr"] + got["DLmr"] + got["DLmw"]
    d1 = got["D1mr"] + got["D1mw"]
    bm = got["Bcm"] + got["Bim"]
    return {"Ir": got["Ir"], "I1": got["I1mr"], "D1": d1, "LL": ll, "Bm": bm,
            "CEst": got["Ir"] + 10 * (bm + got["I1mr"] + d1) + 100 * ll}


def per_call(game: str, mode: str, calls: int) -> dict[str, float]:
    with_calls = count(game, mode, calls, True)
    without = count(game, mode, calls, False)
    return {k: (with_calls[k] - without[k]) / calls for k in EVENTS}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="*", default=["boodle"])
    ap.add_argument("--calls", type=int, default=200, help="calls counted (default 200)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("clone_for_counts.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    if args.calls < 1:
        ap.error("--calls must be at least 1")
    import stops

    for game in args.games:  # a name that is no variant: said here, before minutes of valgrind
        try:
            stops.load_variant(game)
        except stops.StopsError as e:
            print(f"clone_for_counts.py: {e}", file=sys.stderr)
            return 2
    build = "compiled" if stops.COMPILED else "pure"
    print(f"stops {stops.__version__}, {build} build, Python {sys.version.split()[0]}; "
          f"per call, over {args.calls} calls (x: the ratio to clone's)")
    print(f"{'game':<16}{'call':<7}" + "".join(f"{e:>16}" for e in EVENTS))
    for game in args.games:
        base = per_call(game, "clone", args.calls)
        for mode in ("clone", "next", "again"):
            got = base if mode == "clone" else per_call(game, mode, args.calls)
            cells = "".join(f"{got[e]:>9,.0f} {got[e] / max(base[e], 1):>5.2f}x"
                            for e in EVENTS)
            print(f"{game:<16}{mode:<7}{cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

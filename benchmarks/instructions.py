"""Instructions per deal, counted by callgrind: a speed figure that load does not move.

    python benchmarks/instructions.py                       # boodle 5 and three-in-one 4
    python benchmarks/instructions.py --game tripoley:4 --deals 100
    /path/to/compiled-venv/bin/python benchmarks/instructions.py   # the compiled build

Wall-clock and CPU-time figures on a shared machine move by tens of percent from minute to
minute (``ratio.py`` cancels most of that by timing the bare reference in the same run).
``valgrind --tool=callgrind`` counts the instructions a process executes instead: the same
count for the same interpreter, build, inputs and environment, whatever else the machine is
doing. Each game is run twice in a child process under callgrind, playing ``--warm`` deals
and then 0 or ``--deals`` more of random play (``stops.apps.playout.play_random``, 50-chip
stacks, a new table when a session ends); the difference divided by ``--deals`` is the cost
of one deal, with the interpreter's start, the imports and the variant's build taken out.
The children run with ``PYTHONHASHSEED=0``: string hashes decide the order of dicts' probes
and so, by a few percent, the count; with the seed fixed the same build counts the same.

Compare two builds or two checkouts by running this script with each interpreter (or with
``PYTHONPATH`` set to each checkout's ``src``) in turn. Needs valgrind (Debian: ``valgrind``).
No test asserts these numbers.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

CHILD = """
import sys
import stops
from stops.apps.playout import play_random
from stops.engine.rng import Rng

name, seats, warm, deals = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
variant = stops.load_variant(name)
rng = Rng(1)


def run(n: int, first: int) -> None:
    table = stops.Table(variant, seats=seats, chips=50, seed=first)
    for i in range(n):
        if table.is_over:
            table = stops.Table(variant, seats=seats, chips=50, seed=first + i + 1)
        play_random(table.new_deal(), rng)


run(warm, 1)
run(deals, 10**6)
"""

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def count(game: str, seats: int, warm: int, deals: int) -> int:
    """The instructions of one child process playing ``warm`` then ``deals`` deals."""
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
         "-c", CHILD, game, str(seats), str(warm), str(deals)],
        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=False)
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed for {game}: {done.stderr[-2000:]}")
    return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", metavar="NAME:SEATS",
                    help="a game and its seat count (repeatable; default boodle:5, "
                    "three-in-one:4)")
    ap.add_argument("--deals", type=int, default=200, help="deals counted (default 200)")
    ap.add_argument("--warm", type=int, default=20,
                    help="deals played first in both runs, so caches are warm (default 20)")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("instructions.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    import stops

    build = "compiled" if stops.COMPILED else "pure"
    print(f"stops {stops.__version__}, {build} build, Python {sys.version.split()[0]}")
    print(f"{'game':<16}{'seats':>6}{'deals':>8}{'instructions/deal':>20}")
    for spec in args.game or ["boodle:5", "three-in-one:4"]:
        name, _, seats = spec.partition(":")
        n = int(seats or 4)
        base = count(name, n, args.warm, 0)
        total = count(name, n, args.warm, args.deals)
        print(f"{name:<16}{n:>6}{args.deals:>8}{(total - base) / args.deals:>20,.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

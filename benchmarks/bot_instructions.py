"""Instructions per deal of Three-in-One with random and with heuristic bots, by callgrind.

    python benchmarks/bot_instructions.py                  # 30 deals each, this interpreter
    python benchmarks/bot_instructions.py --deals 60 --game boodle
    /path/to/compiled-venv/bin/python benchmarks/bot_instructions.py   # the compiled build
    python benchmarks/bot_instructions.py --gc-off         # the cyclic GC off in the children
    python benchmarks/bot_instructions.py --deals-only     # count only the deals played

The figure behind ``agent.py``'s last line ("heuristic at X of random play's speed") in a form
that load does not move (see ``instructions.py``): each bot plays ``--warm`` deals and then 0
or ``--deals`` more, in a child process under ``valgrind --tool=callgrind`` with
``PYTHONHASHSEED=0``, four seats of 50 chips, every seat observed through ``deal.observe``
(``play_deal``); the difference divided by ``--deals`` is one deal. Printed: both counts and
their ratio (random / heuristic: the heuristic's share of random play's speed). Needs
valgrind. No test asserts these numbers.

``--deals-only`` counts only the loop of ``--deals`` deals (callgrind collecting inside one
call, ``operator.call``, and the cyclic GC off from its start) instead of the difference of
two whole processes: that difference carries the interpreter's teardown and where the
collector's runs fall, and in the compiled build it moved a deal's count by a tenth from one
fresh install of the same code to another (docs/performance.md, the heuristic row).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

CHILD = """
import operator
import sys
import stops
from stops.bots import make_bot, play_deal

game, bots, warm, deals = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
if sys.argv[5] == "off":
    import gc

    gc.disable()
variant = stops.load_variant(game)


def run(n: int, first: int) -> None:
    table = stops.Table(variant, seats=4, seed=first, chips=50)
    players = [make_bot(bots, s, variant.registry, variant=variant) for s in range(4)]
    for i in range(n):
        if table.is_over:
            table = stops.Table(variant, seats=4, seed=first + i + 1, chips=50)
        play_deal(table.new_deal(), players)


run(warm, 1)
if sys.argv[5] == "loop":
    import gc

    gc.disable()
operator.call(run, deals, 1000)  # the one call --deals-only collects
"""

COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")


def count(game: str, bots: str, warm: int, deals: int, gc: str = "on") -> int:
    """The instructions of one child process playing ``warm`` then ``deals`` deals (``gc``:
    ``"off"`` turns the cyclic collector off in the child; ``"loop"`` counts only the
    ``deals``, with the collector off for them)."""
    only = ["--collect-atstart=no", "--toggle-collect=_operator_call"] if gc == "loop" else []
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", *only,
             sys.executable, "-c", CHILD, game, bots, str(warm), str(deals), gc],
            capture_output=True, text=True, check=False,
            env=dict(os.environ, PYTHONHASHSEED="0"))
    found = COLLECTED.search(done.stderr)
    if done.returncode or found is None:
        raise SystemExit(f"callgrind failed:\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="three-in-one")
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--warm", type=int, default=10)
    ap.add_argument("--gc-off", action="store_true",
                    help="the cyclic GC off in the children: where its collections fall "
                         "moves a compiled count by hundreds of thousands a deal")
    ap.add_argument("--deals-only", action="store_true",
                    help="count only the deals played (the collector off for them), not "
                         "the difference of two whole processes")
    args = ap.parse_args()
    gc = "loop" if args.deals_only else "off" if args.gc_off else "on"
    per: dict[str, float] = {}
    for bots in ("random", "heuristic"):
        base = 0 if gc == "loop" else count(args.game, bots, args.warm, 0, gc)
        per[bots] = (count(args.game, bots, args.warm, args.deals, gc) - base) / args.deals
        print(f"{args.game}, {bots} bots: {per[bots]:,.0f} instructions a deal", flush=True)
    print(f"heuristic at {per['random'] / per['heuristic']:.3f} of random play's speed")


if __name__ == "__main__":
    main()

"""A fingerprint of the games every built-in plays: the same games before and after a change.

    PYTHONPATH=src python benchmarks/fingerprint.py                 # print the digests
    PYTHONPATH=src python benchmarks/fingerprint.py --save F.json   # keep them
    PYTHONPATH=src python benchmarks/fingerprint.py --check F.json  # compare (exit 1 if any differ)
    /path/to/compiled-venv/bin/python benchmarks/fingerprint.py --check F.json

A speed change (issue 24) may not change a single game. For every built-in variant this plays
``--deals`` deals on one seeded table, first with random bots through the step API, then with
the heuristic bots through ``observe``: every event of every deal (its ``repr``: kind, seats,
cards, chips, note) and every deal's record (JSON, keys sorted) go into one SHA-256 per
variant and bot. Run it with the interpreter of each build: the pure and the compiled build
must print the same digests as each other, and as the stored file made before the change.
Not a timed test: ``benchmarks/fingerprint.json`` is the digest file of the last change that
was meant to keep every game.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

import stops
from stops.apps.playout import play_random
from stops.bots import make_bot, play_deal
from stops.engine.rng import Rng, derive_seed


def _digest(name: str, bots: str, deals: int) -> str:
    variant = stops.load_variant(name)
    lo, hi = variant.players
    seats = max(lo, min(4, hi))
    h = hashlib.sha256()
    table = stops.Table(variant, seats=seats, seed=derive_seed("fingerprint", name), chips=60)
    rng = Rng(derive_seed("fingerprint", name, bots))
    players = [make_bot(bots, s + 1, None, variant=variant) for s in range(seats)] \
        if bots != "random" else []
    for k in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, chips=60,
                                seed=derive_seed("fingerprint", name, k))
        deal = table.new_deal()
        if players:
            play_deal(deal, players)
        else:
            play_random(deal, rng)
        for event in deal.log():
            h.update(repr(event).encode())
        h.update(json.dumps(deal.record(), sort_keys=True, default=str).encode())
    return h.hexdigest()[:24]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--games", nargs="*", default=None)
    args = ap.parse_args()
    names = args.games or stops.list_variants()
    got: dict[str, str] = {}
    for name in names:
        for bots in ("random", "heuristic"):
            key = f"{name}/{bots}"
            got[key] = _digest(name, bots, args.deals)
            print(f"{key:40} {got[key]}", flush=True)
    build = "compiled" if stops.COMPILED else "pure"
    if args.save:
        args.save.write_text(json.dumps({"deals": args.deals, "digests": got}, indent=1) + "\n")
        print(f"saved {len(got)} digests ({build} build) to {args.save}")
    if args.check:
        want = json.loads(args.check.read_text())
        if want.get("deals") != args.deals:
            print(f"{args.check} was made with --deals {want.get('deals')}", file=sys.stderr)
            return 2
        bad = [k for k, v in got.items() if want["digests"].get(k, v) != v]
        missing = [k for k in want["digests"] if k not in got and not args.games]
        for k in bad:
            print(f"DIFFERS: {k}")
        for k in missing:
            print(f"MISSING: {k}")
        print(f"{build} build: {len(got) - len(bad)} of {len(got)} digests as in {args.check}")
        return 1 if bad or missing else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How much stronger the ISMCTS bot plays than the heuristic bot, seat for seat.

    python benchmarks/strength.py                        # 1000 deals a game, default budget
    python benchmarks/strength.py --deals 200 --workers 2
    python benchmarks/strength.py --games boodle --bot ismcts:iterations=400 --json

For each game (``--games``; default boodle, three-in-one, newmarket, nain-jaune, tripoley)
and each deal index ``i`` below ``--deals``: a table of ``--players`` is seeded from
(``--seed``, the game, ``i``) and its first deal is dealt; the searching bot (``--bot``, a
bot spec: ``ismcts`` at its default budget) takes seat ``i mod players`` (seats rotated) and
heuristic bots the others. The *same* deal, cards and all, is played again with a heuristic
bot in that seat too, the other seats' bots seeded alike (common random numbers: the two
plays differ only by that seat's decisions, which cuts the variance of the difference).

Printed per game: the mean chips per deal of the searching seat minus the heuristic's in the
same seat, with its 95 % interval (1.96 standard errors over deals), both means, and the
search's cost: its searched decisions (those with more than one choice), iterations per
second and decisions per second of CPU time in its seat. Results are the same for any
``--workers`` (deal ``i`` depends only on the seed, the game and ``i``).
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from typing import Any

import stops
from stops.bots import ISMCTSBot, make_bot, play_deal
from stops.engine.actions import Action
from stops.engine.observation import Observation
from stops.engine.rng import derive_seed

GAMES = ["boodle", "three-in-one", "newmarket", "nain-jaune", "tripoley"]


class Timed:
    """The searching bot, with the CPU time, decisions and iterations of its searches."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.decisions = 0
        self.iterations = 0

    def act(self, obs: Observation) -> Action:
        if len(obs.legal_actions) == 1:
            return obs.legal_actions[0]
        t = time.process_time()
        a: Action = self.bot.act(obs)
        self.seconds += time.process_time() - t
        self.decisions += 1
        if isinstance(self.bot, ISMCTSBot):
            self.iterations += self.bot.last_iterations
        return a


def one_deal(game: str, i: int, players: int, seed: int, spec: str) -> tuple[float, ...]:
    """Deal ``i`` of ``game`` played twice; (hero's chips with the search, with the
    heuristic, search seconds, searched decisions, iterations, CPU seconds of both plays)."""
    variant = stops.load_variant(game)
    table = stops.Table(variant, seats=players, seed=derive_seed(seed, game, i),
                        keep_records=False)
    deal = table.new_deal()
    again = deal.clone()
    hero = i % players

    def bots(searcher: Any) -> list[Any]:
        out: list[Any] = [make_bot("heuristic", int(derive_seed(seed, game, i, s) % 2**31),
                                   variant=variant) for s in range(players)]
        if searcher is not None:
            out[hero] = searcher
        return out

    timed = Timed(make_bot(spec, int(derive_seed(seed, game, i, "search") % 2**31),
                           variant=variant))
    t = time.process_time()
    play_deal(deal, bots(timed))
    play_deal(again, bots(None))
    return (deal.returns()[hero], again.returns()[hero], timed.seconds, timed.decisions,
            timed.iterations, time.process_time() - t)


def _job(args: tuple[str, int, int, int, str]) -> tuple[float, ...]:
    return one_deal(*args)


def summarise(rows: list[tuple[float, ...]]) -> dict[str, Any]:
    n = len(rows)
    diffs = [r[0] - r[1] for r in rows]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else float("nan")
    half = 1.96 * math.sqrt(var / n) if n > 1 else float("nan")
    secs = sum(r[2] for r in rows)
    dec = sum(r[3] for r in rows)
    its = sum(r[4] for r in rows)
    return {"deals": n, "gain": mean, "ci95": half, "low": mean - half, "high": mean + half,
            "search_mean": sum(r[0] for r in rows) / n,
            "heuristic_mean": sum(r[1] for r in rows) / n,
            "decisions": dec, "search_seconds": secs,
            "iterations_per_second": its / secs if secs else 0.0,
            "decisions_per_second": dec / secs if secs else 0.0,
            "iterations_per_decision": its / dec if dec else 0.0}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated built-ins")
    ap.add_argument("--deals", type=int, default=1000, help="deals per game")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default="ismcts", help="the searching bot's spec")
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args(argv)
    make_bot(args.bot)  # a bad spec fails here, before any work
    out: dict[str, Any] = {"bot": args.bot, "players": args.players, "seed": args.seed,
                           "build": "compiled" if _compiled() else "pure", "games": {}}
    pool = multiprocessing.Pool(args.workers) if args.workers > 1 else None
    start = time.perf_counter()
    try:
        for game in args.games.split(","):
            jobs = [(game, i, args.players, args.seed, args.bot) for i in range(args.deals)]
            t = time.perf_counter()
            rows = (pool.map(_job, jobs, chunksize=4) if pool is not None
                    else [_job(j) for j in jobs])
            s = summarise(rows)
            s["wall_seconds"] = time.perf_counter() - t
            s["cpu_seconds"] = sum(r[5] for r in rows)
            out["games"][game] = s
            # with --json, the per-game lines go to standard error (progress)
            print(f"{game:13} {s['deals']:5d} deals  gain {s['gain']:+7.3f} "
                  f"± {s['ci95']:.3f} chips/deal  (search {s['search_mean']:+.3f}, "
                  f"heuristic {s['heuristic_mean']:+.3f})  "
                  f"{s['iterations_per_second']:7.0f} it/s  "
                  f"{s['decisions_per_second']:6.1f} dec/s  "
                  f"{s['wall_seconds']:6.1f} s", flush=True,
                  file=sys.stderr if args.json else sys.stdout)
    finally:
        if pool is not None:
            pool.close()
    out["wall_seconds"] = time.perf_counter() - start
    out["cpu_seconds"] = sum(g["cpu_seconds"] for g in out["games"].values())
    if args.json:
        json.dump(out, sys.stdout, indent=1)
        print()
    else:
        print(f"{args.bot}, {args.players} players, seed {args.seed}, {out['build']} build, "
              f"{args.workers} worker(s): {out['wall_seconds']:.0f} s, "
              f"{out['cpu_seconds']:.0f} CPU seconds of play")


def _compiled() -> bool:
    from stops.engine import deal

    return not deal.__file__.endswith(".py") if deal.__file__ else False


if __name__ == "__main__":
    main()

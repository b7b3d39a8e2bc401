"""What an agent pays around the engine's step: the rows of issue 24, as ratios in one run.

    PYTHONPATH=src python benchmarks/agent.py
    PYTHONPATH=src python benchmarks/agent.py --rounds 9 --deals 40 --games three-in-one

For each game, each deal of random play is played three times from copies made as it is
dealt, with the same decisions, each figure timed in the loop it belongs to (the three
loops take turns deal by deal, so that the machine's wandering speed weighs on every figure
alike):

* ``step``: ``legal_actions()`` then ``apply`` of a random legal action (the engine's step),
  in plain random play;
* ``observe``: ``deal.observe(seat)`` of the seat to act, between the step's
  ``legal_actions()`` and its ``apply`` (as an agent observes before it decides). The legal
  set is worked out once a position and cached, and the observation lists the very same
  set: it is the step's work, so ``observe`` is what observing adds to a step;
* ``clone`` and ``clone_for``: ``deal.clone()`` and ``deal.clone_for(seat, rng)`` of the
  seat to act at every fifth decision: each ``clone_for`` there is the seat's first at that
  position (at a table of four, its view last read twenty decisions before, or never in
  the deal: the cold call), which a search pays once per decision, not per iteration (its
  later calls at the position are ``benchmarks/clone_for.py``'s ``clone_for`` column);
* ``pz step``: a step of the PettingZoo environment (``env.step`` with a random legal index
  read off the mask of the ``last()`` before it, and ``env.last()``: an agent's loop, see
  :func:`_pz_round`), when the ``pettingzoo`` extra is installed;
* ``dealt``: the step with the deal's own dealing shared out over its decisions
  (``table.new_deal()`` timed as each deal is dealt, added to the step's time, divided by
  the step's decisions): what random play costs a decision, as ``simulate.py``'s
  µs/decision counts it. The PettingZoo step deals the next deal itself when one ends (its
  ``step`` calls ``table.new_deal()``), so ``pz/dealt`` compares like with like;
  ``pz/step`` holds it to the step alone, with no dealing in it (the stricter figure).

Also, once per run: ``Table(name, options=...)`` with the cache warm, the ``until_short``
session check of Nain Jaune at six seats, and Three-in-One's deals with random and with
heuristic bots, two ways (interleaved rounds, the median of each):

* as the issue's row names it, ``stops simulate three-in-one --bots heuristic`` against
  ``stops simulate three-in-one`` (``stops.apps.simulate.simulate``, one worker): random
  play there is the engine's own, by index, and observes nothing, while the heuristic bots
  observe at every decision (the row's measure);
* both through ``play_deal``, every seat a bot that observes at every decision (random bots
  too): like with like for the bots' own work, the reading sessions 14 to 30 held the row to.

Printed: the median over ``--rounds`` of each figure (microseconds of this
process's CPU time, less what reading the clock adds to each interval: see
:func:`_clock_cost`) and the ratios the issue states its goals in. No test asserts them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import stops
from stops.apps.simulate import simulate
from stops.bots import make_bot, play_deal

CLOCK = time.process_time


def _check_games(names: list[str], script: str) -> None:
    """Stop with one line naming the first of ``names`` that is no variant, before any work
    (not a traceback mid-run): the check the scripts of this folder share."""
    for name in names:
        try:
            stops.load_variant(name)
        except stops.StopsError as e:
            raise SystemExit(f"{script}: {e}") from None


def _clock_cost(pairs: int = 4001) -> float:
    """What one reading of ``CLOCK`` adds to an interval it bounds (seconds): the median of
    back-to-back readings. The CPU-time clock is a system call here (about 0.7 µs, an
    eighth of a compiled Boodle step), so every timed interval below has it taken off:
    left in, it would add the same to every figure and pull every ratio toward 1."""
    gaps = []
    for _ in range(pairs):
        a = CLOCK()
        gaps.append(CLOCK() - a)
    return statistics.median(gaps)


def _round(name: str, seats: int, deals: int, seed: int, tick: float) -> dict[str, float]:
    """One round of random play: the mean microseconds of each figure per call, ``tick``
    (:func:`_clock_cost`) taken off each timed interval.

    Each deal is played three times from copies made as it is dealt, with the same
    decisions: once as plain random play (the step), once observing the seat to act before
    each decision (observe), once with ``clone`` and ``clone_for`` at every fifth decision.
    Each figure is so timed in the loop it belongs to: a step timed in the loop that also
    makes copies runs with the copies' memory in the caches and reads about 40 % slower in
    the compiled build, which would flatter every ratio to the step."""
    variant = stops.load_variant(name)
    rng = random.Random(seed)
    tot = {"step": 0.0, "observe": 0.0, "clone": 0.0, "clone_for": 0.0, "deal": 0.0}
    cnt = {k: 0 for k in tot}
    table = stops.Table(variant, seats=seats, seed=seed, chips=100)
    for _ in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, seed=rng.randrange(10**9), chips=100)
        t0 = CLOCK()
        real = table.new_deal()
        tot["deal"] += CLOCK() - t0 - tick
        picks = rng.randrange(10**9)
        # the step: legal_actions() then apply, nothing else in the loop
        deal, pick = real.clone(), random.Random(picks)
        while not deal.is_terminal:
            t0 = CLOCK()
            legal = deal.legal_actions()
            deal.apply(legal[pick.randrange(len(legal))])
            tot["step"] += CLOCK() - t0 - tick
            cnt["step"] += 1
        # observe: of the seat to act, between the step's legal_actions() (worked out once a
        # position and cached: the step's work) and its apply, as an agent observes
        deal, pick = real.clone(), random.Random(picks)
        while not deal.is_terminal:
            legal = deal.legal_actions()
            seat = deal.current_seat
            t0 = CLOCK()
            deal.observe(seat)
            tot["observe"] += CLOCK() - t0 - tick
            cnt["observe"] += 1
            deal.apply(legal[pick.randrange(len(legal))])
        # clone and clone_for at every fifth decision (clone_for's first call at a position);
        # the real deal is played on so that the table goes on to its next deal
        pick, k = random.Random(picks), 0
        while not real.is_terminal:
            legal = real.legal_actions()
            if k % 5 == 2:
                seat = real.current_seat
                assert seat is not None
                t0 = CLOCK()
                real.clone()
                t1 = CLOCK()
                try:
                    real.clone_for(seat, random.Random(k))
                    t2 = CLOCK()
                    tot["clone_for"] += t2 - t1 - tick
                    cnt["clone_for"] += 1
                except stops.StopsError:  # a position no imagined deal fits: not timed
                    pass
                tot["clone"] += t1 - t0 - tick
                cnt["clone"] += 1
            real.apply(legal[pick.randrange(len(legal))])
            k += 1
    out = {k: 1e6 * tot[k] / max(cnt[k], 1) for k in tot if k != "deal"}
    out["dealt"] = 1e6 * (tot["step"] + tot["deal"]) / max(cnt["step"], 1)
    return out


def _pz_round(name: str, seats: int, steps: int, seed: int, tick: float,
              driver: str = "numpy") -> float | None:
    """Mean microseconds of a PettingZoo step (``step`` + ``last``), or ``None`` without
    the extra.

    The loop is an agent's: the ``last()`` timed with a step is the one the next decision
    reads, and the decision is a random legal index, read off the mask as a numpy user
    does (``driver="numpy"``: ``np.flatnonzero`` and a ``randrange``, about as little
    between two timed steps as the engine's loop does, a ``randrange`` of its legal
    list). ``driver="list"`` is the loop sessions 9-17 timed: an extra ``last()`` untimed
    before each decision and the index picked by a Python loop over the mask (a numpy
    scalar made per action: 164 in Boodle), twice a PettingZoo step's own work between two
    timed steps, which leaves the step to run in colder caches (about 0.4 engine steps
    more by the clock in Boodle, both builds)."""
    try:
        import numpy as np

        from stops.interop.pettingzoo import env as make_env
    except ImportError:
        return None
    e = make_env(variant=name, players=seats)
    e.reset(seed=seed)
    rng = random.Random(seed)
    total = 0.0
    done = 0
    _obs, _r, term, trunc, info = e.last()
    while done < steps:
        if driver == "list":
            _obs, _r, term, trunc, info = e.last()
        if term or trunc:
            e.reset(seed=rng.randrange(10**6))
            _obs, _r, term, trunc, info = e.last()
            continue
        mask = info["action_mask"]
        if driver == "list":
            choices = [i for i, m in enumerate(mask) if m]
            action = rng.choice(choices)
        else:
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
        t0 = CLOCK()
        e.step(action)
        _obs, _r, term, trunc, info = e.last()
        total += CLOCK() - t0 - tick
        done += 1
    return 1e6 * total / steps


def _time(fn: Callable[[], Any], n: int) -> float:
    """Microseconds per call of ``fn``, called once untimed first (what a first call fills,
    such as the variant cache, is then warm, as the figures' labels say)."""
    fn()
    t0 = CLOCK()
    for _ in range(n):
        fn()
    return 1e6 * (CLOCK() - t0) / n


def _sim(name: str, bots: str, deals: int) -> float:
    """Microseconds per deal of ``deals`` deals with ``bots`` in every seat."""
    variant = stops.load_variant(name)
    table = stops.Table(variant, seats=4, seed=1, chips=50)
    players = [make_bot(bots, s, variant.registry, variant=variant) for s in range(4)]
    t0 = CLOCK()
    for i in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=4, seed=i, chips=50)
        play_deal(table.new_deal(), players)
    return 1e6 * (CLOCK() - t0) / deals


def _simulated(bots: str, deals: int) -> float:
    """Microseconds per deal of ``stops simulate three-in-one --bots BOTS`` (the Python API,
    one worker, four seats): random play there goes by index and observes nothing."""
    t0 = CLOCK()
    simulate("three-in-one", 4, deals=deals, seed=3, bots=(bots,))
    return 1e6 * (CLOCK() - t0) / deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", default="boodle,three-in-one,tripoley,nain-jaune")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--deals", type=int, default=20)
    ap.add_argument("--pz-driver", choices=("numpy", "list"), default="numpy",
                    help="how the PettingZoo loop picks its random legal index (see _pz_round)")
    args = ap.parse_args()
    build = "compiled" if stops.COMPILED else "pure"
    print(f"stops {stops.__version__}, {build} build; medians of {args.rounds} rounds, "
          "microseconds of CPU time")
    print(f"{'game':<14}{'step':>8}{'observe':>9}{'obs/step':>9}{'clone':>8}"
          f"{'clone_for':>10}{'cf/clone':>9}{'pz step':>9}{'pz/step':>8}{'dealt':>7}"
          f"{'pz/dealt':>9}")
    for name in args.games.split(","):
        variant = stops.load_variant(name)
        seats = min(max(4, variant.players[0]), variant.players[1])
        rows = []
        for r in range(args.rounds):
            tick = _clock_cost()
            row = _round(name, seats, args.deals, seed=r + 1, tick=tick)
            pz = _pz_round(name, seats, 300, seed=r + 1, tick=tick, driver=args.pz_driver)
            row["pz"] = pz if pz is not None else float("nan")
            rows.append(row)

        def med(key: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(x[key] for x in rows)

        def ratio(a: str, b: str, rows: list[dict[str, float]] = rows) -> float:
            return statistics.median(x[a] / x[b] for x in rows if x[b])

        print(f"{name:<14}{med('step'):8.1f}{med('observe'):9.1f}"
              f"{ratio('observe', 'step'):9.2f}{med('clone'):8.1f}{med('clone_for'):10.1f}"
              f"{ratio('clone_for', 'clone'):9.2f}{med('pz'):9.1f}{ratio('pz', 'step'):8.2f}"
              f"{med('dealt'):7.1f}{ratio('pz', 'dealt'):9.2f}")
    cached = _time(lambda: stops.Table("three-in-one", seats=4,
                                       options={"bet_limit": 5}), 200)
    nj = stops.Table("nain-jaune", seats=6, seed=1)
    end = nj.variant.policy("match_end")
    check = _time(lambda: end.impl(nj, end.params), 500)
    pairs = [(_sim("three-in-one", "random", 60), _sim("three-in-one", "heuristic", 60))
             for _ in range(3)]
    rand = statistics.median(r for r, _ in pairs)
    heur = statistics.median(h for _, h in pairs)
    cli = [(_simulated("random", 2000), _simulated("heuristic", 400)) for _ in range(3)]
    cli_rand = statistics.median(r for r, _ in cli)
    cli_heur = statistics.median(h for _, h in cli)
    cli_share = statistics.median(r / h for r, h in cli)
    print(f"Table('three-in-one', options=...) with the variant cached: {cached:.1f} µs")
    print(f"nain-jaune until_short check, 6 seats: {check:.1f} µs")
    print(f"stops simulate three-in-one (the row's command): random play {cli_rand:.0f} µs a "
          f"deal, --bots heuristic {cli_heur:.0f} µs: heuristic at {cli_share:.2f} of random "
          "play's speed")
    print(f"three-in-one deal through play_deal, every seat observing: random bots {rand:.0f} "
          f"µs, heuristic bots {heur:.0f} µs: heuristic at "
          f"{statistics.median(r / h for r, h in pairs):.2f} of their speed")


if __name__ == "__main__":
    main()

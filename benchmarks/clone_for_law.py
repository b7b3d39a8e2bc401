"""How far ``clone_for``'s copies are from the exact law where it walks: the price in
accuracy of its walk (``determinize.WHOLE_TRIES``, ``_mend``), beside the noise of the
measure itself.

    PYTHONPATH=src python benchmarks/clone_for_law.py
    PYTHONPATH=src python benchmarks/clone_for_law.py --game tripoley-colours --copies 3000

Where whole deals seldom fit a seat's view (Tripoley after its showdown: each hand shown
must stay its holder's best), ``clone_for`` walks from a refused deal towards one that fits
instead of dealing whole deals until one does. Every copy it returns is a deal the seat
cannot tell from the real one, but the walk's are not drawn exactly as whole deals would
be. This script measures by how much, at the positions of random play (``--deals`` deals,
the seat to act at every fifth decision, as ``clone_for_floor.py``) where whole deals fit
least, ``--positions`` of them (whole deals counted there first).

At each position, ``--copies`` copies are dealt four ways, each from its own seed:

* ``exact`` twice: whole deals only, as many as it takes (the walk never taken): the law
  every copy should follow, and, the two against each other, the noise of the measure;
* ``as is``: ``clone_for`` as it deals (whole deals first while they fit often enough,
  then the walk);
* ``walk``: the walk from the first deal that does not fit, at every copy.

The distance printed is, per hidden card, the total variation between where the two sets
of copies put it (which hand, or the spare hand), averaged over the hidden cards: 0 for the
same law, 1 for none in common. A way of dealing is as exact as the measure can tell where
its distance to ``exact`` is about the noise. It reads ``clone_for``'s per-position view
(``determinize._cached``) to set how many whole deals a copy tries: a measure of the
engine's inside, not an example of its use. No test asserts these numbers.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from typing import Any

from agent import _check_games  # this folder's: run as a script, it is on the path

import stops
import stops.engine.determinize as determinize

EXACT = 10**9
"""Whole deals a copy tries before the walk, for the exact law: never the walk."""


def positions(name: str, deals: int, seed: int) -> list[tuple[Any, int]]:
    """The seat to act at every fifth decision of ``deals`` deals of random play, with a
    clone of the deal there."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    rng = random.Random(seed)
    table = stops.Table(variant, seats=seats, seed=seed, chips=100)
    out: list[tuple[Any, int]] = []
    for _ in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, seed=rng.randrange(10**9), chips=100)
        deal = table.new_deal()
        pick = random.Random(rng.randrange(10**9))
        k = 0
        while not deal.is_terminal:
            legal = deal.legal_actions()
            seat = deal.current_seat
            if k % 5 == 2 and seat is not None:
                out.append((deal.clone(), seat))
            deal.apply(legal[pick.randrange(len(legal))])
            k += 1
    return out


def fit_rate(deal: Any, seat: int, tries: int) -> float:
    """The share of ``tries`` whole deals that fit the seat's view at ``deal`` (read from
    the view's own count of them)."""
    deal.clone_for(seat, random.Random(0))
    view = determinize._cached(deal, seat)
    assert view is not None
    view.tried = view.fits = 0
    view.whole = EXACT
    for k in range(tries // 20):  # copies of whole deals only, until tries are dealt
        deal.clone_for(seat, random.Random(k + 1))
        if view.tried >= tries:
            break
    return view.fits / max(view.tried, 1)


def law(deal: Any, seat: int, copies: int, whole: int | None, seed: int
        ) -> Counter[tuple[int, int]]:
    """Where ``copies`` copies put each hidden card: (card, place) -> copies. ``whole``:
    whole deals a copy tries before the walk (``None``: as ``clone_for`` decides)."""
    view = determinize._cached(deal, seat)
    assert view is not None
    hidden = list(view.hidden)
    got: Counter[tuple[int, int]] = Counter()
    rng = random.Random(seed)
    view.tried = view.fits = 0
    view.whole = determinize.WHOLE_TRIES if whole is None else whole
    for _ in range(copies):
        if whole is not None:
            view.whole = whole
        copy = deal.clone_for(seat, rng)
        for c in hidden:
            got[(c, copy.owner[c])] += 1
    return got


def distance(a: Counter[tuple[int, int]], b: Counter[tuple[int, int]], hidden: list[int],
             copies: int) -> float:
    """The total variation between where ``a`` and ``b`` put each hidden card, averaged
    over the cards."""
    places: dict[int, set[int]] = {c: set() for c in hidden}
    for c, p in list(a) + list(b):
        places[c].add(p)
    total = 0.0
    for c in hidden:
        total += 0.5 * sum(abs(a[(c, p)] - b[(c, p)]) for p in places[c]) / copies
    return total / max(len(hidden), 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--game", default="tripoley")
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--positions", type=int, default=4)
    ap.add_argument("--copies", type=int, default=1500)
    ap.add_argument("--tries", type=int, default=400,
                    help="whole deals dealt at a position to count how often they fit")
    args = ap.parse_args()
    _check_games([args.game], "clone_for_law.py")
    if min(args.deals, args.positions, args.copies, args.tries) < 1:
        ap.error("--deals, --positions, --copies and --tries must be at least 1")
    determinize.MAX_TRIES = EXACT  # the exact law deals whole deals for as long as it takes
    build = "compiled" if stops.COMPILED else "pure"
    t0 = time.process_time()
    kept = positions(args.game, args.deals, args.seed)
    rated = []
    for deal, seat in kept:
        try:
            rated.append((fit_rate(deal, seat, args.tries), deal, seat))
        except stops.StopsError:  # nothing dealt yet, or no deal fits: not measured
            continue
    rated.sort(key=lambda r: r[0])
    print(f"stops {stops.__version__}, {build} build; {args.game}, the {args.positions} "
          f"positions of {len(rated)} where whole deals fit least; {args.copies} copies "
          "each way; mean total variation per hidden card")
    print(f"{'position':>9}{'fit':>8}{'hidden':>8}{'exact/exact':>13}{'as is':>8}{'walk':>8}")
    for i, (rate, deal, seat) in enumerate(rated[:args.positions]):
        view = determinize._cached(deal, seat)
        assert view is not None
        hidden = list(view.hidden)
        one = law(deal, seat, args.copies, EXACT, 1)
        two = law(deal, seat, args.copies, EXACT, 2)
        as_is = law(deal, seat, args.copies, None, 3)
        walk = law(deal, seat, args.copies, 1, 4)
        n = args.copies
        print(f"{i:9}{100 * rate:7.1f}%{len(hidden):8}{distance(one, two, hidden, n):13.4f}"
              f"{distance(one, as_is, hidden, n):8.4f}{distance(one, walk, hidden, n):8.4f}")
    print(f"({time.process_time() - t0:.0f} s of CPU time)")


if __name__ == "__main__":
    main()

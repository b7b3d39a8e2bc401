"""Simulation: many deals of a variant played by bots, summarised for people.

Work is cut into *chunks* of at most :data:`CHUNK` deals, each played from its own derived
seed as a run of fresh sessions. Chunks are independent, so they can run in parallel on any
``concurrent.futures.Executor`` (processes, or a cluster's executor) and are combined in
chunk order: the report is identical whatever the number of workers.
"""

from __future__ import annotations

import collections
import gc
import itertools
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

from stops.apps.playout import play_random, play_random_indexed, play_with_bots
from stops.engine.deal import Deal
from stops.engine.errors import SessionOver, StopsError
from stops.engine.eventkind import EventKind
from stops.engine.rng import Rng, derive_seed
from stops.engine.table import Table
from stops.phases.handrank import category
from stops.phases.poker import PokerResult
from stops.rules.variant import Variant, load_variant

CHUNK = 250
"""Deals per unit of work (and per progress step)."""
MAX_SESSION_DEALS = 10_000
"""A session that has not ended after this many deals is cut short (and counted)."""


@attrs.define
class Tally:
    """Sums over some deals; tallies add up exactly, in any grouping."""

    players: int
    deals: int = 0
    decisions: int = 0
    cards: int = 0
    cards_sq: int = 0
    decisions_sq: int = 0
    sums: list[int] = attrs.field(factory=list)
    squares: list[int] = attrs.field(factory=list)
    claims: dict[str, int] = attrs.field(factory=dict)
    payouts: dict[str, int] = attrs.field(factory=dict)
    payouts_sq: dict[str, int] = attrs.field(factory=dict)
    """Per space, the sum over deals of (chips it paid in that deal) squared."""
    histograms: list[dict[int, int]] = attrs.field(factory=list)
    """Per seat, how many deals ended with each change of stack (for pictures)."""
    session_net_sq: list[int] = attrs.field(factory=list)
    outcomes: dict[str, int] = attrs.field(factory=dict)
    sessions: list[int] = attrs.field(factory=list)
    session_net: list[int] = attrs.field(factory=list)
    session_wins: list[int] = attrs.field(factory=list)
    poker_showdowns: int = 0
    poker_uncontested: int = 0
    poker_pot: int = 0
    poker_hands: dict[str, int] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        for name in ("sums", "squares", "session_net", "session_wins", "session_net_sq"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)
        if not self.histograms:
            self.histograms = [{} for _ in range(self.players)]

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.decisions += other.decisions
        self.cards += other.cards
        self.cards_sq += other.cards_sq
        self.decisions_sq += other.decisions_sq
        for name in ("sums", "squares", "session_net", "session_wins", "session_net_sq"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, x in enumerate(theirs):
                mine[i] += x
        for mine_h, theirs_h in zip(self.histograms, other.histograms, strict=True):
            for k, x in theirs_h.items():
                mine_h[k] = mine_h.get(k, 0) + x
        for name in ("claims", "payouts", "payouts_sq", "outcomes", "poker_hands"):
            mine_d, theirs_d = getattr(self, name), getattr(other, name)
            for k, x in theirs_d.items():
                mine_d[k] = mine_d.get(k, 0) + x
        self.sessions += other.sessions
        self.poker_showdowns += other.poker_showdowns
        self.poker_uncontested += other.poker_uncontested
        self.poker_pot += other.poker_pot

    def add_deal(self, deal: Deal, decisions: int) -> None:
        self.deals += 1
        self.decisions += decisions
        self.decisions_sq += decisions * decisions
        n_cards = len(deal.plays)
        self.cards += n_cards
        self.cards_sq += n_cards * n_cards
        for s, r in enumerate(deal.returns()):
            self.sums[s] += r
            self.squares[s] += r * r
            h = self.histograms[s]
            h[r] = h.get(r, 0) + 1
        seen: set[str] = set()
        paid: dict[str, int] = {}
        showdown = False
        claimed, shown = EventKind.CLAIMED, EventKind.SHOWDOWN  # once, not per event
        for e in deal.events:
            kind = e.kind
            if kind == claimed and e.space is not None:
                self.payouts[e.space] = self.payouts.get(e.space, 0) + e.chips
                paid[e.space] = paid.get(e.space, 0) + e.chips
                if e.space not in seen:
                    seen.add(e.space)
                    self.claims[e.space] = self.claims.get(e.space, 0) + 1
                if e.space == deal.variant.pot and "poker" in deal.variant.flow:
                    self.poker_pot += e.chips
            elif kind == shown:
                showdown = True
                cat = category(e.cards) if e.cards else "?"
                self.poker_hands[cat] = self.poker_hands.get(cat, 0) + 1
        poker = deal.result(PokerResult)
        if poker is not None and poker.winners:
            if showdown:
                self.poker_showdowns += 1
            else:
                self.poker_uncontested += 1
        for sp, x in paid.items():
            self.payouts_sq[sp] = self.payouts_sq.get(sp, 0) + x * x
        key = deal.outcome or "none"
        self.outcomes[key] = self.outcomes.get(key, 0) + 1


@attrs.define
class Report:
    """What a simulation measured. ``to_dict`` is the ``--json`` output.

    ``run`` states what ran (variant, options, players, chips, deals, seed, bots, version).
    Every mean has its standard error beside it (``*_se``): for a rate, the binomial
    ``sqrt(p (1 - p) / n)``; for a mean, the sample standard deviation over ``sqrt(n)``.
    """

    variant: str
    players: int
    deals: int
    seed: int | str
    bots: list[str]
    run: dict[str, Any] = attrs.field(factory=dict)
    sessions: int = 0
    chips_per_deal: list[float] = attrs.field(factory=list)
    chips_per_deal_se: list[float] = attrs.field(factory=list)
    chips_sd: list[float] = attrs.field(factory=list)
    claim_rate: dict[str, float] = attrs.field(factory=dict)
    claim_rate_se: dict[str, float] = attrs.field(factory=dict)
    mean_payout: dict[str, float] = attrs.field(factory=dict)
    mean_payout_se: dict[str, float] = attrs.field(factory=dict)
    mean_cards_played: float = 0.0
    mean_cards_played_se: float = 0.0
    mean_decisions: float = 0.0
    mean_decisions_se: float = 0.0
    block_rate: float = 0.0
    block_rate_se: float = 0.0
    went_out_rate: float = 0.0
    went_out_rate_se: float = 0.0
    mean_session_length: float = 0.0
    mean_session_length_se: float = 0.0
    longest_session: int = 0
    session_net: list[float] = attrs.field(factory=list)
    session_net_se: list[float] = attrs.field(factory=list)
    session_win_share: list[float] = attrs.field(factory=list)
    session_win_share_se: list[float] = attrs.field(factory=list)
    outcomes: dict[str, int] = attrs.field(factory=dict)
    poker: dict[str, Any] = attrs.field(factory=dict)
    chips_histogram: list[dict[str, int]] = attrs.field(factory=list)
    """Per seat, the number of deals that changed its stack by each amount (keys are the
    amounts as text, so the JSON form is plain)."""

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def header(self) -> list[str]:
        """What ran, in words: the first lines of the text report."""
        r = self.run
        opts = r.get("options") or {}
        opt_text = ", ".join(f"{k}={_yaml_value(v)}" for k, v in opts.items()) or "none"
        size = (f"{r['sessions']} sessions ({self.deals} deals)" if r.get("sessions")
                else f"{self.deals} deals")
        return [
            f"{self.variant} ({r.get('title', '')}), stops {r.get('stops_version', '?')}",
            f"  options (-o): {opt_text}"
            + (f"; plug-ins: {', '.join(r['plugins'])}" if r.get("plugins") else ""),
            f"  {size}, {self.players} players, {r.get('chips', '?')} chips each, "
            f"seed {self.seed}, bots: {_bots_text(self.bots)}",
        ]

    def text(self) -> str:
        lines = self.header()
        lines.append(f"Sessions: {self.sessions} complete, mean length "
                     f"{self.mean_session_length:.1f} ± {self.mean_session_length_se:.1f} deals, "
                     f"longest {self.longest_session}")
        lines.append("Chips per deal by seat: mean ± standard error (sd); per complete "
                     "session: mean net ± se, share finished on top ± se:")
        for s in range(self.players):
            net = self.session_net[s] if self.session_net else 0.0
            net_se = self.session_net_se[s] if self.session_net_se else 0.0
            win = self.session_win_share[s] if self.session_win_share else 0.0
            win_se = self.session_win_share_se[s] if self.session_win_share_se else 0.0
            lines.append(f"  seat {s}: {self.chips_per_deal[s]:+7.3f} ± "
                         f"{self.chips_per_deal_se[s]:.3f} (sd {self.chips_sd[s]:6.2f})"
                         f"   session {net:+8.2f} ± {net_se:.2f}"
                         f"   top {100 * win:5.1f}% ± {100 * win_se:.1f}")
        lines.append("Layout spaces, in layout order (claimed in % of deals ± se; mean payout "
                     "when claimed ± se):")
        for sp, rate in self.claim_rate.items():
            lines.append(f"  {sp:>8}: {100 * rate:5.1f}% ± {100 * self.claim_rate_se[sp]:.1f}"
                         f"   {self.mean_payout.get(sp, 0.0):7.2f} ± "
                         f"{self.mean_payout_se.get(sp, 0.0):.2f}")
        lines.append(f"Mean cards played per deal: {self.mean_cards_played:.2f} ± "
                     f"{self.mean_cards_played_se:.2f}")
        lines.append(f"Mean decisions per deal: {self.mean_decisions:.2f} ± "
                     f"{self.mean_decisions_se:.2f}")
        lines.append(f"Deals ended by going out: {100 * self.went_out_rate:.1f}% ± "
                     f"{100 * self.went_out_rate_se:.1f}, by a block or redeal: "
                     f"{100 * self.block_rate:.1f}% ± {100 * self.block_rate_se:.1f}")
        if self.poker:
            p = self.poker
            lines.append(f"Poker: showdown in {100 * p['showdown_rate']:.1f}% of deals, won "
                         f"unseen in {100 * p['uncontested_rate']:.1f}%, mean pot won "
                         f"{p['mean_pot']:.2f}")
            hands = ", ".join(f"{k} {v}" for k, v in sorted(p["hands_shown"].items(),
                                                              key=lambda kv: -kv[1]))
            lines.append(f"  hands shown: {hands}")
        return "\n".join(lines)


def _bots_text(bots: Sequence[str]) -> str:
    if len(set(bots)) == 1:
        return f"{bots[0]} in every seat"
    return ", ".join(f"seat {s} {b}" for s, b in enumerate(bots))


def _yaml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        import json

        return json.dumps(v, sort_keys=True)
    return str(v)


def _se_mean(total: float, squares: float, n: int) -> float:
    """Standard error of a mean from its sum and sum of squares over ``n`` observations."""
    if n < 2:
        return 0.0
    mean = total / n
    var = max(0.0, (squares - n * mean * mean) / (n - 1))
    return math.sqrt(var / n)


def _se_rate(p: float, n: int) -> float:
    return math.sqrt(max(0.0, p * (1 - p)) / n) if n > 0 else 0.0


def _make_bots(names: Sequence[str], players: int, seed: int | str, chunk: int) -> list[Any]:
    from stops.apps.bots import make_bot

    return [make_bot(names[s % len(names)], int(derive_seed(seed, "bot", chunk, s) % 2**31))
            for s in range(players)]


def run_chunk(variant_ref: Any, options: dict[str, Any] | None, players: int, deals: int,
              seed: int | str, chunk: int, bots: Sequence[str] = ("random",),
              chips: int | None = None, sessions_mode: bool = False,
              plugins: Sequence[str] = ()) -> Tally:
    """Play one chunk: ``deals`` deals (or, in sessions mode, ``deals`` whole sessions).
    ``chips`` is each seat's starting stack (``None``: the variant's own ``starting_chips``).
    ``plugins`` are registered first (in a worker process, the plug-ins the caller named)."""
    if variant_ref is None:  # the variant this worker process loaded when it started
        v = _worker_variant()
    elif isinstance(variant_ref, Variant):
        v = variant_ref
    else:
        registry = None
        if plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(plugins)
        v = load_variant(variant_ref, options, registry=registry)
    if chips is None:
        chips = v.rules.starting_chips
    tally = Tally(players)
    fast = all(b == "random" for b in bots)
    rng = Rng(derive_seed(seed, "bots", chunk))
    agents = None if fast else _make_bots(bots, players, seed, chunk)
    played = 0
    k = 0
    while (k < deals) if sessions_mode else (played < deals):
        table = Table(v, seats=players, chips=chips,
                      seed=derive_seed(seed, "session", chunk, k), keep_records=False)
        if table.is_over:  # e.g. until_short with stacks below the first stake: never starts
            raise SessionOver(f"a session with {chips} chips a seat cannot start: "
                              + table.end_reason())
        in_session = 0
        while not table.is_over and (sessions_mode or played < deals):
            deal = table.new_deal()
            n = (play_random_indexed(deal, rng) if agents is None
                 else play_with_bots(deal, agents))
            tally.add_deal(deal, n)
            played += 1
            in_session += 1
            if in_session >= MAX_SESSION_DEALS:
                break
        if table.is_over:
            tally.sessions.append(in_session)
            net = [table.stacks[s] - chips for s in range(players)]
            for s in range(players):
                tally.session_net[s] += net[s]
                tally.session_net_sq[s] += net[s] * net[s]
            best = max(net)
            for s in range(players):
                if net[s] == best:
                    tally.session_wins[s] += 1
        k += 1
    return tally


_WORKER: dict[str, Variant] = {}
"""The variant a worker process of :func:`simulate` loaded when it started."""


def _start_worker(token: str, ref: Any, options: dict[str, Any] | None,
                  plugins: Sequence[str]) -> None:
    """Load the variant of a simulation once, in a worker process as it starts (a worker
    forked from the simulating process already holds it, under ``token``)."""
    _ignore_interrupts()
    inherited = _WORKER.get(token)
    if inherited is not None:
        _WORKER["variant"] = inherited
        return
    if isinstance(ref, Variant):
        v = ref
    else:
        registry = None
        if plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(plugins)
        v = load_variant(ref, options, registry=registry)
    _WORKER["variant"] = v


def _worker_variant() -> Variant:
    v = _WORKER.get("variant")
    if v is None:
        raise RuntimeError("run_chunk(None, ...) runs only in a worker started by simulate()")
    return v


WORKERS_PER_CORE = 4
"""``workers`` is capped at this many processes per core (and at the number of chunks)."""
AHEAD = 4
"""Chunks handed to the pool ahead of the results, per worker: enough to keep every worker
busy, and the work queued at any time stays small however many deals are asked for."""
FOREIGN_AHEAD = 1024
"""Chunks handed ahead to an ``executor=`` (a cluster's), whose number of workers is unknown."""


class WorkerDied(StopsError):
    """A worker process of a parallel simulation died (killed, or out of memory)."""


def worker_count(workers: int, chunks: int) -> tuple[int, str | None]:
    """The processes a run of ``chunks`` chunks uses for ``workers`` asked for, and why it
    uses fewer (``None`` if it does not): never more than the chunks, nor than
    :data:`WORKERS_PER_CORE` per core."""
    cores = os.cpu_count() or 1
    cap = WORKERS_PER_CORE * cores
    if workers > cap and chunks > cap:
        return cap, (f"using {cap} worker processes, not {workers}: at most "
                     f"{WORKERS_PER_CORE} per core ({cores} cores)")
    if workers > chunks:
        return chunks, (f"using {chunks} worker process{'es' if chunks > 1 else ''}, not "
                        f"{workers}: the run is {chunks} chunk{'s' if chunks > 1 else ''} of "
                        "work")
    return workers, None


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_arguments(v: Variant, players: Any, deals: Any, seed: Any, chips: Any,
                     bots: Sequence[str], workers: Any, sessions: Any, progress: Any) -> None:
    """Every argument of :func:`simulate`, checked before any work: a StopsError naming it."""
    from stops.apps.bots import BOTS
    from stops.engine.chips import MAX_CHIPS, chips_ok
    from stops.engine.table import MAX_SEED_TEXT
    from stops.engine.text import shown

    lo, hi = v.players
    if not (_whole(players) and lo <= players <= hi):
        raise StopsError(f"{v.name} is for {lo} to {hi} players, not {shown(players)}")
    if not (_whole(deals) and deals >= 1):
        raise StopsError(f"deals must be a whole number >= 1, got {shown(deals)}")
    if sessions is not None and not (_whole(sessions) and sessions >= 1):
        raise StopsError(f"sessions must be a whole number >= 1 (or None), got "
                         f"{shown(sessions)}")
    if not ((_whole(seed) and abs(seed) < 10**MAX_SEED_TEXT)
            or (isinstance(seed, str) and len(seed) <= MAX_SEED_TEXT)):
        raise StopsError(f"seed must be a whole number or text (at most {MAX_SEED_TEXT} "
                         f"digits or characters), got {shown(seed)}")
    if not chips_ok(chips):
        raise StopsError(f"chips must be a whole number of at most {MAX_CHIPS:,}, got "
                         f"{shown(chips)}")
    if not bots or not all(isinstance(b, str) and b in BOTS for b in bots):
        bad = next((b for b in bots if not (isinstance(b, str) and b in BOTS)), "")
        raise StopsError(f"unknown bot {shown(bad)}; bots: {', '.join(BOTS)}")
    if not (_whole(workers) and workers >= 1):
        raise StopsError(f"workers must be a whole number >= 1, got {shown(workers)}")
    if progress is not None and not callable(progress):
        raise StopsError(f"progress must be a function (done, total) or None, got "
                         f"{shown(progress)}")


def _chunks(total: int, per: int) -> Iterator[tuple[int, int]]:
    """``(index, size)`` of each chunk, made as they are needed (never all at once: a run
    of 10**12 deals is four billion chunks)."""
    for i, start in enumerate(range(0, total, per)):
        yield i, min(per, total - start)


def _ahead(executor: Executor, calls: Iterator[tuple[Any, ...]], window: int
           ) -> Iterator[Tally]:
    """``run_chunk`` of each call on ``executor``, in order, with at most ``window`` handed
    over ahead of the results (``Executor.map`` would submit every chunk at once)."""
    pending: collections.deque[Future[Tally]] = collections.deque()
    for call in calls:
        pending.append(executor.submit(run_chunk, *call))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the simulating process's to handle (it stops the pool); a
    worker that died of it would print its own traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def simulate(variant: Variant | str, players: int, deals: int = 1000, seed: int | str = 0,
             chips: int | None = None, options: dict[str, Any] | None = None,
             bots: Sequence[str] = ("random",), workers: int = 1,
             executor: Executor | None = None, sessions: int | None = None,
             progress: Callable[[int, int], None] | None = None,
             plugins: Sequence[str] = ()) -> Report:
    """Play ``deals`` deals (or ``sessions`` whole sessions) with bots, and report.

    Every seat starts each session with ``chips``; by default the variant's own
    ``starting_chips`` (what ``stops play`` and ``stops rules`` use: 200 in Tripoley), so that
    session lengths and win shares describe the game as it is played. The report states them.
    ``bots`` names a bot per seat (cycled): ``random`` or ``heuristic``. ``workers > 1`` runs
    chunks in that many processes (at most the chunks, and :data:`WORKERS_PER_CORE` per
    core); ``executor`` runs them on any Executor instead (its workers must be able to
    import ``stops``; the variant is sent with the work). Results do not depend on either.
    Chunks are made and handed out as the work goes, so any number of deals costs the same
    memory. Bad arguments raise :class:`~stops.StopsError`; a worker process that dies
    raises :class:`WorkerDied` and stops the pool.
    """
    if options is not None and not isinstance(options, Mapping):
        raise StopsError(f"options must be a mapping of rule: choice, got {type(options)}")
    if isinstance(plugins, str) or not all(isinstance(p, str) for p in plugins):
        raise StopsError("plugins must be a list of plug-in names or files")
    if isinstance(bots, str):
        bots = (bots,)
    if isinstance(variant, Variant):
        v = variant.with_options(**options) if options else variant
    else:
        registry = None
        if plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(plugins)
        v = load_variant(variant, options, registry=registry)
    if chips is None:
        chips = v.rules.starting_chips
    _check_arguments(v, players, deals, seed, chips, bots, workers, sessions, progress)
    sessions_mode = sessions is not None
    total = sessions if sessions is not None else deals
    per = 1 if sessions_mode else CHUNK
    chunks = -(-total // per)
    # a Variant pickles as its built-in name or its resolved rules, so it travels to worker
    # processes and cluster nodes as it is: a house rule needs no file on the workers. A
    # variant that names plug-in policies travels as its name, and each worker registers the
    # plug-ins before loading it.
    ref: Any = v.ref if plugins else v
    opts = dict(v.options) if plugins else None
    tally = Tally(players)
    done = 0
    own = None
    window = 1
    if executor is None and workers > 1:
        workers, _ = worker_count(workers, chunks)
    if executor is None and workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        # each worker loads the variant once, when it starts; the chunks then carry no
        # variant (unpickling one per chunk rebuilt it: ~3 ms a chunk for a variant that is
        # not built in, or one with plug-ins)
        # a forked worker finds the parent's variant, caches warm, under ``token``
        token = f"{os.getpid()}:{id(v)}"
        _WORKER.clear()
        _WORKER[token] = v
        own = executor = ProcessPoolExecutor(max_workers=workers, initializer=_start_worker,
                                             initargs=(token, ref, opts, tuple(plugins)))
        ref = None
        window = AHEAD * workers
    elif executor is not None:
        # a cluster's size is its own: keep enough in flight for a large one
        window = max(AHEAD * workers, FOREIGN_AHEAD)
    calls = ((ref, opts, players, size, seed, i, tuple(bots), chips, sessions_mode,
              tuple(plugins)) for i, size in _chunks(total, per))
    sizes = (size for _, size in _chunks(total, per))
    finished = False
    try:
        if executor is None:
            results: Iterator[Tally] = (run_chunk(*c) for c in calls)
        elif own is not None:
            # our workers fork as the chunks are submitted: with the parent's objects frozen
            # out of the cyclic GC, the children's collections do not touch (and so copy)
            # every inherited page
            gc.freeze()
            try:
                results = _ahead(executor, calls, window)
                first = next(results, None)
            finally:
                gc.unfreeze()
            results = itertools.chain([first] if first is not None else [], results)
        else:
            results = _ahead(executor, calls, window)
        for part, size in zip(results, sizes, strict=False):
            tally.add(part)
            done += size
            if progress is not None:
                progress(done, total)
        finished = True
    except BrokenProcessPool:
        raise WorkerDied("a worker process died (killed, or out of memory?); the simulation "
                         "stopped") from None
    finally:
        if own is not None:
            # on any failure (Ctrl-C included) chunks not yet started are dropped, not run
            own.shutdown(wait=True, cancel_futures=not finished)
    rep = _report(v, tally, seed, bots, players)
    rep.run = run_info(v, players, chips, deals if sessions is None else tally.deals, sessions,
                       seed, bots)
    rep.run["plugins"] = list(plugins)
    return rep


def run_info(v: Variant, players: int, chips: int, deals: int, sessions: int | None,
             seed: int | str, bots: Sequence[str], options: dict[str, Any] | None = None
             ) -> dict[str, Any]:
    """What a simulation ran, as stated in its report header and ``--json``."""
    from stops._version import __version__

    return {
        "variant": v.name, "title": v.title, "source": v.ref,
        "options": dict(options if options is not None else v.options),
        "players": players, "chips": chips, "deals": deals, "sessions": sessions,
        "seed": seed, "bots": [bots[s % len(bots)] for s in range(players)],
        "stops_version": __version__,
    }


def _report(v: Variant, t: Tally, seed: int | str, bots: Sequence[str], players: int
            ) -> Report:
    n = t.deals
    d = max(n, 1)
    rep = Report(variant=v.name, players=players, deals=t.deals, seed=seed,
                 bots=[bots[s % len(bots)] for s in range(players)])
    rep.sessions = len(t.sessions)
    rep.mean_session_length = sum(t.sessions) / max(len(t.sessions), 1)
    rep.mean_session_length_se = _se_mean(sum(t.sessions), sum(x * x for x in t.sessions),
                                          len(t.sessions))
    rep.longest_session = max(t.sessions, default=0)
    rep.chips_per_deal = [x / d for x in t.sums]
    rep.chips_per_deal_se = [_se_mean(x, q, n) for x, q in zip(t.sums, t.squares, strict=True)]
    rep.chips_sd = [math.sqrt(max(0.0, q / d - (x / d) ** 2))
                    for x, q in zip(t.sums, t.squares, strict=True)]
    claims = {k: t.claims.get(k, 0) for k in v.space_ids}
    rep.claim_rate = {k: c / d for k, c in claims.items()}
    rep.claim_rate_se = {k: _se_rate(c / d, n) for k, c in claims.items()}
    rep.mean_payout = {k: (t.payouts.get(k, 0) / c if c else 0.0) for k, c in claims.items()}
    rep.mean_payout_se = {k: _se_mean(t.payouts.get(k, 0), t.payouts_sq.get(k, 0), c)
                          for k, c in claims.items()}
    rep.mean_cards_played = t.cards / d
    rep.mean_cards_played_se = _se_mean(t.cards, t.cards_sq, n)
    rep.mean_decisions = t.decisions / d
    rep.mean_decisions_se = _se_mean(t.decisions, t.decisions_sq, n)
    rep.outcomes = dict(sorted(t.outcomes.items()))
    rep.block_rate = (t.outcomes.get("blocked", 0) + t.outcomes.get("redeal", 0)) / d
    rep.block_rate_se = _se_rate(rep.block_rate, n)
    rep.went_out_rate = t.outcomes.get("went_out", 0) / d
    rep.went_out_rate_se = _se_rate(rep.went_out_rate, n)
    k = len(t.sessions)
    s = max(k, 1)
    rep.session_net = [x / s for x in t.session_net]
    rep.session_net_se = [_se_mean(x, q, k) for x, q in
                          zip(t.session_net, t.session_net_sq, strict=True)]
    rep.session_win_share = [x / s for x in t.session_wins]
    rep.session_win_share_se = [_se_rate(x / s, k) for x in t.session_wins]
    rep.chips_histogram = [{str(r): c for r, c in sorted(h.items())} for h in t.histograms]
    if "poker" in v.flow:
        rep.poker = {
            "showdown_rate": t.poker_showdowns / d,
            "uncontested_rate": t.poker_uncontested / d,
            "mean_pot": t.poker_pot / max(t.poker_showdowns + t.poker_uncontested, 1),
            "hands_shown": dict(sorted(t.poker_hands.items())),
        }
    return rep


Z95 = 1.959963984540054
"""The two-sided 95 % point of the normal distribution."""


@attrs.frozen
class Difference:
    """One measure of ``--compare``: B minus A, with its 95 % interval."""

    measure: str
    a: float
    b: float
    difference: float
    se: float
    low: float
    high: float
    percent: bool = False
    signed: bool = False

    @property
    def distinguishable(self) -> bool:
        """Does the 95 % interval exclude zero?"""
        return self.low > 0 or self.high < 0

    def to_dict(self) -> dict[str, Any]:
        return {"measure": self.measure, "a": self.a, "b": self.b,
                "difference": self.difference, "se": self.se, "ci95": [self.low, self.high],
                "distinguishable_from_zero": self.distinguishable}


def differences(a: Report, b: Report) -> list[Difference]:
    """Every measure both reports share, B minus A, each with its 95 % interval.

    The interval treats the two runs as independent samples (``se = sqrt(se_a² + se_b²)``).
    Both runs use the same seeds, so the deals are alike and the true error of the
    difference is usually smaller: the interval errs on the side of "not distinguishable".
    """
    out: list[Difference] = []

    def add(label: str, x: float, xs: float, y: float, ys: float, percent: bool = False,
            signed: bool = False) -> None:
        se = math.sqrt(xs * xs + ys * ys)
        diff = y - x
        out.append(Difference(label, x, y, diff, se, diff - Z95 * se, diff + Z95 * se,
                              percent, signed))

    for s in range(min(a.players, b.players)):
        add(f"seat {s} chips/deal", a.chips_per_deal[s], a.chips_per_deal_se[s],
            b.chips_per_deal[s], b.chips_per_deal_se[s], signed=True)
    spaces = list(a.claim_rate) + [sp for sp in b.claim_rate if sp not in a.claim_rate]
    for sp in spaces:
        add(f"{sp} claimed", a.claim_rate.get(sp, 0.0), a.claim_rate_se.get(sp, 0.0),
            b.claim_rate.get(sp, 0.0), b.claim_rate_se.get(sp, 0.0), percent=True)
    add("cards played/deal", a.mean_cards_played, a.mean_cards_played_se,
        b.mean_cards_played, b.mean_cards_played_se)
    add("decisions/deal", a.mean_decisions, a.mean_decisions_se, b.mean_decisions,
        b.mean_decisions_se)
    add("went out", a.went_out_rate, a.went_out_rate_se, b.went_out_rate, b.went_out_rate_se,
        percent=True)
    add("block/redeal", a.block_rate, a.block_rate_se, b.block_rate, b.block_rate_se,
        percent=True)
    if a.sessions and b.sessions:
        add("session length", a.mean_session_length, a.mean_session_length_se,
            b.mean_session_length, b.mean_session_length_se)
    return out


def compare_dict(a: Report, b: Report) -> dict[str, Any]:
    """``--compare --json``: both reports and the differences, each with its interval."""
    return {"a": a.to_dict(), "b": b.to_dict(),
            "differences": [d.to_dict() for d in differences(a, b)]}


def compare_text(a: Report, b: Report) -> str:
    """Two reports side by side (``stops simulate A --compare B``), B minus A with its
    95 % interval; a difference whose interval holds zero is marked as not distinguishable."""
    head = ["A: " + "\n   ".join(x.strip() for x in a.header()),
            "B: " + "\n   ".join(x.strip() for x in b.header()), ""]
    rows = [("", f"A {a.variant}", f"B {b.variant}", "B - A", "95% interval", "")]
    unclear = 0
    for d in differences(a, b):
        k = 100.0 if d.percent else 1.0
        dec = 1 if d.percent else 3 if d.signed else 2
        unit = " %" if d.percent else ""
        lvl = f"{{:+.{dec}f}}" if d.signed else f"{{:.{dec}f}}"
        dif = f"{{:+.{dec}f}}"
        flag = "" if d.distinguishable else "not distinguishable from 0"
        unclear += not d.distinguishable
        rows.append((d.measure + unit, lvl.format(k * d.a), lvl.format(k * d.b),
                     dif.format(k * d.difference),
                     f"[{dif.format(k * d.low)}, {dif.format(k * d.high)}]", flag))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    body = ["  ".join(c.rjust(w) if 0 < i < 5 else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]
    note = ("Intervals treat the runs as independent; both use the same seeds, so they are "
            "conservative.")
    if unclear:
        note += (f" {unclear} of {len(rows) - 1} differences are not distinguishable from "
                 "zero at this number of deals.")
    import textwrap

    return "\n".join([*head, *body, "", *textwrap.wrap(note, 90)])


def run_deals(variant: Variant, players: int, deals: int, seed: int = 0) -> list[Deal]:
    """Play ``deals`` random deals and keep them (for tests and examples), each seat
    starting with the variant's own chips."""
    out = []
    table = Table(variant, seats=players, seed=seed, deals=deals)
    rng = Rng(derive_seed(seed, "bots"))
    while not table.is_over:
        d = table.new_deal()
        play_random(d, rng)
        out.append(d)
    return out

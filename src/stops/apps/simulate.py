"""Simulation: many deals of a variant played by bots, summarised for people.

Work is cut into *chunks* of at most :data:`CHUNK` deals, each played from its own derived
seed as a run of fresh sessions. Chunks are independent, so they can run in parallel on any
``concurrent.futures.Executor`` (processes, or a cluster's executor) and are combined in
chunk order: the report is identical whatever the number of workers.
"""

from __future__ import annotations

import collections
import contextlib
import gc
import itertools
import math
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import attrs

from stops.apps.playout import play_random, play_random_indexed, play_with_bots
from stops.apps.plugins import PluginSource
from stops.engine.deal import Deal
from stops.engine.errors import SessionOver, StopsError
from stops.engine.eventkind import EventKind
from stops.engine.rng import Rng, derive_seed
from stops.engine.table import Table
from stops.engine.text import players_text
from stops.phases.aids import PhaseTally
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
    phases: dict[str, PhaseTally] = attrs.field(factory=dict)
    """The tallies the variant's phases keep of their own statistics
    (:meth:`stops.phases.aids.PhaseAids.tally`), by their report keys; made at the first
    deal."""
    phases_made: bool = False

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
        for name in ("claims", "payouts", "payouts_sq", "outcomes"):
            mine_d, theirs_d = getattr(self, name), getattr(other, name)
            for k, x in theirs_d.items():
                mine_d[k] = mine_d.get(k, 0) + x
        self.sessions += other.sessions
        for key, theirs_t in other.phases.items():
            mine_t = self.phases.get(key)
            if mine_t is None:  # a fresh one, so that the other tally stays its own
                mine_t = self.phases[key] = type(theirs_t)()
            mine_t.add(theirs_t)
        self.phases_made = self.phases_made or other.phases_made

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
        claimed = EventKind.CLAIMED  # once, not per event
        for e in deal.events:
            if e.kind == claimed and e.space is not None:
                self.payouts[e.space] = self.payouts.get(e.space, 0) + e.chips
                paid[e.space] = paid.get(e.space, 0) + e.chips
                if e.space not in seen:
                    seen.add(e.space)
                    self.claims[e.space] = self.claims.get(e.space, 0) + 1
        if not self.phases_made:
            self.phases_made = True
            for ph in deal.variant.phases:
                made = ph.aids().tally()
                if made is not None:
                    self.phases.setdefault(made.key, made)
        for t in self.phases.values():
            t.add_deal(deal)
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
    sections: dict[str, dict[str, Any]] = attrs.field(factory=dict)
    """Each tallying phase's own section, by its key (:class:`stops.phases.aids.PhaseTally`):
    one for every such phase the variant's registry knows, empty when the game has no such
    phase. ``to_dict`` puts each at the top level, under its key."""
    section_lines: list[str] = attrs.field(factory=list)
    """The text report's lines for the sections (not part of ``to_dict``)."""
    chips_histogram: list[dict[str, int]] = attrs.field(factory=list)
    """Per seat, the number of deals that changed its stack by each amount (keys are the
    amounts as text, so the JSON form is plain)."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in attrs.asdict(self).items():
            if k == "sections":
                out.update(v)  # each phase's section under its own key
            elif k != "section_lines":
                out[k] = v
        return out

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
        lines.extend(self.section_lines)
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


def _make_bots(names: Sequence[str], players: int, seed: int | str, chunk: int,
               variant: Variant) -> list[Any]:
    from stops.bots import make_bot

    return [make_bot(names[s % len(names)], int(derive_seed(seed, "bot", chunk, s) % 2**31),
                     variant.registry, variant=variant)
            for s in range(players)]


@attrs.frozen
class Shipped:
    """A variant as it travels with the work to a worker process or cluster node: its
    resolved rules (a built-in goes by name and options), as a record embeds a house
    variant, and the plug-ins it needs, a ``.py`` plug-in as its source text. A worker
    loads it without reading any file, whatever its working directory."""

    ref: str | dict[str, Any]
    options: dict[str, Any]
    plugins: tuple[PluginSource, ...] = ()

    @property
    def key(self) -> str:
        """What the variant is, as text: equal keys load equal variants."""
        import hashlib
        import json

        text = json.dumps([self.ref, self.options,
                           [[p.spec, p.source] for p in self.plugins]],
                          sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    def load(self) -> Variant:
        """The variant, built once per process (a forked worker finds the caller's)."""
        key = self.key
        hit = _LOADED.get(key)
        if hit is not None:
            return hit
        registry = None
        if self.plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(self.plugins)
        if isinstance(self.ref, str):
            v = load_variant(self.ref, self.options, registry=registry)
        else:
            from stops.rules.variant import variant_from_mapping

            v = variant_from_mapping(self.ref, label="<variant sent with the work>",
                                     registry=registry)
            if self.options:
                v = v.with_options(**self.options)
        if len(_LOADED) >= 16:
            _LOADED.clear()
        _LOADED[key] = v
        return v


_LOADED: dict[str, Variant] = {}
"""Variants this process has built from a :class:`Shipped` (or shipped itself)."""


def ship(v: Variant, plugins: Sequence[str | PluginSource] = ()) -> Shipped:
    """``v`` ready to send with the work (the ``.py`` plug-ins read here, by the caller)."""
    from stops.apps.plugins import plugin_sources

    sources = tuple(p if isinstance(p, PluginSource) else plugin_sources([p])[0]
                    for p in plugins)
    out = Shipped(v.record_ref, v.record_options, sources)
    _LOADED[out.key] = v
    return out


class WorkerError(StopsError):
    """An error raised while a worker (another process or a cluster node) ran a chunk: the
    message says so, and where, so that it is not taken for a problem on this machine."""


def _on_worker(fn: Callable[..., Any], chunk: int, *args: Any) -> Any:
    """Run ``fn(*args)`` on a worker; an error comes back saying it came from a worker."""
    try:
        return fn(*args)
    except Exception as e:
        import socket
        import traceback

        where = f"a worker (host {socket.gethostname()}, process {os.getpid()})"
        if isinstance(e, StopsError):
            raise WorkerError(f"on {where}, chunk {chunk}: {e}") from None
        tb = "".join(traceback.format_exception(e)).rstrip()
        raise WorkerError(f"on {where}, chunk {chunk}: {type(e).__name__}: {e} (a bug in "
                          f"stops; the worker's traceback follows)\n{tb}") from None


def _variant_of(ref: Any, options: dict[str, Any] | None, plugins: Sequence[Any]) -> Variant:
    if isinstance(ref, Shipped):
        return ref.load()
    if isinstance(ref, Variant):
        return ref
    registry = None
    if plugins:
        from stops.apps.plugins import load_plugins

        registry = load_plugins(plugins)
    return load_variant(ref, options, registry=registry)


def run_chunk(variant_ref: Any, options: dict[str, Any] | None, players: int, deals: int,
              seed: int | str, chunk: int, bots: Sequence[str] = ("random",),
              chips: int | None = None, sessions_mode: bool = False,
              plugins: Sequence[str] = ()) -> Tally:
    """Play one chunk: ``deals`` deals (or, in sessions mode, ``deals`` whole sessions).
    ``variant_ref`` is a :class:`Shipped` variant (what :func:`simulate` sends), a Variant,
    or a name or path loaded with ``options`` and ``plugins``. ``chips`` is each seat's
    starting stack (``None``: the variant's own ``starting_chips``)."""
    v = _variant_of(variant_ref, options, plugins)
    return _play(v, players, deals, seed, chunk, bots, chips, sessions_mode, None)[0]


def _play(v: Variant, players: int, deals: int, seed: int | str, chunk: int,
          bots: Sequence[str], chips: int | None, sessions_mode: bool,
          spaces: Sequence[str] | None
          ) -> tuple[Tally, list[tuple[Any, ...]], list[list[int]]]:
    """Play one chunk into a tally. With ``spaces`` (a comparison), also each unit's
    measures for pairing (a deal's, or in sessions mode a whole session's: see
    :class:`Pairs`) and the seed each unit was dealt from; at most a chunk's worth."""
    if chips is None:
        chips = v.rules.starting_chips
    tally = Tally(players)
    fast = all(b == "random" for b in bots)
    rng = Rng(derive_seed(seed, "bots", chunk))
    agents = None if fast else _make_bots(bots, players, seed, chunk, v)
    keys: list[tuple[Any, ...]] = []
    units: list[list[int]] = []
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
            if spaces is not None and not sessions_mode:
                keys.append((table.seed, deal.deal_index))
                units.append(_deal_measures(deal, n, spaces))
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
            top = [1 if x == best else 0 for x in net]
            for s in range(players):
                tally.session_wins[s] += top[s]
            if spaces is not None and sessions_mode:
                keys.append((table.seed,))
                units.append([in_session, *net, *top])
        k += 1
    return tally, keys, units


def _deal_measures(deal: Deal, decisions: int, spaces: Sequence[str]) -> list[int]:
    """One deal's paired measures, in :func:`deal_measure_names` order."""
    claimed = EventKind.CLAIMED
    paid = {e.space for e in deal.events if e.kind == claimed}
    outcome = deal.outcome or "none"
    return [*deal.returns(), *(1 if sp in paid else 0 for sp in spaces), len(deal.plays),
            decisions, 1 if outcome == "went_out" else 0,
            1 if outcome in ("blocked", "redeal") else 0]


def deal_measure_names(players: int, spaces: Sequence[str]) -> list[str]:
    """The measures paired deal by deal, named as :func:`differences` names them."""
    return [*(f"seat {s} chips/deal" for s in range(players)),
            *(f"{sp} claimed" for sp in spaces), "cards played/deal", "decisions/deal",
            "went out", "block/redeal"]


def session_measure_names(players: int) -> list[str]:
    """The measures paired session by session."""
    return ["session length", *(f"seat {s} net/session" for s in range(players)),
            *(f"seat {s} on top" for s in range(players))]


@attrs.define
class Pairs:
    """Sums over paired units (deals, or whole sessions) of the difference B − A of each
    measure, and of its square: enough for the paired mean and its standard error, in
    memory that does not grow with the run. Sums add up exactly, in any grouping, so chunks
    from any number of workers merge into the same result.

    Unit ``i`` of chunk ``c`` of B is paired with unit ``i`` of chunk ``c`` of A: both were
    played from the same seeds (the session's seed and the deal's index in it), so where
    both variants deal the same pack the same way they hold the same cards. ``same_seed``
    counts the pairs dealt from the same seed; once one variant's session ends before the
    other's, later deals of the chunk pair by index but not by seed. Pairs stay independent
    of each other whichever way they were made, so the paired interval holds either way: the
    pairing only makes it narrower where the two deals are alike.
    """

    unit: str
    measures: list[str]
    n: int = 0
    same_seed: int = 0
    sums: list[int] = attrs.field(factory=list)
    squares: list[int] = attrs.field(factory=list)

    def __attrs_post_init__(self) -> None:
        if not self.sums:
            self.sums = [0] * len(self.measures)
            self.squares = [0] * len(self.measures)

    def add(self, other: Pairs) -> None:
        self.n += other.n
        self.same_seed += other.same_seed
        for i in range(len(self.measures)):
            self.sums[i] += other.sums[i]
            self.squares[i] += other.squares[i]

    def add_pair(self, a: Sequence[int], b: Sequence[int], same_seed: bool) -> None:
        self.n += 1
        self.same_seed += same_seed
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            d = y - x
            self.sums[i] += d
            self.squares[i] += d * d

    def mean_se(self, measure: str) -> tuple[float, float] | None:
        """The mean difference B − A of ``measure`` per unit and its standard error."""
        if measure not in self.measures or self.n == 0:
            return None
        i = self.measures.index(measure)
        return self.sums[i] / self.n, _se_mean(self.sums[i], self.squares[i], self.n)


def run_pair_chunk(refs: tuple[Any, Any], players: int, deals: int, seed: int | str,
                   chunk: int, bots: Sequence[str], chips_a: int | None,
                   chips_b: int | None, sessions_mode: bool, spaces: Sequence[str]
                   ) -> tuple[Tally, Tally, Pairs]:
    """Play chunk ``chunk`` of both variants of a comparison from the same seeds, and pair
    their deals (or sessions) by index: two tallies and the sums of the differences."""
    va, vb = _variant_of(refs[0], None, ()), _variant_of(refs[1], None, ())
    ta, ka, ua = _play(va, players, deals, seed, chunk, bots, chips_a, sessions_mode, spaces)
    tb, kb, ub = _play(vb, players, deals, seed, chunk, bots, chips_b, sessions_mode, spaces)
    names = (session_measure_names(players) if sessions_mode
             else deal_measure_names(players, spaces))
    pairs = Pairs("session" if sessions_mode else "deal", names)
    for x, y, kx, ky in zip(ua, ub, ka, kb, strict=False):
        pairs.add_pair(x, y, kx == ky)
    return ta, tb, pairs


def _resolve(variant: Variant | str, options: dict[str, Any] | None,
             plugins: Sequence[str]) -> Variant:
    if isinstance(variant, Variant):
        return variant.with_options(**options) if options else variant
    registry = None
    if plugins:
        from stops.apps.plugins import load_plugins

        registry = load_plugins(plugins)
    return load_variant(variant, options, registry=registry)


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
    from stops.bots import check_bots
    from stops.engine.chips import MAX_CHIPS, chips_ok
    from stops.engine.table import MAX_SEED_TEXT
    from stops.engine.text import shown

    lo, hi = v.players
    if not (_whole(players) and lo <= players <= hi):
        raise StopsError(f"{v.name} is for {players_text(lo, hi)}, not {shown(players)}")
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
    try:
        check_bots(bots)
    except ValueError as e:
        raise StopsError(f"bots: {e}") from None
    if not (_whole(workers) and workers >= 1):
        raise StopsError(f"workers must be a whole number >= 1, got {shown(workers)}")
    if progress is not None and not callable(progress):
        raise StopsError(f"progress must be a function (done, total) or None, got "
                         f"{shown(progress)}")


def _check_call(options: Any, plugins: Any, bots: Any) -> tuple[str, ...]:
    """The arguments checked before any variant is loaded; the bots as a tuple."""
    if options is not None and not isinstance(options, Mapping):
        raise StopsError(f"options must be a mapping of rule: choice, got {type(options)}")
    if isinstance(plugins, str) or not all(isinstance(p, str) for p in plugins):
        raise StopsError("plugins must be a list of plug-in names or files")
    return (bots,) if isinstance(bots, str) else tuple(bots)


def _ahead(executor: Executor, calls: Iterator[tuple[Any, ...]], window: int,
           own: bool = False) -> Iterator[Any]:
    """``_on_worker(*call)`` of each call on ``executor``, in order, with at most ``window``
    handed over ahead of the results (``Executor.map`` would submit every chunk at once).
    ``own``: the executor is our process pool, whose workers start inside ``submit``: Ctrl-C
    is held back there (see :func:`_interrupts_held`)."""
    pending: collections.deque[Future[Any]] = collections.deque()
    for call in calls:
        if own:
            with _interrupts_held():
                pending.append(executor.submit(_on_worker, *call))
        else:
            pending.append(executor.submit(_on_worker, *call))
        if len(pending) >= window:
            yield pending.popleft().result()
    while pending:
        yield pending.popleft().result()


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Ctrl-C blocked (not lost) while our pool may be starting a worker process.

    A worker ignores Ctrl-C (the simulating process stops the pool), but only from its
    initializer on: one interrupted before that dies holding the pool's queue lock, and the
    pool then never shuts down. A worker started while Ctrl-C is blocked inherits the block,
    and :func:`_ignore_interrupts` lifts it only once it ignores the signal; here, a Ctrl-C
    that came meanwhile is delivered as soon as ``submit`` returns."""
    if sys.platform == "win32":  # no signal masks (and Ctrl-C reaches a console's group)
        yield
        return
    import signal

    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _ignore_interrupts() -> None:
    """In a worker: Ctrl-C is the simulating process's to handle (it stops the pool); a
    worker that died of it would print its own traceback, or hang the pool."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform != "win32":
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _run(fn: Callable[..., Any], args: Iterable[tuple[Any, ...]], sizes: Iterable[int],
         chunks: int, total: int, workers: int, executor: Executor | None,
         progress: Callable[[int, int], None] | None) -> Iterator[Any]:
    """Run ``fn`` on every chunk's ``args`` (here, in ``workers`` processes, or on
    ``executor``) and yield the results in chunk order, reporting progress. ``args`` and
    ``sizes`` are made as the work goes and only a window of chunks is handed out ahead, so
    any number of deals costs the same memory. A worker process that dies raises
    :class:`WorkerDied`; on any failure (Ctrl-C included) chunks not yet started are dropped."""
    done = 0
    own = None
    window = 1
    if executor is None and workers > 1:
        workers, _ = worker_count(workers, chunks)
    if executor is None and workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        own = executor = ProcessPoolExecutor(max_workers=workers,
                                             initializer=_ignore_interrupts)
        window = AHEAD * workers
    elif executor is not None:
        # a cluster's size is its own: keep enough in flight for a large one
        window = max(AHEAD * workers, FOREIGN_AHEAD)
    calls = ((fn, i, *a) for i, a in enumerate(args))
    finished = False
    try:
        if executor is None:
            results: Iterator[Any] = (fn(*a) for a in args)
        elif own is not None:
            # our workers fork as the chunks are submitted, finding the variants the caller
            # shipped already built (no rebuild per worker); with the parent's objects frozen
            # out of the cyclic GC, the children's collections do not touch (and so copy)
            # every inherited page
            gc.freeze()
            try:
                results = _ahead(executor, calls, window, own=True)
                first = next(results, None)
            finally:
                gc.unfreeze()
            results = itertools.chain([first] if first is not None else [], results)
        else:
            results = _ahead(executor, calls, window)
        for part, size in zip(results, sizes, strict=False):
            yield part
            done += size
            if progress is not None:
                progress(done, total)
        finished = True
    except BrokenProcessPool:
        raise WorkerDied("a worker process died (killed, or out of memory?); the simulation "
                         "stopped") from None
    finally:
        if own is not None:
            own.shutdown(wait=True, cancel_futures=not finished)


def _chunks(deals: int, sessions: int | None) -> tuple[int, int, int]:
    """``(total, per, chunks)``: the units asked for (deals, or whole sessions), the units a
    chunk plays, and the number of chunks."""
    total = sessions if sessions is not None else deals
    per = 1 if sessions is not None else CHUNK
    return total, per, -(-total // per)


def _sizes(total: int, per: int) -> Iterator[int]:
    """Each chunk's size, made as it is needed (never all at once: a run of 10**12 deals is
    four billion chunks)."""
    for start in range(0, total, per):
        yield min(per, total - start)


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
    ``bots`` names a bot per seat (cycled): ``random``, ``heuristic`` or ``ismcts``, each a
    bot spec (:func:`stops.bots.parse_bot`: ``"ismcts:iterations=400"``). ``workers > 1`` runs
    chunks in that many processes (at most the chunks, and :data:`WORKERS_PER_CORE` per
    core); ``executor`` runs them on any Executor instead (its workers must be able to import
    ``stops``; the variant's resolved rules and the source of its ``.py`` plug-ins are sent
    with the work, so workers need no file). Results do not depend on either. Chunks are made
    and handed out as the work goes, so any number of deals costs the same memory. Bad
    arguments raise :class:`~stops.StopsError`; an error on a worker is raised as a
    :class:`WorkerError` saying so, and a worker process that dies raises
    :class:`WorkerDied` and stops the pool.
    """
    bots = _check_call(options, plugins, bots)
    v = _resolve(variant, options, plugins)
    if chips is None:
        chips = v.rules.starting_chips
    _check_arguments(v, players, deals, seed, chips, bots, workers, sessions, progress)
    sessions_mode = sessions is not None
    total, per, chunks = _chunks(deals, sessions)
    shipped = ship(v, plugins)
    args = ((shipped, None, players, size, seed, i, bots, chips, sessions_mode)
            for i, size in enumerate(_sizes(total, per)))
    tally = Tally(players)
    for part in _run(run_chunk, args, _sizes(total, per), chunks, total, workers, executor,
                     progress):
        tally.add(part)
    rep = _report(v, tally, seed, bots, players)
    rep.run = run_info(v, players, chips, deals if sessions is None else tally.deals, sessions,
                       seed, bots)
    rep.run["plugins"] = list(plugins)
    return rep


@attrs.define
class Comparison:
    """Two variants played from the same seeds (``stops simulate A --compare B``): each
    one's report and the paired differences B − A."""

    a: Report
    b: Report
    pairs: Pairs

    def differences(self) -> list[Difference]:
        return differences(self.a, self.b, self.pairs)

    def to_dict(self) -> dict[str, Any]:
        return compare_dict(self.a, self.b, self.pairs)

    def text(self) -> str:
        return compare_text(self.a, self.b, self.pairs)


def compare(a: Variant | str, b: Variant | str, players: int, deals: int = 1000,
            seed: int | str = 0, chips: int | None = None,
            options: dict[str, Any] | None = None, bots: Sequence[str] = ("random",),
            workers: int = 1, executor: Executor | None = None, sessions: int | None = None,
            progress: Callable[[int, int], None] | None = None,
            plugins: Sequence[str] = ()) -> Comparison:
    """Play ``a`` and ``b`` on the same seeds, chunk by chunk together, and pair their deals
    (or, with ``sessions``, their sessions) by index: the differences B − A come with paired
    intervals (common random numbers), narrower than two independent runs would give.
    Each report is the one :func:`simulate` gives for that variant alone."""
    bots = _check_call(options, plugins, bots)
    va, vb = _resolve(a, options, plugins), _resolve(b, options, plugins)
    chips_a = va.rules.starting_chips if chips is None else chips
    chips_b = vb.rules.starting_chips if chips is None else chips
    _check_arguments(va, players, deals, seed, chips_a, bots, workers, sessions, progress)
    _check_arguments(vb, players, deals, seed, chips_b, bots, workers, sessions, progress)
    sessions_mode = sessions is not None
    total, per, chunks = _chunks(deals, sessions)
    spaces = list(va.space_ids) + [sp for sp in vb.space_ids if sp not in va.space_ids]
    refs = (ship(va, plugins), ship(vb, plugins))
    args = ((refs, players, size, seed, i, bots, chips_a, chips_b, sessions_mode,
             tuple(spaces)) for i, size in enumerate(_sizes(total, per)))
    ta, tb = Tally(players), Tally(players)
    pairs = Pairs("session" if sessions_mode else "deal",
                  session_measure_names(players) if sessions_mode
                  else deal_measure_names(players, spaces))
    for pa, pb, pp in _run(run_pair_chunk, args, _sizes(total, per), chunks, total, workers,
                           executor, progress):
        ta.add(pa)
        tb.add(pb)
        pairs.add(pp)
    reports = []
    for v, t, c in ((va, ta, chips_a), (vb, tb, chips_b)):
        rep = _report(v, t, seed, bots, players)
        rep.run = run_info(v, players, c, deals if sessions is None else t.deals, sessions,
                           seed, bots)
        rep.run["plugins"] = list(plugins)
        reports.append(rep)
    return Comparison(reports[0], reports[1], pairs)


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
    for name, spec in v.registry.phases.items():  # every phase the rules know that tallies
        fresh: PhaseTally | None = spec.impl.aids().tally()
        if fresh is None:
            continue
        if name not in v.flow:
            rep.sections.setdefault(fresh.key, {})
            continue
        tallied = t.phases.get(fresh.key, fresh)
        rep.sections[fresh.key] = summary = tallied.summary(n)
        rep.section_lines.extend(tallied.lines(summary))
    return rep


Z95 = 1.959963984540054
"""The two-sided 95 % point of the normal distribution."""


@attrs.frozen
class Difference:
    """One measure of ``--compare``: B minus A, with its 95 % interval.

    ``paired``: the interval is that of the mean per-deal (or per-session) difference over
    deals played from the same seeds; otherwise the runs are treated as independent.
    ``se_independent`` is the standard error the independent treatment would give
    (``sqrt(se_A² + se_B²)``), for comparison."""

    measure: str
    a: float
    b: float
    difference: float
    se: float
    low: float
    high: float
    percent: bool = False
    signed: bool = False
    paired: bool = False
    se_independent: float = 0.0

    @property
    def distinguishable(self) -> bool:
        """Does the 95 % interval exclude zero?"""
        return self.low > 0 or self.high < 0

    @property
    def identical(self) -> bool:
        """Did the measure not differ at all (no difference, no spread)?"""
        return self.difference == 0 and self.se == 0

    def to_dict(self) -> dict[str, Any]:
        ind = Z95 * self.se_independent
        return {"measure": self.measure, "a": self.a, "b": self.b,
                "difference": self.difference, "se": self.se, "ci95": [self.low, self.high],
                "paired": self.paired,
                "se_independent": self.se_independent,
                "ci95_independent": [self.difference - ind, self.difference + ind],
                "distinguishable_from_zero": self.distinguishable}


def differences(a: Report, b: Report, pairs: Pairs | None = None) -> list[Difference]:
    """Every measure both reports share, B minus A, each with its 95 % interval.

    With ``pairs`` (from :func:`compare`), a measure it pairs gets the interval of the mean
    paired difference: both variants were played from the same seeds, deal by deal (or
    session by session), so the interval is that of the difference itself, which is what a
    club asks. Otherwise the interval treats the two runs as independent samples
    (``se = sqrt(se_a² + se_b²)``): too wide when the runs share seeds.
    """
    out: list[Difference] = []

    def add(label: str, x: float, xs: float, y: float, ys: float, percent: bool = False,
            signed: bool = False) -> None:
        ind = math.sqrt(xs * xs + ys * ys)
        got = pairs.mean_se(label) if pairs is not None else None
        diff, se = got if got is not None else (y - x, ind)
        out.append(Difference(label, x, y, diff, se, diff - Z95 * se, diff + Z95 * se,
                              percent, signed, got is not None, ind))

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
    if a.run.get("sessions") and b.run.get("sessions"):   # whole sessions were played
        for s in range(min(a.players, b.players)):
            add(f"seat {s} net/session", a.session_net[s], a.session_net_se[s],
                b.session_net[s], b.session_net_se[s], signed=True)
        for s in range(min(a.players, b.players)):
            add(f"seat {s} on top", a.session_win_share[s], a.session_win_share_se[s],
                b.session_win_share[s], b.session_win_share_se[s], percent=True)
    return out


def compare_dict(a: Report, b: Report, pairs: Pairs | None = None) -> dict[str, Any]:
    """``--compare --json``: both reports and the differences, each with its interval
    (paired where ``pairs`` pairs it), and how the deals were paired."""
    out: dict[str, Any] = {"a": a.to_dict(), "b": b.to_dict()}
    if pairs is not None:
        out["paired"] = {"unit": pairs.unit, "pairs": pairs.n,
                         "same_seed": pairs.same_seed}
    out["differences"] = [d.to_dict() for d in differences(a, b, pairs)]
    return out


def compare_text(a: Report, b: Report, pairs: Pairs | None = None) -> str:
    """Two reports side by side (``stops simulate A --compare B``), B minus A with its
    95 % interval; a difference whose interval holds zero is marked as not distinguishable."""
    head = ["A: " + "\n   ".join(x.strip() for x in a.header()),
            "B: " + "\n   ".join(x.strip() for x in b.header()), ""]
    rows = [("", f"A {a.variant}", f"B {b.variant}", "B - A", "95% interval", "")]
    unclear = 0
    diffs = differences(a, b, pairs)
    for d in diffs:
        k = 100.0 if d.percent else 1.0
        dec = 1 if d.percent else 3 if d.signed else 2
        unit = " %" if d.percent else ""
        lvl = f"{{:+.{dec}f}}" if d.signed else f"{{:.{dec}f}}"
        dif = f"{{:+.{dec}f}}"
        flag = ("" if d.distinguishable else "no difference at all" if d.identical
                else "not distinguishable from 0")
        unclear += not d.distinguishable and not d.identical
        rows.append((d.measure + unit, lvl.format(k * d.a), lvl.format(k * d.b),
                     dif.format(k * d.difference),
                     f"[{dif.format(k * d.low)}, {dif.format(k * d.high)}]"
                     + ("" if d.paired or pairs is None else " *"), flag))
    widths = [max(len(r[i]) for r in rows) for i in range(6)]
    body = ["  ".join(c.rjust(w) if 0 < i < 5 else c.ljust(w)
                      for i, (c, w) in enumerate(zip(r, widths, strict=True))).rstrip()
            for r in rows]
    paired = [d for d in diffs if d.paired and d.se_independent > 0]
    if pairs is None or not paired:
        note = ("Intervals treat the runs as independent; both use the same seeds, so they "
                "are conservative.")
    else:
        ratio = sum(d.se / d.se_independent for d in paired) / len(paired)
        unit = pairs.unit
        note = (f"Both variants played the same seeds, {unit} by {unit}: each interval is "
                f"that of the mean difference per {unit} over {pairs.n} paired {unit}s"
                + (f" ({pairs.same_seed} of them dealt from the same seed in both)"
                   if unit == "deal" else "")
                + f", on average {ratio:.2f} times the width it would be if the runs were "
                "treated as independent.")
        if unit == "deal" and 2 * pairs.same_seed < pairs.n:
            note += (" Sessions ended at different deals under the two rules, so most deals "
                     "were paired by their place in the run, not by their cards: --sessions "
                     "pairs whole sessions, each dealt from the same seed.")
        if len(paired) < len(diffs):
            note += " Intervals marked * are not paired and treat the runs as independent."
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

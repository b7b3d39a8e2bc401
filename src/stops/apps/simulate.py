"""Simulation: many deals of a variant played by bots, summarised for people.

Work is cut into *chunks* of at most :data:`CHUNK` deals, each played from its own derived
seed as a run of fresh sessions. Chunks are independent, so they can run in parallel on any
``concurrent.futures.Executor`` (processes, or a cluster's executor) and are combined in
chunk order: the report is identical whatever the number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from typing import Any

import attrs

from stops.apps.playout import play_random, play_with_bots
from stops.engine.deal import Deal
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
    sums: list[int] = attrs.field(factory=list)
    squares: list[int] = attrs.field(factory=list)
    claims: dict[str, int] = attrs.field(factory=dict)
    payouts: dict[str, int] = attrs.field(factory=dict)
    outcomes: dict[str, int] = attrs.field(factory=dict)
    sessions: list[int] = attrs.field(factory=list)
    session_net: list[int] = attrs.field(factory=list)
    session_wins: list[int] = attrs.field(factory=list)
    poker_showdowns: int = 0
    poker_uncontested: int = 0
    poker_pot: int = 0
    poker_hands: dict[str, int] = attrs.field(factory=dict)

    def __attrs_post_init__(self) -> None:
        for name in ("sums", "squares", "session_net", "session_wins"):
            if not getattr(self, name):
                setattr(self, name, [0] * self.players)

    def add(self, other: Tally) -> None:
        self.deals += other.deals
        self.decisions += other.decisions
        self.cards += other.cards
        for name in ("sums", "squares", "session_net", "session_wins"):
            mine, theirs = getattr(self, name), getattr(other, name)
            for i, x in enumerate(theirs):
                mine[i] += x
        for name in ("claims", "payouts", "outcomes", "poker_hands"):
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
        self.cards += len(deal.plays)
        for s, r in enumerate(deal.returns()):
            self.sums[s] += r
            self.squares[s] += r * r
        seen: set[str] = set()
        showdown = False
        for e in deal.events:
            kind = e.kind
            if kind == EventKind.CLAIMED and e.space is not None:
                self.payouts[e.space] = self.payouts.get(e.space, 0) + e.chips
                if e.space not in seen:
                    seen.add(e.space)
                    self.claims[e.space] = self.claims.get(e.space, 0) + 1
                if e.space == deal.variant.pot and "poker" in deal.variant.flow:
                    self.poker_pot += e.chips
            elif kind == EventKind.SHOWDOWN:
                showdown = True
                cat = category(e.cards) if e.cards else "?"
                self.poker_hands[cat] = self.poker_hands.get(cat, 0) + 1
        poker = deal.result(PokerResult)
        if poker is not None and poker.winners:
            if showdown:
                self.poker_showdowns += 1
            else:
                self.poker_uncontested += 1
        key = deal.outcome or "none"
        self.outcomes[key] = self.outcomes.get(key, 0) + 1


@attrs.define
class Report:
    """What a simulation measured. ``to_dict`` is the ``--json`` output."""

    variant: str
    players: int
    deals: int
    seed: int | str
    bots: list[str]
    sessions: int = 0
    chips_per_deal: list[float] = attrs.field(factory=list)
    chips_sd: list[float] = attrs.field(factory=list)
    claim_rate: dict[str, float] = attrs.field(factory=dict)
    mean_payout: dict[str, float] = attrs.field(factory=dict)
    mean_cards_played: float = 0.0
    mean_decisions: float = 0.0
    block_rate: float = 0.0
    went_out_rate: float = 0.0
    mean_session_length: float = 0.0
    longest_session: int = 0
    session_net: list[float] = attrs.field(factory=list)
    session_win_share: list[float] = attrs.field(factory=list)
    outcomes: dict[str, int] = attrs.field(factory=dict)
    poker: dict[str, Any] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def text(self) -> str:
        bots = ", ".join(self.bots)
        lines = [f"{self.variant}: {self.deals} deals, {self.players} players ({bots}), "
                 f"seed {self.seed}"]
        lines.append(f"Sessions: {self.sessions} complete, mean length "
                     f"{self.mean_session_length:.1f} deals, longest {self.longest_session}")
        lines.append("Chips per deal by seat (mean ± sd); per complete session: mean net, "
                     "share of sessions finished on top:")
        for s in range(self.players):
            net = self.session_net[s] if self.session_net else 0.0
            win = self.session_win_share[s] if self.session_win_share else 0.0
            lines.append(f"  seat {s}: {self.chips_per_deal[s]:+7.3f} ± {self.chips_sd[s]:6.2f}"
                         f"   session {net:+8.2f}  top {100 * win:5.1f}%")
        lines.append("Layout spaces (claimed in % of deals, mean payout when claimed):")
        for sp, rate in self.claim_rate.items():
            lines.append(f"  {sp:>8}: {100 * rate:5.1f}%  {self.mean_payout.get(sp, 0.0):7.2f}")
        lines.append(f"Mean cards played per deal: {self.mean_cards_played:.2f}")
        lines.append(f"Mean decisions per deal: {self.mean_decisions:.2f}")
        lines.append(f"Deals ended by going out: {100 * self.went_out_rate:.1f}%, "
                     f"by a block or redeal: {100 * self.block_rate:.1f}%")
        if self.poker:
            p = self.poker
            lines.append(f"Poker: showdown in {100 * p['showdown_rate']:.1f}% of deals, won "
                         f"unseen in {100 * p['uncontested_rate']:.1f}%, mean pot won "
                         f"{p['mean_pot']:.2f}")
            hands = ", ".join(f"{k} {v}" for k, v in sorted(p["hands_shown"].items(),
                                                              key=lambda kv: -kv[1]))
            lines.append(f"  hands shown: {hands}")
        return "\n".join(lines)


def _make_bots(names: Sequence[str], players: int, seed: int | str, chunk: int) -> list[Any]:
    from stops.apps.bots import make_bot

    return [make_bot(names[s % len(names)], int(derive_seed(seed, "bot", chunk, s) % 2**31))
            for s in range(players)]


def run_chunk(variant_ref: Any, options: dict[str, Any] | None, players: int, deals: int,
              seed: int | str, chunk: int, bots: Sequence[str] = ("random",),
              chips: int = 100, sessions_mode: bool = False,
              plugins: Sequence[str] = ()) -> Tally:
    """Play one chunk: ``deals`` deals (or, in sessions mode, ``deals`` whole sessions).
    ``plugins`` are registered first (in a worker process, the plug-ins the caller named)."""
    if isinstance(variant_ref, Variant):
        v = variant_ref
    else:
        registry = None
        if plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(plugins)
        v = load_variant(variant_ref, options, registry=registry)
    tally = Tally(players)
    fast = all(b == "random" for b in bots)
    rng = Rng(derive_seed(seed, "bots", chunk))
    agents = None if fast else _make_bots(bots, players, seed, chunk)
    played = 0
    k = 0
    while (k < deals) if sessions_mode else (played < deals):
        table = Table(v, seats=players, chips=chips,
                      seed=derive_seed(seed, "session", chunk, k), keep_records=False)
        in_session = 0
        while not table.is_over and (sessions_mode or played < deals):
            deal = table.new_deal()
            n = play_random(deal, rng) if agents is None else play_with_bots(deal, agents)
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
            best = max(net)
            for s in range(players):
                if net[s] == best:
                    tally.session_wins[s] += 1
        k += 1
    return tally


def simulate(variant: Variant | str, players: int, deals: int = 1000, seed: int | str = 0,
             chips: int = 100, options: dict[str, Any] | None = None,
             bots: Sequence[str] = ("random",), workers: int = 1,
             executor: Executor | None = None, sessions: int | None = None,
             progress: Callable[[int, int], None] | None = None,
             plugins: Sequence[str] = ()) -> Report:
    """Play ``deals`` deals (or ``sessions`` whole sessions) with bots, and report.

    ``bots`` names a bot per seat (cycled): ``random`` or ``heuristic``. ``workers > 1`` runs
    chunks in that many processes; ``executor`` runs them on any Executor instead (its
    workers must be able to import ``stops``; the variant is sent with the work). Results do
    not depend on either.
    """
    if isinstance(variant, Variant):
        v = variant.with_options(**options) if options else variant
    else:
        registry = None
        if plugins:
            from stops.apps.plugins import load_plugins

            registry = load_plugins(plugins)
        v = load_variant(variant, options, registry=registry)
    sessions_mode = sessions is not None
    total = sessions if sessions is not None else deals
    per = 1 if sessions_mode else CHUNK
    sizes = [min(per, total - i) for i in range(0, total, per)]
    # a Variant pickles as its built-in name or its resolved rules, so it travels to worker
    # processes and cluster nodes as it is: a house rule needs no file on the workers. A
    # variant that names plug-in policies travels as its name, and each worker registers the
    # plug-ins before loading it.
    ref, opts = (v.ref, dict(v.options)) if plugins else (v, None)
    args = [(ref, opts, players, size, seed, i, tuple(bots), chips, sessions_mode,
             tuple(plugins)) for i, size in enumerate(sizes)]
    tally = Tally(players)
    done = 0
    own = None
    if executor is None and workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        own = executor = ProcessPoolExecutor(max_workers=workers)
    try:
        if executor is None:
            results: Any = (run_chunk(*a) for a in args)
        else:
            results = executor.map(run_chunk, *zip(*args, strict=True))
        for part, size in zip(results, sizes, strict=True):
            tally.add(part)
            done += size
            if progress is not None:
                progress(done, total)
    finally:
        if own is not None:
            own.shutdown()
    return _report(v, tally, seed, bots, players)


def _report(v: Variant, t: Tally, seed: int | str, bots: Sequence[str], players: int) -> Report:
    d = max(t.deals, 1)
    rep = Report(variant=v.name, players=players, deals=t.deals, seed=seed,
                 bots=[bots[s % len(bots)] for s in range(players)])
    rep.sessions = len(t.sessions)
    rep.mean_session_length = sum(t.sessions) / max(len(t.sessions), 1)
    rep.longest_session = max(t.sessions, default=0)
    rep.chips_per_deal = [x / d for x in t.sums]
    rep.chips_sd = [math.sqrt(max(0.0, q / d - (x / d) ** 2))
                    for x, q in zip(t.sums, t.squares, strict=True)]
    claims = {k: t.claims.get(k, 0) for k in v.space_ids}
    rep.claim_rate = {k: c / d for k, c in claims.items()}
    rep.mean_payout = {k: (t.payouts.get(k, 0) / c if c else 0.0) for k, c in claims.items()}
    rep.mean_cards_played = t.cards / d
    rep.mean_decisions = t.decisions / d
    rep.outcomes = dict(sorted(t.outcomes.items()))
    rep.block_rate = (t.outcomes.get("blocked", 0) + t.outcomes.get("redeal", 0)) / d
    rep.went_out_rate = t.outcomes.get("went_out", 0) / d
    s = max(len(t.sessions), 1)
    rep.session_net = [x / s for x in t.session_net]
    rep.session_win_share = [x / s for x in t.session_wins]
    if "poker" in v.flow:
        rep.poker = {
            "showdown_rate": t.poker_showdowns / d,
            "uncontested_rate": t.poker_uncontested / d,
            "mean_pot": t.poker_pot / max(t.poker_showdowns + t.poker_uncontested, 1),
            "hands_shown": dict(sorted(t.poker_hands.items())),
        }
    return rep


def compare_text(a: Report, b: Report) -> str:
    """Two reports side by side (``stops simulate A --compare B``)."""
    rows = [("", a.variant, b.variant, "difference")]

    def row(label: str, x: float, y: float, fmt: str = "{:+.3f}") -> None:
        rows.append((label, fmt.format(x), fmt.format(y), fmt.format(y - x)))

    for s in range(a.players):
        row(f"seat {s} chips/deal", a.chips_per_deal[s], b.chips_per_deal[s])
    for sp in sorted(set(a.claim_rate) | set(b.claim_rate)):
        row(f"{sp} claimed %", 100 * a.claim_rate.get(sp, 0.0), 100 * b.claim_rate.get(sp, 0.0),
            "{:.1f}")
    row("cards played", a.mean_cards_played, b.mean_cards_played, "{:.2f}")
    row("decisions", a.mean_decisions, b.mean_decisions, "{:.2f}")
    row("going out %", 100 * a.went_out_rate, 100 * b.went_out_rate, "{:.1f}")
    row("block/redeal %", 100 * a.block_rate, 100 * b.block_rate, "{:.1f}")
    row("session length", a.mean_session_length, b.mean_session_length, "{:.2f}")
    widths = [max(len(r[i]) for r in rows) for i in range(4)]
    return "\n".join("  ".join(c.rjust(w) if i else c.ljust(w)
                               for i, (c, w) in enumerate(zip(r, widths, strict=True)))
                     for r in rows)


def run_deals(variant: Variant, players: int, deals: int, seed: int = 0) -> list[Deal]:
    """Play ``deals`` random deals and keep them (for tests and examples)."""
    out = []
    table = Table(variant, seats=players, chips=100, seed=seed, deals=deals)
    rng = Rng(derive_seed(seed, "bots"))
    while not table.is_over:
        d = table.new_deal()
        play_random(d, rng)
        out.append(d)
    return out

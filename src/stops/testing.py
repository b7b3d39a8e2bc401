"""A conformance check any variant can be run through: ``stops.testing.check_variant``.

It plays seeded random deals and sessions and checks, at every step, what must hold for any
game of the family, whatever its rules:

* chips are conserved (stacks + layout) and cards are conserved (hands + spare + played);
* legal actions are never empty before the end; every deal and session ends within a bound;
* an illegal decision raises :class:`~stops.IllegalAction` and leaves the deal unchanged;
* records replay to the same deal; a saved table (JSON) continues identically;
* the same seed and decisions give the same game;
* **no leak**: two deals that differ only in cards a seat has not seen give that seat the
  same observation (its view and its events).

Use it on a house rule before trusting it::

    from stops.testing import check_variant
    check_variant("my-club.yaml")          # raises ConformanceError listing every failure
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable, Sequence
from typing import Any, cast

import attrs

from stops.engine import observation
from stops.engine.actions import Action
from stops.engine.cards import CARDS
from stops.engine.deal import PLAYED, Deal
from stops.engine.errors import IllegalAction, RecordError, StopsError
from stops.engine.observation import Observation
from stops.engine.table import Table
from stops.io.records import replay
from stops.policies.succession import Succession
from stops.rules.contracts import SUCCESSOR
from stops.rules.variant import Variant, load_variant

MAX_DECISIONS_PER_DEAL = 5_000
MAX_DEALS_PER_SESSION = 2_000


class ConformanceError(AssertionError):
    """A variant broke an invariant; ``failures`` lists every one found."""

    def __init__(self, failures: Sequence[str]) -> None:
        self.failures = list(failures)
        super().__init__("\n".join(self.failures))


@attrs.define
class ConformanceReport:
    variant: str
    seat_counts: list[int] = attrs.field(factory=list)
    deals: int = 0
    decisions: int = 0
    illegal_probes: int = 0
    leak_comparisons: int = 0
    failures: list[str] = attrs.field(factory=list)


def snapshot(deal: Deal) -> Any:
    """Every piece of mutable state of a deal, copied, for before/after comparison.

    The log and the decisions are lists of frozen events and actions: a copy of each list
    (not of its items) shows any event or decision added, dropped or replaced. The rest is
    deep-copied; each per-deal state class copies itself."""
    states = {kind: st.copy() for kind, st in deal.states.items()}
    return (tuple(deal.events), tuple(deal.actions), copy.deepcopy((
        deal.owner, deal.masks, deal.counts,
        sorted(deal.spare), deal.spare_known, deal.plays, deal.to_act, deal.phase_idx,
        deal.outcome, deal.winner, deal.ledger.stacks, deal.ledger.layout,
        sorted(deal.retired), deal.results, deal.next_deal,
    )), states)


def _probes(deal: Deal, rng: random.Random) -> list[Any]:
    seat = deal.current_seat
    assert seat is not None
    card = CARDS[rng.randrange(52)]
    space = rng.choice([*list(deal.variant.space_ids), "nowhere"])
    amounts, words, picks = _probe_verbs(deal.variant)
    probes: list[Any] = [Action((seat + 1) % deal.n, "pass"), Action(seat, "lead", card=card)]
    if amounts:
        probes.append(Action(seat, rng.choice(amounts), chips=rng.randrange(-2, 10_000)))
    if words:
        probes.append(Action(seat, rng.choice(words)))
    probes.append(Action(seat, "stake", space=space, chips=rng.randrange(0, 9)))
    if picks:
        verb = picks[0] if len(picks) == 1 else rng.choice(picks)
        probes.append(Action(seat, verb, cards=tuple(sorted(rng.sample(CARDS, 5)))))
    probes += [
        Action(deal.n + 3, "pass"),
        {"seat": seat, "action": "lead", "card": "1X"},
        {"seat": seat, "action": "shuffle"},
    ]
    return probes


def _probe_verbs(v: Variant) -> tuple[list[str], list[str], list[str]]:
    """The verbs of every phase the variant's registry knows (the engine's included), by
    what a probe gives them: an amount, nothing, or several cards. Decisions of phases
    this game does not have are probed too: they must be refused like any other."""
    got = v.cache.get("probe verbs")
    if got is None:
        from stops.engine.vocabulary import CORE_VERBS

        verbs = {x.name: x for x in CORE_VERBS}
        for spec in v.registry.phases.values():
            verbs.update((x.name, x) for x in spec.verbs)
        got = v.cache["probe verbs"] = (
            sorted(n for n, x in verbs.items() if x.fields == ("chips",)),
            sorted(n for n, x in verbs.items() if not x.fields),
            sorted(n for n, x in verbs.items() if x.fields == ("cards",)))
    return cast("tuple[list[str], list[str], list[str]]", got)


def _check_step(deal: Deal, total: int, fail: list[str], where: str) -> None:
    chips = sum(deal.ledger.stacks) + sum(deal.ledger.layout.values())
    if chips != total:
        fail.append(f"{where}: chips not conserved ({chips} != {total})")
    held = sum(deal.counts)
    if held + len(deal.spare) + len(deal.plays) != len(deal.variant.deck) and deal.dealt_hands:
        fail.append(f"{where}: cards not conserved")
    for c in deal.spare:
        if deal.owner[c] >= 0:
            fail.append(f"{where}: spare card {CARDS[c]} also has an owner")
    if deal.current_seat is not None and len(deal.legal_actions()) == 0:
        fail.append(f"{where}: no legal action before the end of the deal")


def _seen_by(deal: Deal, seat: int) -> set[int]:
    """Cards whose place ``seat`` may know: its own, any named by an event addressed to it,
    and the spare if it put its own hand there. Worked out from the engine's state, not from
    ``observe``, so that a leaky observation cannot excuse itself."""
    seen: set[int] = set(deal.hand(seat))
    for e in deal.events:
        if e.visible(seat):
            if e.card is not None:
                seen.add(e.card)
            seen.update(e.cards)
    if seat in deal.spare_known:
        seen.update(deal.spare)
    return seen


def check_no_leak(deal: Deal, actions: Sequence[Action], rng: random.Random,
                  samples: int = 6) -> tuple[int, list[str]]:
    """Compare ``observe(s)`` with twins of ``deal`` that swap two cards ``s`` has not seen.

    Only swaps that cannot change what anyone may legitimately learn are used: neither card
    is seen by ``s`` nor a pay card (a claim by holding announces where those are), neither
    card's predecessor has been played (so neither was ever asked "who holds the next card"),
    the same decisions replay on the twin, and the twin's claims by holding show the same
    cards (Poch's sequence may be won by almost any cards). Returns the number of
    comparisons made and the failures.
    """
    fail: list[str] = []
    compared = 0
    if not deal.dealt_hands:
        return 0, fail
    for _ in range(samples):
        t = rng.randrange(len(actions) + 1)
        seat = rng.randrange(deal.n)
        a = _rebuild(deal, deal.dealt_hands, deal.dealt_spare, actions[:t])
        if a is None:
            continue
        seen = _seen_by(a, seat) | _pay_cards(a.variant) | _shown_hands(a, seat)
        played = {c for _, c in a.plays}
        movable = [c for c in a.variant.deck if c not in seen
                   and (c % 13 == 0 or ((c - 1) not in played and a.owner[c - 1] != PLAYED))]
        if len(movable) < 2:
            continue
        x, y = rng.sample(movable, 2)
        if {int(x), int(y)} & _asked_for(a.variant, {int(c) for c in played}):
            continue
        hands = [tuple(CARDS[y] if c == x else CARDS[x] if c == y else c for c in h)
                 for h in deal.dealt_hands]
        spare = tuple(CARDS[y] if c == x else CARDS[x] if c == y else c
                      for c in deal.dealt_spare)
        b = _rebuild(deal, tuple(hands), spare, actions[:t])
        if b is None or b.current_seat != a.current_seat or _shown_claims(a) != _shown_claims(b) \
                or _settled(a) != _settled(b):
            continue
        compared += 1
        # through the module, not ``Deal.observe``: the compiled deal calls the compiled
        # ``observe`` directly, and a test of this check swaps in a leaky one
        oa, ob = observation.observe(a, seat), observation.observe(b, seat)
        if oa != ob:
            # every field but the determinizer (each observation has its own)
            diff = [f for f in Observation._fields[:-1] if getattr(oa, f) != getattr(ob, f)]
            fail.append(f"leak: seat {seat} can tell {CARDS[x]} and {CARDS[y]} apart after "
                        f"{t} decisions (differs in: {', '.join(diff)})")
    return compared, fail


def _asked_for(variant: Variant, played: set[int]) -> set[int]:
    """The cards some card already played asked for ("who holds the next card?"), by the
    variant's own successor tables: in a game by rank alone (Nain Jaune) a 3 played asks for
    every 4, so swapping two 4s may rightly change the play."""
    succ = variant.policy(SUCCESSOR)
    tables: Succession = succ.impl(variant, succ.params)
    asked: set[int] = set()
    for p in played:
        if tables.by_rank:
            r = tables.next_rank[p % 13]
            if r >= 0:
                asked.update(s * 13 + r for s in range(4))
        elif tables.next_card[p] >= 0:
            asked.add(tables.next_card[p])
    return asked


def _settled(deal: Deal) -> list[tuple[Any, ...]]:
    """What the settlement paid in the open: a payment for what a hand still holds (a chip
    per King left in Spinado, per card in Newmarket) announces it, so a swap that changes
    such a payment may rightly show and the twins are not compared."""
    return [(e.seat, e.to_seat, e.chips, e.note) for e in deal.events
            if e.kind in ("paid", "excused") and e.visible_to is None]


def _shown_claims(deal: Deal) -> list[tuple[Any, ...]]:
    """The claims that showed cards (a space won by holding them: Three-in-One's pay cards,
    Poch's honours and sequence). They announce where those cards are, and a swap that
    changes who holds a winning combination changes them: such twins are not compared (as
    the pay cards themselves are never swapped)."""
    return [(e.seat, e.space, e.cards) for e in deal.events
            if e.kind == "claimed" and e.cards]


def _shown_hands(deal: Deal, seat: int) -> set[int]:
    """Cards whose place ``seat`` may know although no event names them, as the phases of
    the flow say (:meth:`stops.phases.aids.PhaseAids.revealed`: a hand shown as its
    holder's best, with no choice made, announces that the rest of it holds nothing
    better), so a swap touching them may legitimately show."""
    out: set[int] = set()
    for phase in deal.variant.phases:
        out |= phase.aids().revealed(deal, seat)
    return out


def _pay_cards(v: Variant) -> set[int]:
    """Cards whose mere place (held or in the spare) may be announced by a claim."""
    from stops.engine.cards import RANKS

    out: set[int] = set()
    for s in v.layout:
        if s.card is not None:
            out.add(s.card)
        out.update(s.cards)
        for r in s.ranks:
            out.update(suit * 13 + RANKS.index(r) for suit in range(4))
    return out


def _rebuild(deal: Deal, hands: Sequence[Sequence[Any]], spare: Sequence[Any],
             actions: Sequence[Action]) -> Deal | None:
    rec = deal.record()
    rec["hands"] = [[str(c) for c in h] for h in hands]
    rec["spare"] = [str(c) for c in spare]
    rec["actions"] = [x.to_dict() for x in actions]
    rec.pop("result", None)
    rec.pop("seed", None)
    try:
        return replay(rec, deal.variant, partial=True, fill_forced=False)
    except (RecordError, IllegalAction):
        return None


def _play_deal(deal: Deal, rng: random.Random, total: int, fail: list[str], where: str,
               probe: bool, report: ConformanceReport) -> list[Action]:
    steps = 0
    while not deal.is_terminal:
        _check_step(deal, total, fail, f"{where} step {steps}")
        legal = deal.legal_actions()
        if not len(legal):
            break
        if probe and rng.random() < 0.3:
            for bad in _probes(deal, rng):
                try:
                    action = bad if isinstance(bad, Action) else Action.from_dict(bad)
                except IllegalAction:
                    report.illegal_probes += 1
                    continue
                if action in legal:
                    continue
                before = snapshot(deal)
                try:
                    deal.apply(bad)
                    fail.append(f"{where}: illegal {bad} was accepted")
                except IllegalAction as e:
                    if not e.code:
                        fail.append(f"{where}: IllegalAction without a code for {bad}")
                report.illegal_probes += 1
                if snapshot(deal) != before:
                    fail.append(f"{where}: rejected {bad} changed the deal")
        deal.apply(legal[rng.randrange(len(legal))])
        steps += 1
        report.decisions += 1
        if steps > MAX_DECISIONS_PER_DEAL:
            fail.append(f"{where}: deal did not end within {MAX_DECISIONS_PER_DEAL} decisions")
            break
    _check_step(deal, total, fail, f"{where} end")
    return list(deal.actions)


def check_variant(variant: Variant | str, *, seats: Iterable[int] | None = None,
                  deals: int = 4, seed: int = 0, leak_samples: int = 4,
                  raise_on_failure: bool = True) -> ConformanceReport:
    """Run the conformance checks on ``variant`` at each seat count (default: all allowed).

    Raises :class:`ConformanceError` listing every failure (or returns the report with
    ``failures`` filled when ``raise_on_failure`` is false).
    """
    v = load_variant(variant) if not isinstance(variant, Variant) else variant
    lo, hi = v.players
    counts = list(seats) if seats is not None else list(range(lo, hi + 1))
    report = ConformanceReport(variant=v.name, seat_counts=counts)
    fail = report.failures
    for n in counts:
        rng = random.Random(f"{seed}/{v.name}/{n}")
        table = Table(v, seats=n, chips=30, seed=f"{seed}/{n}", deals=deals)
        total = table.total_chips()
        k = 0
        saved_at = rng.randrange(deals)
        while not table.is_over:
            where = f"{v.name} {n}p deal {k}"
            deal = table.new_deal()
            if k == saved_at:
                _check_save_restore(table, rng, fail, where)
            actions = _play_deal(deal, rng, total, fail, where, probe=True, report=report)
            report.deals += 1
            _check_record(deal, fail, where)
            _check_determinism(v, n, seed, k, deal, fail, where)
            compared, leaks = check_no_leak(deal, actions, rng, leak_samples)
            report.leak_comparisons += compared
            fail.extend(f"{where}: {x}" for x in leaks)
            if table.total_chips() != total:
                fail.append(f"{where}: table chips not conserved")
            k += 1
            if k > MAX_DEALS_PER_SESSION:
                fail.append(f"{v.name} {n}p: session did not end")
                break
        _check_natural_session_end(v, n, seed, fail)
    if fail and raise_on_failure:
        raise ConformanceError(fail)
    return report


def _check_record(deal: Deal, fail: list[str], where: str) -> None:
    rec = deal.record()
    try:
        again = replay(json.loads(json.dumps(rec)), deal.variant)
    except StopsError as e:
        fail.append(f"{where}: its record does not replay: {e}")
        return
    if again.plays != deal.plays or again.stacks != deal.stacks or again.events != deal.events:
        fail.append(f"{where}: its record replays to a different deal")


def _check_save_restore(table: Table, rng: random.Random, fail: list[str], where: str) -> None:
    """Save the table at a random point of this deal, restore it and compare both ways."""
    deal = table.deal
    assert deal is not None
    for _ in range(rng.randrange(6)):
        if deal.is_terminal:
            break
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    try:
        restored = Table.from_dict(json.loads(json.dumps(table.to_dict())),
                                   registry=table.variant.registry)
    except StopsError as e:
        fail.append(f"{where}: a saved table does not restore: {e}")
        return
    rd = restored.deal
    if rd is None or deal.is_terminal:
        return
    if rd.events != deal.events or rd.current_seat != deal.current_seat or \
            rd.legal_actions() != deal.legal_actions() or rd.stacks != deal.stacks:
        fail.append(f"{where}: a restored table is not where it was saved")


def _check_determinism(v: Variant, n: int, seed: int, k: int, deal: Deal, fail: list[str],
                       where: str) -> None:
    """The same seed deals the same cards, and the same decisions give the same events."""
    rec = deal.record()
    twin = Table(v, seats=n, chips=list(rec["stacks"]), seed=f"{seed}/{n}",
                 dealer=rec["dealer"], layout=rec["layout"], retired=rec["retired"])
    twin.deal_index = rec.get("deal_index", 0)
    twin.eliminated = set(rec.get("out", []))
    twin.skip_stakes = rec.get("stakes") is False
    d2 = twin.new_deal(exempt=rec.get("exempt", []))  # the twin has no last winner
    for a in deal.actions:
        try:
            d2.apply(a)
        except IllegalAction:
            fail.append(f"{where}: the same seed gave a different game")
            return
    if d2.events != deal.events:
        fail.append(f"{where}: the same seed and decisions gave different events")


def _check_natural_session_end(v: Variant, n: int, seed: int, fail: list[str]) -> None:
    rng = random.Random(f"session/{seed}/{n}")
    table = Table(v, seats=n, chips=30, seed=f"session/{seed}/{n}", keep_records=False)
    while not table.is_over:
        deal = table.new_deal()
        while not deal.is_terminal:
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
        if table.deals_played > MAX_DEALS_PER_SESSION:
            fail.append(f"{v.name} {n}p: a session did not end within "
                        f"{MAX_DEALS_PER_SESSION} deals")
            return


__all__ = ["ConformanceError", "ConformanceReport", "check_no_leak", "check_variant",
           "snapshot"]

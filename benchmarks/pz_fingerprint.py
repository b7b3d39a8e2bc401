"""A fingerprint of what an agent sees: every seat's observation and the PettingZoo vectors.

    PYTHONPATH=src python benchmarks/pz_fingerprint.py                   # print the digests
    PYTHONPATH=src python benchmarks/pz_fingerprint.py --save F.json     # keep them
    PYTHONPATH=src python benchmarks/pz_fingerprint.py --check F.json    # compare (exit 1: differ)
    /path/to/compiled-venv/bin/python benchmarks/pz_fingerprint.py --check F.json

A speed change to ``observe`` or to the PettingZoo environment (issue 24) may not change a
single number an agent is given. For every built-in variant this runs seeded episodes of the
PettingZoo environment (three deals each) with random legal indices, and after every step
hashes, for every agent: its observation vector and action mask (``env.observe``), its
reward, cumulative reward, termination, truncation and info's mask, and ``env.last()``; and
``deal.observe(seat)`` of every seat (``to_dict``, keys sorted). One SHA-256 per variant.
With ``--observe-only`` (no ``pettingzoo`` extra installed) only the ``deal.observe`` part
is hashed, under its own keys. Run it with the interpreter of each build: both must print
the digests of the stored file, ``benchmarks/pz_fingerprint.json``, made before the change.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import stops
from stops.engine.rng import Rng, derive_seed


def _seats(variant: stops.Variant) -> int:
    lo, hi = variant.players
    return max(lo, min(4, hi))


def _view(deal: stops.Deal, seat: int) -> bytes:
    return json.dumps(deal.observe(seat).to_dict(), sort_keys=True, default=str).encode()


def _views(h: Any, deal: stops.Deal) -> None:
    for s in range(deal.n):
        h.update(_view(deal, s))


def _pz_digest(name: str, episodes: int) -> str:
    from stops.interop.pettingzoo import env as make_env

    variant = stops.load_variant(name)
    e = make_env(variant=name, players=_seats(variant), deals_per_episode=3, chips=40)
    raw = e.unwrapped
    rng = random.Random(derive_seed("pz-fingerprint", name))
    h = hashlib.sha256()
    for ep in range(episodes):
        e.reset(seed=derive_seed("pz-fingerprint", name, ep))
        while True:
            for agent in raw.agents:
                obs = raw.observe(agent)
                h.update(obs["observation"].tobytes())
                h.update(obs["action_mask"].tobytes())
                h.update(repr((agent, raw.rewards[agent], raw._cumulative_rewards[agent],
                               raw.terminations[agent], raw.truncations[agent])).encode())
                h.update(raw.infos[agent]["action_mask"].tobytes())
            if raw.deal is not None:
                _views(h, raw.deal)
            if not raw.agents:
                break
            obs, reward, term, trunc, info = e.last()
            h.update(obs["observation"].tobytes())
            h.update(obs["action_mask"].tobytes())
            h.update(repr((e.agent_selection, reward, term, trunc)).encode())
            if term or trunc:
                e.step(None)
                continue
            mask = info["action_mask"]
            e.step(rng.choice([i for i, m in enumerate(mask) if m]))
    return h.hexdigest()[:24]


def _observe_digest(name: str, deals: int) -> str:
    """``deal.observe`` of every seat after every decision of random play."""
    variant = stops.load_variant(name)
    seats = _seats(variant)
    h = hashlib.sha256()
    table = stops.Table(variant, seats=seats, seed=derive_seed("obs-fingerprint", name),
                        chips=60)
    rng = Rng(derive_seed("obs-fingerprint", name, "random"))
    pick = random.Random(derive_seed("obs-fingerprint", name, "seats"))
    for k in range(deals):
        if table.is_over:
            table = stops.Table(variant, seats=seats, chips=60,
                                seed=derive_seed("obs-fingerprint", name, k))
        deal = table.new_deal()
        step = 0
        while not deal.is_terminal:
            # some seats, not all, at each step (a view kept between calls must catch up on
            # whatever it missed), and now and then a copy's view
            for s in range(deal.n):
                if pick.random() < 0.6:
                    h.update(_view(deal, s))
            if step % 7 == 3:
                h.update(_view(deal.clone(), pick.randrange(deal.n)))
            legal = deal.legal_actions()
            deal.apply(legal[rng.below(len(legal))])
            step += 1
        _views(h, deal)
    return h.hexdigest()[:24]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--episodes", type=int, default=6)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--check", type=Path)
    ap.add_argument("--games", nargs="*", default=None)
    ap.add_argument("--observe-only", action="store_true")
    args = ap.parse_args()
    names = args.games or stops.list_variants()
    got: dict[str, str] = {}
    for name in names:
        key = f"{name}/observe"
        got[key] = _observe_digest(name, args.episodes)
        print(f"{key:40} {got[key]}", flush=True)
        if not args.observe_only:
            key = f"{name}/pettingzoo"
            got[key] = _pz_digest(name, args.episodes)
            print(f"{key:40} {got[key]}", flush=True)
    build = "compiled" if stops.COMPILED else "pure"
    if args.save:
        args.save.write_text(json.dumps({"episodes": args.episodes, "digests": got},
                                        indent=1) + "\n")
        print(f"saved {len(got)} digests ({build} build) to {args.save}")
    if args.check:
        want = json.loads(args.check.read_text())
        if want.get("episodes") != args.episodes:
            print(f"{args.check} was made with --episodes {want.get('episodes')}",
                  file=sys.stderr)
            return 2
        bad = [k for k, v in got.items() if want["digests"].get(k) != v]
        for k in bad:
            print(f"DIFFERS: {k}")
        print(f"{build} build: {len(got) - len(bad)} of {len(got)} digests as in {args.check}")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

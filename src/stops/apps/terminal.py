"""``stops play``: one person plays a seat in the terminal against bots, for a whole session.

Reads answers line by line from standard input, so a script can pipe a whole game in.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO

from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import SUIT_SYMBOLS, parse_card
from stops.engine.deal import Deal
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.rng import derive_seed
from stops.engine.table import Table
from stops.rules.variant import Variant

RED = "\033[31m"
RESET = "\033[0m"


def _card_text(c: int, colour: bool) -> str:
    from stops.engine.cards import CARDS

    t = CARDS[c].symbol()
    if colour and c // 13 in (1, 2):
        return f"{RED}{t}{RESET}"
    return t


def show_hand(cards: list[int], colour: bool) -> str:
    by_suit: dict[int, list[int]] = {}
    for c in cards:
        by_suit.setdefault(c // 13, []).append(c)
    parts = []
    for suit in (3, 2, 1, 0):
        if suit in by_suit:
            parts.append(" ".join(_card_text(c, colour) for c in sorted(by_suit[suit])))
    return "   ".join(parts) or "(no cards)"


def describe_action(a: Action) -> str:
    if a.action == "lead" and a.card is not None:
        return f"lead {a.card.symbol()}"
    if a.action == "stake":
        return f"stake {a.chips} on {a.space}"
    if a.action in ("bid", "bet", "raise"):
        return f"{a.action} {a.chips}"
    if a.action == "select" and a.cards is not None:
        return "select " + " ".join(c.symbol() for c in a.cards)
    return a.action


def _status(deal: Deal, seat: int, colour: bool, out: TextIO) -> None:
    obs = deal.observe(seat)
    lay = "  ".join(f"{k}:{v}" for k, v in obs.layout.items() if k not in obs.retired)
    out.write(f"\nLayout: {lay}\n")
    out.write("Stacks: " + "  ".join(f"seat {s}{'*' if s == seat else ''}: {x}"
                                     for s, x in enumerate(obs.stacks)) + "\n")
    out.write("Cards held: " + "  ".join(f"seat {s}: {n}" for s, n in
                                         enumerate(obs.hand_sizes)) + "\n")
    if obs.plays:
        out.write("Played so far: " + show_hand([c for _, c in obs.plays], colour) + "\n")
    if obs.sequence:
        out.write("Sequence: " + " ".join(_card_text(c, colour) for _, c in obs.sequence) + "\n")
    out.write("Your hand: " + show_hand(list(obs.hand), colour) + "\n")


def _ask(deal: Deal, seat: int, inp: TextIO, out: TextIO, colour: bool) -> Action | None:
    legal = deal.legal_actions()
    choices: Sequence[Action] = legal
    _status(deal, seat, colour, out)
    if len(legal) <= 60:
        for i, a in enumerate(legal, 1):
            out.write(f"  {i}) {describe_action(a)}\n")
    else:
        out.write(f"  ({len(legal)} choices, numbered 1 to {len(legal)}: type e.g. "
                  "'select 2c 3c 4c 5c 6c', 'best' for your best poker hand, or 'bid 3')\n")
    while True:
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text == "?":
            out.write(_why(deal) + "\n")
            continue
        try:
            a = _parse_answer(text, seat, choices, deal.hand(seat))
            deal.explain(a)
            if a in legal:
                return a
            raise deal.explain(a)
        except IllegalAction as e:
            out.write(f"Not allowed: {e.message}\n")
        except ValueError as e:
            out.write(f"Not understood: {e}\n")


def _why(deal: Deal) -> str:
    """The rule behind the choices on offer, from the variant's own policy texts."""
    from stops.engine.cards import SUIT_NAMES

    v = deal.variant
    ph = deal.phase

    def text(slot: str) -> str:
        b = v.policy(slot)
        return str(b.spec.text(b.params)) if b.spec.text else str(b.spec.doc)

    if ph == "play":
        lead = deal.scratch.get("lead")
        broken = lead[2] if lead else None
        if not deal.plays:
            why = text("first_leader")
        elif broken is None:
            why = "The lead is free: " + text("after_stop")
        else:
            why = f"The last sequence stopped in {SUIT_NAMES[broken]}. " + text("after_stop")
        return why + " Whoever holds the next card of the suit must then play it."
    if ph == "stake":
        return text("stake_rule")
    if ph == "spare_hand":
        return text("spare_protocol")
    if ph == "poker":
        s = v.settings("poker")
        return (f"Choose {s.hand_size} cards for poker; then check or bet (1 to "
                f"{s.bet_limit}) until someone bets, then fold, call or raise.")
    return "Choose one of the numbered options."


def _parse_answer(text: str, seat: int, choices: Sequence[Action] | None,
                  hand: Sequence[int] = ()) -> Action:
    if text.lower() == "best" and hand:
        from stops.engine.actions import select
        from stops.phases.handrank import best_hand

        return select(seat, best_hand(hand))
    if text.isdigit() and choices is not None:
        k = int(text)
        if not 1 <= k <= len(choices):
            raise ValueError(f"choose 1 to {len(choices)}")
        return choices[k - 1]
    words = text.split()
    verb = words[0].lower()
    if len(words) == 1 and verb not in ("keep", "swap", "auction", "pass", "check", "call",
                                        "fold"):
        card = parse_card(text)
        return action_from_dict({"seat": seat, "action": "lead", "card": str(card)})
    if verb in ("bid", "bet", "raise") and len(words) == 2:
        return action_from_dict({"seat": seat, "action": verb, "chips": int(words[1])})
    if verb == "select":
        return action_from_dict({"seat": seat, "action": "select", "cards": words[1:]})
    if verb == "stake" and len(words) >= 2:
        d: dict[str, object] = {"seat": seat, "action": "stake", "space": words[1]}
        if len(words) > 2:
            d["chips"] = int(words[2])
        return action_from_dict(d)
    if verb == "lead" and len(words) == 2:
        return action_from_dict({"seat": seat, "action": "lead", "card": words[1]})
    return action_from_dict({"seat": seat, "action": verb})


def play_terminal(variant: Variant, players: int, seat: int = 0, seed: int | None = None,
                  chips: int = 50, deals: int | None = None,
                  inp: TextIO | None = None, out: TextIO | None = None,
                  bots: str = "heuristic") -> int:
    inp = inp or sys.stdin
    out = out or sys.stdout
    colour = out.isatty()
    if not 0 <= seat < players:
        out.write(f"seat must be 0..{players - 1}\n")
        return 1
    lo, hi = variant.players
    if not lo <= players <= hi:
        out.write(f"{variant.name} is for {lo} to {hi} players\n")
        return 1
    from stops.apps.bots import BOTS, make_bot

    names = [b.strip() for b in bots.split(",") if b.strip()] or ["heuristic"]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        out.write(f"unknown bot {unknown[0]!r}; bots: {', '.join(BOTS)}\n")
        return 1
    table = Table(variant, seats=players, chips=chips, seed=seed, deals=deals)
    others = [s for s in range(players) if s != seat]
    agents = {s: make_bot(names[i % len(names)], int(derive_seed(table.seed, "bot", s) % 2**31))
              for i, s in enumerate(others)}
    out.write(f"{variant.title}: you are seat {seat} of {players}. "
              "Answer with a number or a card (7h, 10♥); ? explains, q quits.\n")
    while not table.is_over:
        deal = table.new_deal()
        out.write(f"\n=== Deal {table.deals_played + 1}: dealer is seat {deal.dealer} ===\n")
        shown = 0
        while True:
            for e in deal.events[shown:]:
                if e.visible(seat) and e.kind not in (EventKind.DEALT,):
                    out.write("  " + e.describe() + "\n")
            shown = len(deal.events)
            if deal.is_terminal:
                break
            if deal.current_seat == seat:
                a = _ask(deal, seat, inp, out, colour)
                if a is None:
                    out.write("Goodbye.\n")
                    return 0
                deal.apply(a)
            else:
                bot_seat = deal.current_seat
                assert bot_seat is not None
                deal.apply(agents[bot_seat].act(deal.observe(bot_seat)))
        out.write("Stacks: " + ", ".join(f"seat {s}: {x}" for s, x in enumerate(table.stacks))
                  + "\n")
    out.write("The session is over. Standings:\n")
    for s, stack, change in table.standings():
        out.write(f"  seat {s}: {stack} ({change:+d})\n")
    return 0


__all__ = ["SUIT_SYMBOLS", "play_terminal"]

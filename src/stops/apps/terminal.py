"""``stops play``: one person plays a seat in the terminal against bots, for a whole session.

Reads answers line by line from standard input, so a script can pipe a whole game in.

What the screen shows, for a newcomer: the player is "you"; their hand and the layout are shown
when a deal starts and before every decision; each event is one line, with forced runs of
cards written compactly on one line (``seat 1 leads 2♥ · you 3♥ · seat 1 4♥ — stop: ...``);
the stakes of a deal are summed up per player; cards are always written the same way
(``A♣``, ``10♥``), or in ASCII (``AC``, ``10H``) where the terminal cannot show suit symbols.
Text that comes from a variant file (its title, space names, notes) is stripped of terminal
control characters before it is printed.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import CARDS, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, parse_card
from stops.engine.deal import Deal
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import Event
from stops.engine.recording import normalized
from stops.engine.rng import derive_seed
from stops.engine.table import Table
from stops.engine.text import printable
from stops.engine.vocabulary import VERBS
from stops.phases.poker import PokerState
from stops.phases.rotation import RotationParams
from stops.rules.contracts import PAY_COLLECTION
from stops.rules.variant import Variant

RED = "\033[31m"
BOLD = "\033[1m"
RESET = "\033[0m"
WIDTH = 78
"""Where the narrator cuts its lines (it indents them by two more)."""
SCREEN = 80
"""The screen's width: nothing written is wider."""



def sanitise(text: object) -> str:
    """``text`` with terminal control characters and escape sequences removed.

    Variant files are written by anyone; their names, titles and notes must not be able to move
    the cursor, clear the screen or retitle the window of whoever plays them. Tabs and
    newlines become spaces.
    """
    return "".join(" " if ch in "\t\n" else ch for ch in printable(str(text)))


class Style:
    """How cards are written on this terminal: suit symbols or ASCII, colour or not."""

    def __init__(self, unicode: bool = True, colour: bool = False,
                 combos: dict[str, tuple[int, ...]] | None = None) -> None:
        self.unicode = unicode
        self.colour = colour
        self.combos = combos or {}
        """Combination spaces by id, written as their cards (``K♥+Q♥`` for ``KQ``)."""
        self.sep = " · " if unicode else " | "
        self.dash = " — " if unicode else " - "
        self.ace_low = False
        """The variant ranks the ace below the two: hands list it first in its suit."""

    @classmethod
    def for_stream(cls, out: TextIO) -> Style:
        enc = getattr(out, "encoding", None) or "utf-8"
        try:
            "♣♦♥♠·—".encode(enc)
            uni = True
        except (UnicodeEncodeError, LookupError):
            uni = False
        isatty = getattr(out, "isatty", None)
        return cls(unicode=uni, colour=bool(isatty and isatty()))

    def card(self, c: int) -> str:
        rank = "10" if c % 13 == 8 else RANKS[c % 13]
        suit = SUIT_SYMBOLS[c // 13] if self.unicode else SUITS[c // 13]
        t = rank + suit
        if self.colour and c // 13 in (1, 2):
            return f"{RED}{t}{RESET}"
        return t

    def cards(self, cs: Iterable[int]) -> str:
        return " ".join(self.card(c) for c in cs)

    def hand(self, cs: Iterable[int]) -> str:
        """A hand grouped by suit, spades first, each suit in rank order."""
        by_suit: dict[int, list[int]] = {}
        for c in cs:
            by_suit.setdefault(int(c) // 13, []).append(int(c))
        key = (lambda c: (c + 1) % 13) if self.ace_low else None
        parts = [self.cards(sorted(by_suit[s], key=key)) for s in (3, 2, 1, 0)
                 if s in by_suit]
        return "   ".join(parts) or "(no cards)"

    def space(self, space: object) -> str:
        """A layout space: card-named spaces (``AH``) are written as cards."""
        text = sanitise(space)
        if len(text) == 2 and text[0] in RANKS and text[1] in SUITS:
            return self.card(parse_card(text))
        if text in self.combos:
            cards = "+".join(self.card(c) for c in self.combos[text])
            # a space named by its cards (KQ) is written as them; a named one keeps its name
            return cards if len(text) <= 3 else f"{text} ({cards})"
        return text

    def note(self, text: object, me: int) -> str:
        """An engine or policy note, with its cards and seats written as everywhere else."""
        s = sanitise(text)
        s = re.sub(r"\b([2-9TJQKA])([CDHS])\b",
                   lambda m: self.card(parse_card(m.group(0))), s)
        return re.sub(rf"\bseat {me}\b", "you", s)

    def fit(self, text: str) -> str:
        """``text`` as this terminal can print it."""
        if self.unicode:
            return text
        return (text.replace("·", "|").replace("—", "-").replace("±", "+/-")
                .encode("ascii", "replace").decode("ascii"))


def who(seat: int | None, me: int) -> str:
    if seat is None:
        return "nobody"
    return "you" if seat == me else f"seat {seat}"


def _verb(seat: int | None, me: int, you_form: str, other_form: str) -> str:
    return f"{who(seat, me)} {you_form if seat == me else other_form}"


class Narrator:
    """Turns one seat's view of a deal's events into lines for that seat's screen."""

    def __init__(self, deal: Deal, me: int, style: Style, layout: dict[str, int],
                 all_seen: bool = False) -> None:
        self.deal = deal
        self.me = me
        self.all_seen = all_seen
        """Tell every event, every hand included (``stops replay`` with no seat)."""
        self.spare = deal.variant.spare_name
        self.put: dict[int, int] = {}
        """Chips each seat has put into the poker pot this deal, and the level to call."""
        self.level = 0
        self.st = style
        self.layout = dict(layout)          # what the layout holds as far as told so far
        self.shown = 0
        self.stakes: dict[int, dict[str, int]] = {}
        self.run: list[tuple[int, int]] = []   # (seat, card) of the sequence being told
        self.after_run: list[str] = []
        self.hand_shown = False
        self.swapped: set[int] = set()
        turns = deal.variant.policy("turn_order")
        self.sans = isinstance(turns.params, RotationParams) and turns.params.per_turn == "run"
        """Turns in rotation that run on while a player can: say "sans X" when one ends."""
        self.rotation = turns.name == "rotation"
        self.marks: list[str] = []
        """Turns passed over within the run being told (a run entry's card -2 is the
        first, -3 the second...)."""
        self.missing: str | None = None   # the rank nobody continued with, from passed-over
        self.told_seat: int | None = None  # who laid the last card told, in an open sequence

    # -- feeding --------------------------------------------------------------------------
    def new_lines(self) -> list[str]:
        """Lines for the events since the last call, with every open group closed.

        While stakes are still being placed they are gathered, not told one by one: the
        summary comes once the stake phase is over.
        """
        out: list[str] = []
        events = self.deal.events
        for e in events[self.shown:]:
            if self.all_seen or e.visible(self.me):
                self._event(e, out)
        self.shown = len(events)
        if self.deal.phase != "stake" or self.deal.is_terminal:
            self._flush_stakes(out)
        self._flush_run(out, "")
        return out

    #: kinds that end the sequence being told (the others, such as a claim or a payment
    #: for a card played, are told on their own lines just after it)
    _ENDS_RUN = frozenset({"led", "stop", "went_out", "lead_passed", "blocked", "deal_ended",
                           "eliminated", "deal_started"})

    def _event(self, e: Event, out: list[str]) -> None:
        k = e.kind
        st, me = self.st, self.me
        if k != "staked":
            self._flush_stakes(out)
        if k == "staked":
            assert e.seat is not None and e.space is not None
            per = self.stakes.setdefault(e.seat, {})
            per[e.space] = per.get(e.space, 0) + e.chips
            self.layout[e.space] = self.layout.get(e.space, 0) + e.chips
            return
        if k == "led":
            assert e.card is not None and e.seat is not None
            self._flush_run(out, "")
            self.run = [(e.seat, e.card)]
            return
        if k == "played":
            assert e.card is not None and e.seat is not None
            if not self.run:
                self.run = [(-1, -1)]          # a run that began before we were told
            self.run.append((e.seat, e.card))
            return
        if k == "stop":
            self._flush_run(out, f"{st.dash.strip()} stop: {st.note(e.note, me)}")
            return
        if k == "went_out":
            self._flush_run(out, f"{st.dash.strip()} " + (
                "you are out of cards!" if e.seat == me else f"seat {e.seat} is out of cards"))
            return
        if k in self._ENDS_RUN:
            self._flush_run(out, "")
        if k == "passed_over" and self.sans and e.note and e.note.startswith("holds no "):
            self.missing = e.note.removeprefix("holds no ")
        elif k == "passed_over" and self.run and self.rotation and e.seat is not None:
            # a turn with nothing to play is part of the run: "· seat 2 (no 8) ·"
            note = st.note(e.note, me).removeprefix("holds ")
            self.marks.append(note)
            self.run.append((e.seat, -1 - len(self.marks)))
            return
        lines = self._lines(e)
        (self.after_run if self.run else out).extend(lines)

    def _lines(self, e: Event) -> list[str]:
        k = e.kind
        st, me = self.st, self.me
        if k in ("deal_started",):
            return []
        if k == "dealt":
            if e.seat == me and e.cards:
                self.hand_shown = True
                return ["Your hand: " + st.hand(e.cards)]
            if self.all_seen and e.cards:
                return [f"{who(e.seat, me).capitalize()}'s hand: " + st.hand(e.cards)]
            return []
        if k == "claimed":
            if e.space is not None:
                self.layout[e.space] = self.layout.get(e.space, 0) - e.chips
            note = st.note(e.note, me)
            if e.seat == me and note.startswith(("holds ", "played ")):
                note = "you " + note.replace("holds ", "hold ", 1)
            return [f"{_verb(e.seat, me, 'win', 'wins')} {e.chips} from "
                    f"{st.space(e.space)}" + (f" ({note})" if note else "")]
        if k == "spare_swapped":
            if e.cards:
                if e.seat == me and me in self.swapped:  # bought: told by "you buy"
                    return ["Your new hand: " + st.hand(e.cards)]
                if e.seat == me:
                    return [f"You take the {self.spare}. Your hand: " + st.hand(e.cards)]
                if self.all_seen:
                    return [f"{who(e.seat, me)} takes the {self.spare}: " + st.hand(e.cards)]
                return []
            if e.seat == me or e.seat in self.swapped:
                return []         # told once: by the private line, "exchanged" or "buys"
            return [f"seat {e.seat} takes the {self.spare} unseen"]
        if k == "exchanged":
            if e.seat is not None:
                self.swapped.add(e.seat)
            fee = f"pay {e.chips} to {st.space(e.space)} and " if e.chips else ""
            if e.seat == me:
                return [f"you {fee}exchange your hand for the {self.spare}"]
            fee = fee.replace("pay ", "pays ")
            return [f"seat {e.seat} {fee}exchanges their hand for the {self.spare}"]
        if k == "paid":
            if e.space is not None:
                self.layout[e.space] = self.layout.get(e.space, 0) + e.chips
            if e.note in ("exchange fee", "buys the hand"):
                return []                      # told by the "exchanged" or "sold" line
            dest = st.space(e.space) if e.space is not None else who(e.to_seat, me)
            why = f" ({st.note(e.note, me)})" if e.note else ""
            return [f"{_verb(e.seat, me, 'pay', 'pays')} {e.chips} to {dest}{why}"]
        if k in ("bet", "raised", "called") and e.space is not None:
            self.layout[e.space] = self.layout.get(e.space, 0) + e.chips
        if k in ("bet", "raised", "called") and e.seat is not None:
            before = self.level
            self.put[e.seat] = self.put.get(e.seat, 0) + e.chips
            self.level = max(self.level, self.put[e.seat])
            if k == "raised":  # what a raise adds to the bet, and the bet it makes
                return [f"{_verb(e.seat, me, 'raise', 'raises')} by {self.level - before} "
                        f"to {self.level}"]
        if k == "retired" and e.space is not None:
            self.layout.pop(e.space, None)
        if k == "reopened" and e.space is not None:
            self.layout.setdefault(e.space, 0)
        line = self._plain(e)
        return [line] if line else []

    def _plain(self, e: Event) -> str:
        st, me = self.st, self.me
        k = e.kind
        w = who(e.seat, me)
        if k == "spare_dealt":
            return f"The {self.spare} ({e.chips} cards) is set aside face down."
        if k == "turned_up" and e.card is not None:
            bound = trump_cards(self.deal)
            what = ", ".join(f"{st.space(sp)} = {'+'.join(st.card(c) for c in cs)}"
                             for sp, cs in bound.items())
            return (f"From the {self.spare}, {st.card(e.card)} is turned up: "
                    f"{SUIT_NAMES[e.card // 13]} are trumps" + (f" ({what})" if what else "")
                    + ".")
        if k == "auction_opened":
            what = f"the {self.spare}" if e.note == "spare" else "the dealer's old hand"
            return f"{_verb(e.seat, me, 'put', 'puts')} {what} up for auction"
        if k == "bid":
            if not e.chips:
                return f"{_verb(e.seat, me, 'bid', 'bids')} (sealed)"
            return f"{_verb(e.seat, me, 'bid', 'bids')} {e.chips}"
        if k == "passed":
            return f"{_verb(e.seat, me, 'pass', 'passes')}"
        if k == "sold":  # the payment and the swap are told here, once
            if e.seat is not None:
                self.swapped.add(e.seat)
            what = f"the {self.spare}" if e.note == "spare" else "the dealer's old hand"
            return (f"{_verb(e.seat, me, 'buy', 'buys')} {what} for {e.chips}, paid to "
                    f"{who(e.to_seat, me)}")
        if k == "unsold":
            return "Nobody bids; the hand stays unsold."
        if k == "kept":
            return f"{_verb(e.seat, me, 'keep your', 'keeps their')} hand"
        if k == "retired":
            return f"{st.space(e.space)} is won and leaves the layout"
        if k == "reopened":
            return f"{st.space(e.space)} is back on the layout ({st.note(e.note, me)})"
        if k == "selected":
            if e.cards and e.seat == me:
                return f"you select your poker hand: {_poker(e.cards, st)}"
            return f"{w} selects a poker hand"
        if k == "checked":
            return _verb(e.seat, me, "check", "checks")
        if k == "bet":
            return f"{_verb(e.seat, me, 'bet', 'bets')} {e.chips}"
        if k == "called":
            return f"{_verb(e.seat, me, 'call', 'calls')} {e.chips}"
        if k == "folded":
            return _verb(e.seat, me, "fold", "folds")
        if k == "showdown":
            why = f" ({st.note(e.note, me)})" if e.note else ""
            return f"{_verb(e.seat, me, 'show', 'shows')} {st.cards(_by_rank(e.cards))}{why}"
        if k == "lead_passed":
            note = st.note(e.note, me)
            if e.seat == me:
                note = note.replace("holds", "you hold").replace(" it may", " you may")
            return (f"{_verb(e.seat, me, 'cannot', 'cannot')} lead ({note}); "
                    f"the lead passes to {who(e.to_seat, me)}")
        if k == "passed_over":
            note = st.note(e.note, me)
            if e.seat == me:
                note = note.replace("holds", "you hold")
                return f"you are passed over ({note})"
            return f"{who(e.seat, me)} is passed over ({note})"
        if k == "excused":
            return (f"{_verb(e.seat, me, 'pay', 'pays')} {who(e.to_seat, me)} nothing"
                    + (f" ({st.note(e.note, me)})" if e.note else ""))
        if k == "bonus":
            return (f"{_verb(e.seat, me, 'pay', 'pays')} {e.chips} to {who(e.to_seat, me)}"
                    + (f" ({st.note(e.note, me)})" if e.note else ""))
        if k == "blocked":
            return f"Nobody can lead: {st.note(e.note, me)}"
        if k == "deal_ended":
            return f"The deal ends: {st.note(e.note, me)}."
        if k == "eliminated":
            return f"{_verb(e.seat, me, 'are', 'is')} out of the session ({st.note(e.note, me)})"
        return st.note(e.describe(), me)

    # -- groups ---------------------------------------------------------------------------
    def _flush_stakes(self, out: list[str]) -> None:
        if not self.stakes:
            return
        st, me = self.st, self.me
        live = [s for s in self.deal.variant.space_ids if s not in self.deal.retired]
        groups: dict[str, list[int]] = {}
        for seat in sorted(self.stakes, key=lambda s: (s != me, s)):
            per = self.stakes[seat]
            total = sum(per.values())
            amounts = set(per.values())
            if len(amounts) == 1 and set(per) == set(live) and len(live) > 1:
                what = f"{amounts.pop()} on each space ({total}"
            else:
                what = ", ".join(f"{n} on {st.space(sp)}" for sp, n in
                                 sorted(per.items(), key=lambda kv: _order(live, kv[0])))
                what += f" ({total}"
            groups.setdefault(what, []).append(seat)
        parts = []
        for what, seats in groups.items():
            names = [who(s, me) for s in seats]
            lead = names[0] if len(names) == 1 else (
                "you and seats " if names[0] == "you" else "seats ") + ", ".join(
                    str(s) for s in seats if s != me)
            if len(names) > 1 and names[0] == "you" and len(seats) == 2:
                lead = f"you and seat {seats[1]}"
            parts.append(f"{lead}: {what}{' each' if len(seats) > 1 else ''})")
        self.stakes = {}
        out.extend(_wrap("Stakes: " + "; ".join(parts), "    "))
        out.append("Layout: " + layout_text(self.layout, self.deal, st))

    def _flush_run(self, out: list[str], ending: str) -> None:
        if not self.run:
            return
        st, me = self.st, self.me
        chunks: list[str] = []
        first = True
        groups = _by_seat(self.run)
        for i, (seat, cards) in enumerate(groups):
            if seat == -1:                     # the run's lead was told before
                told = self.told_seat
                if self.sans and told is not None and i + 1 < len(groups) and \
                        groups[i + 1][0] != told:  # the last turn told ended there
                    chunks.append(f"... ({who(told, me)}: sans "
                                  f"{_rank_text(groups[i + 1][1][0])})")
                else:
                    chunks.append("...")
                first = False
                continue
            if cards[0] <= -2:                 # a turn passed over, told in the run
                chunks.append(f"{who(seat, me)} ({self.marks[-2 - cards[0]]})")
                continue
            text = st.cards(cards)
            if self.sans:                      # his turn ended: he held no card of the next rank
                nxt = groups[i + 1][1][0] if i + 1 < len(groups) else None
                rank = (_rank_text(nxt) if nxt is not None else
                        self.missing if not ending else None)
                if rank is not None:
                    text += f" (sans {rank})"
            if first:
                chunks.append(f"{_verb(seat, me, 'lead', 'leads')} {text}")
                first = False
            else:
                chunks.append(f"{who(seat, me)} {text}")
        line = st.sep.join(chunks) + (f" {ending}" if ending else "")
        out.extend(_wrap(line, "    "))
        out.extend(self.after_run)
        self.told_seat = groups[-1][0] if not ending else None
        self.run = []
        self.after_run = []
        self.marks = []
        self.missing = None


def _by_rank(cards: Iterable[int]) -> list[int]:
    """A poker hand as people read it: the most frequent ranks first, high before low."""
    cs = [int(c) for c in cards]
    count = {r: sum(1 for c in cs if c % 13 == r) for r in {c % 13 for c in cs}}
    return sorted(cs, key=lambda c: (-count[c % 13], -(c % 13), c // 13))


def _poker(cards: Iterable[int], st: Style) -> str:
    from stops.phases.handrank import describe

    hand = _by_rank(cards)
    try:
        what = f" ({describe(hand)})"
    except (ValueError, KeyError, IndexError):
        what = ""
    return st.cards(hand) + what


def _order(live: list[str], space: str) -> int:
    return live.index(space) if space in live else len(live)


def _rank_text(card: int) -> str:
    return "10" if card % 13 == 8 else RANKS[card % 13]


def _by_seat(run: list[tuple[int, int]]) -> list[tuple[int, list[int]]]:
    out: list[tuple[int, list[int]]] = []
    for seat, card in run:
        if out and out[-1][0] == seat and card > -2 and out[-1][1][0] > -2:
            out[-1][1].append(card)
        else:
            out.append((seat, [card]))
    return out


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _wrap(line: str, indent: str, limit: int = WIDTH) -> list[str]:
    """``line`` cut at spaces to ``limit`` columns, counting only visible characters (the
    colour codes of red cards take no room); its own leading spaces stay."""
    def width(t: str) -> int:
        return len(_ANSI.sub("", t))

    if width(line) <= limit:
        return [line]
    out: list[str] = []
    body = line.lstrip(" ")
    current = line[:len(line) - len(body)]
    words: list[str] = []
    for word in body.split(" "):
        if words and word.isdigit() and words[-1] and not words[-1].endswith(("·", ":", ";")):
            words[-1] += " " + word  # a number stays with what it counts ("kitty 4")
        else:
            words.append(word)
    for word in words:
        candidate = f"{current} {word}" if current.strip() else current + word
        if current.strip() and width(candidate) > limit:
            out.append(current.rstrip())
            current = indent + word
        else:
            current = candidate
    if current.strip():
        out.append(current.rstrip())
    return out


def layout_text(layout: dict[str, int], deal: Deal, st: Style) -> str:
    """The live spaces in layout order, each with the chips on it (a compartment that
    stands for a trump this deal with its card: ``king (K♥) 1``)."""
    order = [s for s in deal.variant.space_ids if s not in deal.retired and s in layout]
    bound = trump_cards(deal)
    return st.sep.join(
        f"{st.space(s)} ({'+'.join(st.card(c) for c in bound[s])}) {layout[s]}" if s in bound
        else f"{st.space(s)} {layout[s]}" for s in order) or "(empty)"


def turned_up(deal: Deal) -> int:
    """The card turned up this deal (public), or -1."""
    for e in deal.events:
        if e.kind == "turned_up" and e.card is not None:
            return int(e.card)
    return -1


def trump_cards(deal: Deal) -> dict[str, tuple[int, ...]]:
    """The cards the layout's spaces stand for in this deal beyond its card spaces, as the
    claims policy says (Pope Joan's trump compartments, once the turn-up makes a suit
    trumps)."""
    pay = deal.variant.policy(PAY_COLLECTION)
    return pay.impl.bound_cards(deal, pay.params)


def seats_text(values: Sequence[int], me: int, st: Style) -> str:
    return st.sep.join(f"{who(s, me)} {x}" for s, x in enumerate(values))


def _poker_stage(deal: Deal) -> PokerState | None:
    """The poker stage's state, while the deal is in it (else ``None``)."""
    return deal.peek_state(PokerState) if deal.phase == "poker" else None


def _to_call(deal: Deal, seat: int) -> int | None:
    """What calling costs ``seat`` now, in the poker stage (else ``None``)."""
    st = _poker_stage(deal)
    if st is None or seat not in st.contrib:
        return None
    return st.current - st.contrib[seat]


def _level(deal: Deal) -> int | None:
    """The bet to call in the poker stage (what a raise goes over), else ``None``."""
    st = _poker_stage(deal)
    return None if st is None else st.current


def _poker_hand(deal: Deal, seat: int) -> tuple[int, ...]:
    """The five cards ``seat`` bets on, once chosen (by him, or by the rule where the hands
    are made for the players): shown before he bets, so nobody bets blind."""
    st = _poker_stage(deal)
    return () if st is None else tuple(st.hands.get(seat, ()))


def describe_action(a: Action, st: Style | None = None, to_call: int | None = None,
                    spare: str = "spare hand", level: int | None = None) -> str:
    """One choice as a menu item; ``spare`` is the game's name for the spare hand and
    ``level`` the bet a raise goes over (a raise reads "raise by N to M")."""
    st = st or Style()
    if a.action in ("lead", "play", "follow"):
        laid = a.cards if a.cards is not None else (a.card,) if a.card is not None else ()
        text = f"{a.action} {st.cards(laid)}" if laid else a.action
        if a.as_rank is not None:
            text += f" as {'10' if a.as_rank == 'T' else a.as_rank}"
        for flag in a.flags:
            text += f" with {flag}"
        return text
    if a.action == "stake":
        return f"stake {a.chips if a.chips is not None else ''} on {st.space(a.space)}".replace(
            "stake  on", "stake on")
    if a.action == "call" and to_call is not None:
        return f"call {to_call}"
    if a.action == "raise" and level is not None and a.chips is not None:
        return f"raise by {a.chips} to {level + a.chips}"
    # any other verb by its registered spec (stops.engine.vocabulary): its fields, its label
    text = a.action
    if a.card is not None:
        text += " " + st.cards((a.card,))
    if a.cards is not None:
        text += " " + st.cards(a.cards)
    if a.chips is not None:
        text += f" {a.chips}"
    spec = VERBS.get(a.action)
    if spec is not None and spec.label:
        text += f" ({spec.label.replace('spare hand', spare)})"
    return text


def _status(deal: Deal, seat: int, st: Style) -> list[str]:
    obs = deal.observe(seat)
    lines = [""]
    if deal.variant.space_ids:  # a game with no layout (the Comet) pays seat to seat
        lines.append("Layout: " + layout_text(obs.layout, deal, st))
    lines.append("Chips:  " + seats_text(obs.stacks, seat, st))
    if any(obs.hand_sizes):
        lines.append("Cards:  " + seats_text(obs.hand_sizes, seat, st))
        spare = deal.variant.spare_name
        if deal.dealt_spare and spare != "spare hand":
            lines.append(f"{spare.capitalize()}: {len(deal.dealt_spare)} cards, "
                         "face down")
    if obs.sequence:
        label = "Last sequence: " if deal.phase == "play" else "This sequence: "
        lines.extend(_wrap(label + st.cards(c for _, c in obs.sequence), "    "))
    if obs.plays:
        played = [c for _, c in obs.plays]
        lines.extend(_wrap("Played: " + st.hand(played), "        "))
    up = turned_up(deal)
    if up >= 0:
        lines.append(f"Trumps: {SUIT_NAMES[up // 13]} (turned up: {st.card(up)})")
    if obs.spare is not None and seat == deal.dealer and deal.phase == "play":
        lines.extend(_wrap(f"{deal.variant.spare_name.capitalize()} (only you, the dealer, "
                           "see it): "
                           + st.hand(obs.spare),
                           "    "))
    hand = st.hand(obs.hand) if obs.hand or deal.phase != "stake" else "(not dealt yet)"
    lines.extend(_wrap("Your hand: " + hand, "           "))
    poker = _poker_hand(deal, seat)
    if poker:
        lines.append("Your poker hand: " + _poker(poker, st))
    return lines


def _menu(legal: Sequence[Action], st: Style, to_call: int | None, spare: str = "spare hand",
          level: int | None = None) -> list[str]:
    items = [f"{i}) {describe_action(a, st, to_call, spare, level)}"
             for i, a in enumerate(legal, 1)]
    out: list[str] = []
    line = " "
    for item in items:
        if len(line) + 3 + len(item) > WIDTH and line.strip():
            out.append(line)
            line = " "
        line += "  " + item
    if line.strip():
        out.append(line)
    return out


_PHASE_PROMPTS = {
    "play": "Your turn to lead.",
    "play:play": "Your turn to go on with the sequence.",
    "play:follow": "The next card is due from you: play it, alone or with your companion card.",
    "stake": "Your turn to place stakes.",
    "poker": "Your turn to bet.",
}


def _amount_menu(legal: Sequence[Action]) -> list[str]:
    """A long list of decisions, most of them amounts: each verb once, with its range."""
    amounts: dict[str, list[int]] = {}
    plain: list[str] = []
    for a in legal:
        if a.chips is not None:
            amounts.setdefault(a.action, []).append(a.chips)
        elif a.action not in plain:
            plain.append(a.action)
    parts = plain + [f"{verb} {min(ks)} to {max(ks)}" for verb, ks in amounts.items()]
    said = ", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else parts[0]
    if len(amounts) == 1:
        verb, ks = next(iter(amounts.items()))
        words = " or ".join(plain)
        return [f"  Type the amount to {verb} ({min(ks)} to {max(ks)})"
                + (f", or {words}." if words else ".")]
    example = next(iter(amounts), "bet")
    return [f"  You may {said}: type e.g. '{example} {min(amounts[example])}'."]


def _bidding(legal: Sequence[Action]) -> bool:
    """A bidder's turn in an auction: bids and a pass, nothing else."""
    return bool(legal) and all(a.action in ("bid", "pass") for a in legal) and \
        any(a.action == "bid" for a in legal)


def _ask(deal: Deal, seat: int, inp: TextIO, out: TextIO, st: Style,
         save: Callable[[], str] | None = None) -> Action | None:
    """The seat's decision, read from ``inp``; ``None`` when the player quits. ``r`` saves
    the deal's record as it stands (``save`` names the file written)."""
    legal = deal.legal_actions()
    choices: Sequence[Action] = legal
    to_call = _to_call(deal, seat)
    spare = deal.variant.spare_name
    lines = _status(deal, seat, st)
    prompt = _PHASE_PROMPTS.get(deal.phase, "Your turn.")
    bidding = _bidding(legal)
    if deal.phase == "spare_hand":  # the game's own name for it (the dead hand, the widow)
        prompt = f"Your turn: the {spare}."
    if bidding:  # a bidder needs the amount, not the dealer's options
        high = max((e.chips for e in deal.events if e.kind == "bid"
                    and e.chips and _after_last(deal, e, "auction_opened")), default=0)
        prompt = (f"Your bid for the {spare}, unseen: "
                  + (f"the highest bid is {high}." if high else "nobody has bid yet."))
    if deal.phase == "play" and legal and legal[0].action != "lead":
        prompt = _PHASE_PROMPTS.get(f"play:{legal[0].action}", prompt)
    if to_call is not None and any(a.action == "call" for a in legal[:5]):
        prompt = f"Your turn to bet: calling costs {to_call}."
    elif deal.phase == "poker" and len(legal) > 60 and "select" in legal.verbs:
        prompt = f"Your turn: choose {deal.variant.settings('poker').hand_size} cards for poker."
    lines.append(prompt)
    if deal.phase in ("spare_hand", "stake") and not bidding:
        lines.extend(_wrap(sanitise(_why(deal)), ""))
    bids = sum(1 for a in legal if a.action == "bid")
    menu_shown = len(legal) <= 60 and not (bidding and bids > 6)
    if menu_shown:
        menu = _menu(legal, st, to_call, spare, _level(deal))
        if any(e.kind == "spare_swapped" and e.seat == seat for e in deal.events):
            menu = [m.replace(f"auction (sell the unseen {spare})",
                              "auction (sell the hand you gave up)") for m in menu]
        lines.extend(menu)
    elif "select" in legal.verbs:
        lines.append(f"  ({len(legal)} choices: type e.g. 'select 2c 3c 4c 5c 6c', "
                     "or 'best' for your best poker hand)")
    else:  # amounts up to a whole stack (no-limit bets, bids): one line a verb
        lines.extend(_amount_menu(legal))
    _write(out, st, lines)
    by_amount = {a.action for a in legal if a.chips is not None} if not menu_shown else set()
    while True:
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:
            return None
        text = line.strip()
        if text.lower() in ("q", "quit", "exit"):
            return None
        if text.lower() == "r" and save is not None:
            _write(out, st, [save()])
            continue
        if text in ("?", "help"):
            _write(out, st, _wrap(sanitise(_why(deal)), ""))
            continue
        if text.isdigit() and len(by_amount) == 1:  # no numbered list: a number is an amount
            text = f"{next(iter(by_amount))} {text}"
        if not text:
            if len(legal) == 1:
                return legal[0]
            _write(out, st, [f"Type a number from 1 to {len(legal)}, a card such as 7h, "
                             "? for the rule, r to save the deal, or q to quit."])
            continue
        try:
            a = normalized(deal, _parse_answer(text, seat, choices, deal.hand(seat)))
            if a in legal:
                return a
            why = deal.explain(a)
            if isinstance(why, IllegalAction):
                raise why
            return why.action  # (not reached: ``a`` was normalized already)
        except IllegalAction as e:
            _write(out, st, [f"Not allowed: {st.note(e.message, seat)}"])
        except ValueError as e:
            _write(out, st, [f"Not understood: {e}"])


def _after_last(deal: Deal, e: Event, kind: str) -> bool:
    """``e`` comes after the last event of ``kind`` (the auction now running)."""
    events = deal.events
    last = max((i for i, x in enumerate(events) if x.kind == kind), default=-1)
    return any(x is e for x in events[last + 1:])


def _why(deal: Deal) -> str:
    """The rule behind the choices on offer, in the variant's own words: what the phase on
    turn says governs this decision (:meth:`~stops.phases.base.Phase.decision_rule`)."""
    rule = deal.variant.phases[deal.phase_idx].decision_rule(deal)
    return rule or "Choose one of the numbered options."


def _fieldless(verb: str) -> bool:
    """A registered verb typed as one word (``keep``, ``pass``)."""
    spec = VERBS.get(verb)
    return spec is not None and not spec.fields


def _takes_only(verb: str, field: str) -> bool:
    """A phase's verb whose one field is ``field`` (``bid 3``, ``select 2c 3c``)."""
    spec = VERBS.get(verb)
    return spec is not None and spec.fields == (field,)


def _parse_answer(text: str, seat: int, choices: Sequence[Action] | None,
                  hand: Sequence[int] = ()) -> Action:
    words = text.split()
    if not words:
        raise ValueError("type a number, a card or a word such as 'keep'")
    if text.lower() == "best" and hand:
        from stops.engine.actions import with_cards
        from stops.phases.handrank import best_hand

        return with_cards(seat, "select", best_hand(hand))
    if text.isdigit() and choices is not None:
        k = int(text)
        if not 1 <= k <= len(choices):
            raise ValueError(f"choose 1 to {len(choices)}")
        return choices[k - 1]
    verb = words[0].lower()
    typed = _typed_cards(words[1:] if verb in ("lead", "play") else words)
    if typed is not None and len(typed) > 1:
        return _cards_choice(seat, verb, typed, choices)
    if len(words) == 1 and not _fieldless(verb):
        card = parse_card(text)
        for a in choices or ():  # the plain choice that lays just this card, whatever its verb
            laid = a.cards if a.cards is not None else (a.card,)
            if laid == (card,) and not a.flags and a.as_rank is None:
                return a
        return action_from_dict({"seat": seat, "action": "lead", "card": str(card)})
    try:
        if _takes_only(verb, "chips") and len(words) == 2:
            return action_from_dict({"seat": seat, "action": verb, "chips": int(words[1])})
        if _takes_only(verb, "cards"):
            return action_from_dict({"seat": seat, "action": verb, "cards": words[1:]})
        if _takes_only(verb, "card") and len(words) == 2:
            return action_from_dict({"seat": seat, "action": verb, "card": words[1]})
        if verb == "stake" and len(words) >= 2:
            d: dict[str, object] = {"seat": seat, "action": "stake",
                                    "space": _space_id(words[1], choices)}
            if len(words) > 2:
                d["chips"] = int(words[2])
            return action_from_dict(d)
        if verb == "lead" and len(words) == 2:
            return action_from_dict({"seat": seat, "action": "lead", "card": words[1]})
        if _fieldless(verb) and len(words) == 1:
            return action_from_dict({"seat": seat, "action": verb})
    except IllegalAction as e:
        raise ValueError(e.message) from None
    raise ValueError(f"{sanitise(text)!r}: type a number, a card such as 7h, or a word "
                     "such as keep, swap, pass, call, fold, 'bid 3', 'stake AH 2'")


def _typed_cards(words: Sequence[str]) -> list[Card] | None:
    """The cards typed (``2d 2h``, ``Q♣``), or ``None`` when a word is not a card."""
    try:
        return [parse_card(w) for w in words] if words else None
    except ValueError:
        return None


def _cards_choice(seat: int, verb: str, laid: list[Card],
                  choices: Sequence[Action] | None) -> Action:
    """The decision that lays the cards typed, in any order: the choice laying just these
    cards (the same decision whatever their order), kept in the order typed, which is the
    order they are laid in (F6)."""
    verbs = (verb,) if verb in ("lead", "play") else ("lead", "play")
    found = [a for a in choices or () if a.action in verbs and not a.flags
             and a.cards is not None and sorted(a.cards) == sorted(laid)]
    if len(found) > 1:
        raise ValueError("those cards make several choices: type the number of one")
    if not found and not any(a.cards is not None and a.action in verbs for a in choices or ()):
        raise ValueError("one card at a time here: type a card such as 7h, or a number")
    if found:
        a = found[0]
        return Action(seat, a.action, cards=tuple(laid), as_rank=a.as_rank)
    verb = verb if verb in ("lead", "play") else next(
        (a.action for a in choices or () if a.action in verbs), "lead")
    return Action(seat, verb, cards=tuple(laid))


def _space_id(typed: str, choices: Sequence[Action] | None) -> str:
    """The layout space a player typed: its id in any case, or its card (``q♣``, ``10s``)."""
    spaces = {a.space for a in choices or () if a.space is not None}
    for sp in spaces:
        if sp.lower() == typed.lower():
            return sp
    try:
        as_card = str(parse_card(typed))
    except ValueError:
        return typed
    return as_card if as_card in spaces else typed


def _write(out: TextIO, st: Style, lines: Iterable[str]) -> None:
    """Write ``lines``; one still wider than the screen (a long layout, a turn-up that names
    every trump) is cut at spaces, its continuation indented under its own start."""
    for line in lines:
        body = line.lstrip(" ")
        for part in _wrap(line, " " * (len(line) - len(body) + 4), SCREEN):
            out.write(st.fit(part) + "\n")
    out.flush()


def _share_out_lines(table: Table, me: int, st: Style) -> list[str]:
    """The final share-out by one poker hand, if the session ended with one: each hand
    dealt and what it won."""
    shown = [e for e in table.events if e.kind is EventKind.FINAL_SHARE]
    if not shown:
        return []
    lines = ["The chips left on the layout go to a single hand of poker, dealt by "
             f"{who(table.dealer, me)}:"]
    for e in shown:
        what = st.note(e.note, me)
        won = f"; {_verb(e.seat, me, 'win', 'wins')} {e.chips}" if e.chips else ""
        if e.cards:
            lines.append(f"  {who(e.seat, me)}: {st.cards(_by_rank(e.cards))} ({what}){won}")
        else:
            lines.append(f"  {who(e.seat, me)}: {what}{won}")
    return lines


def _deal_header(number: int, dealer: int, me: int, st: Style) -> list[str]:
    return ["", f"=== Deal {number}{st.sep}dealer: {who(dealer, me)} ==="]


def _chips_line(before: Sequence[int], after: Sequence[int], me: int, st: Style) -> str:
    return "Chips after the deal: " + st.sep.join(
        f"{who(s, me)} {x} ({x - b:+d})" for s, (x, b) in enumerate(zip(after, before,
                                                                         strict=True)))


def _one_way(deal: Deal, legal: Sequence[Action]) -> bool:
    """A turn in rotation with a single card to play (Nain Jaune, the Comet): the player has
    nothing to decide, so it is played for him and told in the run, as a forced card is."""
    return len(legal) == 1 and deal.phase == "play" and \
        legal[0].action in ("lead", "play") and \
        deal.variant.policy("turn_order").name == "rotation"


def _start_layout(deal: Deal) -> dict[str, int]:
    """The layout as the deal found it: every live space, empty ones too."""
    return {s: deal.start_layout.get(s, 0) for s in deal.variant.space_ids
            if s not in deal.start_retired}


def replay_text(deals: Sequence[Deal], seat: int | None = None, st: Style | None = None,
                first: int = 1) -> list[str]:
    """Finished (or saved) deals told as ``stops play`` tells them: the same narrator, cards
    written the same way; from ``seat``'s view ("you", only what he saw), or with ``None``
    every event and every hand, the seats by number."""
    st = st or Style()
    me = -1 if seat is None else seat
    lines: list[str] = []
    for k, deal in enumerate(deals):
        variant = deal.variant
        st.combos = {s.id: tuple(s.cards) for s in variant.layout
                     if s.kind == "combo" and s.cards}
        st.ace_low = variant.rules.ace == "low"
        if k == 0:
            lines.append(f"{sanitise(variant.title)}: {deal.n} players"
                         + (f"; you are seat {seat}" if seat is not None else "") + ".")
        lines.extend(_deal_header(first + k, deal.dealer, me, st))
        told = Narrator(deal, me, st, _start_layout(deal), all_seen=seat is None)
        lines.extend("  " + line for line in told.new_lines())
        if deal.is_terminal:
            lines.append(_chips_line(deal.start_stacks, deal.ledger.stacks, me, st))
        else:
            lines.append(f"The record stops here: {who(deal.current_seat, me)} to play.")
    return lines


def _saver(table: Table, deal: Deal, where: Path) -> Callable[[], str]:
    """What ``r`` does: write the deal's record as it stands to a new file in ``where``."""
    def save() -> str:
        from stops.io.records import dumps

        stem = f"stops-{table.variant.name}-deal{table.deals_played + 1}"
        path = where / f"{stem}.yaml"
        n = 2
        while path.exists():
            path = where / f"{stem}-{n}.yaml"
            n += 1
        try:
            path.write_text(dumps(deal.record()), encoding="utf-8")
        except OSError as e:
            return f"Could not save the deal: {e}"
        return (f"Saved this deal as it stands to {path} (stops replay {path.name} "
                "--partial shows it).")
    return save


def _write_session(table: Table, path: Path) -> None:
    """``--record FILE``: the session's finished deals, as JSON or YAML by the extension."""
    from stops.io.records import dumps

    fmt = "json" if path.suffix.lower() == ".json" else "yaml"
    path.write_text(dumps(table.record(), fmt), encoding="utf-8")


def play_terminal(variant: Variant, players: int, seat: int = 0, seed: int | None = None,
                  chips: int | None = None, deals: int | None = None,
                  inp: TextIO | None = None, out: TextIO | None = None,
                  bots: str = "heuristic", record: str | Path | None = None,
                  save_dir: str | Path | None = None) -> int:
    """Play a session at ``seat`` against bots. ``record``: write the session record of the
    finished deals to this file after every deal; ``save_dir``: where ``r`` saves the deal in
    progress (the current directory)."""
    inp = inp or sys.stdin
    out = out or sys.stdout
    st = Style.for_stream(out)
    st.combos = {s.id: tuple(s.cards) for s in variant.layout if s.kind == "combo" and s.cards}
    st.ace_low = variant.rules.ace == "low"
    if not 0 <= seat < players:
        out.write(f"seat must be 0..{players - 1}\n")
        return 1
    lo, hi = variant.players
    if not lo <= players <= hi:
        out.write(f"{sanitise(variant.name)} is for {lo} to {hi} players\n")
        return 1
    from stops.apps.bots import BOTS, make_bot

    names = [b.strip() for b in bots.split(",") if b.strip()] or ["heuristic"]
    unknown = [b for b in names if b not in BOTS]
    if unknown:
        out.write(f"unknown bot {unknown[0]!r}; bots: {', '.join(BOTS)}\n")
        return 1
    record_path = Path(record) if record is not None else None
    where = Path(save_dir) if save_dir is not None else Path.cwd()
    kept: dict[str, Any] = {"keep_records": True} if record_path is not None else {}
    table = Table(variant, seats=players, chips=chips, seed=seed, deals=deals, **kept)
    others = [s for s in range(players) if s != seat]
    agents = {s: make_bot(names[i % len(names)], int(derive_seed(table.seed, "bot", s) % 2**31))
              for i, s in enumerate(others)}
    intro = [
        f"{sanitise(variant.title)}: {players} players, {table.stacks[seat]} chips each. "
        f"You are seat {seat} (\"you\" below); bots play the other seats "
        f"({', '.join(sorted(set(names)))}).",
        "Answer with a number from the list or a card (7h, 10" + ("♥" if st.unicode else "H")
        + "); Enter takes the only choice; ? explains the rule; r saves the deal; q quits.",
    ]
    _write(out, st, (w for line in intro for w in _wrap(line, "")))
    while not table.is_over:
        before = list(table.stacks)
        layout = {k: v for k, v in table.layout.items() if k not in table.retired}
        deal = table.new_deal()
        _write(out, st, _deal_header(table.deals_played + 1, deal.dealer, seat, st))
        told = Narrator(deal, seat, st, layout)
        save = _saver(table, deal, where)
        while True:
            if deal.is_terminal:
                _write(out, st, ("  " + line for line in told.new_lines()))
                break
            if deal.current_seat == seat:
                legal = deal.legal_actions()
                if _one_way(deal, legal):  # told in the run with the others' cards
                    deal.apply(legal[0])
                    continue
                _write(out, st, ("  " + line for line in told.new_lines()))
                a = _ask(deal, seat, inp, out, st, save)
                if a is None:
                    if record_path is not None and table.deals_played:
                        _write(out, st, [f"The finished deals are in {record_path}; this one "
                                         "is not (r saves it as it stands)."])
                    _write(out, st, ["Goodbye."])
                    return 0
                deal.apply(a)
            else:
                bot_seat = deal.current_seat
                assert bot_seat is not None
                deal.apply(agents[bot_seat].act(deal.observe(bot_seat)))
        if table.is_over:
            _write(out, st, _share_out_lines(table, seat, st))
        _write(out, st, [_chips_line(before, table.stacks, seat, st)])
        if record_path is not None:
            try:
                _write_session(table, record_path)
            except OSError as e:
                _write(out, st, [f"Could not write the record {record_path}: {e}"])
                record_path = None
    _write(out, st, _wrap(f"The session is over ({sanitise(table.end_reason())}). Standings:", ""))
    for s, stack, change in table.standings():
        _write(out, st, [f"  {who(s, seat)}: {stack} ({change:+d})"])
    if record_path is not None:
        _write(out, st, [f"The session's record is in {record_path} (stops replay "
                         f"{record_path.name})."])
    return 0


__all__ = ["CARDS", "SUIT_SYMBOLS", "Narrator", "Style", "play_terminal", "replay_text",
           "sanitise"]

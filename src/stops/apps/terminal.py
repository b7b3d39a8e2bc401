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
from typing import Any, Final, TextIO

from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import CARDS, RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS, Card, parse_card
from stops.engine.deal import Deal
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import Event
from stops.engine.legal import LegalSet
from stops.engine.recording import normalized
from stops.engine.rng import derive_seed
from stops.engine.table import Table
from stops.engine.text import players_text, printable
from stops.engine.vocabulary import VERBS
from stops.phases.aids import PhaseAids, Prompt, Teller
from stops.phases.rotation import FINE_NOTE, RotationParams
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
        s = re.sub(rf"\bseat {me}\b", "you", s)
        # the engine's notes speak of a seat in the third person: "you does not hold" reads
        # as a slip, so the verb right after a "you" put in is made to agree
        return _YOU_VERB.sub(lambda m: f"{m.group(1)} {_YOU_FORM[m.group(2)]}", s)

    def fit(self, text: str) -> str:
        """``text`` as this terminal can print it."""
        if self.unicode:
            return text
        return (text.replace("·", "|").replace("—", "-").replace("±", "+/-")
                .encode("ascii", "replace").decode("ascii"))


_YOU_FORM: Final = {"does": "do", "has": "have", "is": "are", "was": "were", "holds": "hold",
                    "takes": "take", "pays": "pay", "wins": "win", "owes": "owe",
                    "needs": "need", "leads": "lead", "plays": "play",
                    "goes": "go", "passes": "pass"}
"""A third-person verb of an engine note and its form after "you"."""
_YOU_VERB: Final = re.compile(r"\b([Yy]ou) (" + "|".join(_YOU_FORM) + r")\b")


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
        self.st = style
        self.tellers: list[Teller] = [t for ph in deal.variant.phases
                                      if (t := ph.aids().teller()) is not None]
        """The phases' own tellers (:meth:`stops.phases.aids.PhaseAids.teller`), asked
        about every event before the lines told here."""
        self.layout = dict(layout)          # what the layout holds as far as told so far
        self.shown = 0
        self.stakes: dict[int, dict[str, int]] = {}
        self.run: list[tuple[int, int]] = []   # (seat, card) of the sequence being told
        self.after_run: list[str] = []
        self.hand_shown = False
        turns = deal.variant.policy("turn_order")
        self.sans = isinstance(turns.params, RotationParams) and turns.params.per_turn == "run"
        """Turns in rotation that run on while a player can: say "sans X" when one ends."""
        self.rotation = turns.name == "rotation"
        self.marks: list[str] = []
        """Turns passed over within the run being told (a run entry's card -2 is the
        first, -3 the second...)."""
        self.missing: str | None = None   # the rank nobody continued with, from passed-over
        self.told_seat: int | None = None  # who laid the last card told, in an open sequence
        self.named: dict[int, str] = {}    # wild cards laid, by card: the rank each stood for
        self.passed_at: set[int] = set()   # run lengths at which the turn's player passed

    # -- what a phase's teller is told (stops.phases.aids.Telling) ------------------------
    @property
    def pen(self) -> Style:
        return self.st

    def who(self, seat: int | None) -> str:
        return who(seat, self.me)

    def verb(self, seat: int | None, you_form: str, other_form: str) -> str:
        return _verb(seat, self.me, you_form, other_form)

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
        if k == "named" and e.card is not None:  # a wild card laid as a rank (Pink Nines)
            self.named[int(e.card)] = e.note
            return
        if k == "passed" and self.sans and self.run and self.run[-1][0] == e.seat:
            self.passed_at.add(len(self.run))  # told with his turn: "(passes, sans 5)"
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
        if k == "passed_over" and self.run and self.rotation and e.seat is not None:
            # a turn with nothing to play is part of the run: "· seat 2 (no 8) ·"
            note = st.note(e.note, me).removeprefix("holds ")
            if e.chips:  # the fine (pass_fine), paid just after: told here, in the run
                note += f", fined {e.chips}"
            self.marks.append(note)
            self.run.append((e.seat, -1 - len(self.marks)))
            return
        if k == "paid" and e.note == FINE_NOTE and self.run and e.space is not None:
            self.layout[e.space] = self.layout.get(e.space, 0) + e.chips  # told in the run
            return
        lines = self._lines(e)
        (self.after_run if self.run else out).extend(lines)

    def _lines(self, e: Event) -> list[str]:
        k = e.kind
        st, me = self.st, self.me
        if k == "claimed" and e.space is not None:
            self.layout[e.space] = self.layout.get(e.space, 0) - e.chips
        elif k == "paid" and e.space is not None:
            self.layout[e.space] = self.layout.get(e.space, 0) + e.chips
        for teller in self.tellers:  # a phase's own events, told its way
            told = teller.lines(e, self)
            if told is not None:
                return told
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
            note = st.note(e.note, me)
            if e.seat == me and note.startswith(("holds ", "played ")):
                note = "you " + note.replace("holds ", "hold ", 1)
            return [f"{_verb(e.seat, me, 'win', 'wins')} {e.chips} from "
                    f"{st.space(e.space)}" + (f" ({note})" if note else "")]
        if k == "paid":
            dest = st.space(e.space) if e.space is not None else who(e.to_seat, me)
            why = f" ({st.note(e.note, me)})" if e.note else ""
            return [f"{_verb(e.seat, me, 'pay', 'pays')} {e.chips} to {dest}{why}"]
        if k == "retired" and e.space is not None:
            self.layout.pop(e.space, None)
        line = self._plain(e)
        return [line] if line else []

    def _plain(self, e: Event) -> str:
        st, me = self.st, self.me
        k = e.kind
        if k == "spare_dealt":
            return f"The {self.spare} ({e.chips} cards) is set aside face down."
        if k == "turned_up" and e.card is not None:
            bound = trump_cards(self.deal)
            what = ", ".join(f"{st.space(sp)} = {'+'.join(st.card(c) for c in cs)}"
                             for sp, cs in bound.items())
            return (f"From the {self.spare}, {st.card(e.card)} is turned up: "
                    f"{SUIT_NAMES[e.card // 13]} are trumps" + (f" ({what})" if what else "")
                    + ".")
        if k == "passed":
            return f"{_verb(e.seat, me, 'pass', 'passes')}"
        if k == "retired":
            return f"{st.space(e.space)} is won and leaves the layout"
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

    def _stood(self, card: int) -> str:
        """The rank ``card`` was laid as: its own, or the one a wild card was named as."""
        named = self.named.get(card)
        if named is None:
            return _rank_text(card)
        return "10" if named == "T" else named

    def _flush_run(self, out: list[str], ending: str) -> None:
        if not self.run:
            return
        st, me = self.st, self.me
        chunks: list[str] = []
        first = True
        groups = _by_seat(self.run)
        end = 0
        for i, (seat, cards) in enumerate(groups):
            end += len(cards)
            if seat == -1:                     # the run's lead was told before
                told = self.told_seat
                laid = next((g for g in groups[i + 1:] if g[1][0] >= 0), None)
                if self.sans and told is not None and laid is not None and \
                        laid[0] != told:  # the last turn told ended there
                    chunks.append(f"... ({who(told, me)}: sans {self._stood(laid[1][0])})")
                else:
                    chunks.append("...")
                first = False
                continue
            if cards[0] <= -2:                 # a turn passed over, told in the run
                chunks.append(f"{who(seat, me)} ({self.marks[-2 - cards[0]]})")
                continue
            text = st.cards(cards)
            wild = [f"{st.cards([c])} as {self._stood(c)}" for c in cards if c in self.named]
            if wild:
                text += f" ({', '.join(wild)})"
            if self.sans:                      # his turn ended: he held no card of the next rank
                # the next card laid (turns passed over in between are not cards)
                nxt = next((g[1][0] for g in groups[i + 1:] if g[1][0] >= 0), None)
                rank = (self._stood(nxt) if nxt is not None else
                        self.missing if not ending else None)
                why = [*(["passes"] if end in self.passed_at else []),
                       *([f"sans {rank}"] if rank is not None else [])]
                if why:
                    text += f" ({', '.join(why)})"
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
        self.passed_at = set()


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


def _aids(deal: Deal) -> PhaseAids:
    """The aids of the phase on turn (:mod:`stops.phases.aids`)."""
    aids: PhaseAids = deal.variant.phases[deal.phase_idx].aids()
    return aids


def describe_action(a: Action, st: Style | None = None, spare: str = "spare hand") -> str:
    """One choice as a menu item, from its verb and fields, and its verb's label in the
    game's word for the spare hand (a phase says more of a choice where that is not enough:
    :meth:`stops.phases.aids.PhaseAids.choice_text`)."""
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
    lines.extend(_aids(deal).status_lines(deal, seat, st))
    return lines


def _menu(legal: Sequence[Action], st: Style, deal: Deal) -> list[str]:
    aids = _aids(deal)
    spare = deal.variant.spare_name
    items = [f"{i}) {aids.choice_text(deal, a, st) or describe_action(a, st, spare)}"
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
}
"""The prompts of the core phases; any other phase brings its own
(:meth:`stops.phases.aids.PhaseAids.prompt`) or is asked with "Your turn."."""


def _prompt(deal: Deal, seat: int, legal: LegalSet) -> Prompt:
    """How to ask for this decision: the phase's own prompt, else the core one."""
    asked = _aids(deal).prompt(deal, seat, legal)
    if asked is not None:
        return asked
    prompt = _PHASE_PROMPTS.get(deal.phase, "Your turn.")
    if deal.phase == "play" and legal and legal[0].action != "lead":
        prompt = _PHASE_PROMPTS.get(f"play:{legal[0].action}", prompt)
    return Prompt(prompt, rule=deal.phase == "stake")


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


def _ask(deal: Deal, seat: int, inp: TextIO, out: TextIO, st: Style,
         save: Callable[[], str] | None = None) -> Action | None:
    """The seat's decision, read from ``inp``; ``None`` when the player quits. ``r`` saves
    the deal's record as it stands (``save`` names the file written)."""
    legal = deal.legal_actions()
    choices: Sequence[Action] = legal
    lines = _status(deal, seat, st)
    prompt = _prompt(deal, seat, legal)
    lines.append(prompt.text)
    if prompt.rule:
        lines.extend(_wrap(sanitise(_why(deal)), ""))
    menu_shown = len(legal) <= 60 and prompt.menu
    if menu_shown:
        lines.extend(_menu(legal, st, deal))
    elif prompt.hint is not None:
        lines.append(prompt.hint)
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
        try:
            card = parse_card(text)
        except ValueError:
            if any(a.card is not None or a.cards is not None for a in choices or ()):
                raise  # a card is expected here: say what a card looks like
            raise _not_understood(text, choices) from None
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
        spec = VERBS.get(verb)
        if (spec is not None and set(spec.fields) == {"space", "chips"} and len(words) == 3
                and verb != "stake"):  # a space and an amount: 'wager ace-h 3'
            return action_from_dict({"seat": seat, "action": verb,
                                     "space": _space_id(words[1], choices),
                                     "chips": int(words[2])})
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
    raise _not_understood(text, choices)


def _not_understood(text: str, choices: Sequence[Action] | None) -> ValueError:
    """What to type instead of ``text``: a card is named as a way only where a choice on
    offer lays one (at a bet, a card would be a wrong hint)."""
    cards = any(a.card is not None or a.cards is not None for a in choices or ())
    way = "a number, a card such as 7h," if cards else "a number"
    return ValueError(f"{sanitise(text)!r}: type {way} or a word such as "
                      f"{_typing_examples(choices)}")


def _typing_examples(choices: Sequence[Action] | None) -> str:
    """How the decisions on offer are typed, one example a verb (``pass, 'raise 2'``), from
    the verbs' own fields: a phase's new verb is explained with no word of it here."""
    out: list[str] = []
    seen: set[str] = set()
    for a in choices or ():
        verb = a.action
        if verb in seen:
            continue
        seen.add(verb)
        if _fieldless(verb):
            out.append(verb)
        elif a.chips is not None and a.space is None:
            out.append(f"'{verb} {a.chips}'")
        elif a.space is not None:
            out.append(f"'{verb} {a.space}" + (f" {a.chips}'" if a.chips is not None else "'"))
        elif a.cards is not None:
            out.append(f"'{verb} " + " ".join(str(c).lower() for c in a.cards) + "'")
        elif a.card is not None:
            out.append(f"'{verb} {str(a.card).lower()}'")
        if len(out) == 5:
            break
    return ", ".join(out) or "'pass'"


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


def _share_out_lines(deal: Deal, me: int, st: Style) -> list[str]:
    """The final share-out, if the session ended after ``deal`` with one that deals hands:
    each hand dealt and what it won, under the heading its rule declares. ``stops play`` and
    ``stops replay`` tell it alike, from what the table left on the deal."""
    end = deal.session_end
    shown = [] if end is None else [e for e in end.events if e.kind is EventKind.FINAL_SHARE]
    if end is None or not shown:
        return []
    from stops.phases.handrank import by_rank

    heading = deal.variant.policy("final_share").spec.heading
    dealer = who(end.dealer, me)
    lines = [heading(dealer) if heading is not None else
             f"The chips left on the layout are shared out, dealt by {dealer}:"]
    for e in shown:
        what = st.note(e.note, me)
        won = f"; {_verb(e.seat, me, 'win', 'wins')} {e.chips}" if e.chips else ""
        if e.cards:
            lines.append(f"  {who(e.seat, me)}: {st.cards(by_rank(e.cards))} ({what}){won}")
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
            lines.extend(_share_out_lines(deal, me, st))
            end = deal.session_end  # the chips after a closing share-out, if any
            lines.append(_chips_line(deal.start_stacks, deal.ledger.stacks if end is None
                                     else end.stacks, me, st))
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
        out.write(f"{sanitise(variant.name)} is for {players_text(lo, hi)}\n")
        return 1
    from stops.bots import check_bots, make_bot

    try:
        names = check_bots(bots.split(",")) if bots.strip(", ") else ["heuristic"]
    except ValueError as e:
        out.write(f"--bots: {e}\n")
        return 1
    record_path = Path(record) if record is not None else None
    where = Path(save_dir) if save_dir is not None else Path.cwd()
    kept: dict[str, Any] = {"keep_records": True} if record_path is not None else {}
    table = Table(variant, seats=players, chips=chips, seed=seed, deals=deals, **kept)
    others = [s for s in range(players) if s != seat]
    agents = {s: make_bot(names[i % len(names)], int(derive_seed(table.seed, "bot", s) % 2**31),
                          variant.registry, variant=variant)
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
        _write(out, st, _share_out_lines(deal, seat, st))
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

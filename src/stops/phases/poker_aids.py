"""What the poker stage brings to the programs around the engine (:mod:`stops.phases.aids`).

* ``stops play`` tells its events ("seat 2 raises by 4 to 5", "you show ..."), asks "Your
  turn to bet: calling costs 8.", shows the hand a player bets on, and writes a call and a
  raise with what they cost;
* the heuristic bot selects its best hand and bets by its strength;
* ``stops simulate`` reports how often the pot went to a showdown, how often it was won
  unseen, the mean pot and the hands shown (the report's ``poker`` section);
* the PettingZoo environment observes who folded and what each seat has put in;
* the no-leak check knows that a hand shown as its best with no choice made
  (``poker_selection: auto``) shows that the rest of it holds nothing better.

Kept apart from :mod:`stops.phases.poker` (which the compiled build compiles) because none of
it is on the path of play.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from stops.engine.actions import Action, simple, with_cards, with_chips
from stops.engine.cards import RANKS
from stops.engine.eventkind import EventKind
from stops.phases.aids import (
    Feature,
    Notes,
    PhaseAids,
    PhaseTally,
    Prompt,
    Teller,
)
from stops.phases.handrank import best_hand, by_rank, category, describe, hand_key
from stops.phases.poker import (
    BET,
    CALLED,
    CHECKED,
    FOLDED,
    RAISED,
    SELECTED,
    SHOWDOWN,
    PokerPhase,
    PokerResult,
    PokerState,
)

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.engine.legal import LegalSet
    from stops.engine.observation import Observation
    from stops.phases.aids import BotView, Pen, Telling
    from stops.rules.variant import Variant

PHASE: Final = "poker"
"""The name the poker phase is registered under (its settings and state go by it)."""
_PUT_IN: Final = frozenset({BET, RAISED, CALLED})
_RAISES: Final = frozenset({BET, RAISED})
_EVENTS: Final = frozenset({SELECTED, SHOWDOWN, CHECKED, BET, CALLED, RAISED,
                            FOLDED})
_BETTING: Final = frozenset({"check", "bet", "call", "raise", "fold"})
RAISE_CAP: Final = 2
"""Raises per betting round after which the bot's strong hand only calls: two bots with
trips would otherwise raise each other without end (the rules put no cap on raises)."""


# -- the state of the betting, for the terminal ---------------------------------------------

def _state(deal: Deal) -> PokerState | None:
    """The poker stage's state while it is on, else ``None``."""
    return deal.peek_state(PokerState) if deal.phase == PHASE else None


def to_call(deal: Deal, seat: int) -> int | None:
    """What calling costs ``seat`` now, in the poker stage (else ``None``)."""
    st = _state(deal)
    if st is None or seat not in st.contrib:
        return None
    return st.current - st.contrib[seat]


def _level(deal: Deal) -> int | None:
    """The bet to call (what a raise goes over), in the poker stage; else ``None``."""
    st = _state(deal)
    return None if st is None else st.current


def chosen(deal: Deal, seat: int) -> tuple[int, ...]:
    """The cards ``seat`` bets on, once chosen (by him, or by the rule where the hands are
    made for the players): shown before he bets, so nobody bets blind."""
    st = _state(deal)
    if st is None or seat not in st.hands:
        return ()
    phase = deal.variant.phases[deal.phase_idx]
    # a copy's pick left to be made when read (PokerPhase.after_redeal), made here unkept
    cards = phase.chosen_hand(deal, st, seat) if isinstance(phase, PokerPhase) \
        else st.hands[seat]
    return tuple(int(c) for c in cards)


def hand_text(cards: Iterable[int], pen: Pen) -> str:
    """A poker hand as people read it, and what it is: ``J♣ 10♦ 7♣ 4♣ 3♣ (jack high)``."""
    hand = by_rank(cards)
    try:
        what = f" ({describe(hand)})"
    except (ValueError, KeyError, IndexError):
        what = ""
    return pen.cards(hand) + what


class PokerTeller(Teller):
    """Tells the betting: a raise says what it raises to, so it remembers what each seat has
    put in this deal."""

    def __init__(self) -> None:
        self.put: dict[int, int] = {}
        self.level = 0

    def lines(self, e: Event, t: Telling) -> list[str] | None:
        k = e.kind
        if k in _PUT_IN:
            if e.space is not None:
                t.layout[e.space] = t.layout.get(e.space, 0) + e.chips
            if e.seat is not None:
                before = self.level
                self.put[e.seat] = self.put.get(e.seat, 0) + e.chips
                self.level = max(self.level, self.put[e.seat])
                if k == RAISED:  # what a raise adds to the bet, and the bet it makes
                    return [f"{t.verb(e.seat, 'raise', 'raises')} by {self.level - before} "
                            f"to {self.level}"]
        if k == SELECTED:
            if e.cards and e.seat == t.me:
                return [f"you select your poker hand: {hand_text(e.cards, t.pen)}"]
            return [f"{t.who(e.seat)} selects a poker hand"]
        if k == CHECKED:
            return [t.verb(e.seat, "check", "checks")]
        if k == BET:
            return [f"{t.verb(e.seat, 'bet', 'bets')} {e.chips}"]
        if k == CALLED:
            return [f"{t.verb(e.seat, 'call', 'calls')} {e.chips}"]
        if k == FOLDED:
            return [t.verb(e.seat, "fold", "folds")]
        if k == SHOWDOWN:
            why = f" ({t.pen.note(e.note, t.me)})" if e.note else ""
            return [f"{t.verb(e.seat, 'show', 'shows')} {t.pen.cards(by_rank(e.cards))}{why}"]
        return None


# -- the bot --------------------------------------------------------------------------------

def _with_amount(legal: Sequence[Action], seat: int, verb: str, chips: int) -> Action | None:
    """``verb`` for ``chips`` if legal, else the nearest legal amount (the lower on a tie),
    else ``None``. (One pass, each action's fields read once: a list of the amounts and a
    key function called on each cost twice as much in the pure build.)"""
    best: int | None = None
    off = 0
    for a in legal:
        if a.action == verb:
            k = a.chips
            if k is not None:
                d = abs(k - chips)
                if best is None or d < off or (d == off and k < best):
                    best, off = k, d
    return None if best is None else with_chips(seat, verb, best)


def _select(obs: Observation, legal: Sequence[Action]) -> Action:
    """The best hand of the size asked for."""
    size = len(legal[0].cards or ())
    choice = with_cards(obs.seat, "select", best_hand(obs.hand, size))
    if choice in legal:
        return choice
    # Only if the listed actions were cut short or the rule forbids this exact set.
    return max((a for a in legal if a.cards), key=lambda a: hand_key(a.cards or ()))


def _bet(obs: Observation, legal: Sequence[Action], verbs: frozenset[str],
         notes: Notes) -> Action:
    """Bet or raise with three of a kind or better, call with a pair of jacks or better,
    otherwise check or fold. (The hand chosen and the bets so far are the seat's notes,
    :meth:`PokerAids.read`: read on from the last decision, not from the whole log.)"""
    cards = notes.chosen
    seat = obs.seat
    key = hand_key(cards) if cards else (0,)
    cat = key[0]
    strong = cat >= 3  # three of a kind or better
    medium = cat == 2 or (cat == 1 and key[1] >= RANKS.index("J"))
    size = 1 + min(3, max(0, cat - 2))  # modest: 2 for trips ... 4 for a full house up
    if "check" in verbs:  # nobody has bet
        if strong:
            return _with_amount(legal, seat, "bet", size) or simple(seat, "check")
        return simple(seat, "check")
    if strong and notes.bets <= RAISE_CAP:
        a = _with_amount(legal, seat, "raise", size)
        if a is not None:
            return a
    if (strong or medium) and "call" in verbs:
        return simple(seat, "call")
    return simple(seat, "fold")


# -- the simulator --------------------------------------------------------------------------

class PokerTally(PhaseTally):
    """How the pot went: to a showdown or won unseen, for how much, on which hands."""

    key: ClassVar[str] = "poker"

    def __init__(self) -> None:
        self.showdowns = 0
        self.uncontested = 0
        self.pot = 0
        self.hands: dict[str, int] = {}

    def add_deal(self, deal: Deal) -> None:
        pot = deal.variant.pot
        claimed = EventKind.CLAIMED
        showdown = False
        for e in deal.events:
            k = e.kind
            if k == claimed:
                if e.space is not None and e.space == pot:
                    self.pot += e.chips
            elif k == SHOWDOWN:
                showdown = True
                cat = category(e.cards) if e.cards else "?"
                self.hands[cat] = self.hands.get(cat, 0) + 1
        result = deal.result(PokerResult)
        if result is not None and result.winners:
            if showdown:
                self.showdowns += 1
            else:
                self.uncontested += 1

    def add(self, other: PhaseTally) -> None:
        assert isinstance(other, PokerTally)
        self.showdowns += other.showdowns
        self.uncontested += other.uncontested
        self.pot += other.pot
        for k, x in other.hands.items():
            self.hands[k] = self.hands.get(k, 0) + x

    def summary(self, deals: int) -> dict[str, Any]:
        d = max(deals, 1)
        return {
            "showdown_rate": self.showdowns / d,
            "uncontested_rate": self.uncontested / d,
            "mean_pot": self.pot / max(self.showdowns + self.uncontested, 1),
            "hands_shown": dict(sorted(self.hands.items())),
        }

    def lines(self, summary: dict[str, Any]) -> list[str]:
        p = summary
        hands = ", ".join(f"{k} {v}" for k, v in sorted(p["hands_shown"].items(),
                                                          key=lambda kv: -kv[1]))
        return [f"Poker: showdown in {100 * p['showdown_rate']:.1f}% of deals, won "
                f"unseen in {100 * p['uncontested_rate']:.1f}%, mean pot won "
                f"{p['mean_pot']:.2f}",
                f"  hands shown: {hands}"]


# -- the whole ------------------------------------------------------------------------------

class PokerAids(PhaseAids):
    """The poker stage's aids (see the module docstring)."""

    def teller(self) -> Teller | None:
        return PokerTeller()

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        calling = to_call(deal, seat)
        verbs = legal.verbs
        if calling is not None and any(a.action == "call" for a in legal[:5]):
            text = f"Your turn to bet: calling costs {calling}."
        elif len(legal) > 60 and "select" in verbs:
            k = deal.variant.settings(PHASE).hand_size
            text = f"Your turn: choose {k} cards for poker."
        else:
            text = "Your turn to bet."
        hint = (f"  ({len(legal)} choices: type e.g. 'select 2c 3c 4c 5c 6c', or 'best' for "
                "your best poker hand)" if "select" in verbs else None)
        return Prompt(text, hint=hint)

    def status_lines(self, deal: Deal, seat: int, pen: Pen) -> list[str]:
        hand = chosen(deal, seat)
        return ["Your poker hand: " + hand_text(hand, pen)] if hand else []

    def choice_text(self, deal: Deal, action: Action, pen: Pen) -> str | None:
        if action.action == "call":
            calling = to_call(deal, action.seat)
            return None if calling is None else f"call {calling}"
        if action.action == "raise" and action.chips is not None:
            level = _level(deal)
            return None if level is None else f"raise by {action.chips} to {level + action.chips}"
        return None

    reads: ClassVar[frozenset[str]] = _EVENTS

    def read(self, e: Event, seat: int, notes: Notes) -> None:
        """Any event of the poker stage says the pot was played for before play began (it is
        no run prize then); a hand shown is held by its owner; the seat's own selection is
        the hand it bets on, and each bet or raise is counted (its advice reads both)."""
        self.read_all((e,), seat, notes)

    def read_all(self, events: Sequence[Event], seat: int, notes: Notes) -> None:
        """:meth:`read` of each event in turn, in one call."""
        if events:
            notes.played_for.add("pot")
        for e in events:
            k = e.kind
            if k == SHOWDOWN:
                if e.seat != seat:
                    notes.held_elsewhere.update(map(int, e.cards))
            elif k == SELECTED:
                if e.seat == seat and e.cards:
                    notes.chosen = tuple(e.cards)
            elif k in _RAISES:
                notes.bets += 1

    def advise(self, view: BotView) -> Action | None:
        if "select" in view.verbs:
            return _select(view.obs, view.legal)
        if view.verbs & _BETTING:
            return _bet(view.obs, view.legal, view.verbs, view.notes())
        return None

    def tally(self) -> PhaseTally | None:
        return PokerTally()

    def features(self, variant: Variant, players: int) -> tuple[Feature, ...]:
        return (Feature("folded", players), Feature("in_pot", players, chips=True))

    def fill(self, view: Observation, put: Callable[[str, int, float], None]) -> None:
        n = view.players
        values = [0.0] * (2 * n)
        self.fold(view.events, 0, values)
        for i in range(n):
            if values[i]:
                put("folded", i, values[i])
        for i in range(n):
            put("in_pot", i, values[n + i])

    folds_events: ClassVar[bool] = True
    fold_kinds: ClassVar[frozenset[str] | None] = frozenset({FOLDED, *_PUT_IN})

    def fold(self, events: Sequence[Event], start: int, values: list[float]) -> None:
        """``folded`` (1 for each seat that folded), then ``in_pot`` (the chips each seat
        has bet, raised or called)."""
        n = len(values) // 2
        for i in range(start, len(events)):
            e = events[i]
            if e.seat is None:
                continue
            if e.kind == FOLDED:
                values[e.seat] = 1.0
            elif e.kind in _PUT_IN:
                values[n + e.seat] = values[n + e.seat] + e.chips

    def revealed(self, deal: Deal, seat: int) -> set[int]:
        settings = deal.variant.settings(PHASE)
        if settings is None or settings.selection != "auto":
            return set()
        out: set[int] = set()
        for e in deal.events:
            if e.kind == SHOWDOWN and e.seat is not None and e.visible(seat):
                out.update(int(c) for c in deal.hand(e.seat))
                out.update(c for s, c in deal.plays if s == e.seat)
        return out


AIDS: Final = PokerAids()

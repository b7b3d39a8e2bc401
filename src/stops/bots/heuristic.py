"""The heuristic bot: every built-in variant played "sensibly" from a seat's observation.

It never sees the deal, which is why the heuristics below *infer* the rules in force (is the pot
a run prize? do pay cards pay when played?) from the layout and the events, and read what each
space pays from the variant's layout when the caller gives it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Final

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, with_chips
from stops.engine.cards import RANKS, parse_card
from stops.engine.eventkind import EventKind
from stops.engine.legal import FixedActions, LegalActions
from stops.phases.aids import NO_AIDS, Notes, PhaseAids
from stops.rules.contracts import RUN_RULE
from stops.rules.registry import Registry, default_registry

if TYPE_CHECKING:
    from stops.engine.events import Event
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant

from stops.bots.base import legal_of
from stops.bots.judgement import hand_quality, mean_quality, pay_table

ACE: Final = 12
"""Rank index of the ace: always a stop, since nothing follows it."""

POT: Final = "pot"
"""The layout id of the pot: a prize for a run in play, unless a stage before play played
for it (as a betting round does)."""


# -- what a seat can work out from its observation ----------------------------------------


def _space_card(space: str) -> int | None:
    """The card a layout space id names (``"AH"``), or ``None`` for pools, combos and runs."""
    try:
        return int(parse_card(space))
    except ValueError:
        return None


def _space_run_ranks(space: str) -> tuple[int, ...] | None:
    """Rank indices of a suit-run space id such as ``"8-9-10"``, else ``None``.

    The bot cannot read the variant, so it recognises the run space by the shape of its id.
    """
    parts = space.split("-")
    if len(parts) < 2:
        return None
    ranks: list[int] = []
    for p in parts:
        p = p.strip().upper()
        if p == "10":
            ranks.append(8)
        elif len(p) == 1 and p in RANKS:
            ranks.append(RANKS.index(p))
        else:
            return None
    return tuple(ranks)


@attrs.frozen
class Board:
    """What each layout space pays, as the rules every player knows say it: the card whose
    play wins a space (the card itself, or for Peel's ``card_below`` spaces the card below
    it), the ranks of a suit-run space, the kitty won by going out, and the space a run of
    cards in play wins (``pot``; none where no run rule pays one)."""

    cards: dict[str, int]
    runs: dict[str, tuple[int, ...]]
    kitty: str | None
    pot: str | None


def board_of(variant: Variant) -> Board:
    """The :class:`Board` of ``variant``'s layout, from the kinds of its spaces."""
    from stops.rules.card_below import claim_card

    cards: dict[str, int] = {}
    runs: dict[str, tuple[int, ...]] = {}
    for space in variant.layout:
        if space.kind == "card" and space.card is not None:
            cards[space.id] = int(space.card)
        elif space.kind == "card_below" and space.card is not None:
            cards[space.id] = claim_card(space, variant.rules.ace)
        elif space.kind == "suit_run":
            ranks = _space_run_ranks("-".join(str(r) for r in space.ranks))
            if ranks is not None:
                runs[space.id] = ranks
    # the space a run of cards in play wins (the pot-and-kitty game's pot), as the run rule
    # in force declares what it pays
    run = variant.policy(RUN_RULE)
    paid = tuple(run.spec.pays(variant, run.params)) if run.spec.pays is not None else ()
    return Board(cards=cards, runs=runs, kitty=variant.kitty, pot=paid[0] if paid else None)


def _board_of_ids(layout: dict[str, int]) -> Board:
    """A :class:`Board` guessed from the space ids alone (``"AH"``, ``"8-9-10"``, ``pot``,
    ``kitty``), for a bot that was not told the variant."""
    cards = {sid: c for sid in layout if (c := _space_card(sid)) is not None}
    runs = {sid: r for sid in layout if sid not in cards
            and (r := _space_run_ranks(sid)) is not None}
    return Board(cards=cards, runs=runs, kitty="kitty" if "kitty" in layout else None,
                 pot=POT if POT in layout else None)


class _Knowledge:
    """The facts about the cards and the layout the heuristics use, all from one observation.

    ``dead`` are cards that will never be played again (played, or in a spare hand this seat
    knows), so the card below one of them is a sure stop. ``held_elsewhere`` are cards shown
    from another hand (as a phase's events tell, :class:`~stops.phases.aids.Notes`) and still
    unplayed: another player holds them, so they are *not* in the spare. ``p_spare`` is the
    chance that a card the seat knows nothing about lies in the spare hand, which is the
    chance it is a stop. (A plain slotted class: one is made per decision.)

    A lead is valued by looking up cards again and again, so :meth:`by_card` gives the same
    facts as two lists indexed by card, made once per decision and only where a lead is
    valued.
    """

    __slots__ = ("_by_card", "dead", "hand", "held_elsewhere", "kitty", "p_spare", "pay",
                 "run_prize", "suit_runs")

    def __init__(self, hand: frozenset[int], dead: frozenset[int],
                 held_elsewhere: frozenset[int], p_spare: float, pay: dict[int, int],
                 suit_runs: tuple[tuple[tuple[int, ...], int], ...], run_prize: int,
                 kitty: int) -> None:
        self.hand = hand
        self.dead = dead
        self.held_elsewhere = held_elsewhere
        self.p_spare = p_spare
        self.pay = pay
        self.suit_runs = suit_runs
        self.run_prize = run_prize
        self.kitty = kitty
        self._by_card: tuple[list[float], list[int]] | None = None

    def p_dead(self, card: int) -> float:
        """How likely ``card`` is out of play (a stop for whoever plays the card below)."""
        if card in self.dead:
            return 1.0
        if card in self.hand or card in self.held_elsewhere:
            return 0.0
        return self.p_spare

    def by_card(self) -> tuple[list[float], list[int]]:
        """:meth:`p_dead` and the chips paid (``pay``, 0 for none) of every card, as lists
        indexed by card: the very values, read without a call or a hash."""
        got = self._by_card
        if got is None:
            p_dead = [self.p_spare] * 52
            for c in self.hand:
                p_dead[c] = 0.0
            for c in self.held_elsewhere:
                p_dead[c] = 0.0
            for c in self.dead:  # dead first in p_dead: a dead card is 1.0 whoever showed it
                p_dead[c] = 1.0
            got = self._by_card = (p_dead, pay_table(self.pay))
        return got


Readers = dict[str, tuple[PhaseAids, ...]]
"""For each event kind, the aids of the phases that learn from it (:attr:`PhaseAids.reads`)."""


def readers(registry: Registry) -> Readers:
    """Who reads which event kinds, over every phase ``registry`` knows."""
    out: dict[str, list[PhaseAids]] = {}
    for spec in registry.phases.values():
        aids: PhaseAids = spec.impl.aids()
        for kind in aids.reads:
            out.setdefault(kind, []).append(aids)
    return {k: tuple(v) for k, v in out.items()}


_CARD_OF: Final = itemgetter(1)


def _only_reader(readers: Readers) -> PhaseAids | None:
    """The one phase that reads every kind read, if one does (as in every built-in variant):
    a run of new events is then handed to it in one call (:meth:`PhaseAids.read_all`), in
    order, where a call an event into a phase's Python cost more than the reading."""
    only: PhaseAids | None = None
    for got in readers.values():
        if len(got) != 1 or (only is not None and got[0] is not only):
            return None
        only = got[0]
    return only


class _Reader:
    """What one seat has learned from the events so far (:class:`~stops.phases.aids.Notes`),
    each event read once: a bot is handed its seat's observations in turn, each with the
    events of the one before and more, so only the new ones are read. Reading is a function
    of the events in order (:meth:`~stops.phases.aids.PhaseAids.read`), so notes carried on
    over the same first events are the notes read afresh; other events (a new deal, another
    seat) are read from the start. New events of no kind a phase reads (most of them: the
    stakes, the deal, the play) are passed over in one pass.

    It also remembers what the last layout it was asked about pays (:func:`_knowledge`):
    the layout changes only as chips are won, so most decisions find it as it was."""

    __slots__ = ("events", "kinds", "layout", "notes", "only", "played", "readers", "seat")

    def __init__(self, readers: Readers) -> None:
        self.readers = readers
        self.kinds = frozenset(readers)
        self.only = _only_reader(readers)
        self.seat = -1
        self.events: Sequence[Event] = ()
        self.notes = Notes()
        self.layout: _LayoutFacts | None = None
        self.played: tuple[int, set[int]] = (0, set())
        """The cards of the deal's first so many plays (see :meth:`played_of`)."""

    def played_of(self, obs: Observation) -> set[int]:
        """The cards laid so far this deal, read on from the plays counted at the last
        decision (a deal's plays only grow): called after :meth:`notes_of`, which starts
        afresh (and so this) when the log is not the one read before. Read by the caller,
        never changed."""
        plays = obs.plays
        count, cards = self.played
        if count > len(plays):
            count, cards = 0, set()
        if count < len(plays):
            cards.update(map(_CARD_OF, plays[count:]))
            self.played = (len(plays), cards)
        return cards

    def notes_of(self, obs: Observation) -> Notes:
        events = obs.events
        done = self.events
        start = len(done)
        seat = obs.seat
        if seat != self.seat or len(events) < start or events[:start] != done:
            self.notes = Notes()
            self.seat = seat
            self.played = (0, set())
            start = 0
        notes = self.notes
        readers = self.readers
        self.events = ()  # until every event is read: a failed read starts afresh
        new = events[start:] if start else events
        kinds = self.kinds
        # the new events of a kind a phase reads, picked out in one pass by a plain loop:
        # native in the compiled build (some 170 instructions an event, where asking first
        # whether any is read, ``isdisjoint`` over a ``map``, and then filtering by
        # ``compress`` cost 430 to 730: a call through ``itemgetter`` and ``map`` an event
        # and a pass), and in the pure build no dearer than those two passes on a
        # decision's mix of runs (about half hold an event read)
        read = [e for e in new if e[0] in kinds]
        if read:
            only = self.only
            if only is not None:
                only.read_all(read, seat, notes)
            else:
                for e in read:
                    for aids in readers[e.kind]:
                        aids.read(e, seat, notes)
        self.events = events
        return notes


_LayoutFacts = tuple[Board | None, tuple[tuple[str, int], ...], frozenset[str], Board,
                     dict[int, int], tuple[tuple[tuple[int, ...], int], ...]]
"""What :func:`_knowledge` read from a layout: the board it was given, the layout's spaces
and chips in order and its retired spaces, then the board used, the chips by pay card and
the suit-run spaces (shared by the decisions that find the layout unchanged: only read)."""


def _knowledge(obs: Observation, readers: Readers, board: Board | None = None,
               reader: _Reader | None = None) -> _Knowledge:
    # cards are ints (a Card is one): kept as they come
    hand: frozenset[int] = frozenset(obs.hand)
    if reader is None:
        reader = _Reader(readers)
    notes = reader.notes_of(obs)
    played = reader.played_of(obs)
    # the observation's fields read once each (an attribute read of a frozen class is a
    # generic lookup in the compiled build too)
    spare, layout, retired = obs.spare, obs.layout, obs.retired
    dead = played if spare is None else played.union(spare)
    shown = notes.held_elsewhere - played
    unknown = 52 - len(hand) - len(dead) - len(shown)
    in_spare = 0 if spare is not None else obs.spare_size
    p_spare = min(1.0, in_spare / unknown) if unknown > 0 else 0.0
    # the layout's spaces in order (the suit runs are added in that order) and chips
    spaces = tuple(layout.items())
    facts = reader.layout
    if facts is not None and facts[0] is board and facts[1] == spaces and \
            facts[2] == retired:
        b, pay, suit_runs = facts[3], facts[4], facts[5]
    else:
        b, pay, suit_runs = _layout_facts(layout, retired, board)
        reader.layout = (board, spaces, retired, b, pay, suit_runs)
    # In the pot-and-kitty game the pot is the prize for a run of three; where a stage
    # before play bets into it (Three-in-One), it was settled then. Only in play, and only
    # if no stage has played for it, is it a run prize.
    run_prize = 0
    pot = b.pot
    if pot is not None and obs.phase == "play" and pot not in notes.played_for and \
            pot not in retired:
        run_prize = layout.get(pot, 0)
    kitty = 0 if b.kitty is None or b.kitty in retired else layout.get(b.kitty, 0)
    return _Knowledge(hand, frozenset(dead), frozenset(shown), p_spare, pay, suit_runs,
                      run_prize, kitty)


def _layout_facts(layout: dict[str, int], retired: frozenset[str], board: Board | None,
                  ) -> tuple[Board, dict[int, int], tuple[tuple[tuple[int, ...], int], ...]]:
    """The board (``board``, or one guessed from the space ids), the chips each live pay
    card's space holds, by card, and each live suit-run space's ranks and chips, in the
    layout's order (a lead adds them in that order)."""
    b = board if board is not None else _board_of_ids(layout)
    pay: dict[int, int] = {}
    runs: list[tuple[tuple[int, ...], int]] = []
    for space, chips in layout.items():
        if chips <= 0 or space in retired:
            continue
        c = b.cards.get(space)
        if c is not None:
            pay[c] = pay.get(c, 0) + chips
            continue
        ranks = b.runs.get(space)
        if ranks is not None:
            runs.append((ranks, chips))
    return b, pay, tuple(runs)


def _best_card(legal: Sequence[Action], value: Callable[[int], float]) -> Action:
    """The decision whose card is worth most by ``value`` (the first on a tie; decisions
    without a card are skipped)."""
    best: Action = legal[0]
    best_v = float("-inf")
    for a in legal:
        if a.card is not None:
            v = value(int(a.card))
            if v > best_v:
                best, best_v = a, v
    return best


def _points(card: int) -> int:
    """Card points where a game scores them (docs/family-rulings.md F5): ace 1, 2-10 their pips,
    J Q K 10 (card codes rank the two lowest: index 0 is the two, 12 the ace)."""
    r = card % 13
    return 1 if r == 12 else (r + 2 if r <= 8 else 10)


def _certain_out(hand: frozenset[int], dead: frozenset[int], broken: int | None,
                 depth: int) -> bool:
    """Can this hand go out by leads that each end in a sure stop (an ace or a dead card)?

    The next lead is assumed to be the lowest card of a suit other than the one just stopped
    (the stricter Three-in-One rule; where the same suit may be led again this is only
    cautious). Colour alternation may forbid a line found here, so callers use it as a
    strong preference, not a certainty. (Each suit's lowest card is found in one pass over
    the hand: it is asked for every lead that ends in a sure stop.)
    """
    if not hand:
        return True
    if depth <= 0:
        return False
    lows = [52, 52, 52, 52]
    for c in hand:
        s = c // 13
        if c < lows[s]:
            lows[s] = c
    suits = [s for s in range(4) if lows[s] < 52]
    allowed = [s for s in suits if s != broken] or suits
    for s in allowed:
        top = lows[s]
        run = [top]
        while top % 13 != ACE and top + 1 in hand:
            top += 1
            run.append(top)
        rest = hand.difference(run)
        if not rest:
            return True
        if (top % 13 == ACE or top + 1 in dead) and _certain_out(
                rest, dead.union(run), s, depth - 1):
            return True
    return False


# Lead weights, in rough chip units.
L_CARD: Final = 1.0       # a card shed from the hand
L_KEEP: Final = 1.5       # keeping the lead (the sequence stops on our own card)
L_STUCK: Final = 0.5      # shedding a card nobody else's run will ever reach
L_OPP_PAY: Final = 0.5    # helping another player's pay card come out
L_OUT: Final = 100.0      # going out ends the deal in our favour
L_OUT_LINE: Final = 60.0  # a line of sure stops that ends in going out


def _lead_value(card: int, kn: _Knowledge) -> float:
    """Expected worth of leading ``card``.

    Our own run is certain: its cards are shed and its pay cards collected. After it, the
    next card is dead with probability ``p_dead`` (we keep the lead) or someone plays it and
    the sequence climbs on; each later card of the suit is reached with the product of the
    chances that the cards before it were live. Our cards reached that way are shed (and pay
    us); other players' pay cards reached that way pay them.

    (The same sums in the same order as ever, to the last bit: each lead of a decision is
    valued, so the card facts are read from :meth:`_Knowledge.by_card`'s lists.)
    """
    hand = kn.hand
    p_dead, pay = kn.by_card()
    run = [card]
    top = card
    paid = pay[card]
    while top % 13 != ACE and top + 1 in hand:
        top += 1
        run.append(top)
        paid += pay[top]
    if len(run) == len(hand):
        return L_OUT + kn.kitty + len(run)
    value = L_CARD * len(run) + paid
    suit = card // 13
    if kn.suit_runs:
        # the run's ranks are those from the card's up to the top's: a space's ranks are
        # all among them when none lies outside (no set of them made, nor compared)
        low, high = card % 13, top % 13
        for run_ranks, chips in kn.suit_runs:
            for r in run_ranks:
                if r < low or r > high:
                    break
            else:
                value += chips
    if len(run) >= 3:
        value += kn.run_prize
    if card % 13 == 0 or card - 1 in kn.dead:
        value += L_STUCK
    if top % 13 == ACE:
        value += L_KEEP
        if _certain_out(hand.difference(run), kn.dead.union(run), suit, 3):
            value += L_OUT_LINE
        return value
    p_stop = p_dead[top + 1]
    value += L_KEEP * p_stop
    if p_stop >= 1.0 and _certain_out(hand.difference(run), kn.dead.union(run), suit, 3):
        value += L_OUT_LINE
    reach = 1.0 - p_stop
    y = top + 1
    ace = suit * 13 + ACE  # the climb ends at the suit's ace at the latest
    while reach > 0.01:
        mine = y in hand
        if mine:
            value += reach * (L_CARD + pay[y])
        elif pay[y]:  # a card that pays nothing takes nothing off (x - 0.0 is x)
            value -= reach * L_OPP_PAY * pay[y]
        if y == ace:
            if mine:
                value += reach * L_KEEP
            break
        p_next = p_dead[y + 1]
        if mine and y + 1 not in hand:
            value += reach * p_next * L_KEEP
        reach *= 1.0 - p_next
        y += 1
    return value


# -- the heuristic bot ----------------------------------------------------------------------

_CARD_VERBS: Final = frozenset({"lead", "play"})
_DECK: Final = frozenset(range(52))
"""Every card: :meth:`_View.unseen` takes the known ones from it (not a set made each time)."""

class _View:
    """What a phase's advice is handed (:class:`stops.phases.aids.BotView`): the observation,
    the bot's generator, and its judgement of a hand, from the facts of one observation
    (worked out once, when first asked)."""

    __slots__ = ("_board", "_kn", "_pay", "_reader", "_readers", "legal", "obs", "rng",
                 "verbs")

    def __init__(self, obs: Observation, legal: Sequence[Action], verbs: frozenset[str],
                 rng: random.Random, readers: Readers, board: Board | None = None,
                 reader: _Reader | None = None) -> None:
        self.obs = obs
        self.legal = legal
        self.verbs = verbs
        self.rng = rng
        self._readers = readers
        self._board = board
        self._reader = reader
        self._kn: _Knowledge | None = None
        self._pay: list[int] | None = None

    def knowledge(self) -> _Knowledge:
        if self._kn is None:
            self._kn = _knowledge(self.obs, self._readers, self._board, self._reader)
        return self._kn

    def notes(self) -> Notes:
        if self._reader is None:
            self._reader = _Reader(self._readers)
        return self._reader.notes_of(self.obs)

    def hand_value(self, cards: Iterable[int]) -> float:
        return hand_quality(cards, self.knowledge().pay)

    def mean_value(self, pool: Sequence[int], size: int, samples: int) -> float:
        if self._pay is None:
            self._pay = pay_table(self.knowledge().pay)
        return mean_quality(self.rng, pool, size, samples, self._pay)

    def unseen(self) -> list[int]:
        kn = self.knowledge()
        return sorted(_DECK.difference(kn.hand, kn.dead))


@mypyc_attr(allow_interpreted_subclasses=True)  # a search bot may build on it
class HeuristicBot:
    """A bot that plays every built-in variant sensibly from its observation alone.

    * **Stakes**: a key-card choice goes on the live card space with the most chips (it is
      made before the deal, so no card knowledge helps); free chips are spread evenly.
    * **Play**: every lead is scored by :func:`_lead_value`; going out wins outright. In a
      game played in turn by rank a card is chosen for what laying it now is worth (a board
      card's box, its points); several cards of one rank go down together, with a wild card
      when it empties the hand or earns its bonus; a companion card goes with any card due.
    * **Any other phase** plays as the phase advises (:meth:`stops.phases.aids.PhaseAids.
      advise`, given the bot's judgement of a hand, :func:`hand_quality`): the spare hand's
      swaps, sales and bids weigh the hand against sampled spares; a betting round bets by
      the strength of the hand chosen. What a seat learns from a phase's events (a hand
      shown) comes from that phase too (:meth:`~stops.phases.aids.PhaseAids.read`).

    The bot finds a phase's aids by the name in its observation, in ``registry`` (the
    default registry when ``None``): a bot playing a plug-in's phase is given the registry
    the variant was loaded with. ``seed`` feeds the sampling (a phase's advice may sample),
    so a bot with the same seed given the same observations makes the same choices.
    """

    name: str = "heuristic"

    def __init__(self, seed: int = 0, registry: Registry | None = None, *,
                 variant: Variant | None = None) -> None:
        """``variant``: the game being played, whose layout says what each space pays (the
        rules are no secret); without it the bot reads that off the spaces' ids."""
        self.seed = seed
        self._rng = random.Random(seed)
        self._registry = registry if registry is not None or variant is None \
            else variant.registry
        self._board = board_of(variant) if variant is not None else None
        self._aids: dict[str, PhaseAids] = {}
        self._readers: Readers | None = None
        # what each seat has learned, read on from its previous decision: one reader per
        # seat, since one bot may play every seat in turn (the ISMCTS bot's rollouts), and a
        # reader handed another seat's observation reads the whole log again
        self._by_seat: dict[int, _Reader] = {}

    def __repr__(self) -> str:
        return f"HeuristicBot(seed={self.seed})"

    def _rules(self) -> Registry:
        return self._registry if self._registry is not None else default_registry()

    def _phase_aids(self, phase: str) -> PhaseAids:
        aids = self._aids.get(phase)
        if aids is None:
            spec = self._rules().phases.get(phase)
            aids = self._aids[phase] = spec.impl.aids() if spec is not None else NO_AIDS
        return aids

    def _reading(self) -> Readers:
        if self._readers is None:
            self._readers = readers(self._rules())
        return self._readers

    def _notes_reader(self, seat: int) -> _Reader:
        """A new reader of ``seat``'s notes, kept for its next decisions."""
        reader = self._by_seat[seat] = _Reader(self._reading())
        return reader

    def act(self, obs: Observation) -> Action:
        legal = obs.legal_actions
        if len(legal) == 1:
            return legal[0]
        if not legal:
            legal_of(obs)  # raises: a host bug
        # the verbs on offer, without listing a large family (1,287 poker hands) to find them
        # (a short tuple of actions, most decisions, is read in one pass)
        if type(legal) is FixedActions:
            verbs = frozenset([a.action for a in legal])
        elif isinstance(legal, LegalActions):
            verbs = frozenset(legal.verbs)
        else:
            verbs = frozenset([a.action for a in legal])
        reader = self._by_seat.get(obs.seat)
        if reader is None:
            reader = self._notes_reader(obs.seat)
        view = _View(obs, legal, verbs, self._rng, reader.readers, self._board, reader)
        aids = self._aids.get(obs.phase)
        if aids is None:
            aids = self._phase_aids(obs.phase)
        advised = aids.advise(view)
        if advised is not None:
            return advised
        if not verbs.isdisjoint(_CARD_VERBS):
            for a in legal:
                if a.cards is not None and a.action in _CARD_VERBS:
                    return self._group(obs, legal)
        if "follow" in verbs:
            return self._follow(legal)
        if "play" in verbs:
            return self._in_turn(view, legal)
        if "lead" in verbs:
            return self._lead(view, legal)
        if "stake" in verbs:
            return self._stake(obs, legal)
        return legal[0]  # pragma: no cover - a verb no built-in phase offers

    # -- play ---------------------------------------------------------------------------
    def _lead(self, view: _View, legal: Sequence[Action]) -> Action:
        kn = view.knowledge()
        # A wild card named as a rank (Pink Nines) is kept for when it is the only way on:
        # led only when nothing natural is left.
        natural = [a for a in legal if a.as_rank is None] or legal
        # A lower card first on exact ties: it is the harder one to shed later. (What
        # _best_card does, without a call per lead: the bot's most frequent decision.)
        best: Action = natural[0]
        best_v = float("-inf")
        for a in natural:
            card = a.card
            if card is not None:
                c = int(card)
                v = _lead_value(c, kn) - 1e-6 * (c % 13)
                if v > best_v:
                    best, best_v = a, v
        return best

    def _follow(self, legal: Sequence[Action]) -> Action:
        """A card due from us with a companion card on offer: lay the companion with it (it
        pays a bonus from everyone and gives us the lead)."""
        flagged = [a for a in legal if a.flags]
        return flagged[0] if flagged else legal[0]

    def _in_turn(self, view: _View, legal: Sequence[Action]) -> Action:
        """Play in turn by rank: shed the card worth most to lay now (a board card claims its
        box; a high card would cost its points if someone else went out). A ``pass`` on
        offer is taken only when nothing else is."""
        kn = view.knowledge()
        # a natural card first; a wild card (Pink Nines) rather than a pass when it is the
        # only way on: it sheds its points and the run goes on
        natural = [a for a in legal if a.as_rank is None and a.card is not None] or legal
        return _best_card(natural, lambda c: 10.0 * kn.pay.get(c, 0) + _points(c) - 1e-6 * c)

    def _group(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """Several cards of one rank at a time (the Comet): lay as many, and as high in
        points, as possible; lay a wild card when it empties the hand or earns its bonus and
        the lead; ``pass`` only when nothing else is on offer."""
        hand = len(obs.hand)
        best: Action = legal[0]
        best_v = float("-inf")
        for a in legal:
            cards = [int(c) for c in a.cards or ((a.card,) if a.card is not None else ())]
            if not cards:
                continue
            v = sum(2.0 + _points(c) for c in cards)
            if len(cards) == hand:
                v += L_OUT
            elif a.as_rank is not None:
                v += 1.5 * (obs.players - 1)  # the wild card's bonus and the lead
            v -= 1e-6 * min(cards)
            if v > best_v:
                best, best_v = a, v
        return best

    # -- stakes ---------------------------------------------------------------------------
    def _stake(self, obs: Observation, legal: Sequence[Action]) -> Action:
        spaces: list[str] = []
        for a in legal:
            if a.space is not None and a.space not in spaces:
                spaces.append(a.space)
        amounts = {a.chips for a in legal if a.action == "stake"}
        mine = dict.fromkeys(spaces, 0)
        for e in obs.events:
            if e.kind == EventKind.STAKED and e.seat == obs.seat and e.space in mine:
                mine[e.space] = mine[e.space] + e.chips
        if len(amounts) <= 1 and not any(mine.values()):
            # One fixed amount on a space of our choice: the richest live key card. (A free
            # placement down to its last chip also offers one amount, but we have already
            # put chips on its spaces.)
            target = max(spaces, key=lambda s: obs.layout.get(s, 0))
            return next(a for a in legal if a.space == target)
        # Free placement, or a fixed stake after one already placed (Peel's dealer places
        # his chips one by one, on the spaces cover_all leaves open): one stake at a time on
        # the open space we have staked least on this deal.
        target = min(spaces, key=lambda s: mine[s])
        if len(amounts) <= 1:
            return next(a for a in legal if a.space == target)
        return with_chips(obs.seat, "stake", 1, target)

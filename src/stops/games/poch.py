"""Poch's own mechanisms (docs/family-rulings.md G.4, G22-G29).

* The ``trumps_held`` claims policy (slot ``pay_collection``, run by the ``claim_held``
  phase after the turn-up): stage one. Each honour space (``ace`` ... ``ten``) pays the
  player who holds that card of trumps; a pair space (the ``marriage``) a player who holds
  both its trumps; the ``sequence_space`` the player with the best run held (G27, G.11 7),
  or the holder of the 7, 8 and 9 of trumps (``sequence_rule: trump_run``). The winner of a
  space shows the cards that win it. It tells the turn-up phase which honour a turned-up card
  is (``turn_up_honours``, G24).
* The ``vying`` phase: stage two, with its own verbs (``poch {chips}``, ``hold``; ``pass``
  is the engine's) and events (``poched``, ``held``, ``vying_showdown``). One round to open
  (a ``poch``, with a pair unless ``poch_requires: any``), one round to hold or pass, no
  raising; a showdown by each hand's best group, the trump and then the seat nearest the
  dealer's left breaking ties (G26, G28, G.11 7, 8).

Everything else Poch plays by is general: the 32-card pack (``deck.remove``), one chip on
every space (``each_space``), the ``table`` deal with the turn-up of the first card of the
stock (the shared ``turn_up`` phase), play in turn up the suit (``rotation`` with
``dead_gap: restart_any``, G29, G.11 9), and a chip per card from each player when one goes
out (``per_card``).

The rank order is the variant's (``ace``) over the ranks the pack has: ace high 7 8 9 T J Q K
A; ace low A 7 8 ... K, so that A-7-8 is a run (G25, G.11 7). Groups at the showdown are
ranked by the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Final, Literal, cast

import attrs

from stops.engine.actions import Action, simple
from stops.engine.cards import CARDS, RANKS
from stops.engine.determinize import cards_of, redeal_memo
from stops.engine.errors import IllegalAction
from stops.engine.events import Event, event, shared
from stops.engine.legal import Amounts, Fixed, LegalActions, LegalSet
from stops.engine.vocabulary import EventType, Verb
from stops.phases.aids import BotView, PhaseAids, Prompt, Teller, Telling
from stops.phases.base import Phase, in_chips
from stops.phases.held_runs import best_run, best_run_lanes, has_pair, lane_mask, run_lanes
from stops.phases.turn_up import TrumpClaimPolicy, rank_word, trump_suit
from stops.policies.claims import (
    Award,
    Claim,
    HoldersPlan,
    awarded_claims,
    holders_plan,
    pay_awards,
    whole_holders,
    whole_holders_by,
)
from stops.policies.succession import pack_order, rank_order
from stops.rules.model import RankName
from stops.rules.registry import inline_param, param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.observation import Observation
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

POCHED: Final = "poched"
HELD: Final = "held"
VYING_SHOWDOWN: Final = "vying_showdown"
K_PASSED: Final = "passed"
K_CLAIMED: Final = "claimed"
_REDEAL: Final = ("vying",)
"""The vying phase's key in ``clone_for``'s per-view memo (``redeal_memo``): the other seats
whose poch proves a pair."""

_SEVEN_EIGHT_NINE: Final = (RANKS.index("7"), RANKS.index("8"), RANKS.index("9"))
_HELD_KEY: Final = ("poch held key",)
"""The claim policy's key in ``clone_for``'s per-view memo (``redeal_memo``): the trumps and
the card groups, seats and rank order its key is read against, the rank order's lanes (see
``held_runs.run_lanes``) and each seat's plays as a lane mask."""
_HeldPlan = tuple[int, HoldersPlan, tuple[tuple[int, ...], ...], list[int],
                  tuple[int, ...], tuple[int, int] | None, list[int]]
"""What :data:`_HELD_KEY` keeps."""


# -- the rank order --------------------------------------------------------------------------


def heights(variant: Variant) -> tuple[int, ...]:
    """Per rank index (0 = two ... 12 = ace): its height in the variant's order over the
    ranks the pack has (0 the lowest), or -1 for a rank not in the pack. Worked out once
    per variant."""
    key = ("poch heights",)
    got = variant.cache.get(key)
    if got is None:
        out = [-1] * 13
        for h, r in enumerate(pack_order(variant.rules.ace, variant.deck)):
            out[r] = h
        got = variant.cache[key] = tuple(out)
    return got  # type: ignore[return-value]


def hand_of(deal: Deal, seat: int) -> list[int]:
    """The cards ``seat`` holds now (from the owner table, so a probe of imagined hands
    sees its own)."""
    owner = deal.owner
    return [c for c in range(52) if owner[c] == seat]


# -- stage one: claims by holding ---------------------------------------------------------------


@attrs.frozen
class TrumpsHeldParams:
    honours: dict[str, RankName] = inline_param(  # noqa: RUF009 (a factory)
        "Spaces won by holding a trump of a given rank, e.g. {ace: A, king: K}; the card is "
        "bound when the trump suit is known (after the turn-up).", factory=dict)
    pairs: dict[str, tuple[RankName, ...]] = inline_param(  # noqa: RUF009 (a factory)
        "Spaces won by one player holding every trump of the given ranks, e.g. "
        "{marriage: [K, Q]}; paid after the honours, in this order.", factory=dict)
    sequence_space: str = param(
        "", "The space won by the best sequence held (empty: none), paid last.",
        option="sequence_space")
    sequence_min: int = param(
        3, "The fewest cards of one suit in unbroken order that make a sequence.",
        option="sequence_min", validator=attrs.validators.ge(2))
    sequence_rule: Literal["best_held", "trump_run"] = param(
        "best_held", "Who wins the sequence space: the player holding the best sequence in "
        "any suit (best_held), or the player holding the 7, 8 and 9 of trumps (trump_run).",
        option="sequence_rule")
    sequence_rank: Literal["length_first", "height_first"] = param(
        "length_first", "Which sequence is best: the longest, then the one with the higher "
        "top card (length_first); or the higher top card, then the longest (height_first). "
        "Then a sequence in trumps, then the player nearest the dealer's left.",
        option="sequence_rank")


class TrumpsHeld(TrumpClaimPolicy):
    """Stage one of Poch: before play, each honour space pays the player holding its trump,
    each pair space a player holding all its trumps, and the sequence space the holder of
    the best sequence (or of the 7-8-9 of trumps); a space nobody wins stays on the layout.
    The winner shows the cards that win it."""

    claims_during_play = False

    def held(self, deal: Deal, params: Any) -> None:
        pay_awards(deal, self._awards(deal, params,
                                      self._held_key(deal, params, deal.owner, True), True))

    def key_claims(self, deal: Deal, params: Any, key: tuple[object, ...],
                   live: frozenset[str]) -> frozenset[Claim] | None:
        """The claims read from the key (:meth:`held_key`: who holds each honour trump and
        each pair space's trumps whole, who wins the sequence with which cards), as
        :meth:`held` pays them."""
        return awarded_claims(self._awards(deal, params, key, False), live)

    def _awards(self, deal: Deal, params: Any, key: tuple[object, ...],
                notes: bool) -> list[Award]:
        """What stage one pays, where ``key`` is :meth:`held_key`'s: each honour space its
        trump's holder, then each pair space a holder of all its trumps, then the sequence
        space its winner, each showing the cards that win it. ``notes``: the claims' notes
        written (for the log)."""
        if not key:
            return []  # no trumps yet: nothing is claimed
        trumps = trump_suit(deal)
        holders = cast("tuple[int, ...]", key[0])
        groups = _trump_groups(deal, params, trumps)
        spaces = [*params.honours, *params.pairs]
        honours = len(params.honours)  # the first groups: an honour's note names one trump
        out: list[Award] = []
        for i, (space, h, cards) in enumerate(zip(spaces, holders, groups, strict=True)):
            if h >= 0:
                note = ""
                if notes:
                    note = (f"holds {CARDS[cards[0]]}, a trump" if i < honours else
                            "holds " + " and ".join(str(CARDS[c]) for c in cards))
                out.append(Award(space, (h,), {h: cards}, note, False))
        run = key[1]
        if params.sequence_space and run is not None:
            won: tuple[int, tuple[int, ...]] | None
            if params.sequence_rule == "trump_run":  # the 7-8-9 of trumps' whole holder
                h = cast("tuple[int, ...]", run)[0]
                won = (h, tuple(trumps * 13 + r for r in _SEVEN_EIGHT_NINE)) if h >= 0 \
                    else None
            else:
                won = cast("tuple[int, tuple[int, ...]]", run)
            if won is not None:
                seat, cards = won
                note = ("holds the sequence " + "-".join(str(CARDS[c]) for c in cards)
                        if notes else "")
                out.append(Award(params.sequence_space, (seat,), {seat: cards}, note, False))
        return out

    def held_turn_up(self, deal: Deal, params: Any) -> object:
        """The trump suit: :meth:`held` reads nothing else of the card turned up."""
        return trump_suit(deal)

    def held_key(self, deal: Deal, params: Any, where: list[int]) -> tuple[object, ...] | None:
        """Who holds each honour trump and each pair space's trumps whole, and who wins the
        sequence space with which cards: every claim follows from these. What the key is
        read against (the trumps, the groups, the seats' order, the rank order) is public
        and the same for every copy ``clone_for`` deals from one view: worked out once per
        view (``redeal_memo``), where looking each up again cost a tenth of a call."""
        return self._held_key(deal, params, where, False)

    def held_key_now(self, deal: Deal, params: Any, where: list[int]) -> tuple[object, ...] | None:
        """:meth:`held_key` of the deal's own holdings: the sequence read from each seat's
        masks and his plays (:func:`~stops.phases.held_runs.best_run_lanes`), where the pass
        over every card cost Poch's copy half a ``clone()``."""
        return self._held_key(deal, params, where, True)

    def held_cards(self, deal: Deal, params: Any) -> tuple[int, ...] | None:
        """The honour and pair trumps, and the 7-8-9 of trumps where that is the sequence:
        what :meth:`held_key_now` reads in ``where`` (the best sequence otherwise from the
        masks and the plays; ``None``, any card, where the rank order is not one the masks
        read, as :meth:`held_key` then reads the sequence card by card)."""
        trumps = trump_suit(deal)
        if trumps < 0:
            return ()
        cards = [c for g in _trump_groups(deal, params, trumps) for c in g]
        if params.sequence_space:
            if params.sequence_rule == "trump_run":
                cards += [trumps * 13 + r for r in _SEVEN_EIGHT_NINE]
            elif _run_lanes(deal.variant) is None:
                return None
        return tuple(cards)

    def _held_key(self, deal: Deal, params: Any, where: list[int],
                  now: bool) -> tuple[object, ...]:
        """The key of :meth:`held_key`; ``now``: ``where`` is the deal's own holdings."""
        memo = redeal_memo(deal)
        got: _HeldPlan | None = memo.get(_HELD_KEY)
        if got is None:
            trumps = trump_suit(deal)
            if trumps < 0:
                return ()  # no trumps yet: nothing is claimed
            run_groups: tuple[tuple[int, ...], ...] = ()
            if params.sequence_space and params.sequence_rule == "trump_run":
                run_groups = (tuple(trumps * 13 + r for r in _SEVEN_EIGHT_NINE),)
            seats = deal.order(deal.dealer)
            order = _pack_order(deal.variant)
            lanes = _run_lanes(deal.variant) if params.sequence_space and not run_groups else None
            played: list[int] = []
            if lanes is not None:  # each seat's plays as a lane mask (public: once a view),
                # read in one pass over the pack
                low, width = lanes
                suits: dict[int, list[int]] = {s: [0, 0, 0, 0] for s in seats}
                for c, p in enumerate(deal.played_by):
                    if p >= 0 and p in suits:
                        masks = suits[p]
                        i = c // 13
                        masks[i] = masks[i] | 1 << (c % 13)
                played = [lane_mask(suits[s], low, width) for s in seats]
            # the honour and pair groups as a plan of whole holders (most are one card: read
            # by one itemgetter, see holders_plan)
            got = (trumps, holders_plan(_trump_groups(deal, params, trumps)), run_groups,
                   seats, order, lanes, played)
            if memo:
                memo[_HELD_KEY] = got
        trumps, groups, run_groups, seats, order, lanes, played = got
        run: object = None
        if params.sequence_space:
            if run_groups:
                run = whole_holders(where, run_groups)
            elif now and lanes is not None:
                # ``where`` is the deal's hands with every play put back (the claims'
                # check): the same holdings as its masks and each seat's plays
                run = best_run_lanes(deal.masks, seats, played, lanes[0], lanes[1],
                                     params.sequence_min,
                                     params.sequence_rank == "length_first", trumps)
            else:
                run = best_run(where, seats, order, params.sequence_min,
                               params.sequence_rank == "length_first", trumps)
        return (whole_holders_by(where, groups), run)

    def bound_cards(self, deal: Deal, params: Any) -> dict[str, tuple[int, ...]]:
        """The trumps each honour and pair space stands for, once the turn-up has made a
        suit trumps (none before); the sequence stands for no fixed cards."""
        suit = trump_suit(deal)
        if suit < 0:
            return {}
        out: dict[str, tuple[int, ...]] = {
            space: (suit * 13 + RANKS.index(str(rank)),) for space, rank in params.honours.items()}
        out.update({space: tuple(suit * 13 + RANKS.index(str(r)) for r in ranks)
                    for space, ranks in params.pairs.items()})
        return out

    def turned_up(self, variant: Variant, params: Any, card: int, honours: bool) -> list[str]:
        """A turned-up honour's space (``turn_up_honours: dealer``); never a pair space nor
        the sequence (G.11 8)."""
        if not honours:
            return []
        return [sid for sid, r in params.honours.items() if RANKS.index(str(r)) == card % 13]

    def honour_ranks(self, params: Any) -> list[str]:
        return [str(r) for r in params.honours.values()]


def best_sequence(deal: Deal, params: TrumpsHeldParams, trumps: int
                  ) -> tuple[int, tuple[int, ...]] | None:
    """Who wins the sequence space and with which cards, or ``None`` (nobody qualifies).

    ``best_held`` (G27, G.11 7): each player's maximal runs of ``sequence_min`` or more
    cards in one suit; ``length_first`` ranks them by length, then top card, then a run in
    trumps; ``height_first`` by top card, then length, then trumps. Equal runs: the player
    first clockwise from the dealer's left. ``trump_run``: the holder of the 7, 8 and 9 of
    trumps."""
    if params.sequence_rule == "trump_run":
        cards = tuple(trumps * 13 + r for r in _SEVEN_EIGHT_NINE)
        holder = deal.owner[cards[0]]
        if holder >= 0 and all(deal.owner[c] == holder for c in cards):
            return holder, cards
        return None
    # one statement of the rule, read the cheapest way the rank order allows: each seat's
    # four suit masks as lanes where the order is consecutive ranks (a few shifts a seat),
    # else one pass per suit over the owners (``held_runs``). The claims paid and
    # ``clone_for``'s check of each copy's claims read the same functions through the
    # policy's key (``TrumpsHeld._held_key``): a sort of each seat's hand per suit here
    # once cost Poch's copy about a fifth
    seats = deal.order(deal.dealer)
    length_first = params.sequence_rank == "length_first"
    lanes = _run_lanes(deal.variant)
    if lanes is not None:
        return best_run_lanes(deal.masks, seats, [0] * len(seats), lanes[0], lanes[1],
                              params.sequence_min, length_first, trumps)
    return best_run(deal.owner, seats, _pack_order(deal.variant), params.sequence_min,
                    length_first, trumps)


def _pack_order(variant: Variant) -> tuple[int, ...]:
    """The variant's rank order over the ranks its pack has (once per variant)."""
    key = ("poch pack order",)
    got = variant.cache.get(key)
    if got is None:
        got = variant.cache[key] = pack_order(variant.rules.ace, variant.deck)
    return got  # type: ignore[return-value]


def _run_lanes(variant: Variant) -> tuple[int, int] | None:
    """The lanes of the variant's rank order (``held_runs.run_lanes``), once per variant."""
    key = ("poch run lanes",)
    cache = variant.cache
    if key in cache:
        return cache[key]  # type: ignore[return-value]
    got = cache[key] = run_lanes(_pack_order(variant))
    return got


def _trump_groups(deal: Deal, params: TrumpsHeldParams, trumps: int
                  ) -> tuple[tuple[int, ...], ...]:
    """The honour trumps one by one, then each pair space's trumps (once per variant and
    trump suit)."""
    key = ("poch trump groups", trumps)
    cache = deal.variant.cache
    if key in cache:
        return cache[key]  # type: ignore[return-value]
    base = trumps * 13
    groups: list[tuple[int, ...]] = [(base + RANKS.index(str(rank)),)
                                     for rank in params.honours.values()]
    groups += [tuple(base + RANKS.index(str(r)) for r in ranks)
               for ranks in params.pairs.values()]
    got = cache[key] = tuple(groups)
    return got


def _trumps_held_text(p: TrumpsHeldParams, variant: Any = None) -> str:
    parts = ["Trumps are the suit of the turn-up. Before the vying, some spaces pay the "
             "players who hold certain cards; each such player shows the cards that win."]
    if p.honours:
        spaces = and_words(list(p.honours))
        cards = or_words([rank_word(str(r)) for r in p.honours.values()])
        parts.append(f"The {spaces} spaces each pay the player who holds the {cards} of "
                     "trumps they stand for.")
    for space, pair in p.pairs.items():
        both = " and the ".join(rank_word(str(r)) for r in pair)
        parts.append(f"The {space} space pays a player who holds both the {both} of trumps.")
    if p.sequence_space:
        parts.append(_sequence_text(p, variant))
    parts.append("They pay in that order. A space that nobody wins stays on the layout, with "
                 "its chips, for the next deal.")
    return " ".join(parts)


def _sequence_text(p: TrumpsHeldParams, variant: Any = None) -> str:
    space = p.sequence_space
    if p.sequence_rule == "trump_run":
        return (f"The {space} space pays a player who holds the seven, eight and nine of "
                "trumps.")
    least = _NUMBERS[p.sequence_min] if p.sequence_min < len(_NUMBERS) else str(p.sequence_min)
    t = (f"The {space} space pays the player who holds the best sequence: {least} or more "
         "cards of one suit in unbroken order, in any suit")
    if variant is not None:
        order = pack_order(variant.rules.ace, variant.deck)
        full = rank_order(variant.rules.ace)
        gaps = [(a, b) for a, b in pairwise(order) if full.index(b) != full.index(a) + 1]
        if gaps:
            from stops.rules.prose import rank_word as word

            a, b = gaps[0]
            t += f" (the {word(a)} and the {word(b)} are next to each other in this pack)"
    t += ". Each player's best sequence counts. "
    if p.sequence_rank == "length_first":
        t += ("A longer sequence beats a shorter one; between sequences of the same length "
              "the one with the higher top card wins")
    else:
        t += ("The sequence with the higher top card wins; between equal top cards the "
              "longer wins")
    return t + (", then a sequence in trumps, then the player nearest the dealer's left. "
                "A sequence that runs on counts whole, as one.")


_NUMBERS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def and_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def or_words(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _trumps_held_check(variant: Any, p: TrumpsHeldParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    named = [("honours", sid) for sid in p.honours] + [("pairs", sid) for sid in p.pairs]
    if p.sequence_space:
        named.append(("sequence_space", p.sequence_space))
    for field, sid in named:
        if sid not in variant.spaces:
            out.append((field, f"no layout space {sid!r}; expected one of "
                        + ", ".join(variant.space_ids)))
    deck = {int(c) for c in variant.deck}
    for sid, rank in p.honours.items():
        if not any(s * 13 + RANKS.index(str(rank)) in deck for s in range(4)):
            out.append(("honours", f"{sid}: the pack has no {rank_word(str(rank))}s"))
    for sid, ranks in p.pairs.items():
        if len(set(ranks)) < 2:
            out.append(("pairs", f"{sid} needs two different ranks, e.g. [K, Q]"))
    if p.sequence_rule == "trump_run" and not all(
            any(s * 13 + r in deck for s in range(4)) for r in _SEVEN_EIGHT_NINE):
        out.append(("sequence_rule", "trump_run needs the 7, 8 and 9 in the pack"))
    return out


def _trumps_held_lint(variant: Any, p: TrumpsHeldParams) -> list[str]:
    out = []
    if "turn_up" not in variant.flow:
        out.append("trumps_held needs a trump suit: add the turn_up phase after deal")
    if "claim_held" not in variant.flow:
        out.append("trumps_held claims are made by the claim_held phase, which is not in "
                   "flow; add claim_held after turn_up")
    return out


def _trumps_held_pays(variant: Any, p: TrumpsHeldParams) -> tuple[str, ...]:
    return (*p.honours, *p.pairs, *((p.sequence_space,) if p.sequence_space else ()))


# -- stage two: the vying ------------------------------------------------------------------------


@attrs.frozen
class VyingSettings:
    vying_space: str = param(
        "pochen", "The layout space the vying is for: pochs and holds go there, and the "
        "winner of the vying takes it.", option="vying_space")
    poch_requires: Literal["pair", "any"] = param(
        "pair", "Who may poch: only a player holding at least a pair (two cards of one rank), "
        "or anyone (bluffing). A holder needs nothing. docs/family-rulings.md G26.",
        option="poch_requires")
    first_bettor: Literal["dealers_left", "dealer"] = param(
        "dealers_left", "Who is asked first: the player to the dealer's left (the dealer "
        "last), or the dealer; then clockwise. Shared with the poker phase's setting.",
        option="first_bettor")


class VyingState:
    """Where the vying has got to (the deal's per-deal state of this phase): the seats
    still to be asked in this round, the round (``poch`` or ``hold``), the amount poched,
    who poched and who has held. All of it is public."""

    __slots__ = ("bet", "holders", "pocher", "queue", "step")

    def __init__(self, queue: list[int] | None = None) -> None:
        self.queue: list[int] = list(queue) if queue is not None else []
        self.step = "poch"
        self.bet = 0
        self.pocher = -1
        self.holders: list[int] = []

    def copy(self) -> VyingState:
        new = VyingState(self.queue)
        new.step, new.bet, new.pocher, new.holders = (self.step, self.bet, self.pocher,
                                                      list(self.holders))
        return new

    def _fields(self) -> tuple[object, ...]:
        return (self.queue, self.step, self.bet, self.pocher, self.holders)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VyingState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"VyingState{self._fields()!r}"


def _state(deal: Deal) -> VyingState:
    return deal.state(VyingState)


@attrs.frozen
class Group:
    """A hand's best group at the showdown: ``size`` cards of one rank (1: the hand has no
    pair and counts its highest card), the rank's ``height`` in the variant's order, and
    whether the group holds a trump."""

    size: int
    height: int
    rank: int
    trump: bool

    def key(self) -> tuple[int, int, bool]:
        return (self.size, self.height, self.trump)

    def words(self) -> str:
        from stops.rules.prose import rank_word as word

        if self.size == 1:
            return f"{word(self.rank)} high"
        if self.size == 2:
            return f"a pair of {word(self.rank, plural=True)}"
        return f"{('three', 'four')[min(self.size, 4) - 3]} {word(self.rank, plural=True)}"


def best_group(cards: list[int], high: tuple[int, ...], trumps: int) -> Group:
    """The best group of ``cards`` (G.4 stage two): the most cards of one rank, of equal
    sizes the higher rank; a hand without a pair counts its highest card."""
    count = [0] * 13
    for c in cards:
        r = c % 13
        count[r] = count[r] + 1
    best: Group | None = None
    for r in range(13):
        if count[r] and high[r] >= 0:
            g = Group(count[r], high[r], r, any(c == trumps * 13 + r for c in cards))
            if best is None or (g.size, g.height) > (best.size, best.height):
                best = g
    if best is None:  # an empty hand
        return Group(0, -1, 0, False)
    return best  # of size 1 when the hand has no pair: its highest card alone


class VyingPhase(Phase):
    """Stage two of Poch (G.4): one round to poch, one round to hold, then the pochen goes
    to the poch-er unseen or to the best hand shown."""

    name = "vying"
    title = "Stage two: the vying"
    state_types = (VyingState,)

    @classmethod
    def aids(cls) -> PhaseAids:
        """The vying's prompt in ``stops play`` and the heuristic bot's play of it."""
        return VYING_AIDS

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.settings: VyingSettings = variant.settings("vying")
        self.space = self.settings.vying_space
        self.any = self.settings.poch_requires == "any"

    # -- the rounds -------------------------------------------------------------------------
    def enter(self, deal: Deal) -> bool:
        if self.settings.first_bettor == "dealer":
            order = [deal.dealer, *deal.order(deal.dealer, include_self=False)]
            if deal.dealer not in deal.active:
                order = order[1:]
        else:
            order = deal.order(deal.dealer)
        st = deal.reset_state(VyingState)
        st.queue = order
        return self._ask(deal, st)

    def _ask(self, deal: Deal, st: VyingState) -> bool:
        if not st.queue:
            return self._finish(deal, st)
        deal.to_act = st.queue[0]
        return True

    def can_poch(self, deal: Deal, seat: int) -> bool:
        """Whether ``seat`` may poch at all: a chip to poch with, and a pair unless
        ``poch_requires: any``."""
        return deal.ledger.stacks[seat] >= 1 and (self.any or has_pair(hand_of(deal, seat)))

    def legal(self, deal: Deal) -> LegalSet:
        st = _state(deal)
        seat = st.queue[0]
        stack = deal.ledger.stacks[seat]
        if st.step == "poch":
            if self.can_poch(deal, seat):
                return LegalActions(Fixed((simple(seat, "pass"),)),
                                    Amounts(seat, "poch", range(1, stack + 1)))
            return LegalActions(Fixed((simple(seat, "pass"),)))
        if stack >= st.bet:
            return LegalActions(Fixed((simple(seat, "pass"), simple(seat, "hold"))))
        return LegalActions(Fixed((simple(seat, "pass"),)))

    def apply(self, deal: Deal, action: Action) -> bool:
        st = _state(deal)
        seat = st.queue.pop(0)
        verb = action.action
        if verb == "poch":
            chips = action.chips or 0
            deal.ledger.move(seat, self.space, chips)
            deal.emit(event(POCHED, seat, chips=chips, space=self.space))
            st.step, st.bet, st.pocher = "hold", chips, seat
            st.queue = deal.order(seat, include_self=False)
        elif verb == "hold":
            deal.ledger.move(seat, self.space, st.bet)
            deal.emit(event(HELD, seat, chips=st.bet, space=self.space))
            st.holders.append(seat)
        else:
            deal.emit(shared(K_PASSED, seat))
        return self._ask(deal, st)

    def _finish(self, deal: Deal, st: VyingState) -> bool:
        if st.pocher < 0:
            return False  # nobody poched: the pochen stays for the next deal
        if not st.holders:
            deal.claim(st.pocher, self.space, "poched and nobody held")
            return False
        shown = [st.pocher, *st.holders]
        high = heights(deal.variant)
        trumps = trump_suit(deal)
        groups: dict[int, Group] = {}
        for s in shown:
            cards = hand_of(deal, s)
            groups[s] = best_group(cards, high, trumps)
            deal.emit(event(VYING_SHOWDOWN, s, cards=tuple(CARDS[c] for c in cards),
                            note=groups[s].words()))
        best: tuple[int, int, bool] | None = None
        winner = -1
        for s in deal.order(deal.dealer):  # equal hands: the first from the dealer's left
            if s in groups and (best is None or groups[s].key() > best):
                best, winner = groups[s].key(), s
        deal.claim(winner, self.space, f"the best hand shown: {groups[winner].words()}")
        return False

    # -- refusals and meanings -----------------------------------------------------------
    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        st = _state(deal)
        seat = action.seat
        stack = deal.ledger.stacks[seat]
        verb = action.action
        if verb == "poch":
            if st.step != "poch":
                return IllegalAction("already_poched", f"seat {st.pocher} has poched: hold "
                                     f"({in_chips(st.bet)}) or pass",
                                     rule="one poch opens the vying; there is no raising")
            chips = action.chips or 0
            if chips < 1:
                return IllegalAction("bad_amount", "poch at least 1 chip",
                                     rule="a poch is 1 chip or more")
            if chips > stack:
                return IllegalAction("insufficient_chips", f"you have only {in_chips(stack)}"
                                     if stack > 0 else "you have no chips to poch with",
                                     rule="a poch may not exceed the player's chips")
            if not self.any and not has_pair(hand_of(deal, seat)):
                return IllegalAction("no_pair", "you hold no pair: pass",
                                     rule="poch_requires: pair (only a player holding two "
                                     "cards of one rank may poch)")
        if verb == "hold":
            if st.step != "hold":
                return IllegalAction("nothing_to_hold", "nobody has poched: poch or pass",
                                     rule="a player holds only after a poch")
            if stack < st.bet:
                return IllegalAction("insufficient_chips", f"holding costs {in_chips(st.bet)}"
                                     f" and you have {in_chips(max(stack, 0))}: pass",
                                     rule="a player holds only with as many chips as the "
                                     "poch")
        return None

    def meaning(self, deal: Deal, action: Action) -> str:
        st = _state(deal)
        space = self.space
        if action.action == "poch":
            return (f"poch {in_chips(action.chips)}: you put them in the {space} and open "
                    "the vying; each other player may then hold or pass")
        if action.action == "hold":
            return (f"hold: you put {in_chips(st.bet)} in the {space}, matching the poch, "
                    "and show your hand against it")
        if st.step == "poch":
            return "pass: you do not poch"
        return "pass: you leave the vying to the others"

    # -- what the vying proves (deal.clone_for) -------------------------------------------
    def after_redeal(self, deal: Deal, seat: int, rng: Any) -> bool:
        """Under ``poch_requires: pair`` a poch proves its player held a pair then (his
        hand now with the cards he has played since): an imagined deal without one could
        not have come about. Shown hands are kept by the engine (``vying_showdown`` shows
        them)."""
        if self.any:
            return True
        memo = redeal_memo(deal)  # the same for every copy of one view: read the log once
        poched: tuple[int, ...] | None = memo.get(_REDEAL)
        if poched is None:
            poched = memo[_REDEAL] = tuple(
                e.seat for e in deal.events
                if e.kind == POCHED and e.seat is not None and e.seat != seat)
        for s in poched:
            # his hand from its masks, the cards he has played (public: the same for every
            # copy of one view) listed once per view, not a pass over the pack per copy
            played: list[int] | None = memo.get((_REDEAL, s))
            if played is None:
                played = memo[(_REDEAL, s)] = [c for c, p in enumerate(deal.played_by)
                                               if p == s]
            if not has_pair(cards_of(deal, s) + played):
                return False
        return True

    # -- the rules text -------------------------------------------------------------------
    def describe(self) -> str:
        return vying_text(self.variant, self.settings)

    def decision_rule(self, deal: Deal) -> str:
        return vying_text(self.variant, self.settings)


def vying_text(variant: Variant, s: VyingSettings) -> str:
    """Stage two in words, with this variant's settings."""
    space = s.vying_space
    first = ("From the dealer's left, each player in turn, the dealer last," if
             s.first_bettor == "dealers_left" else
             "From the dealer, each player in turn clockwise")
    who = ("if he holds at least a pair (two or more cards of one rank)" if
           s.poch_requires == "pair" else "whatever he holds (he may bluff)")
    t = (f"{first} may poch, putting any number of chips from 1 to all he has into the "
         f"{space}, {who}; or pass. The first poch ends this round. Then every other player "
         "once, clockwise from the left of the player who poched, may hold, putting the same "
         f"number of chips into the {space} (only if he has that many), or pass: there is no "
         f"raising. If nobody poches, the {space} stays on the layout for the next deal. If "
         f"nobody holds, the player who poched takes the {space} without showing his hand. "
         "Otherwise he and the holders show their hands. Each hand counts its best group: "
         "the most cards of one rank, and of two groups of the same size the higher rank; "
         "four of a kind beat three, three beat a pair, and any pair beats a hand with no "
         "pair, which counts its highest card. Between equal groups (or equal highest "
         "cards) the one with a trump in it wins, else the player nearest the dealer's "
         f"left. The winner takes everything in the {space}.")
    if variant.rules.ace == "low":
        t += " Aces rank lowest."
    return t


def _vying_checks(variant: Any) -> list[str]:
    s: VyingSettings = variant.settings("vying")
    if s.vying_space not in variant.spaces:
        return [f"vying_space: no layout space {s.vying_space!r}; expected one of "
                + ", ".join(variant.space_ids)]
    return []


def _vying_pays(variant: Any) -> tuple[str, ...]:
    s: VyingSettings = variant.settings("vying")
    return (s.vying_space,)


# -- a bot's play of the vying --------------------------------------------------------------


def vying_advice(obs: Observation, legal: Sequence[Action]) -> Action | None:
    """A sensible decision in the vying for ``obs.seat`` (one of ``legal``), from what the
    seat sees: its own hand, the turn-up (trumps) and the pochs and holds so far. ``None``
    when the decision on offer is not the vying's.

    It poches on three or four of a kind, and on a pair of Queens or better, the stronger
    the group the more (never beyond a tenth of its chips and at least 1); it holds with
    three or four of a kind, or a pair of Kings or aces when the poch is small beside the
    pool (at most half of it and a tenth of its chips); otherwise it passes. The ranks are
    read ace high (an observation does not say the variant's ``ace``).
    This is the heuristic bot's play of the phase: the bots reach it through the phase's
    aids once the apps ask phases for advice.
    """
    verbs = {a.action for a in legal}
    if not verbs <= {"poch", "hold", "pass"} or "pass" not in verbs:
        return None
    seat = obs.seat
    trumps = next((int(e.card) // 13 for e in obs.events
                   if e.kind == "turned_up" and e.card is not None), -1)
    group = best_group([int(c) for c in obs.hand], tuple(range(13)), trumps)
    stack = obs.stacks[seat]
    pochs = [e for e in obs.events if e.kind == POCHED]
    space = pochs[-1].space if pochs and pochs[-1].space else "pochen"
    pool = obs.layout.get(space, 0)
    queen = RANKS.index("Q")
    if "poch" in verbs:
        if group.size >= 3 or (group.size == 2 and group.rank >= queen):
            want = max(1, min(stack // 10, 2 * group.size + (group.rank - queen if
                                                             group.size == 2 else 4)))
            amounts = [a for a in legal if a.action == "poch" and a.chips is not None]
            if amounts:
                return min(amounts, key=lambda a: (abs((a.chips or 0) - want), a.chips or 0))
        return simple(seat, "pass")
    if "hold" in verbs:
        bet = pochs[-1].chips if pochs else 0
        small = bet <= max(1, stack // 10) and bet * 2 <= max(pool, 1)
        if group.size >= 3 or (group.size == 2 and group.rank >= RANKS.index("K") and small):
            return simple(seat, "hold")
    return simple(seat, "pass")


# -- the vocabulary ------------------------------------------------------------------------


def _poched(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} poches {in_chips(e.chips)}"


def _held(e: Event, who: Callable[[int | None], str]) -> str:
    return f"{who(e.seat)} holds with {in_chips(e.chips)}"


def _shows(e: Event, who: Callable[[int | None], str]) -> str:
    cards = " ".join(c.symbol() for c in e.cards)
    return f"{who(e.seat)} shows {cards}" + (f": {e.note}" if e.note else "")


VYING_EVENTS: Final = (
    EventType(POCHED, "``seat`` poched, putting ``chips`` into ``space`` (the pochen)",
              _poched),
    EventType(HELD, "``seat`` held, putting ``chips`` (the poch) into ``space``", _held),
    EventType(VYING_SHOWDOWN, "``seat`` showed their whole hand, ``cards`` (public); "
              "``note`` names its best group", _shows, shows=True),
)
"""The kinds of event the vying logs (a pass is the engine's ``passed``)."""

VYING_VERBS: Final = (
    Verb("poch", ("chips",), meaning=lambda a: f"poch {in_chips(a.chips)}: you open the "
         "vying for the pool", doc="open the vying with ``chips`` (Poch)"),
    Verb("hold", meaning=lambda a: "hold: you match the poch and show your hand",
         doc="match the poch (Poch)"),
)
"""The decisions of the vying besides ``pass``."""


def register(reg: Registry) -> None:
    """Poch's stage-one claims and its vying phase."""
    reg.register_policy("pay_collection", "trumps_held", params=TrumpsHeldParams,
                        text=_trumps_held_text, describe=lambda v, q: _trumps_held_text(q, v),
                        phrase="Before the vying, some spaces pay the players who hold",
                        check=_trumps_held_check, lint=_trumps_held_lint,
                        pays=_trumps_held_pays)(TrumpsHeld())
    reg.register_phase("vying", requires=("deal",), settings=VyingSettings,
                       check=_vying_checks, pays=_vying_pays, verbs=VYING_VERBS,
                       events=VYING_EVENTS)(VyingPhase)


__all__ = ["Group", "TrumpsHeld", "TrumpsHeldParams", "VyingPhase", "VyingSettings",
           "VyingState", "best_group", "best_sequence", "heights", "vying_advice",
           "vying_text"]


class VyingTeller(Teller):
    """The vying told to one player at the table ("you poch 5 chips", "seat 2 holds")."""

    def lines(self, e: Event, t: Telling) -> list[str] | None:
        if e.kind == POCHED:
            return [f"{t.verb(e.seat, 'poch', 'poches')} {in_chips(e.chips)}"]
        if e.kind == HELD:
            return [f"{t.verb(e.seat, 'hold', 'holds')} with {in_chips(e.chips)}"]
        if e.kind == VYING_SHOWDOWN:
            shown = t.pen.hand(int(c) for c in e.cards)
            return [f"{t.verb(e.seat, 'show', 'shows')} {shown}"
                    + (f": {e.note}" if e.note else "")]
        return None


class VyingAids(PhaseAids):
    """What the vying brings to the apps: its narration, how ``stops play`` asks (an amount
    to poch rather than a menu of every amount up to the stack) and the heuristic bot's
    play."""

    def teller(self) -> Teller | None:
        return VyingTeller()

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        amounts = [a.chips for a in legal if a.action == "poch" and a.chips is not None]
        if amounts:
            return Prompt(f"Your turn to vie: poch {min(amounts)} to {max(amounts)} chips, or "
                          "pass.", rule=True, menu=len(amounts) <= 6)
        bet = next((a for a in legal if a.action == "hold"), None)
        if bet is not None:
            return Prompt("Your turn to vie: hold (match the poch) or pass.", rule=True)
        return Prompt("Your turn to vie: pass.", rule=True)

    def advise(self, view: BotView) -> Action | None:
        return vying_advice(view.obs, view.legal)


VYING_AIDS: Final = VyingAids()

"""Claims: when layout spaces pay (slot ``pay_collection``) and run prizes (slot ``run_rule``).

A claim policy is a class with up to three hooks, all optional:

* ``watch(variant, params, triggers, every)``: once per variant, register handlers
  ``handler(deal, seat, card)``: in ``triggers[card]`` for specific cards, or in ``every`` for
  every card played. The play phase calls only these, so an unwatched card costs nothing.
  Handlers are shared by every deal of the variant: what one deal must remember goes in a
  state class the policy declares (``register_policy(..., states=...)``) and reads with
  ``deal.state(T)`` (:class:`SuitRuns`, :class:`RunStreak`).
* ``held(deal, params)``: claims by holding, called by the ``claim_held`` phase (stage one).
* ``end(deal, params)``: claims settled when the deal ends (before the going-out reward).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Set as AbstractSet
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, cast

import attrs

from stops._mypyc import mypyc_attr
from stops.engine.cards import CARDS, RANKS
from stops.engine.deal import PLAYED, SPARE
from stops.rules import card_below
from stops.rules.contracts import Handler, Triggers
from stops.rules.model import Space
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant


class SuitRuns:
    """The ``on_play`` policy's deal state: the suit-run spaces already paid
    (``first_takes_all``), and each run space's sharers so far, paid at the end."""

    __slots__ = ("paid", "sharers")

    def __init__(self) -> None:
        self.paid: set[str] = set()
        self.sharers: dict[str, list[int]] = {}

    def copy(self) -> SuitRuns:
        new = SuitRuns()
        new.paid = set(self.paid)
        new.sharers = {k: list(v) for k, v in self.sharers.items()}
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SuitRuns) and (self.paid, self.sharers) == (
            other.paid, other.sharers)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"SuitRuns(paid={self.paid!r}, sharers={self.sharers!r})"


class RunStreak:
    """A run rule's deal state: the run being played now (its player, last card and
    length so far) and whether the run prize has been won."""

    __slots__ = ("card", "length", "seat", "won")

    def __init__(self) -> None:
        self.seat = -1
        self.card = -1
        self.length = 0
        self.won = False

    def copy(self) -> RunStreak:
        new = RunStreak()
        new.seat, new.card, new.length, new.won = self.seat, self.card, self.length, self.won
        return new

    def _fields(self) -> tuple[int, int, int, bool]:
        return (self.seat, self.card, self.length, self.won)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RunStreak) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"RunStreak{self._fields()!r}"


@mypyc_attr(allow_interpreted_subclasses=True)
class ClaimPolicy:
    """Base class: a claim policy that claims nothing."""

    claims_during_play: bool = True
    """Whether the policy's claims happen as cards are played (for ``stops rules``)."""

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        return None

    def held(self, deal: Deal, params: Any) -> None:
        return None

    def end(self, deal: Deal, params: Any) -> None:
        return None

    def bound_cards(self, deal: Deal, params: Any) -> dict[str, tuple[int, ...]]:
        """The cards each space stands for in this deal beyond the layout's own card
        spaces (Pope Joan's trump compartments, once the trump suit is turned up), for a
        display: none by default."""
        return {}

    def held_turn_up(self, deal: Deal, params: Any) -> object:
        """What :meth:`held` reads of the card turned up, if anything: ``clone_for`` works
        out once, for the variant, what each card would win held alone in each seat, per
        dealer, seats taking part and this. By default the card itself (``last_dealt``: a
        trump honour may be won by it); a policy that reads only the trump suit gives the
        suit, so that its answer serves every deal with that dealer and trumps (per card
        turned up, every deal of Poch worked it out again: half of a seat's first
        ``clone_for`` there)."""
        return deal.last_dealt

    def held_key(self, deal: Deal, params: Any, where: list[int]) -> tuple[object, ...] | None:
        """What :meth:`held` would claim were each card ``c`` held by ``where[c]`` (a seat,
        ``SPARE``, or out of the hands), reduced to a key: equal keys, the same claims, the
        layout's live spaces, the dealer and the seats taking part being given. ``None``
        (the default): no such key. ``clone_for`` checks the claims by holding against
        every imagined deal it deals; with a key it remembers the answer per key rather
        than running :meth:`held` on each imagined deal."""
        return None

    def held_key_now(self, deal: Deal, params: Any, where: list[int]) -> tuple[object, ...] | None:
        """:meth:`held_key` for ``where`` that is the deal's own cards as they were at this
        stage (its hands now, each card played put back with its player), as ``clone_for``'s
        check of each copy passes it: a policy may read those holdings from the deal's
        masks rather than card by card (Poch's best sequence). The same key as
        :meth:`held_key` gives (by default, it is that call)."""
        return self.held_key(deal, params, where)

    def held_cards(self, deal: Deal, params: Any) -> tuple[int, ...] | None:
        """The cards whose holders :meth:`held_key_now` reads in ``where``, in this deal
        (``None``, the default: it may read any). ``clone_for``'s check of each copy then
        puts back with their players only the cards played among these, once listed per
        view, rather than every card played (most of the check's cost in Tripoley's play,
        where forty cards may have been played)."""
        return None

    def held_key_reader(self, deal: Deal, params: Any, where: list[int],
                        afresh: AbstractSet[int]) -> Callable[[list[int]], object] | None:
        """A function of a copy's owners (``Deal.owner``) that gives :meth:`held_key_now`'s
        key for any copy that differs from the one ``where`` was made from only in where
        the cards ``afresh`` lie (none of them played): ``clone_for``'s copies of one
        position (:func:`~stops.engine.determinize.dealt_afresh`), each checked with no
        table made and no key read from the whole of it. ``None`` (the default): none, and
        each copy's table is made and read as before. Asked once per position."""
        return None

    def key_claims(self, deal: Deal, params: Any, key: tuple[object, ...],
                   live: frozenset[str]) -> frozenset[Claim] | None:
        """The claims :meth:`held` makes where :meth:`held_key` gives ``key`` and the
        spaces ``live`` hold chips (ample for any share), each as (space, seat, cards
        shown): the claims by holding read from the key alone. ``None`` (the default): not
        known, and ``clone_for`` runs :meth:`held` on an imagined table to learn them. A
        policy that states its rule as :class:`Award` s made from the key (see
        :func:`pay_awards` and :func:`awarded_claims`) answers it at the cost of reading
        the key, where a run of :meth:`held` on an imagined table cost about a hundred
        times more (a third of Poch's copy)."""
        return None


Claim = tuple[str, int, tuple[int, ...]]
"""One claim by holding as ``clone_for`` compares them: the space, the seat, the cards shown
(``HeldClaims.shown``)."""


class Award(NamedTuple):
    """What a rule of claims by holding pays for one space: ``seats`` (one for a whole
    claim; a shared one may list a seat twice, for two shares), the cards each shows, and
    the note of the claim (``""`` where only the claims are read: :func:`awarded_claims`).
    ``shared``: the space is split equally among the seats, the remainder staying
    (:func:`_share`); else the one seat takes it all."""

    space: str
    seats: tuple[int, ...]
    shown: dict[int, tuple[int, ...]]
    note: str
    shared: bool


def pay_awards(deal: Deal, awards: list[Award]) -> None:
    """Pay ``awards`` on the deal, in order (the claims by holding, as ``held`` makes them)."""
    for a in awards:
        if a.shared:
            _share(deal, a.space, list(a.seats), a.note, a.shown)
        else:
            s = a.seats[0]
            deal.claim(s, a.space, a.note, shown=a.shown[s])


CLAIM_STAKE: Final = 1000
"""What each live space holds where the claims by holding are only read (``clone_for``'s
check of an imagined deal): enough that every share of it is at least a chip."""


def awarded_claims(awards: list[Award], live: frozenset[str]) -> frozenset[Claim]:
    """The claims :func:`pay_awards` would make of ``awards`` were the ``live`` spaces each
    holding :data:`CLAIM_STAKE` chips, read without paying: a space's chips worked out as
    ``Deal.claim`` and :func:`_share` take them, so that a space named twice pays as it
    would (a whole claim leaves nothing for a later one; shares leave the remainder). A
    space is retired (``retire_claimed``) only once its chips are gone, so within one
    stage it pays no differently for it."""
    have = dict.fromkeys(live, CLAIM_STAKE)
    out: set[Claim] = set()
    for a in awards:
        space = a.space
        left = have.get(space, 0)
        if a.shared:
            share = left // len(a.seats) if a.seats else 0
            for s in a.seats:
                if share:
                    have[space] = have[space] - share
                    out.add((space, s, a.shown.get(s, ())))
        elif left > 0:
            s = a.seats[0]
            have[space] = 0
            out.add((space, s, a.shown[s]))
    return frozenset(out)


def _run_cards(space: Space) -> list[list[int]]:
    """Each suit's cards for a suit_run space."""
    ranks = [RANKS.index(r) for r in space.ranks]
    return [[suit * 13 + r for r in ranks] for suit in range(4)]


@mypyc_attr(allow_interpreted_subclasses=True)
class NoClaims(ClaimPolicy):
    """Card, combination and run spaces never pay by themselves."""


@mypyc_attr(allow_interpreted_subclasses=True)
class OnPlay(ClaimPolicy):
    """A card space pays whoever plays its card; a combo space pays a player who plays all
    its cards; a suit_run space pays the first player to play all its ranks in one suit
    (``on_play_ten``: or everyone who does, in equal shares at the end of the deal); a
    card_below space pays whoever plays the card below its card, a stop
    (:mod:`stops.rules.card_below`)."""

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        for space in variant.layout:
            if space.kind == "card" and space.card is not None:
                triggers.setdefault(int(space.card), []).append(
                    _card_handler(space.id, int(space.card)))
            elif space.kind == "combo":
                h = _combo_handler(space.id, tuple(space.cards))
                for combo_card in space.cards:
                    triggers.setdefault(int(combo_card), []).append(h)
            elif space.kind == "suit_run":
                for cards in _run_cards(space):
                    h = _run_handler(space.id, tuple(cards), params.ten == "first_takes_all")
                    for c in cards:
                        triggers.setdefault(c, []).append(h)
        card_below.watch(variant, params.below_ace, triggers)

    def end(self, deal: Deal, params: Any) -> None:
        runs = deal.peek_state(SuitRuns)
        if runs is None:
            return
        for space, seats in runs.sharers.items():
            _share(deal, space, seats, "played the run")


def _card_handler(space: str, watched: int) -> Handler:
    note = f"played {_name(watched)}"  # the one card it watches: the note is fixed

    def on_card(deal: Deal, seat: int, card: int) -> None:
        deal.claim(seat, space, note)

    return on_card


def _combo_handler(space: str, cards: tuple[int, ...]) -> Handler:
    note = "played " + " and ".join(_name(c) for c in cards)

    def on_combo(deal: Deal, seat: int, card: int) -> None:
        if all(deal.played_by[c] == seat for c in cards):
            deal.claim(seat, space, note)

    return on_combo


def _run_handler(space: str, cards: tuple[int, ...], first_takes_all: bool) -> Handler:
    note = "played " + "-".join(_name(c) for c in cards)

    def on_run(deal: Deal, seat: int, card: int) -> None:
        if not all(deal.played_by[c] == seat for c in cards):
            return
        runs = deal.state(SuitRuns)
        if first_takes_all:
            if space not in runs.paid:
                runs.paid.add(space)
                deal.claim(seat, space, note)
        else:
            runs.sharers.setdefault(space, []).append(seat)

    return on_run


@mypyc_attr(allow_interpreted_subclasses=True)
class StageOne(ClaimPolicy):
    """Stage one of Three-in-One: spaces pay the players who *hold* their cards once the
    spare hand is settled. Suit runs are shared (``ten_share``), the remainder staying."""

    claims_during_play = False

    def held(self, deal: Deal, params: Any) -> None:
        pay_awards(deal, self._awards(deal, params, _stage_one_holders(deal, deal.owner), True))

    def key_claims(self, deal: Deal, params: Any, key: tuple[object, ...],
                   live: frozenset[str]) -> frozenset[Claim] | None:
        """The claims read from which place holds each group whole (:meth:`held_key`), as
        :meth:`held` pays them."""
        return awarded_claims(self._awards(deal, params, key, False), live)

    def _awards(self, deal: Deal, params: Any, key: tuple[object, ...],
                notes: bool) -> list[Award]:
        """What stage one pays, space by space in the layout's order, where ``key`` says
        which place holds each of the plan's groups whole (:meth:`held_key`): a card or
        combination space its whole holder, a suit run's space shared among the holders of
        its runs (``ten_share``; none where the spare hand holds a whole run and
        ``dead_hand_blocks``). ``notes``: the claims' notes written (for the log)."""
        plan = _cached_plan(deal)
        share = params.ten_share
        per_player = share != "per_sequence"
        out: list[Award] = []
        i = 0
        for kind, sid, groups, note in plan:
            holders = cast("tuple[int, ...]", key[i:i + len(groups)])
            i += len(groups)
            if kind == "suit_run":
                if params.dead_hand_blocks and SPARE in holders:
                    continue  # the spare hand holds the run: the space pays nobody
                claimants: list[int] = []
                shown: dict[int, tuple[int, ...]] = {}
                for s, cards in zip(holders, groups, strict=True):
                    if s >= 0:
                        claimants.append(s)
                        shown[s] = shown.get(s, ()) + cards
                if per_player:
                    claimants = sorted(set(claimants))
                if share == "lowest_seat" and claimants:
                    order = deal.order(deal.dealer)
                    claimants = [min(claimants, key=order.index)]
                if claimants:
                    out.append(Award(sid, tuple(claimants), shown,
                                     "holds the run" if notes else "", True))
            else:
                s = holders[0]
                if s >= 0:
                    out.append(Award(sid, (s,), {s: groups[0]}, note, False))
        return out

    def held_key(self, deal: Deal, params: Any, where: list[int]) -> tuple[object, ...] | None:
        """Which place holds each group of the plan whole, if one does: a space pays the
        seat holding a whole group (a run's shared by the seats' order from the dealer's
        left), a run the spare hand holds whole may pay nobody (``dead_hand_blocks``)."""
        return _stage_one_holders(deal, where)

    def held_cards(self, deal: Deal, params: Any) -> tuple[int, ...] | None:
        """The cards of the plan's groups: :meth:`held_key` reads no other."""
        return tuple(c for cards in _plan_groups(deal) for c in cards)

    def held_key_reader(self, deal: Deal, params: Any, where: list[int],
                        afresh: AbstractSet[int]) -> Callable[[list[int]], object] | None:
        """The key read group by group where only cards ``afresh`` move: a group none of
        whose cards move keeps its holder (or its split), and so does one whose cards that
        do not move lie in two places; the others are read from the copy's owners, each
        against the place its other cards lie in, if any."""
        return _HeldKeyReader(_plan_groups(deal), where, afresh).read


_Plan = list[tuple[str, str, list[tuple[int, ...]], str]]
_STAGE_ONE = ("stage_one_plan",)
"""Key of a variant's stage-one plan in ``variant.cache``."""


def _stage_one_plan(variant: Variant) -> _Plan:
    """What stage one looks at, worked out once per variant: for each paying space, its kind,
    id, the card groups that win it when one player holds a whole group, and the claim note.
    """
    plan: _Plan = []
    for space in variant.layout:
        if space.kind == "card" and space.card is not None:
            plan.append(("card", space.id, [(space.card,)], f"holds {_name(space.card)}"))
        elif space.kind == "combo":
            plan.append(("combo", space.id, [tuple(space.cards)],
                         "holds " + " and ".join(_name(c) for c in space.cards)))
        elif space.kind == "suit_run":
            plan.append(("suit_run", space.id, [tuple(g) for g in _run_cards(space)], ""))
    return plan


def _cached_plan(deal: Deal) -> _Plan:
    """The stage-one plan of the deal's variant, worked out once per variant."""
    cache = deal.variant.cache
    got = cache.get(_STAGE_ONE)  # one look-up (its key hashed once), not a test and a read
    if got is not None:
        return cast("_Plan", got)
    plan = cache[_STAGE_ONE] = _stage_one_plan(deal.variant)
    return plan


def _stage_one_holders(deal: Deal, where: list[int]) -> tuple[int, ...]:
    """Which place holds each of the stage-one plan's groups whole (:meth:`StageOne.held_key`),
    by the plan's :func:`holders_plan`, made once per variant."""
    cache = deal.variant.cache
    got = cache.get(_HOLDERS_PLAN)
    if got is None:
        got = cache[_HOLDERS_PLAN] = holders_plan(_plan_groups(deal))
    return whole_holders_by(where, cast("HoldersPlan", got))


def _plan_groups(deal: Deal) -> tuple[tuple[int, ...], ...]:
    """Every card group of the stage-one plan, in the plan's order (once per variant)."""
    cache = deal.variant.cache
    if _PLAN_GROUPS in cache:
        return cache[_PLAN_GROUPS]  # type: ignore[return-value]
    got = cache[_PLAN_GROUPS] = tuple(tuple(int(c) for c in cards)
                                      for _k, _s, groups, _n in _cached_plan(deal)
                                      for cards in groups)
    return got


_PLAN_GROUPS = ("stage_one_groups",)
"""Key of the stage-one plan's card groups in ``variant.cache``."""


def whole_holders(where: list[int], groups: tuple[tuple[int, ...], ...]) -> tuple[int, ...]:
    """For each group of cards, the place ``where`` puts all of it (``where[c]``: card
    ``c``'s holder), or ``PLAYED`` where its cards are split (a claim policy's key,
    :meth:`ClaimPolicy.held_key`)."""
    out: list[int] = []
    for cards in groups:
        h = where[cards[0]]
        for c in cards:
            if where[c] != h:
                h = PLAYED
                break
        out.append(h)
    return tuple(out)


class _HeldKeyReader:
    """:func:`whole_holders` of stage one's groups in copies that differ only in where the
    cards ``afresh`` lie (:meth:`StageOne.held_key_reader`): the groups that cannot change
    worked out once, from ``where``; each other one read from a copy's owners, as the
    place its cards that stay lie in (:data:`_ANY` where all of them move) and the cards
    that move."""

    __slots__ = ("moving", "template")

    def __init__(self, groups: tuple[tuple[int, ...], ...], where: list[int],
                 afresh: AbstractSet[int]) -> None:
        # made once per position, in plain loops
        template: list[int] = []
        moving: list[tuple[int, int, tuple[int, ...]]] = []
        for i in range(len(groups)):
            cards = groups[i]
            vary: list[int] = []
            at = _ANY  # where the cards that stay lie: _ANY none yet, PLAYED split
            for c in cards:
                if c in afresh:
                    vary.append(c)
                elif at == _ANY:
                    at = where[c]
                elif where[c] != at:
                    at = PLAYED
            if not vary:
                template.append(at)  # every card stays: where they all lie, or split
            else:
                template.append(PLAYED)
                if at != PLAYED:
                    moving.append((i, at, tuple(vary)))
        self.template = template
        self.moving = moving

    def read(self, owner: list[int]) -> object:
        """The key of the copy whose owners are ``owner``."""
        out = list(self.template)
        for i, at, vary in self.moving:
            h = owner[vary[0]] if at == _ANY else at
            whole = True
            for c in vary:
                if owner[c] != h:
                    whole = False
                    break
            if whole:
                out[i] = h
        return tuple(out)


_ANY: Final = -99
"""The place of a group's cards that stay where they lie, where all of them move
(:class:`_HeldKeyReader`)."""


HoldersPlan = tuple[Any, tuple[tuple[int, tuple[int, ...]], ...], tuple[tuple[int, ...], ...]]
_HOLDERS_PLAN: Final = ("stage_one_holders",)
"""Key of the stage-one groups' :func:`holders_plan` in ``variant.cache``."""


def holders_plan(groups: tuple[tuple[int, ...], ...]) -> HoldersPlan:
    """:func:`whole_holders` of ``groups`` made once (per variant, for stage one's groups):
    an ``itemgetter`` of every group's first card, and each group of more than one card
    with its other cards (``None`` for the getter where there are fewer than two groups:
    an ``itemgetter`` of one item gives the item, not a tuple)."""
    heads = itemgetter(*[g[0] for g in groups]) if len(groups) > 1 else None
    rests = tuple((i, g[1:]) for i, g in enumerate(groups) if len(g) > 1)
    return heads, rests, groups


def whole_holders_by(where: list[int], plan: HoldersPlan) -> tuple[int, ...]:
    """:func:`whole_holders` by a :func:`holders_plan`: every group's first card's holder
    read in one C call, then only the groups of more than one card checked card by card
    (``clone_for`` asks it of every imagined deal of Three-in-One and Tripoley, where
    half of stage one's groups are a single card)."""
    heads, rests, groups = plan
    if heads is None:
        return whole_holders(where, groups)
    out: list[int] = list(heads(where))
    for i, rest in rests:
        h = out[i]
        for c in rest:
            if where[c] != h:
                out[i] = PLAYED
                break
    return tuple(out)


def holds_pay_card(deal: Deal, seat: int) -> bool:
    """Whether ``seat`` holds, right now, cards that would win a layout space by holding: a
    card space's card, a whole combination, or a whole run in one suit (Tripoley's "pay
    card", F49)."""
    plan = _cached_plan(deal)
    owner = deal.owner
    for _kind, _sid, groups, _note in plan:
        for cards in groups:
            if all(owner[c] == seat for c in cards):
                return True
    return False


def pay_card_among(deal: Deal, hand: set[int]) -> bool:
    """Whether ``hand`` holds what :func:`holds_pay_card` looks for (a card space's card, a
    whole combination, a whole run in one suit): the same test on a set of cards rather than
    on a seat's hand in the deal (``clone_for``'s check of a hand as it was)."""
    for _kind, _sid, groups, _note in _cached_plan(deal):
        for cards in groups:
            if all(c in hand for c in cards):
                return True
    return False


def pay_masks(deal: Deal) -> tuple[int, ...]:
    """Each card group :func:`pay_card_among` looks for, as a 52-bit mask (bit ``c``: card
    ``c``), once per variant: a hand kept as such a mask holds a pay card when one group's
    bits are all set in it (``clone_for``'s check of each imagined deal, a few integer
    operations where a test card by card cost a pass over each group)."""
    cache = deal.variant.cache
    if _PAY_MASKS in cache:
        return cache[_PAY_MASKS]  # type: ignore[return-value]
    got = cache[_PAY_MASKS] = tuple(sum(1 << int(c) for c in set(cards))
                                    for _k, _s, groups, _n in _cached_plan(deal)
                                    for cards in groups)
    return got


_PAY_MASKS: Final = ("stage_one_masks",)
"""Key of the stage-one plan's card groups as masks in ``variant.cache``."""


def _share(deal: Deal, space: str, seats: list[int], note: str,
           shown: dict[int, tuple[int, ...]] | None = None) -> None:
    """Split a space equally among ``seats`` (a seat listed twice gets two shares); the
    remainder stays on the space. ``shown`` are the cards each claimant reveals."""
    if not seats or not deal.is_live(space):
        return
    have = deal.ledger.layout.get(space, 0)
    share = have // len(seats)
    why = note if len(seats) == 1 else f"{note} (one of {len(seats)} shares)"
    for s in seats:
        if share:
            deal.claim(s, space, why, chips=share,
                       shown=(shown or {}).get(s, ()))
    if share and deal.rules.retire_claimed and deal.ledger.layout.get(space, 0) == 0:
        deal.retire(space)


@mypyc_attr(allow_interpreted_subclasses=True)
class RunNone(ClaimPolicy):
    """No prize for runs."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SameSuitRun(ClaimPolicy):
    """``run_length`` cards of consecutive rank in one suit, played one straight after another
    by the same player, win the ``run_space`` (once per deal; it may then be retired)."""

    same_suit = True

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        length: int = params.length
        space: str = params.space
        same_suit = self.same_suit

        def on_any(d: Deal, seat: int, card: int) -> None:
            run = d.state(RunStreak)
            if seat == run.seat and (not same_suit or (
                    card == run.card + 1 and card // 13 == run.card // 13)):
                run.length += 1
            else:
                run.length = 1
            run.seat, run.card = seat, card
            if (run.length == length and not run.won
                    and d.claim(seat, space, f"a run of {length} ending {_name(card)}")):
                run.won = True

        every.append(on_any)


@mypyc_attr(allow_interpreted_subclasses=True)
class AnyThreeRun(SameSuitRun):
    """Any ``run_length`` cards played one after another by the same player (a stop card, a
    switch card and its follower count) win the ``run_space``."""

    same_suit = False


def _name(card: int) -> str:
    return str(CARDS[card])


@attrs.frozen
class OnPlayParams:
    ten: Literal["first_takes_all", "share_at_end"] = param(
        "first_takes_all", "Played suit runs: the first to play one takes the space, or all "
        "who play one share it at the end of the deal.", option="on_play_ten")
    below_ace: Literal["king"] = param("king", card_below.BELOW_ACE_DOC, option="below_ace")


@attrs.frozen
class StageOneParams:
    ten_share: Literal["per_player", "per_sequence", "lowest_seat"] = param(
        "per_player", "Held suit runs (8-9-10): equal shares, one per player (per_player, "
        "also called share) or one per run held (per_sequence); or the holder nearest the "
        "dealer's left takes all (lowest_seat).", value_aliases={"share": "per_player"})
    dead_hand_blocks: bool = param(
        False, "If the spare hand itself holds a run space's ranks in one suit, that space "
        "pays nobody this deal.")


@attrs.frozen
class RunParams:
    length: int = param(3, "How many cards make a run.", option="run_length",
                        validator=attrs.validators.ge(2))
    space: str = param("pot", "The layout space a run wins.", option="run_space")


ALL_KINDS = frozenset({"card", "combo", "suit_run"})
"""The kinds of space a claim policy pays (the generic text names all three)."""


def kinds(variant: Any) -> frozenset[str]:
    """The kinds of claimable space on ``variant``'s layout: a rule's text speaks only of
    those (no run space in a game without one)."""
    return frozenset(s.kind for s in variant.layout if s.kind in ALL_KINDS)


CARD_CLAUSE = "whoever plays the card of a card space takes its chips at once"


def on_play_text(p: OnPlayParams, have: frozenset[str] = ALL_KINDS) -> str:
    """What ``on_play`` pays, for the kinds of space ``have`` (empty: nothing to say)."""
    parts = []
    if "card" in have:
        parts.append(CARD_CLAUSE)
    if "combo" in have:
        parts.append("a combination space pays a player who has played all its cards, when "
                     "he plays the last of them")
    if "suit_run" in have:
        parts.append("a run space pays the first player to play all its ranks in one suit" if
                     p.ten == "first_takes_all" else "a run space is shared at the end of the "
                     "deal by every player who played all its ranks in one suit")
    if not parts:
        return ""
    return "Spaces pay as their cards are played: " + "; ".join(parts) + "."


def _stage_one_text(p: StageOneParams, have: frozenset[str] = ALL_KINDS) -> str:
    parts = []
    if "card" in have:
        parts.append("each card space pays the player who holds its card")
    if "combo" in have:
        parts.append("a combination space pays a player who holds all its cards")
    if "suit_run" in have:
        parts.append("a run space is shared equally by the players who hold its ranks in one "
                     "suit, any remainder staying on the space")
    if not parts:
        return ""
    t = ("Before play, spaces pay for the cards held: " + "; ".join(parts) + ". Cards in the "
         "spare hand claim nothing.")
    if "suit_run" in have:
        t += {"per_player": " A player holding the run in two suits takes one share.",
              "per_sequence": " A player holding the run in two suits takes two shares.",
              "lowest_seat": " If several players hold the run, the one nearest the "
              "dealer's left takes it all."}[p.ten_share] + (
            " If the spare hand holds the run in one suit, the run space pays nobody that "
            "deal." if p.dead_hand_blocks else "")
    return t


def _run_text(consecutive: bool) -> Callable[[RunParams], str]:
    def text(p: RunParams) -> str:
        what = ("cards of consecutive rank in one suit, one straight after another (a lead "
                "counts)" if consecutive else "cards one straight after another (any cards)")
        return (f"A player who plays {p.length} {what} wins the {p.space}; only the first run "
                "of a deal collects.")
    return text


def _run_space_exists(variant: Any, p: RunParams) -> list[tuple[str, str]]:
    if p.space not in variant.spaces:
        return [("space", f"no layout space {p.space!r}; expected one of "
                 + ", ".join(variant.space_ids))]
    return []


def _text(s: str) -> Any:
    return lambda params: s


def register(reg: Registry) -> None:
    """The claim policies (slots ``pay_collection`` and ``run_rule``)."""
    p = reg.register_policy
    p("pay_collection", "none", pays=_nothing, phrase="never pay by themselves",
      describe=lambda v, q: "The layout's spaces never pay by themselves." if kinds(v) else "",
      text=_text("The layout's spaces never pay by themselves."))(NoClaims())
    p("pay_collection", "on_play", params=OnPlayParams, text=_on_play_reference,
      describe=_on_play_describe, check=_on_play_check,
      phrase="pay as their cards are played", pays=_on_play_pays,
      states=(SuitRuns,))(OnPlay())
    p("pay_collection", "stage_one", params=StageOneParams, text=_stage_one_text,
      describe=lambda v, q: _stage_one_text(q, kinds(v)),
      phrase="spaces pay for the cards held", lint=_stage_one_needs_phase,
      pays=_card_spaces)(StageOne())
    p("run_rule", "none", pays=_nothing, text=_text(""))(RunNone())  # nothing to tell
    p("run_rule", "same_suit_consecutive", params=RunParams, text=_run_text(True),
      phrase="one straight after another", check=_run_space_exists,
      pays=_run_space, states=(RunStreak,))(SameSuitRun())
    p("run_rule", "any_three_consecutive_plays", params=RunParams, text=_run_text(False),
      phrase="one straight after another", check=_run_space_exists,
      pays=_run_space, states=(RunStreak,))(AnyThreeRun())


def _on_play_describe(variant: Any, p: OnPlayParams) -> str:
    own = on_play_text(p, kinds(variant))
    below = card_below.text(variant, p.below_ace, alone=not own)
    return f"{own} {below}" if own and below else own or below


def _on_play_reference(p: OnPlayParams) -> str:
    return f"{on_play_text(p)} {card_below.general_text(p.below_ace)}"


def _on_play_check(variant: Any, p: OnPlayParams) -> list[str]:
    return card_below.check(variant, p.below_ace)


def _on_play_pays(variant: Any, p: OnPlayParams) -> tuple[str, ...]:
    return _card_spaces(variant, p) + card_below.pays(variant)


def _nothing(variant: Any, params: Any) -> tuple[str, ...]:
    return ()


def _card_spaces(variant: Any, params: Any) -> tuple[str, ...]:
    return tuple(s.id for s in variant.layout if s.kind in ("card", "combo", "suit_run"))


def _run_space(variant: Any, p: RunParams) -> tuple[str, ...]:
    return (p.space,)


def _stage_one_needs_phase(variant: Any, p: StageOneParams) -> list[str]:
    if "claim_held" not in variant.flow:
        return ["stage_one claims are made by the claim_held phase, which is not in flow; "
                "add claim_held after spare_hand"]
    return []

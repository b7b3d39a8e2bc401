"""Helpers shared by the hand-derived tests: stacking a deal, writing decisions, reading a
deal's events and state. One module, so that a fix to (say) the pack check reaches every test.

Tests import it as ``support``: ``tests`` has no ``__init__.py``, so pytest's default
``prepend`` import mode puts ``tests/`` on ``sys.path`` when it imports ``tests/conftest.py``,
before any test file in any folder below it.

Two families of helpers live here. The grid-based family tests (``tests/games/``) write deals
as ownership grids (:func:`grid`) and decisions as dicts (:func:`act`, :func:`lead_decision`,
:func:`pass_`); the older files stack 52-card deals hand by hand (:func:`spare_of`,
:func:`new_deal`, :func:`ready`) and apply decisions at once (:func:`lead`). Where copies of a
helper differed in behaviour the difference is kept as a parameter, with the default being the
behaviour most of the files had; every such parameter says which game needs the other.

Cards are written as in the records: rank then suit, e.g. ``"TD"``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

import stops
from stops import Action, parse_card
from stops.phases.poker import PokerResult

__all__ = [
    "RANKS_HIGH",
    "SUITS",
    "act",
    "claims",
    "conserved",
    "expect_illegal",
    "grid",
    "hands_of",
    "lead",
    "lead_action",
    "lead_choices",
    "lead_decision",
    "legal",
    "make_record",
    "new_deal",
    "nonzero",
    "nonzero_spaces",
    "norm",
    "normalised_legal",
    "pack",
    "pass_",
    "play_through",
    "plays",
    "plays_written",
    "poker_winners",
    "prefix_replayer",
    "ready",
    "refused",
    "rest_of_pack",
    "settle_spare",
    "skip_unless_built",
    "snapshot",
    "spare_of",
    "stake_all",
]

RANKS_HIGH = "23456789TJQKA"
"""Ace-high rank order, the default for the ownership grids (Newmarket, Tripoley)."""

SUITS = "CDHS"
"""Suit order of every pack and grid here: clubs, diamonds, hearts, spades."""


# -- the module skip guard --------------------------------------------------------------------


def skip_unless_built(variant: str) -> list[pytest.MarkDecorator]:
    """The ``pytestmark`` for a family test file: skip the whole module while ``variant``
    cannot be loaded (the game is not built in yet), run it as soon as it can.

    Use as ``pytestmark = skip_unless_built(VARIANT)``; an empty list marks nothing.
    """
    try:
        stops.load_variant(variant)
    except stops.StopsError:
        return [pytest.mark.skip(reason=f"{variant} is not built in yet")]
    return []


# -- packs, hands and the rest of the pack ----------------------------------------------------


def pack(ranks: str, suits: str = SUITS, missing: Iterable[str] = ()) -> list[str]:
    """The game's pack, suit by suit in ``suits`` order and within a suit in ``ranks`` order,
    without the cards in ``missing`` (the 8D in Pope Joan and Spinado).

    The family games use short or reordered packs (no aces in Comet, no 2s and no 8D in
    Spinado, ace low in several), so the pack is built from the game's own rank string
    rather than taken from ``stops.CARDS``.
    """
    gone = set(missing)
    return [r + s for s in suits for r in ranks if r + s not in gone]


def hands_of(*rows: str) -> list[list[str]]:
    """Hands written one string per seat, seat 0 first: ``"QS 5S 6S"`` -> ``["QS", "5S",
    "6S"]``. Keeps a deal table in a test readable as a table."""
    return [row.split() for row in rows]


def rest_of_pack(hands: list[list[str]], expect: str, *, pack: Sequence[str],
                 hand_size: Mapping[int, int], rest_size: Mapping[int, int],
                 pack_size: int | None = None) -> list[str]:
    """The cards of ``pack`` not in ``hands`` (the talon, widow or cards set aside), in pack
    order, after checking the deal against the game's deal table.

    Checks, so that a mistyped hand fails loudly instead of stacking an impossible deal:
    every hand has ``hand_size[n]`` cards for ``n`` players, no card is dealt twice, every
    card is in the pack, the rest has ``rest_size[n]`` cards and is exactly the cards written
    in ``expect`` (any order). With ``pack_size`` the pack's own length is checked first
    (Comet: 48, Spinado: 47); Nain Jaune's copy had no such check, hence the default None.
    """
    n = len(hands)
    if pack_size is not None:
        assert len(pack) == pack_size
    assert all(len(h) == hand_size[n] for h in hands), [len(h) for h in hands]
    flat = [c for h in hands for c in h]
    assert len(flat) == len(set(flat)), "a card is dealt twice"
    assert set(flat) <= set(pack), set(flat) - set(pack)
    rest = [c for c in pack if c not in set(flat)]
    assert len(rest) == rest_size[n]
    assert sorted(rest) == sorted(expect.split()), rest
    return rest


def grid(rows: Mapping[str, str], sizes: tuple[int, ...], spare_size: int, *,
         ranks: str = RANKS_HIGH, missing: Iterable[str] = (),
         pack_size: int | None = None) -> tuple[list[list[str]], list[str]]:
    """Hands and spare hand (dummy, dead hand) from an ownership grid.

    ``rows`` maps each suit to 13 characters, one per rank in ``ranks`` order (spaces are
    ignored): a digit names the seat holding the card, ``x`` puts it in the spare hand, and
    ``-`` marks a card in ``missing`` (not in the pack; Pope Joan's 8D), which must be marked
    so. The grid makes a whole deal visible at a glance; the checks make sure it is a real
    one: every hand has its size in ``sizes`` (the deal shape's sizes, seat 0 first), the
    spare hand has ``spare_size`` cards, and hands + spare are exactly the pack. With
    ``pack_size`` the pack's length is checked too (Pope Joan: 51).
    """
    gone = set(missing)
    full = pack(ranks, SUITS, gone)
    hands: list[list[str]] = [[] for _ in sizes]
    spare: list[str] = []
    for suit in SUITS:
        owners = rows[suit].replace(" ", "")
        assert len(owners) == 13, (suit, owners)
        for rank, who in zip(ranks, owners, strict=True):
            card = rank + suit
            if card in gone:
                assert who == "-", f"the {card} is not in the pack"
            elif who == "x":
                spare.append(card)
            else:
                hands[int(who)].append(card)
    assert tuple(len(h) for h in hands) == sizes, [len(h) for h in hands]
    assert len(spare) == spare_size
    assert sorted([c for h in hands for c in h] + spare) == sorted(full)
    if pack_size is not None:
        assert len(full) == pack_size
    return hands, spare


# -- records and decisions --------------------------------------------------------------------


def make_record(variant: str, hands: list[list[str]], spare: list[str],
                actions: list[dict[str, Any]] | None = None, *,
                options: dict[str, Any] | None = None, dealer: int = 0,
                stacks: list[int] | None = None, chips: int = 50,
                layout: dict[str, int] | None = None, keep_empty_layout: bool = False,
                **extra: Any) -> dict[str, Any]:
    """A game record of a stacked deal, for ``stops.replay``.

    Every seat starts with ``chips`` unless ``stacks`` is given (Tripoley's default is 200).
    The copies differed over an empty layout: Newmarket, Pope Joan and Tripoley left
    ``layout`` out of the record when it was empty (``keep_empty_layout=False``, the
    default); Nain Jaune and Spinado wrote any layout given, ``{}`` included, and Comet
    always wrote ``{}`` (``keep_empty_layout=True``). ``layout=None`` is always left out.
    ``extra`` fields (Pope Joan's ``turn_up``, Spinado's ``exempt``) are written when not
    None.
    """
    rec: dict[str, Any] = {
        "variant": variant,
        "options": dict(options or {}),
        "players": len(hands),
        "dealer": dealer,
        "stacks": list(stacks) if stacks is not None else [chips] * len(hands),
        "hands": [list(h) for h in hands],
        "spare": list(spare),
        "actions": list(actions or []),
    }
    for key, value in extra.items():
        if value is not None:
            rec[key] = list(value) if isinstance(value, list) else value
    if layout is not None and (layout or keep_empty_layout):
        rec["layout"] = dict(layout)
    return rec


def act(seat: int, action: str, **fields: Any) -> dict[str, Any]:
    """Any decision: ``{"seat": seat, "action": action, **fields}``."""
    return {"seat": seat, "action": action, **fields}


def lead_decision(seat: int, card: str) -> dict[str, Any]:
    """A one-card lead decision (the ``L`` of the grid-based files)."""
    return act(seat, "lead", card=card)


def pass_(seat: int) -> dict[str, Any]:
    """A pass decision (the trailing underscore because ``pass`` is a keyword)."""
    return act(seat, "pass")


def plays_written(text: str) -> list[tuple[int, str]]:
    """Plays written ``"1:2D 1:3D"`` -> ``[(1, "2D"), (1, "3D")]`` (the ``P`` of the
    grid-based files): a long trace stays on one or two lines and reads like the comments."""
    out = []
    for item in text.split():
        seat, card = item.split(":")
        out.append((int(seat), card))
    return out


# -- looking at a deal ------------------------------------------------------------------------


def plays(deal: stops.Deal) -> list[tuple[int, str]]:
    """The cards played so far as (seat, card text), comparable with the written traces."""
    return [(s, str(c)) for s, c in deal.plays]


def nonzero_spaces(layout: Any) -> dict[str, int]:
    """The spaces of a layout (a deal's or a table's) that hold chips: empty spaces vary with
    the engine's bookkeeping, so the tests compare only the occupied ones."""
    return {k: v for k, v in dict(layout).items() if v}


def nonzero(deal: stops.Deal) -> dict[str, int]:
    """``nonzero_spaces`` of a deal's layout."""
    return nonzero_spaces(deal.layout)


def legal(deal: stops.Deal) -> list[dict[str, Any]]:
    """The legal actions as plain dicts, in the engine's order."""
    return [a.to_dict() for a in deal.legal_actions()]


def lead_choices(deal: stops.Deal) -> list[tuple[int, str]]:
    """The legal leads as (seat, card), sorted; asserts every legal action is a lead."""
    acts = legal(deal)
    assert all(a["action"] == "lead" for a in acts), acts
    return sorted((a["seat"], a["card"]) for a in acts)


def _norm(d: Mapping[str, Any], drop_false: Iterable[str] = ()) -> str:
    """One action as canonical JSON: None fields dropped, keys sorted, and each field named
    in ``drop_false`` dropped when it is False (Spinado's ``spinado`` flag, so that an
    explicit ``spinado: false`` equals its absence)."""
    out = {k: v for k, v in d.items() if v is not None}
    for key in drop_false:
        if out.get(key) is False:
            del out[key]
    return json.dumps(out, sort_keys=True)


def normalised_legal(deal: stops.Deal, drop_false: Iterable[str] = ()) -> list[str]:
    """The legal actions as sorted canonical JSON (see ``_norm``): comparable with ``norm``
    of the expected actions whatever the engine's order and optional fields. Comet and
    Spinado call this ``legal``; Spinado passes ``drop_false=("spinado",)``."""
    keys = tuple(drop_false)
    return sorted(_norm(a.to_dict(), keys) for a in deal.legal_actions())


def norm(*actions: Mapping[str, Any], drop_false: Iterable[str] = ()) -> list[str]:
    """Expected actions in the form ``normalised_legal`` returns."""
    keys = tuple(drop_false)
    return sorted(_norm(a, keys) for a in actions)


def conserved(deal: stops.Deal, total: int) -> None:
    """Chips are neither made nor lost: stacks plus layout add up to ``total``."""
    assert sum(deal.stacks) + sum(dict(deal.layout).values()) == total


# -- illegal decisions change nothing ---------------------------------------------------------


def snapshot(deal: stops.Deal) -> tuple[Any, ...]:
    """Everything an illegal action must leave as it was."""
    return (deal.record(), deal.stacks, dict(deal.layout), plays(deal), deal.current_seat,
            deal.is_terminal)


def expect_illegal(deal: stops.Deal, action: dict[str, Any]) -> None:
    """``action`` is refused with IllegalAction and the deal is unchanged (``snapshot``)."""
    before = snapshot(deal)
    with pytest.raises(stops.IllegalAction):
        deal.apply(action)
    assert snapshot(deal) == before  # refused, and nothing changed


def refused(deal: stops.Deal, *bad: dict[str, Any]) -> None:
    """Each of ``bad`` is refused with IllegalAction and leaves the record unchanged.

    Comet's and Spinado's form: it compares only ``deal.record()`` (``expect_illegal``
    compares the whole ``snapshot``) and takes several actions at once.
    """
    before = deal.record()
    for b in bad:
        with pytest.raises(stops.IllegalAction):
            deal.apply(b)
        assert deal.record() == before


def refused_with(deal: stops.Deal, decision: Action, code: str) -> None:
    """``decision`` is refused with the refusal ``code`` and changes nothing the engine
    counts (its decisions, its events, the stacks): the poker stage's and spare auction's
    step tests, which refuse many decisions and compare codes."""
    before = (len(deal.actions), len(deal.events), deal.stacks)
    with pytest.raises(stops.IllegalAction) as e:
        deal.apply(decision)
    assert e.value.code == code
    assert (len(deal.actions), len(deal.events), deal.stacks) == before


# -- replaying --------------------------------------------------------------------------------


def prefix_replayer(record: Callable[..., dict[str, Any]], hands: list[list[str]],
                    spare: list[str], actions: list[dict[str, Any]]
                    ) -> Callable[[int], stops.Deal]:
    """``at(k)``: the deal replayed (partially) through its first ``k`` actions, for tests
    that check a trace decision by decision. ``record`` is the file's record builder."""

    def at(k: int) -> stops.Deal:
        return stops.replay(record(hands, spare, actions[:k]), partial=True)

    return at


def play_through(deal: stops.Deal, actions: list[dict[str, Any]]) -> None:
    """Apply ``actions`` in order; the deal must then be over."""
    for a in actions:
        deal.apply(a)
    assert deal.is_terminal


# -- stacking 52-card deals by hand (the older files) ----------------------------------------


def spare_of(hands: list[list[str]]) -> list[str]:
    """The spare hand: every card of the pack not in ``hands``."""
    used = {parse_card(c) for h in hands for c in h}
    return [str(c) for c in stops.CARDS if c not in used]


def new_deal(table: stops.Table, hands: list[list[str]]) -> stops.Deal:
    return table.new_deal(hands=hands, spare=spare_of(hands))


def stake_all(deal: stops.Deal, choices: dict[int, str]) -> None:
    """Each seat in turn stakes on its chosen key card (chips omitted: the fixed 1)."""
    while deal.phase == "stake":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": "stake", "space": choices[seat]})


def settle_spare(deal: stops.Deal, choices: dict[int, str] | None = None) -> None:
    """The dealer's keep/swap and each paid exchange: ``keep`` unless ``choices`` says."""
    while deal.phase == "spare_hand":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": (choices or {}).get(seat, "keep")})


def ready(table: stops.Table, hands: list[list[str]], stakes: dict[int, str],
          exchanges: dict[int, str] | None = None) -> stops.Deal:
    """A stacked deal taken through stakes and the spare hand, to the first lead."""
    deal = new_deal(table, hands)
    stake_all(deal, stakes)
    settle_spare(deal, exchanges)
    assert deal.phase == "play"
    return deal


def lead(deal: stops.Deal, seat: int, card: str) -> list[stops.Event]:
    """``seat`` leads ``card`` in ``deal`` now; the events it caused."""
    return deal.apply({"seat": seat, "action": "lead", "card": card})


def lead_action(seat: int, card: str) -> Action:
    """The ``lead`` of ``card`` by ``seat`` as an :class:`~stops.Action`."""
    return Action(seat, "lead", card=parse_card(card))


def claims(deal: stops.Deal, *, public_only: bool = False
           ) -> list[tuple[int | None, str | None, int]]:
    """Who claimed what: ``(seat, space, chips)`` of each ``claimed`` event, in order. With
    ``public_only`` only the claims every seat sees (Pope Joan and the variation files leave
    out the claims shown to one seat)."""
    return [(e.seat, e.space, e.chips) for e in deal.events
            if e.kind == "claimed" and (not public_only or e.visible_to is None)]


def poker_winners(deal: stops.Deal) -> tuple[int, ...]:
    """Who won the poker pot (the poker phase's published result), or ``()``."""
    result = deal.result(PokerResult)
    return result.winners if result is not None else ()


def colour_deal_after_the_poker(rows: Mapping[str, str], seats: Mapping[str, int]
                                ) -> stops.Deal:
    """A stacked Tripoley-colours deal at four seats, dealer 0, brought to play: ``rows``
    gives, per suit letter, one character per rank (2 to A) naming where the card lies
    (a key of ``seats``, or ``x`` for the dead hand). The dealer auctions the dead hand and
    everyone passes; in the poker seat 1 bets 1 and the others fold (no hand is shown)."""
    hands: list[list[str]] = [[], [], [], []]
    dead: list[str] = []
    for suit, row in rows.items():
        for rank, who in zip(RANKS_HIGH, row, strict=True):
            if who == "x":
                dead.append(rank + suit)
            else:
                hands[seats[who]].append(rank + suit)
    table = stops.Table("tripoley-colours", seats=4, chips=200, seed=1, dealer=0)
    deal = table.new_deal(hands=hands, spare=dead)
    deal.apply({"seat": 0, "action": "auction"})
    for s in (1, 2, 3):
        deal.apply({"seat": s, "action": "pass"})
    deal.apply({"seat": 1, "action": "bet", "chips": 1})
    for s in (2, 3, 0):
        deal.apply({"seat": s, "action": "fold"})
    assert deal.phase == "play"
    return deal


def midway(name: str, seed: int, steps: int, seats: int = 4) -> stops.Deal:
    """A deal of ``name`` after ``steps`` uniformly random decisions (fewer if it ends
    first), seeded by ``seed``: a position partway through, for copies and saves."""
    rng = random.Random(seed)
    deal = stops.Table(name, seats=seats, chips=40, seed=seed).new_deal()
    for _ in range(steps):
        if deal.is_terminal:
            break
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal

"""Pope Joan's own mechanism (docs/family-rulings.md F.2): the trump compartments.

* The ``trumps`` claims policy (slot ``pay_collection``) pays the fixed card spaces (the
  Pope) and the compartments that stand for a trump honour (``ace`` ... ``jack``) or a pair
  of trump honours played by one player (``matrimony``, ``intrigue``; F18), in that order on
  one card. The layout only names these compartments (kind ``pool``); which card each stands
  for is bound when the trump suit is known, after the deal. At the end of the deal it
  excuses the holder of the Pope from paying for his cards (F19). It tells the turn-up phase
  which compartments a turned-up card would win (F16, F21).

The turn-up itself (the last card dealt, its suit trumps) is the shared ``turn_up`` phase
(:mod:`stops.phases.turn_up`), which Poch plays too. Everything else Pope Joan plays by is
general: the pattern stake rule (the dealer dresses the board), the ``equal_plus_dead`` deal
shape with the dead hand seen by the dealer alone, ace low, the ``any_card`` lead and the
``game_plus_per_card`` reward.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from stops.engine.cards import CARDS, RANKS
from stops.phases.turn_up import TrumpClaimPolicy, Trumps, rank_word, trump_suit
from stops.policies.claims import OnPlay, OnPlayParams, SuitRuns
from stops.policies.endings import Excused
from stops.rules.contracts import Handler, Triggers
from stops.rules.model import RankName
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

_rank_word = rank_word

# -- the claims -------------------------------------------------------------------------------


@attrs.frozen
class TrumpParams:
    honours: dict[str, RankName] = attrs.field(factory=dict, metadata={
        "doc": "Compartments won by playing a trump of a given rank, e.g. {ace: A, king: K}; "
        "the card is bound when the trump suit is known."})
    pairs: dict[str, tuple[RankName, ...]] = attrs.field(factory=dict, metadata={
        "doc": "Compartments won by one player having played both trumps of the given ranks, "
        "in either order, e.g. {matrimony: [K, Q], intrigue: [Q, J]}; paid on the second, in "
        "this order, after the card's own compartment."})
    excuse: str = attrs.field(default="", metadata={
        "doc": "A card space whose card excuses its holder from paying for his cards when "
        "someone goes out (the Pope), unless pope_holder_pays."})
    pope_holder_pays: bool = param(
        False, "A player still holding the Pope (the card of the `excuse` space) when someone "
        "goes out pays for his cards like everyone else (docs/family-rulings.md F19).",
        option="pope_holder_pays")


_PLAIN = OnPlayParams()


def _rank_index(rank: str) -> int:
    return RANKS.index(str(rank))


_ON_PLAY = OnPlay()
"""The plain claims of the fixed card spaces (the Pope), which the trump claims keep."""


class TrumpClaims(TrumpClaimPolicy):
    """Card spaces pay whoever plays their card; a trump-honour compartment pays whoever
    plays the trump of its rank; a pair compartment pays a player who has played both its
    trumps. On one card: its own compartment first, then the pairs in order."""

    space_word = "compartment"

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        _ON_PLAY.watch(variant, _PLAIN, triggers, every)  # the fixed card spaces first
        for space, rank in params.honours.items():
            r = _rank_index(rank)
            for suit in range(4):
                card = suit * 13 + r
                if CARDS[card] in variant.deck:
                    triggers.setdefault(card, []).append(_honour(space))
        for space, ranks in params.pairs.items():
            idx = tuple(_rank_index(x) for x in ranks)
            for suit in range(4):
                cards = tuple(suit * 13 + r for r in idx)
                if all(CARDS[c] in variant.deck for c in cards):
                    h = _pair(space, cards)
                    for c in cards:
                        triggers.setdefault(c, []).append(h)

    def end(self, deal: Deal, params: Any) -> None:
        _ON_PLAY.end(deal, _PLAIN)
        if params.pope_holder_pays or not params.excuse:
            return
        space = deal.variant.spaces.get(params.excuse)
        if space is None or space.card is None:
            return
        holder = deal.owner[int(space.card)]
        if holder >= 0:
            held = CARDS[int(space.card)]
            why = f"holds {space.label} ({held})" if space.label else f"holds {held}"
            deal.publish(Excused(frozenset({holder}), why))

    def bound_cards(self, deal: Deal, params: Any) -> dict[str, tuple[int, ...]]:
        """The trumps each honour and pair compartment stands for, once the turn-up has
        made a suit trumps (none before)."""
        suit = trump_suit(deal)
        if suit < 0:
            return {}
        out: dict[str, tuple[int, ...]] = {space: (suit * 13 + _rank_index(rank),)
               for space, rank in params.honours.items()}
        out.update({space: tuple(suit * 13 + _rank_index(r) for r in ranks)
                    for space, ranks in params.pairs.items()})
        return out

    def turned_up(self, variant: Variant, params: Any, card: int, honours: bool) -> list[str]:
        """The spaces ``card`` would win if played, as the turn-up (always of trumps): the
        Pope's if it is the Pope, and (``honours``) the compartment of a trump honour of its
        rank."""
        out = [s.id for s in variant.layout
               if s.kind == "card" and s.card is not None and int(s.card) == card]
        if honours:
            rank = card % 13
            out += [sid for sid, r in params.honours.items() if _rank_index(r) == rank]
        return out

    def honour_ranks(self, params: Any) -> list[str]:
        return [str(r) for r in params.honours.values()]


def _honour(space: str) -> Handler:
    def on_trump(deal: Deal, seat: int, card: int) -> None:
        if card // 13 == trump_suit(deal):
            deal.claim(seat, space, f"played {CARDS[card]}, a trump")

    return on_trump


def _pair(space: str, cards: tuple[int, ...]) -> Handler:
    def on_pair(deal: Deal, seat: int, card: int) -> None:
        if card // 13 == trump_suit(deal) and all(deal.played_by[c] == seat for c in cards):
            deal.claim(seat, space, "played " + " and ".join(str(CARDS[c]) for c in cards))

    return on_pair


def _trumps_text(p: TrumpParams, variant: Any = None) -> str:
    parts = ["Trumps are the suit of the turn-up."]
    fixed = [s for s in variant.layout if s.kind == "card" and s.card is not None] if (
        variant is not None) else None
    if fixed is None:
        parts.append("Whoever plays the card of a card space takes its chips at once, "
                     "whatever the trumps.")
    for s in fixed or ():
        card = CARDS[int(s.card)].symbol() if s.card is not None else ""
        named = f"{s.label} (the {card})" if s.label else f"the {card}"
        parts.append(f"Whoever plays {named} takes the {s.id} compartment at once, whatever "
                     "the trumps.")
    if p.honours:
        spaces = _and(list(p.honours))
        words = [_rank_word(r) for r in p.honours.values()]
        which = words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
        parts.append(f"The {spaces} compartments each pay whoever plays the card they stand for "
                     f"this deal, the {which} of trumps.")
    for space, pair in p.pairs.items():
        both = " and the ".join(_rank_word(r) for r in pair)
        parts.append(f"The {space} compartment pays a player who has played both the {both} "
                     "of trumps, in either order, when he plays the second; if either is in "
                     "the spare hand it cannot be won.")
    if p.pairs:
        parts.append("On one card its own compartment pays first, then "
                     + ", then ".join(p.pairs) + ".")
    if p.excuse and not p.pope_holder_pays:
        parts.append(f"A player still holding {_excused_card(p, variant)} when someone goes "
                     "out pays nothing for the cards he holds.")
    return " ".join(parts)


def _excused_card(p: TrumpParams, variant: Any = None) -> str:
    """The card that excuses its holder, in words: ``the Pope (the 9♦)``."""
    space = variant.spaces.get(p.excuse) if variant is not None else None
    if space is None or space.card is None:
        return f"the card of the {p.excuse} compartment"
    card = CARDS[int(space.card)].symbol()
    return f"{space.label} (the {card})" if space.label else f"the {card}"


def _trumps_excuses(variant: Any, p: TrumpParams) -> str:
    """Whom the rule excuses from paying for his cards (F19): the holder of the Pope."""
    if not p.excuse or p.pope_holder_pays:
        return ""
    return "the holder of " + _excused_card(p, variant).split(" (")[0]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _trumps_check(variant: Any, p: TrumpParams) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for field, names in (("honours", list(p.honours)), ("pairs", list(p.pairs))):
        for sid in names:
            if sid not in variant.spaces:
                out.append((field, f"no layout space {sid!r}; expected one of "
                            + ", ".join(variant.space_ids)))
    for sid, ranks in p.pairs.items():
        if len(set(ranks)) < 2:
            out.append(("pairs", f"{sid} needs two different ranks, e.g. [K, Q]"))
    if p.excuse and (p.excuse not in variant.spaces or variant.spaces[p.excuse].kind != "card"):
        out.append(("excuse", f"{p.excuse!r} is not a card space of the layout"))
    return out


def _trumps_lint(variant: Any, p: TrumpParams) -> list[str]:
    if (p.honours or p.pairs) and "turn_up" not in variant.flow:
        return ["the trump compartments need a trump suit: add the turn_up phase after deal"]
    return []


def _trumps_pays(variant: Any, p: TrumpParams) -> tuple[str, ...]:
    cards = tuple(s.id for s in variant.layout if s.kind in ("card", "combo", "suit_run"))
    return (*cards, *p.honours, *p.pairs)


def register(reg: Registry) -> None:
    """Pope Joan's trump claims (the turn-up phase is shared: :mod:`stops.phases.turn_up`)."""
    reg.register_policy("pay_collection", "trumps", params=TrumpParams, text=_trumps_text,
                        describe=lambda v, q: _trumps_text(q, v),
                        phrase="Trumps are the suit of the turn-up", excuses=_trumps_excuses,
                        check=_trumps_check, lint=_trumps_lint, pays=_trumps_pays,
                        states=(SuitRuns,))(
        TrumpClaims())


__all__ = ["TrumpClaims", "TrumpParams", "Trumps", "trump_suit"]

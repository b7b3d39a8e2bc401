"""Spinado's own mechanisms (docs/family-rulings.md F.4): the A♦ that goes down with another
card, the King bonuses, the three named stake rules and Parlett's going-out reward.

* ``companion: spinado`` — the A♦ (the spinado) may go down straight after any card its
  holder is himself playing (a lead, or a card due from him in a sequence, F34); that card
  then stops. Its holder therefore decides every card due from him (a ``follow`` decision,
  with or without ``spinado: true``), which the play phase offers for any companion card.
* ``pay_collection: spinado`` — the bonuses each other player pays at once (F4, F36): the A♦
  (alone or attached), the K♦ and the other Kings; then the combination pools (matrimony,
  intrigue) as ``on_play`` pays them. Order on one card: its bonus, matrimony, intrigue; the
  attached A♦'s bonus after (it is laid after the card), then going out (F1).
* ``stake_rule: dealer_pools_others_game | cassell | one_each`` — F32's three stake rules,
  thin presets over the general ``pattern`` plan, each with the winner's exemption (F33).
* ``going_out_reward: parlett`` — F37's option: the Game pool, 2 chips from each opponent and
  1 more for each King left in his hand.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import attrs

from stops.engine.actions import register_flag
from stops.engine.cards import CARDS, parse_card
from stops.engine.eventkind import EventKind
from stops.policies.claims import (
    ALL_KINDS,
    OnPlay,
    OnPlayParams,
    SuitRuns,
    kinds,
    on_play_text,
)
from stops.policies.endings import space_name
from stops.policies.stakes import (
    WINNER_EXEMPT_TEXT,
    PatternParams,
    StakePlan,
    chips,
    in_chips,
    once,
    pattern,
    winner_exempt,
)
from stops.rules.contracts import Handler, Triggers
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

FLAG = "spinado"
"""The decision field that attaches the A♦: ``{"action": "lead", "card": "5S", "spinado":
true}`` (F.6)."""
SPINADO = int(parse_card("AD"))
KING = 11
"""Rank index of the King in card codes."""
KD = 1 * 13 + KING


# -- the A♦ as a companion card ---------------------------------------------------------------


class SpinadoCompanion:
    """The A♦ may go down straight after a card its holder is playing (a lead, or a card due
    from him), never with someone else's card; the card it goes with becomes a stop and he
    leads next. Its bonus is paid as the claims say (``spinado_bonus``)."""

    def card(self, params: Any) -> int:
        return SPINADO

    def flag(self, params: Any) -> str:
        return FLAG

    def attach(self, deal: Deal, seat: int, card: int, params: Any,
               lay: Callable[..., str | None]) -> str | None:
        lay(deal, seat, SPINADO, EventKind.PLAYED)
        return f"{CARDS[SPINADO]} (the spinado) went down with it"


# -- bonuses and pools ------------------------------------------------------------------------


@attrs.frozen
class SpinadoClaimParams:
    spinado_bonus: int = param(3, "Chips each other player pays whoever plays the A♦ (the "
                               "spinado), alone or with another card (docs/family-rulings.md F36).",
                               option="spinado_bonus", validator=attrs.validators.ge(0))
    kd_bonus: int = param(2, "Chips each other player pays whoever plays the K♦ (F36).",
                          option="kd_bonus", validator=attrs.validators.ge(0))
    king_bonus: int = param(1, "Chips each other player pays whoever plays the K♣, K♥ or K♠ "
                            "(F36).", option="king_bonus", validator=attrs.validators.ge(0))
    alone_stops: bool = param(True, "Whether the A♦ is always a stop, led on its own too, "
                              "whatever its next card (in Spin the 2♦ is in the pack; "
                              "docs/family-rulings.md G.11 item 2).",
                              option="spinado_alone_stops")


class SpinadoClaims(OnPlay):
    """Seat-to-seat bonuses for the A♦ and the Kings, paid at once by every other player;
    then card and combination spaces as ``on_play`` pays them."""

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        in_pack = {int(c) for c in variant.deck}
        amounts = {SPINADO: params.spinado_bonus, KD: params.kd_bonus}
        for suit in range(4):
            amounts.setdefault(suit * 13 + KING, params.king_bonus)
        for card, bonus in amounts.items():
            if bonus > 0 and card in in_pack:
                triggers.setdefault(card, []).append(_bonus(bonus))
        if params.alone_stops and SPINADO in in_pack:
            # a stop like a claim card's: the reason halts the sequence after the A♦
            triggers.setdefault(SPINADO, []).append(_always_stops)
        super().watch(variant, _PLAIN, triggers, every)


_PLAIN = OnPlayParams()


def _bonus(chips: int) -> Handler:
    def on_card(deal: Deal, seat: int, card: int) -> None:
        deal.bonus(seat, chips, f"for {CARDS[card]}")

    return on_card


def _always_stops(deal: Deal, seat: int, card: int) -> str | None:
    return "the spinado is always a stop"


def _claims_text(p: SpinadoClaimParams, variant: Any = None) -> str:
    parts = []
    kings = ((("any King", p.king_bonus),) if p.kd_bonus == p.king_bonus
             else (("the K♦", p.kd_bonus), ("any other King", p.king_bonus)))
    for what, n in (("the A♦ (the spinado), alone or with another card", p.spinado_bonus),
                    *kings):
        if n:
            parts.append(f"{chips(n)} to whoever plays {what}")
    t = ("As cards are played, every other player pays at once " + "; ".join(parts) + ". "
         if parts else "")
    if p.alone_stops:
        t += "The A♦ is always a stop, led on its own too: its player leads next. "
    have = kinds(variant) if variant is not None else ALL_KINDS
    combos = [s.id for s in variant.layout if s.kind == "combo"] if variant is not None else []
    rest = on_play_text(_PLAIN, have - {"combo"})
    if rest:
        t += rest + " "
    if "combo" in have:
        pools = (" and ".join(combos) + (" each pay" if len(combos) > 1 else " pays")
                 if combos else "A combination pool pays")
        t += (f"{pools[0].upper()}{pools[1:]} a player who has played all "
              f"{'their' if len(combos) > 1 else 'its'} cards, in either order, when he plays "
              "the last of them" + ("; on one card the bonus is paid first. " if parts else ". "))
    return t + "A player's last card still earns all this before he goes out."


def _claims_pays(variant: Any, params: Any) -> tuple[str, ...]:
    return tuple(s.id for s in variant.layout if s.kind in ("card", "combo", "suit_run"))


# -- the stakes (F32, F33) --------------------------------------------------------------------


@attrs.frozen
class SpinadoStakeParams:
    winner_exempt: bool = param(
        True, "The winner of the last deal stakes nothing in the next one unless he deals it "
        "(docs/family-rulings.md F33).", option="winner_exempt")


PRESETS: dict[str, PatternParams] = {
    "dealer_pools_others_game": PatternParams(
        dealer={"matrimony": 12, "intrigue": 6, "game": 6}, others={"game": 3}),
    "cassell": PatternParams(
        dealer={"matrimony": 12, "intrigue": 6, "game": 6},
        others={"matrimony": 3, "intrigue": 3, "game": 3}),
    "one_each": PatternParams(each={"matrimony": 1, "intrigue": 1, "game": 1}),
}
"""F32's stake rules as ``pattern`` plans (Pw, Ca, D)."""


def _preset(name: str) -> Callable[..., StakePlan]:
    plan = PRESETS[name]

    def stake(deal: Deal, seat: int, params: SpinadoStakeParams) -> StakePlan:
        return pattern(deal, seat, plan)

    stake.__doc__ = f"Spinado's {name} stakes: the pattern {plan}."
    return stake


STAKE_PHRASES = {
    "dealer_pools_others_game": "on game only",
    "cassell": "on each of the three pools",
    "one_each": "on each of matrimony, intrigue and game",
}
"""What each of F32's stake rules says that the others do not."""


def _stake_text(name: str) -> Callable[[SpinadoStakeParams, int], str]:
    def text(p: SpinadoStakeParams, unit: int = 1) -> str:
        n = {k: chips(k * unit) if k == 12 or name == "one_each" else str(k * unit)
             for k in (1, 3, 6, 12)}
        words = {
            "dealer_pools_others_game": f"the dealer puts {n[12]} on matrimony, {n[6]} on "
            f"intrigue and {n[6]} on game, and every other player {n[3]} on game only",
            "cassell": f"the dealer puts {n[12]} on matrimony, {n[6]} on intrigue and {n[6]} "
            f"on game, and every other player {n[3]} on each of the three pools",
            "one_each": f"every player, the dealer included, puts {n[1]} on each of "
            "matrimony, intrigue and game",
        }[name]
        return (f"Before each deal {words}, adding to any chips left there."
                + (WINNER_EXEMPT_TEXT if p.winner_exempt else ""))

    return text


def _stake_check(variant: Any, p: SpinadoStakeParams) -> list[str]:
    missing = [s for s in ("matrimony", "intrigue", "game") if s not in variant.spaces]
    if missing:
        return ["Spinado's stakes go on matrimony, intrigue and game; the layout has no "
                + ", ".join(missing)]
    return []


# -- Parlett's going-out reward (F37) ---------------------------------------------------------


@attrs.frozen
class ParlettParams:
    space: str = attrs.field(default="game", metadata={
        "doc": "The pool the first player out takes (the Game)."})
    each: int = attrs.field(default=2, validator=attrs.validators.ge(0), metadata={
        "doc": "Chips each opponent pays him."})
    per_king: int = attrs.field(default=1, validator=attrs.validators.ge(0), metadata={
        "doc": "Chips more for each King left in the opponent's hand."})


def parlett(deal: Deal, winner: int, params: ParlettParams) -> None:
    """The winner takes the Game pool; every opponent pays him ``each`` chips and
    ``per_king`` more for each King still in his hand (Parlett)."""
    deal.claim(winner, params.space, "went out first")
    for s in deal.order(winner, include_self=False):
        masks = deal.masks[s]
        kings = sum(1 for suit in range(4) if masks[suit] >> KING & 1)
        deal.pay(s, winner, params.each + params.per_king * kings,
                 f"{params.each} and {params.per_king} per King left")


def _parlett_text(p: ParlettParams, space: str = "") -> str:
    return (f"The first player out takes {space or 'the ' + p.space + ' pool'}, and every "
            f"other player pays him {chips(p.each)}, and {p.per_king} more for each King still "
            "in that player's own hand.")


def _parlett_check(variant: Any, p: ParlettParams) -> list[tuple[str, str]]:
    if p.space not in variant.spaces:
        return [("space", f"no layout space {p.space!r}; expected one of "
                 + ", ".join(variant.space_ids))]
    return []


def register(reg: Registry) -> None:
    """Spinado's A♦, bonuses, stake rules and Parlett's reward."""
    register_flag(FLAG, ("lead", "follow"))
    p = reg.register_policy
    p("companion", "spinado", phrase="(the spinado) may go down straight after",
      text=lambda _: (
          "The A♦ (the spinado) may go down straight after any card its holder is himself "
          "playing: a lead, or a card due from him in a sequence (so he decides, each time a "
          "card is due from him, whether to add the spinado), never with a card someone else "
          "plays. That card becomes a stop and he leads next. The A♦ may also be led on its "
          "own."))(SpinadoCompanion())
    p("pay_collection", "spinado", params=SpinadoClaimParams, text=_claims_text,
      describe=lambda v, q: _claims_text(q, v), phrase="A player's last card still earns",
      pays=_claims_pays, states=(SuitRuns,))(SpinadoClaims())
    for name in PRESETS:
        p("stake_rule", name, params=SpinadoStakeParams, text=once(_stake_text(name)),
          describe=in_chips(_stake_text(name)), phrase=STAKE_PHRASES[name],
          check=_stake_check, exempts_winner=winner_exempt)(_preset(name))
    p("going_out_reward", "parlett", params=ParlettParams, text=_parlett_text,
      describe=lambda v, q: _parlett_text(q, space_name(v, q.space)),
      phrase="more for each King still in that player's own hand",
      check=_parlett_check, pays=lambda v, q: (q.space,))(parlett)

"""The typed model of a variant file.

These attrs classes *are* the schema: the loader structures YAML into them with cattrs
(unknown keys forbidden, no silent type coercion), ``stops schema`` derives the JSON Schema
from them, and ``stops rules`` renders them as prose. Every field's ``metadata["doc"]`` is
the one description of what the setting means.
"""

from __future__ import annotations

from typing import Any, Literal

import attrs

from stops.engine.cards import Card


def _doc(text: str, **more: Any) -> dict[str, Any]:
    return {"doc": text, **more}


@attrs.frozen
class PolicyRef:
    """A policy named in YAML: ``after_stop: must_change_suit`` or ``{use: free, chips: 4}``."""

    use: str
    params: dict[str, Any] = attrs.field(factory=dict, eq=False)

    def __str__(self) -> str:
        if not self.params:
            return self.use
        inner = ", ".join(f"{k}: {_flow_yaml(v)}" for k, v in self.params.items())
        return f"{{use: {self.use}, {inner}}}"

    def to_yaml(self) -> str | dict[str, Any]:
        return self.use if not self.params else {"use": self.use, **self.params}


def _flow_yaml(v: Any) -> str:
    """A parameter value as it is written in a variant file (flow style): ``{pope: 6}``,
    ``[K, Q]``, ``true``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_flow_yaml(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list | tuple):
        return "[" + ", ".join(_flow_yaml(x) for x in v) + "]"
    return str(v)


class RankName(str):
    """A rank written as text: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""

    __slots__ = ()


SpaceKind = Literal["card", "card_below", "combo", "suit_run", "pot", "kitty", "pool", "wager"]


@attrs.frozen
class Space:
    """One labelled space of the layout.

    ``card``: paid by one card (``card: AH``). ``card_below``: shows one card but is won by
    playing the card just below it in its suit, which is then a stop (Peel's Newmarket; see
    :mod:`stops.rules.card_below`). ``combo``: paid by holding or playing all of
    ``cards`` (the K-Q of hearts). ``suit_run``: paid by ``ranks`` in one suit, any suit (the
    8-9-10). ``pot`` and ``kitty``: pools won by a betting round, a run of three, going out, or
    whatever policy names them. ``pool``: a compartment that the layout ties to nothing; the
    policies that name it say what wins it (a trump honour, going out), and its ``label``
    says so in words. ``wager``: a side-bet on one card (``card: AH``), staked by nobody:
    chips go on it only by a wager, and the holder of the card wins it if he bet (Royal
    Rummy's ace side-bet, :mod:`stops.games.royal_rummy`).
    """

    id: str = attrs.field(metadata=_doc("Unique id used in stakes, claims and records.",
                                        nonblank=True))
    kind: SpaceKind = attrs.field(metadata=_doc("What wins this space."))
    card: Card | None = attrs.field(
        default=None, metadata=_doc("For kinds card, card_below and wager: the card."))
    cards: tuple[Card, ...] = attrs.field(default=(), metadata=_doc("For kind combo: the cards."))
    ranks: tuple[RankName, ...] = attrs.field(
        default=(), metadata=_doc("For kind suit_run: the ranks, e.g. [8, 9, 10].")
    )
    label: str = attrs.field(default="", metadata=_doc("How people call it (optional)."))

    def display(self) -> str:
        return self.label or self.id


@attrs.frozen
class PlayerRange:
    min: int = attrs.field(default=3, metadata=_doc("Fewest players.", min=2, unit="players"))
    max: int = attrs.field(default=8, metadata=_doc("Most players.", min=2, unit="players"))


@attrs.frozen
class DeckSpec:
    remove: tuple[Card, ...] = attrs.field(
        default=(), metadata=_doc("Cards taken out of the 52-card pack (e.g. [8D]).")
    )


def _rule(default: Any, doc: str, **more: Any) -> Any:
    return attrs.field(default=default, metadata=_doc(doc, **more))


# Bounds live in a field's metadata, the one source for both the loader's checks
# (:func:`stops.rules.variant.bound_problems`) and the JSON Schema (``minimum``, ``pattern``):
#   ``min``: the smallest whole number allowed;  ``nonblank``: text with something in it.


def _policy(default: str, doc: str, **params: Any) -> Any:
    return attrs.field(
        default=PolicyRef(default, dict(params)), metadata=_doc(doc, slot=True)
    )


@attrs.frozen
class Rules:
    """The rules every variant has: shared settings, and a policy for every slot.

    A policy's own parameters and a phase's own settings are not here: they live with the
    policy or phase (its ``params`` / ``settings`` class), and are written either inline
    (``after_stop: {use: must_change_suit, fallback: pass_left}``) or by their flat name
    (``change_suit_fallback: pass_left``) under ``rules``."""

    # -- the deal ------------------------------------------------------------------------
    spare_hand: bool = _rule(True, "Deal an extra (spare, dead) hand that belongs to nobody.")
    deal_spare_position: Literal["after_dealer", "first"] = _rule(
        "after_dealer",
        "Where the spare hand sits in the deal: dealt after the dealer in each round, or first.",
    )
    dealer_rotation: Literal["clockwise", "fixed"] = _rule(
        "clockwise", "The deal passes to the left after each deal, or stays with one dealer."
    )
    first_dealer: Literal["given", "random"] = _rule(
        "given", "The first dealer is given by the caller, or drawn with the table's seed."
    )
    starting_chips: int = _rule(
        50, "Chips each player starts a session with, unless the table is given others.",
        min=1)
    chip_shortfall: Literal["debt", "pay_what_you_can", "eliminate"] = _rule(
        "debt", "A compulsory payment larger than a stack: the stack goes negative; or the "
        "player pays what they have; or the player pays what they have and, like any player "
        "left with no chips, takes no part in later deals.",
    )
    # -- stakes --------------------------------------------------------------------------
    stake_unit: int = _rule(1, "The unit stake in chips; stake rules are multiples of it.",
                            min=1)
    stake_rule: PolicyRef = _policy("each_space", "Who puts how many chips on which spaces.")
    stake_frequency: Literal["every_deal", "once_per_match"] = _rule(
        "every_deal", "Stakes are placed before every deal, or only before the first."
    )
    # -- spare hand ----------------------------------------------------------------------
    spare_protocol: PolicyRef = _policy("none", "What may be done with the spare hand.")
    # -- claims --------------------------------------------------------------------------
    pay_collection: PolicyRef = _policy(
        "on_play", "When the card, combination and run spaces pay: as played, or as held."
    )
    run_rule: PolicyRef = _policy("none", "A prize for a run of cards played by one player.")
    retire_claimed: bool = _rule(
        False, "A space whose chips are won leaves the layout for the rest of the session."
    )
    # -- stops play ----------------------------------------------------------------------
    ace: Literal["high", "low"] = _rule(
        "high", "Rank order: ace high (2 ... K A) or ace low (A 2 ... K). The top of the "
        "order always ends a sequence.")
    successor: PolicyRef = _policy("same_suit", "What card continues a sequence.")
    turn_order: PolicyRef = _policy("holder", "Who plays the next card of a sequence.")
    companion: PolicyRef = _policy(
        "none", "A card that may go down out of sequence together with another.")
    wild_card: PolicyRef = _policy(
        "none", "A card that may stand for any rank (play in rotation).")
    first_leader: PolicyRef = _policy("dealers_left", "Who makes the first lead of the play.")
    after_stop: PolicyRef = _policy("any_suit", "What the player of a stop may lead next.")
    failed_lead: PolicyRef = _policy(
        "pass_left", "What happens when a player cannot lead as the rules require.")
    # -- end of the deal -----------------------------------------------------------------
    going_out_reward: PolicyRef = _policy("per_card", "What the first player out wins.")
    block_outcome: PolicyRef = _policy("end_no_payment", "What happens when nobody can lead.")
    # -- the session ---------------------------------------------------------------------
    match_end: PolicyRef = _policy("deals", "When a session ends.", count=10)
    leftover_at_match_end: Literal["stays", "share"] = _rule(
        "stays", "Chips left on the layout when the session ends stay there, or are shared."
    )
    final_share: PolicyRef = _policy(
        "all_layout_equal", "How leftover chips are shared when leftover_at_match_end is share."
    )
    final_remainder: Literal["clockwise_from_dealers_left"] = _rule(
        "clockwise_from_dealers_left", "Where odd chips of a share go."
    )


def slot_names() -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(Rules) if f.metadata.get("slot"))


@attrs.frozen
class VariantSpec:
    """A variant file after ``extends`` and options are resolved, before registry checks."""

    name: str = attrs.field(metadata=_doc("The variant's name (used by extends and records).",
                                          nonblank=True))
    layout: tuple[Space, ...] = attrs.field(metadata=_doc("The layout spaces."))
    flow: tuple[str, ...] = attrs.field(metadata=_doc("The phases of a deal, in order."))
    title: str = attrs.field(default="", metadata=_doc("A human title."))
    description: str = attrs.field(default="", metadata=_doc("A paragraph about the game."))
    source: str = attrs.field(default="", metadata=_doc("Where the rules come from."))
    players: PlayerRange = attrs.field(factory=PlayerRange, metadata=_doc("Player range."))
    deck: DeckSpec = attrs.field(factory=DeckSpec, metadata=_doc("The pack."))
    rules: Rules = attrs.field(factory=Rules, metadata=_doc("Every rule choice."))

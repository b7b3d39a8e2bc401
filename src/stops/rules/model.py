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
        inner = ", ".join(f"{k}: {v}" for k, v in self.params.items())
        return f"{{use: {self.use}, {inner}}}"

    def to_yaml(self) -> str | dict[str, Any]:
        return self.use if not self.params else {"use": self.use, **self.params}


class RankName(str):
    """A rank written as text: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""

    __slots__ = ()


SpaceKind = Literal["card", "combo", "suit_run", "pot", "kitty"]


@attrs.frozen
class Space:
    """One labelled space of the layout.

    ``card``: paid by one card (``card: AH``). ``combo``: paid by holding or playing all of
    ``cards`` (the K-Q of hearts). ``suit_run``: paid by ``ranks`` in one suit, any suit (the
    8-9-10). ``pot`` and ``kitty``: pools won by the poker stage, a run of three, going out, or
    whatever policy names them.
    """

    id: str = attrs.field(metadata=_doc("Unique id used in stakes, claims and records.",
                                        nonblank=True))
    kind: SpaceKind = attrs.field(metadata=_doc("What wins this space."))
    card: Card | None = attrs.field(default=None, metadata=_doc("For kind card: the card."))
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
    """Every rule choice of a variant. Fields marked as slots take a registered policy name."""

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
    spare_sell_old_hand: bool = _rule(
        True, "After swapping, the dealer may auction the old hand."
    )
    spare_unsold_dealer_may_swap: bool = _rule(
        True, "If nobody buys the spare hand at auction, the dealer may still swap for it."
    )
    auction_format: Literal["open_ascending", "one_round", "sealed"] = _rule(
        "open_ascending", "How the spare hand is auctioned."
    )
    auction_tie: Literal["first_from_dealers_left"] = _rule(
        "first_from_dealers_left", "Who wins equal bids (one-round and sealed auctions)."
    )
    exchange_fee: int = _rule(1, "Stake units paid into the kitty for a paid exchange.", min=0)
    exchange_order: Literal["non_dealers_from_left", "all_from_left_dealer_last"] = _rule(
        "non_dealers_from_left", "Who may make a paid exchange, in what order."
    )
    exchange_limit: Literal["each_once", "first_only"] = _rule(
        "each_once", "Every eligible player may exchange once, or only the first who wants to."
    )
    fee_when_kitty_retired: Literal["reopen_kitty", "no_exchange", "free"] = _rule(
        "reopen_kitty", "The exchange fee once the kitty has been won and retired."
    )
    # -- claims --------------------------------------------------------------------------
    pay_collection: PolicyRef = _policy(
        "on_play", "When the card, combination and run spaces pay: as played, or as held."
    )
    ten_share: Literal["per_player", "per_sequence"] = _rule(
        "per_player", "Held suit runs (8-9-10): one share per player, or per run held."
    )
    on_play_ten: Literal["first_takes_all", "share_at_end"] = _rule(
        "first_takes_all", "Played suit runs: the first to play one takes the space, or all "
        "who play one share it at the end of the deal.",
    )
    run_rule: PolicyRef = _policy("none", "A prize for a run of cards played by one player.")
    run_length: int = _rule(3, "How many cards make a run for run_rule.", min=1)
    run_space: str = _rule("pot", "The layout space a run wins.")
    retire_claimed: bool = _rule(
        False, "A space whose chips are won leaves the layout for the rest of the session."
    )
    # -- poker ---------------------------------------------------------------------------
    poker_hand_size: int = _rule(5, "Cards in a poker hand.", min=1)
    poker_selection: Literal["free", "best"] = _rule(
        "free", "Players choose any poker cards, or must show their best hand."
    )
    bet_limit: int = _rule(10, "Largest opening bet, and largest raise beyond the call.", min=1)
    short_call: Literal["fold_only", "all_in_no_side_pot"] = _rule(
        "fold_only", "A player who cannot afford to call may only fold, or may call all-in."
    )
    split_remainder: Literal["stays_on_pot"] = _rule(
        "stays_on_pot", "Odd chips of a split poker pot stay on the pot for the next deal."
    )
    short_poker_hand: Literal["play_all_cards", "sit_out"] = _rule(
        "play_all_cards", "A hand with fewer cards than a poker hand plays them all, or sits out."
    )
    # -- stops play ----------------------------------------------------------------------
    first_leader: PolicyRef = _policy("dealers_left", "Who makes the first lead of the play.")
    opening_cards: tuple[Card, ...] = _rule(
        (), "For first_leader opening_card: the cards that open, in order of preference."
    )
    opening_fallback: Literal["next_rank", "redeal"] = _rule(
        "next_rank", "If every opening card is in the spare hand: go on to the next rank in "
        "the same suit order, or redeal.",
    )
    after_stop: PolicyRef = _policy("any_suit", "What the player of a stop may lead next.")
    change_suit_fallback: Literal["same_suit", "pass_left"] = _rule(
        "same_suit", "When a change of suit is required and a player has only the stopped "
        "suit: lead it anyway, or pass the lead to the left.",
    )
    pass_lead_keeps_forbidden_suit: bool = _rule(
        True, "A player who receives a passed lead must also avoid the stopped suit."
    )
    colour_alternation: Literal["opposite_of_broken_suit"] = _rule(
        "opposite_of_broken_suit", "Colour alternation switches to the colour opposite to "
        "the suit that broke (after a black opening, the first switch is to red).",
    )
    switch_card: Literal["lowest_of_colour", "lowest_in_chosen_suit"] = _rule(
        "lowest_of_colour", "Colour alternation: the lowest card of the colour across both "
        "its suits, or the lowest of a suit of that colour the player chooses.",
    )
    colour_tie: Literal["player_choice", "suit_order_HCDS"] = _rule(
        "player_choice", "Two switch cards of the same rank: the player chooses, or H, C, D, S."
    )
    # -- end of the deal -----------------------------------------------------------------
    going_out_reward: PolicyRef = _policy("per_card", "What the first player out wins.")
    block_outcome: PolicyRef = _policy("end_no_payment", "What happens when nobody can lead.")
    # -- the session ---------------------------------------------------------------------
    match_end: PolicyRef = _policy("deals", "When a session ends.", count=10)
    leftover_at_match_end: Literal["stays", "share"] = _rule(
        "stays", "Chips left on the layout when the session ends stay there, or are shared."
    )
    final_share: Literal["all_layout_equal", "pot_only_equal", "refund_by_contribution"] = _rule(
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

"""The parameters of the claim and lead policies
(``after_stop: {use: must_change_suit, fallback: pass_left}``).

These attrs classes live in a module that is never compiled: under mypyc (``STOPS_COMPILE=1``)
the annotations of classes in compiled modules lose their ``Literal`` types, and the loader
structures parameters from exactly those annotations.
"""

from __future__ import annotations

from typing import Literal

import attrs

from stops.engine.cards import Card
from stops.rules.registry import param

KEEPS_DOC = "A player who receives a passed lead must also obey the restriction."


@attrs.frozen
class OnPlayParams:
    ten: Literal["first_takes_all", "share_at_end"] = param(
        "first_takes_all", "Played suit runs: the first to play one takes the space, or all "
        "who play one share it at the end of the deal.", option="on_play_ten")


@attrs.frozen
class StageOneParams:
    ten_share: Literal["per_player", "per_sequence"] = param(
        "per_player", "Held suit runs (8-9-10): one share per player, or per run held.")


@attrs.frozen
class RunParams:
    length: int = param(3, "How many cards make a run.", option="run_length",
                        validator=attrs.validators.ge(2))
    space: str = param("pot", "The layout space a run wins.", option="run_space")


@attrs.frozen
class OpeningParams:
    cards: tuple[Card, ...] = param(
        (), "The cards that open, in order of preference (e.g. [2H, 2C, 2D, 2S]).",
        option="opening_cards")
    fallback: Literal["next_rank", "redeal"] = param(
        "next_rank", "If every opening card is in the spare hand: go on to the next rank in "
        "the same suit order, or redeal.", option="opening_fallback")


@attrs.frozen
class ChangeSuitParams:
    fallback: Literal["same_suit", "pass_left"] = param(
        "same_suit", "When a player has only the stopped suit: lead it anyway, or pass the "
        "lead to the left.", option="change_suit_fallback")
    passed_lead_keeps_suit: bool = param(
        True, KEEPS_DOC, option="pass_lead_keeps_forbidden_suit")


@attrs.frozen
class ColourParams:
    alternation: Literal["opposite_of_broken_suit"] = param(
        "opposite_of_broken_suit", "The switch is to the colour opposite to the suit that "
        "broke (after a black opening, the first switch is to red).",
        option="colour_alternation")
    switch_card: Literal["lowest_of_colour", "lowest_in_chosen_suit"] = param(
        "lowest_of_colour", "The lowest card of the colour across both its suits, or the "
        "lowest of a suit of that colour the player chooses.")
    colour_tie: Literal["player_choice", "suit_order_HCDS"] = param(
        "player_choice", "Two switch cards of the same rank: the player chooses, or H, C, D, S.")
    passed_lead_keeps_suit: bool = param(
        True, KEEPS_DOC, option="pass_lead_keeps_forbidden_suit")


@attrs.frozen
class PassLeftParams:
    penalty: int = param(0, "Chips a player pays into the kitty each time he cannot lead as "
                         "required and the duty passes on.", option="lead_pass_penalty",
                         validator=attrs.validators.ge(0))
    colour_flip: bool = param(
        False, "When the duty to lead has gone round the table with nobody able, the required "
        "colour flips and the duty goes round once more from the player who had it first "
        "(otherwise the deal is blocked).")

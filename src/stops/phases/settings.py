"""The settings of the poker phase and the parameters of the spare-hand protocols.

These attrs classes live in a module that is never compiled: under mypyc (``STOPS_COMPILE=1``)
the annotations of classes in compiled modules lose their ``Literal`` types, and the loader
structures parameters from exactly those annotations.
"""

from __future__ import annotations

from typing import Literal

import attrs

from stops.rules.registry import param


@attrs.frozen
class PokerSettings:
    hand_size: int = param(5, "Cards in a poker hand (the best five count when more).",
                           option="poker_hand_size", validator=attrs.validators.ge(1))
    selection: Literal["free", "best"] = param(
        "free", "Players choose any poker cards, or must show their best hand.",
        option="poker_selection")
    bet_limit: int = param(10, "Largest opening bet, and largest raise beyond the call.",
                           validator=attrs.validators.ge(1))
    short_call: Literal["fold_only", "all_in_no_side_pot"] = param(
        "fold_only", "A player who cannot afford to call may only fold, or may call all-in.")
    split_remainder: Literal["stays_on_pot"] = param(
        "stays_on_pot", "Odd chips of a split poker pot stay on the pot for the next deal.")
    short_hand: Literal["play_all_cards", "sit_out"] = param(
        "play_all_cards", "A hand with fewer cards than a poker hand plays them all, or sits "
        "out.", option="short_poker_hand")

@attrs.frozen
class DealerOptionsParams:
    sell_old_hand: bool = param(True, "After swapping, the dealer may auction the old hand.",
                                option="spare_sell_old_hand")
    unsold_dealer_may_swap: bool = param(
        True, "If nobody buys the spare hand at auction, the dealer may still swap for it.",
        option="spare_unsold_dealer_may_swap")
    auction_format: Literal["open_ascending", "one_round", "sealed"] = param(
        "open_ascending", "How the spare hand is auctioned.")
    auction_tie: Literal["first_from_dealers_left"] = param(
        "first_from_dealers_left", "Who wins equal bids (one-round and sealed auctions).")

@attrs.frozen
class ExchangeParams:
    fee: int = param(1, "Stake units paid into the kitty for a paid exchange.",
                     option="exchange_fee", validator=attrs.validators.ge(0))
    order: Literal["non_dealers_from_left", "all_from_left_dealer_last"] = param(
        "non_dealers_from_left", "Who may make a paid exchange, in what order.",
        option="exchange_order")
    limit: Literal["each_once", "first_only"] = param(
        "each_once", "Every eligible player may exchange once, or only the first who wants to.",
        option="exchange_limit")
    when_kitty_retired: Literal["reopen_kitty", "no_exchange", "free"] = param(
        "reopen_kitty", "The exchange fee once the kitty has been won and retired.",
        option="fee_when_kitty_retired")

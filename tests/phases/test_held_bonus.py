"""Hand-derived tests for the ``held_bonus`` phase (FAMILY-RULINGS-2 G.0 item 9, issue 23):
after the spare hand, in the order of ``held_bonuses``, the holder of each listed card
receives ``chips`` from every other seat, paid in seat order from the holder's left (F4,
compulsory); a card in the spare hand pays nothing; one ``bonus`` event per payer, its note
giving the reason ``held`` and the card.

No built-in uses it: the deals are played with the house file
``examples/boodle-held-bonus.yaml`` (boodle, Queen Nazarene's Q♦ 3 and J♣ 2).

Boodle, 4 players, dealer 0, 50 chips each: the dealer stakes 2 on each of the four spaces
(AH KC QD JS), the others 1 (ruling 3): 42, 46, 46, 46 before the bonuses. The whole pack
is dealt from the dealer's left with a spare hand after the dealer: 52 = 5 x 10 + 2, so
seats 1 and 2 hold 11, seats 3 and 0 hold 10, the spare hand 10. Grids: one character a
rank 2 3 4 5 6 7 8 9 T J Q K A, the digit of the seat holding it, ``x`` for the spare.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import stops
import support
from stops.rules.prose import rules_text
from stops.rules.variant import variant_from_mapping
from support import nonzero

EXAMPLE = str(Path(__file__).resolve().parents[2] / "examples" / "boodle-held-bonus.yaml")
SIZES = (10, 11, 11, 10)


def stacked(hands: list[list[str]], spare: list[str], chips: object = 50,
            options: dict[str, object] | None = None) -> stops.Deal:
    """The house file's deal with these hands, dealer 0 (a record may not name a file)."""
    table = stops.Table(stops.load_variant(EXAMPLE, options), seats=4, chips=chips, seed=1,
                        dealer=0)
    return table.new_deal(hands=hands, spare=spare)

# DEAL_1: the Q♦ with seat 2, the J♣ with the dealer (seat 0).
ROWS_1 = {
    "C": "1 1 1 1 2 2 2 3 3 0 0 0 x",
    "D": "2 2 1 1 1 3 3 3 0 0 2 x x",
    "H": "3 3 0 0 1 1 2 2 2 x x x x",
    "S": "0 0 0 1 1 3 3 3 2 2 x x x",
}
HANDS_1, SPARE_1 = support.grid(ROWS_1, SIZES, 10)

# DEAL_2: the Q♦ in the spare hand (the K♦ with seat 2 instead), the J♣ with seat 3 (the 10♣
# with the dealer instead).
ROWS_2 = {
    "C": "1 1 1 1 2 2 2 3 0 3 0 0 x",
    "D": "2 2 1 1 1 3 3 3 0 0 x 2 x",
    "H": "3 3 0 0 1 1 2 2 2 x x x x",
    "S": "0 0 0 1 1 3 3 3 2 2 x x x",
}
HANDS_2, SPARE_2 = support.grid(ROWS_2, SIZES, 10)


def bonuses(deal: stops.Deal) -> list[tuple[int | None, int | None, int, str]]:
    """The bonus events as (payer, receiver, chips, note)."""
    return [(e.seat, e.to_seat, e.chips, e.note) for e in deal.events if e.kind == "bonus"]


def test_both_cards_held_pay_in_list_order_from_the_holders_left() -> None:
    # Q♦ (first in the list) held by seat 2: seats 3, 0, 1 (from seat 2's left) pay 3 each:
    # seat 2 +9. Then J♣ held by seat 0: seats 1, 2, 3 pay 2 each: seat 0 +6.
    # seat 0: 42 - 3 + 6 = 45; seat 1: 46 - 3 - 2 = 41; seat 2: 46 + 9 - 2 = 53;
    # seat 3: 46 - 3 - 2 = 41 (sum 180 = 200 - the 20 staked). The layout is untouched
    # (AH KC QD JS 5 each) and seat 1, the dealer's left, leads.
    deal = stacked(HANDS_1, SPARE_1)
    assert bonuses(deal) == [
        (3, 2, 3, "held QD"), (0, 2, 3, "held QD"), (1, 2, 3, "held QD"),
        (1, 0, 2, "held JC"), (2, 0, 2, "held JC"), (3, 0, 2, "held JC"),
    ]
    assert deal.stacks == (45, 41, 53, 41)
    assert nonzero(deal) == {"AH": 5, "KC": 5, "QD": 5, "JS": 5}
    assert deal.current_seat == 1
    assert {a["action"] for a in support.legal(deal)} == {"lead"}


def test_a_card_in_the_spare_hand_pays_nothing() -> None:
    # Q♦ in the spare hand: no bonus. J♣ held by seat 3: seats 0, 1, 2 pay 2 each: +6.
    # seat 0: 42 - 2 = 40; seats 1, 2: 46 - 2 = 44; seat 3: 46 + 6 = 52 (sum 180).
    deal = stacked(HANDS_2, SPARE_2)
    assert bonuses(deal) == [(0, 3, 2, "held JC"), (1, 3, 2, "held JC"), (2, 3, 2, "held JC")]
    assert deal.stacks == (40, 44, 44, 52)


def test_a_short_stack_pays_what_it_can_under_pay_what_you_can() -> None:
    # Seat 1 starts with 7: 3 after his four stakes. Q♦ (seat 2): seats 3, 0 pay 3, seat 1
    # pays his last 3. J♣ (seat 0): seat 1 has nothing (no event), seats 2 and 3 pay 2.
    # seat 0: 42 - 3 + 4 = 43; seat 1: 0; seat 2: 46 + 9 - 2 = 53; seat 3: 46 - 3 - 2 = 41
    # (sum 137 = 157 - 20).
    deal = stacked(HANDS_1, SPARE_1, chips=[50, 7, 50, 50],
                   options={"chip_shortfall": "pay_what_you_can"})
    assert bonuses(deal) == [
        (3, 2, 3, "held QD"), (0, 2, 3, "held QD"), (1, 2, 3, "held QD"),
        (2, 0, 2, "held JC"), (3, 0, 2, "held JC"),
    ]
    assert deal.stacks == (43, 0, 53, 41)


def test_the_holders_are_known_to_every_copy() -> None:
    # The holders show their cards to be paid: every copy seat 1 imagines gives the Q♦ to
    # seat 2 and the J♣ to seat 0 (DEAL_1), or keeps the Q♦ in the spare hand (DEAL_2).
    one = stacked(HANDS_1, SPARE_1)
    two = stacked(HANDS_2, SPARE_2)
    for k in range(10):
        copy = one.clone_for(1, random.Random(k))
        assert "QD" in map(str, copy.hand(2)) and "JC" in map(str, copy.hand(0))
        copy = two.clone_for(1, random.Random(k))
        assert all("QD" not in map(str, copy.hand(s)) for s in range(4))
        assert "JC" in map(str, copy.hand(3))


def test_the_rules_text_names_the_cards_and_the_spare_hand() -> None:
    text = rules_text(stops.load_variant(EXAMPLE), width=None)
    assert ("After the deal, before the first lead, whoever holds the Q♦ receives 3 chips "
            "and whoever holds the J♣ receives 2 chips from every other player") in text
    assert "A card in the spare hand pays nothing." in text


def _house(rules: dict[str, object], flow: list[str] | None = None) -> dict[str, object]:
    return {"name": "house", "extends": "boodle",
            "flow": flow or ["stake", "deal", "spare_hand", "held_bonus", "play", "settle"],
            "rules": rules}


@pytest.mark.parametrize(("rules", "flow", "words"), [
    ({"held_bonuses": [{"card": "QD", "chips": 0}]}, None, "held_bonuses[0]: chips"),
    ({"held_bonuses": [{"card": "QD", "chips": 3}, {"card": "QD", "chips": 2}]}, None,
     "held_bonuses[1]: the QD is listed twice"),
    ({"held_bonuses": [{"card": "QD", "chips": 3}]},
     ["stake", "deal", "held_bonus", "spare_hand", "play", "settle"],
     "held_bonus must come after spare_hand"),
    ({"held_bonuses": [{"card": "ZZ", "chips": 3}]}, None, "held_bonuses"),
])
def test_bad_settings_are_refused_naming_the_key(rules: dict[str, object],
                                                 flow: list[str] | None, words: str) -> None:
    with pytest.raises(stops.StopsError) as e:
        variant_from_mapping(_house(rules, flow))
    assert words in str(e.value)


def test_a_card_not_in_the_pack_is_refused() -> None:
    data = _house({"held_bonuses": [{"card": "8D", "chips": 3}]})
    data["deck"] = {"remove": ["8D"]}
    with pytest.raises(stops.StopsError) as e:
        variant_from_mapping(data)
    assert "held_bonuses[0]: the 8D is not in this variant's pack" in str(e.value)


def test_sessions_with_held_bonuses_conserve_chips() -> None:
    # Random and heuristic bots, 4 and 5 players: every bonus moves chips between seats
    # only, so stacks + layout stay what the table started with, deal after deal.
    from stops.bots import make_bot, play_deal

    variant = stops.load_variant(EXAMPLE)
    for n in (4, 5):
        bots = [make_bot("heuristic" if i % 2 else "random", seed=i) for i in range(n)]
        table = stops.Table(variant, seats=n, seed=n)
        total = sum(table.stacks) + sum(table.layout.values())
        paid = 0
        for _ in range(10):
            deal = table.new_deal()
            play_deal(deal, bots)
            paid += sum(1 for e in deal.events if e.kind == "bonus")
            assert sum(table.stacks) + sum(table.layout.values()) == total
        assert paid > 0

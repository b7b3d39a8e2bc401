"""Hand-derived tests for Pink Nines, ``pink-nines``, and its preset ``red-nines``
(FAMILY-RULINGS-2 G.6, G34-G37; G.0 items 8, 16, 17; G.11 items 3 and 4).

Every deal is stacked and its outcome worked out by hand from the rulings, written beside each
test before the code ran. Unless a test says otherwise (``pink-nines``):

* 7 players, dealer 0, 50 chips each; 6 cards each and 10 in the dead hand (G.6's table);
* every player stakes 1 chip into ``pool`` (7 chips);
* ace high (2 ... A), suits ignored; the red nines 9H and 9D are wild and not stops;
* seat 1 (the dealer's left) leads his lowest card; a player goes on up while he can;
* the first player out takes the pool and is paid the points of the cards left (F5: ace 1,
  2-10 pips, courts 10; a red nine 9).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

import stops
from stops.engine.determinize import knowledge
from support import (
    act,
    expect_illegal,
    hands_of,
    make_record,
    norm,
    pack,
    pass_,
    skip_unless_built,
)
from support import normalised_legal as legal

VARIANT = "pink-nines"

pytestmark = skip_unless_built(VARIANT)

FULL = pack("23456789TJQKA")
record = partial(make_record, VARIANT)


def lead(seat: int, card: str, as_rank: str | None = None) -> dict[str, Any]:
    return act(seat, "lead", card=card, **({"as_rank": as_rank} if as_rank else {}))


def leads(seat: int, *cards: str) -> dict[str, Any]:
    return act(seat, "lead", cards=list(cards))


def play(seat: int, card: str, as_rank: str | None = None) -> dict[str, Any]:
    return act(seat, "play", card=card, **({"as_rank": as_rank} if as_rank else {}))


def code_of(deal: stops.Deal, action: dict[str, Any]) -> str:
    """The IllegalAction code ``action`` is refused with (the deal unchanged)."""
    expect_illegal(deal, action)
    with pytest.raises(stops.IllegalAction) as e:
        deal.apply(action)
    return str(e.value.code)


def dead_of(hands: list[list[str]], size: int) -> list[str]:
    used = {c for h in hands for c in h}
    assert len(used) == sum(len(h) for h in hands), "a card is dealt twice"
    rest = [c for c in FULL if c not in used]
    assert len(rest) == size, len(rest)
    return rest


# -- DEAL_A: 7 players, the whole deal -------------------------------------------------------
HANDS_A = hands_of(
    "2D 2H 8C TC JC KC",   # seat 0 (dealer): 2+2+8+10+10+10 = 42
    "2C 3C 4C 9H KD AD",   # seat 1: lowest card 2C
    "5D 6D 7S QS QC 3D",   # seat 2
    "8H 9C TS JH 2S 5S",   # seat 3
    "QD KS 9D 5H 6H 7H",   # seat 4
    "3S 4S 6S 8S 9S JS",   # seat 5: 3+4+6+8+9+10 = 40
    "4H TH QH KH AH AS",   # seat 6: 4+10+10+10+1+1 = 36
)
DEAD_A = dead_of(HANDS_A, 10)      # 5C 6C 7C AC 4D 7D 8D TD JD 3H

# The play, by hand from G.6 and G.0 item 8:
#  0. seat 1 must lead his lowest card, the 2C (his only 2): one legal lead.
#  1. he goes on: 3C (or the 9H as a 3: he holds a natural 3, so he must go on, natural or
#     wild as he likes), then 4C.
#  3. the 5 is needed: he holds no 5, only the 9H: he may lay it as a 5 or pass. He passes
#     ("sans 5"); the turn goes left.
#  4. seat 2 holds the 5D: he must play it (no pass), then 6D, 7S; no 8: his turn ends.
#  7. seat 3: 8H 9C TS JH; no Q: his turn ends.
# 11. seat 4: QD KS; the ace is needed, he holds none but the 9D: he lays it as an ace, the
#     top rank, which ends the sequence as an ace would: he leads again, any card.
# 14. seat 4 leads 5H, then 6H, 7H: his last card: he is out.
# Settlement (G36): seat 4 takes the pool (7) and is paid the points left:
#  seat 0: 42; seat 1: 9H KD AD = 9+10+1 = 20 (the red nine counts 9); seat 2: QS QC 3D = 23;
#  seat 3: 2S 5S = 7; seat 5: 40; seat 6: 36. Total 168.
# Stacks (49 each after the stake): seat 4 49 + 7 + 168 = 224; seat 0 7, seat 1 29, seat 2 26,
#  seat 3 42, seat 5 9, seat 6 13 (sum 350).
ACTIONS_A = [
    lead(1, "2C"), play(1, "3C"), play(1, "4C"), pass_(1),
    play(2, "5D"), play(2, "6D"), play(2, "7S"),
    play(3, "8H"), play(3, "9C"), play(3, "TS"), play(3, "JH"),
    play(4, "QD"), play(4, "KS"), play(4, "9D", "A"),
    lead(4, "5H"), play(4, "6H"), play(4, "7H"),
]


def at_a(k: int, options: dict[str, Any] | None = None) -> stops.Deal:
    return stops.replay(record(HANDS_A, DEAD_A, ACTIONS_A[:k], options=options), partial=True)


def test_deal_a_settles_the_pool_and_card_points() -> None:
    deal = stops.replay(record(HANDS_A, DEAD_A, ACTIONS_A))
    assert deal.is_terminal and deal.winner == 4
    assert list(deal.stacks) == [7, 29, 26, 42, 224, 9, 13]
    assert sum(deal.stacks) + sum(dict(deal.layout).values()) == 350


def test_the_first_lead_is_the_lowest_card() -> None:
    assert legal(at_a(0)) == norm(lead(1, "2C"))


def test_holding_a_natural_card_he_may_still_lay_the_wild() -> None:
    # need 3: the 3C or the 9H named as a 3; no pass
    assert legal(at_a(1)) == norm(play(1, "3C"), play(1, "9H", "3"))


def test_only_a_wild_card_on_lay_it_or_pass() -> None:
    # need 5 (G.0 item 8): the 9H as a 5, or pass
    assert legal(at_a(3)) == norm(play(1, "9H", "5"), pass_(1))
    passed = [e for e in at_a(4).events if e.kind == "passed"]
    assert [e.seat for e in passed] == [1]


def test_a_wild_card_is_not_a_stop() -> None:
    # the 9H as a 5: the sequence goes on from the 5: he needs a 6 and holds none (only
    # KD AD left): his turn ends and seat 2 must lay the 6D.
    d = at_a(3)
    d.apply(play(1, "9H", "5"))
    assert not [e for e in d.events if e.kind == "stop"]
    assert legal(d) == norm(play(2, "6D"))


def test_a_wild_card_named_as_the_ace_ends_the_sequence() -> None:
    d = at_a(14)
    stops_ = [(e.seat, str(e.card)) for e in d.events if e.kind == "stop"]
    assert stops_ == [(4, "9D")]
    assert legal(d) == norm(lead(4, "5H"), lead(4, "6H"), lead(4, "7H"))


def test_bad_input_is_refused_with_its_code() -> None:
    # a pass where a play is compulsory: seat 2 holds the 5D
    assert code_of(at_a(4), pass_(2)) == "no_voluntary_stop"
    # a wild card named as a rank that cannot follow: the ace is needed, not a King
    assert code_of(at_a(13), play(4, "9D", "K")) == "wrong_rank"
    # a wild card laid with another card
    assert code_of(at_a(1), act(1, "play", cards=["3C", "9H"], as_rank="3")) == "wild_alone"
    # a wild card laid without naming its rank
    assert code_of(at_a(3), play(1, "9H")) == "name_the_rank"
    # two cards at a lead under cards_per_turn: one
    d = at_a(14)
    assert code_of(d, leads(4, "5H", "6H")) == "one_rank"


def test_wild_stop_true_makes_the_wild_a_stop_and_bonus_pays() -> None:
    # G34 option stop: true, with bonus 2: at step 3 seat 1 lays 9H as a 5: each of the six
    # others pays him 2 at once (49 + 12 = 61, the others 47), and it is a stop: he leads
    # again, any card (KD or AD, his only cards).
    opts = {"wild_card": {"use": "wild", "cards": ["9H", "9D"], "stop": True, "bonus": 2}}
    d = at_a(3, opts)
    d.apply(play(1, "9H", "5"))
    assert list(d.stacks) == [47, 61, 47, 47, 47, 47, 47]
    assert legal(d) == norm(lead(1, "KD"), lead(1, "AD"))


def test_going_out_payment_per_card() -> None:
    # G36 option going_out_payment: per_card: seat 4 is paid one chip per card left:
    # 6 + 3 + 3 + 2 + 6 + 6 = 26: 49 + 7 + 26 = 82.
    deal = stops.replay(record(HANDS_A, DEAD_A, ACTIONS_A,
                               options={"going_out_payment": "per_card"}))
    assert list(deal.stacks) == [43, 46, 46, 47, 82, 43, 43]


# -- DEAL_B: a voluntary pass; nobody can go on; back to him, he leads (G.11 4) -------------
HANDS_B = hands_of(
    "2D 2H 8C TC JC KC",
    "2C 3C 4C 9H KD AD",   # seat 1
    "6D 7S QS QC 3D 4D",
    "8H 9C TS JH 2S 6C",
    "QD KS 7C 4H 6H 7H",
    "3S 4S 6S 8S 9S JS",
    "TH QH KH AH AS 8D",
)
DEAD_B = dead_of(HANDS_B, 10)      # every 5, the 9D and AC 7D TD JD 3H

# Seat 1 leads 2C, 3C, 4C and passes at the 5 (holding only the 9H). Nobody else holds a 5 or
# a wild card (all four 5s and the 9D are dead): seats 2 3 4 5 6 0 are passed over, and the
# turn comes back to seat 1, the last to lay: he leads, any card; a lead he chooses freely,
# so the 9H may be named as any rank.


def test_after_a_voluntary_pass_the_last_to_lay_leads() -> None:
    assert "5D" in DEAD_B and "9D" in DEAD_B
    d = stops.replay(record(HANDS_B, DEAD_B, [lead(1, "2C"), play(1, "3C"), play(1, "4C"),
                                              pass_(1)]), partial=True)
    over = [e.seat for e in d.events if e.kind == "passed_over"]
    assert over == [2, 3, 4, 5, 6, 0]
    ranks = "23456789TJQKA"
    assert legal(d) == norm(lead(1, "KD"), lead(1, "AD"),
                            *(lead(1, "9H", r) for r in ranks))


# -- DEAL_C: a red nine as the lowest card (G.11 3) -------------------------------------------
HANDS_C = hands_of(
    "2D 2H 8C 3C JC KC",
    "9H 9S TC JH QD KD",   # seat 1: lowest rank 9: the 9S or the 9H (as a 9)
    "5D 6D 7S QS QC 3D",
    "8H 9C TS JD 2S 5S",
    "4C KS 9D 5H 6H 7H",
    "3S 4S 6S 8S 2C JS",
    "4H TH QH KH AH AS",
)
DEAD_C = dead_of(HANDS_C, 10)


def test_a_red_nine_led_as_the_lowest_card_is_a_nine() -> None:
    d = stops.replay(record(HANDS_C, DEAD_C, []), partial=True)
    assert legal(d) == norm(lead(1, "9S"), lead(1, "9H", "9"))
    assert code_of(d, lead(1, "9H", "2")) == "wild_own_rank"
    d.apply(lead(1, "9H", "9"))       # a 9: the 10 is needed, and he holds the TC
    assert legal(d) == norm(play(1, "TC"))


# -- red-nines (G37): 4 players, 13 each, ace low, several cards of one rank at a lead --------
RED = {"red-nines": True}
HANDS_R = hands_of(
    "AC 2C 3C AD 2D 4D 5D 6D 7D 8D 9D TD JD",   # seat 0: 6 + 62 = 68
    "4C 4S 5C 6C 7C 8C 9C TC JC QC KC 3D 3H",   # seat 1
    "QD KD AH 2H 4H 5H 6H 7H 8H 9H TH JH QH",   # seat 2: 20 + 72 = 92
    "KH AS 2S 3S 5S 6S 7S 8S 9S TS JS QS KS",   # seat 3: 10 + 81 = 91
)

# Seat 1 (the dealer's left) leads any card, and may lay several of one rank: 4C 4S together;
# then single cards 5C ... KC (he holds every one): the King is the top (ace low): a stop, he
# leads again: 3D 3H together: his last cards: out. Each other player pays the points left:
# 68 + 92 + 91 = 251 (the 9D and 9H count 9). No stakes, no layout. 100 chips each:
# seat 1 351; seats 0, 2, 3: 32, 8, 9.
ACTIONS_R = [leads(1, "4C", "4S"), *(play(1, c) for c in hands_of("5C 6C 7C 8C 9C TC JC QC KC")[0]),
             leads(1, "3D", "3H")]


def test_red_nines_several_cards_at_a_lead_and_card_points() -> None:
    assert not dead_of(HANDS_R, 0)
    deal = stops.replay(record(HANDS_R, [], ACTIONS_R, options=RED, chips=100))
    assert deal.is_terminal and deal.winner == 1
    assert list(deal.stacks) == [32, 351, 8, 9]


def test_red_nines_bad_leads() -> None:
    d = stops.replay(record(HANDS_R, [], [], options=RED, chips=100), partial=True)
    # a second card of another rank at a lead
    assert code_of(d, leads(1, "4C", "5C")) == "one_rank"
    d.apply(leads(1, "4C", "4S"))
    # after the lead, every card is single
    assert legal(d) == norm(play(1, "5C"))


def test_red_nines_a_wild_is_laid_alone() -> None:
    # seat 1 holds the 9H (swapped with seat 2's 3H): leading it with the 4s is refused
    hands = [list(h) for h in HANDS_R]
    hands[1][hands[1].index("3H")] = "9H"
    hands[2][hands[2].index("9H")] = "3H"
    d = stops.replay(record(hands, [], [], options=RED, chips=100), partial=True)
    assert code_of(d, act(1, "lead", cards=["4C", "4S", "9H"], as_rank="4")) == "wild_alone"
    offered = legal(d)
    assert norm(lead(1, "9H", "K"))[0] in offered and norm(leads(1, "4C", "4S"))[0] in offered


# -- whole sessions: chips are conserved, with random and heuristic bots ---------------------


@pytest.mark.parametrize(("options", "seats"), [(None, 3), (None, 5), (None, 8), (RED, 4)])
def test_whole_sessions_conserve_chips(options: dict[str, Any] | None, seats: int) -> None:
    from stops.bots import make_bot, play_deal

    variant = stops.load_variant(VARIANT, options)
    bots = [make_bot("heuristic" if s % 2 else "random", s, variant.registry)
            for s in range(seats)]
    deals = 0
    for session in range(50 // seats + 1):
        table = stops.Table(variant, seats=seats, chips=50, seed=session)
        while not table.is_over:
            deal = table.new_deal()
            play_deal(deal, bots)
            deals += 1
            assert sum(table.stacks) + sum(dict(table.layout).values()) == 50 * seats
    assert deals >= 50


def test_the_table_hears_the_rank_a_wild_card_stood_for_and_the_pass(
        tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    # DEAL_A told as stops play tells it: seat 1's turn ends with his pass at the 5 (he held
    # only the 9H); seat 4's 9D stands for an ace and stops as an ace does.
    import json

    from stops.apps.cli import main

    path = tmp_path / "a.json"
    path.write_text(json.dumps(record(HANDS_A, DEAD_A, ACTIONS_A)))
    assert main(["replay", str(path)]) == 0
    told = " ".join(capsys.readouterr().out.split())
    assert "seat 1 leads 2♣ 3♣ 4♣ (passes, sans 5) · seat 2 5♦ 6♦ 7♠ (sans 8)" in told
    assert "seat 4 Q♦ K♠ 9♦ (9♦ as A) — stop: an ace is the highest rank" in told


# -- what a seat can tell from a wild card named (deal.clone_for) ----------------------------
# Five players, 9 cards each, the dead hand 7 (G.6's table); seat 1 leads.
HANDS_W = hands_of(
    "4C 9C 7D 4H 8H KH AH 8S AS",   # seat 0: the seat whose view is read
    "5C 8C 2D 8D TD 4S 5S 6S QS",   # seat 1
    "3C 6C 7C JC 4D 5D KD 9S KS",   # seat 2
    "QC AC 6D 5H 6H 9H TH JH 3S",   # seat 3: the 9H, no King, not the 9D
    "2C TC KC QD AD 2H 3H 7H 2S",   # seat 4
)
DEAD_W = dead_of(HANDS_W, 7)       # 3D 9D JD QH 7S TS JS
# The play, by hand: seat 1 leads his lowest card, 2D, and holds no 3: his turn ends.
# Seat 2: 3C 4D 5D 6C 7C, no 8. Seat 3 holds no natural 8, only the 9H: he may lay it or
# pass; he passes ("sans 8"). Seat 4 holds no 8 and no wild card: passed over. Seat 0: 8H,
# 9C; seat 1: TD; seat 2: JC. Seat 3 holds the QC and the 9H: he lays the 9H as a Queen.
# The sequence goes on from the Queen: a King is needed. Seat 3 holds none, and no wild card
# (the 9D is dead), so he is not asked: the turn passes to seat 4, who lays KC.
ACTIONS_W = [
    lead(1, "2D"), play(2, "3C"), play(2, "4D"), play(2, "5D"), play(2, "6C"), play(2, "7C"),
    pass_(3), play(0, "8H"), play(0, "9C"), play(1, "TD"), play(2, "JC"),
    play(3, "9H", "Q"), play(4, "KC"),
]


def test_a_wild_card_named_tells_the_table_what_follows() -> None:
    # Seat 0's view with seat 4 to lay the KC (12 decisions made). What it can tell, by hand:
    # * seat 3's pass "sans 8" proves he held a wild card then and no natural 8;
    # * seat 3 laid the 9H as a Queen, and the turn left him with no event: the King was
    #   needed next (the named rank's successor), and holding a King he would have had to
    #   lay it, holding the other wild card he would have been asked to lay it or pass. So
    #   he holds no King (KC, KD, KS: the KH is seat 0's) and not the 9D;
    # * the wild card his pass proved he held may be the 9H he laid: nothing places the 9D
    #   with him (it is in the dead hand).
    # Read without the rank named, the thread was lost at the 9H (nothing proved about the
    # King), and the pass placed the one wild card left, the 9D, in seat 3's hand.
    deal = stops.replay(record(HANDS_W, DEAD_W, ACTIONS_W[:12]), partial=True)
    assert deal.current_seat == 4
    assert [(e.seat, e.note) for e in deal.events if e.kind == "named"] == [(3, "Q")]
    c = stops.parse_card
    known = knowledge(deal, 0)
    assert {int(c(x)) for x in ("KC", "KD", "KS", "9D")} <= known.lacks[3]
    assert known.held.get(int(c("9D"))) is None
    for k in range(20):
        copy = deal.clone_for(0, random.Random(k))
        held3 = {str(x) for x in copy.hand(3)}
        assert not held3 & {"KC", "KD", "KS", "9D"}
    # once seat 4 has laid the KC, the same is read from the log itself
    later = stops.replay(record(HANDS_W, DEAD_W, ACTIONS_W), partial=True)
    assert {int(c(x)) for x in ("KD", "KS", "9D")} <= knowledge(later, 0).lacks[3]
    assert knowledge(later, 0).held.get(int(c("9D"))) is None


# Six players, 8 cards each, the dead hand 4 (G.6's table).
HANDS_P = hands_of(
    "2C 4C 7C TC 6D AH 4S KS",   # seat 0
    "4D TD 2H 7H 8H 6S 9S JS",   # seat 1
    "6C 8C QC 8D 9D QD 5H 8S",   # seat 2: the 9D, no 3
    "3D 7D JD AD 6H QH 7S AS",   # seat 3
    "KC 2D 5D 4H TH JH 2S TS",   # seat 4: the seat whose view is read
    "3C 5C 9C AC KD 3H 5S QS",   # seat 5
)
DEAD_P = dead_of(HANDS_P, 4)       # JC 9H KH 3S


def test_a_pass_offered_only_a_wild_card_leaves_him_one_of_them() -> None:
    # By hand: seat 1 leads his lowest card, the 2H, and holds no 3 and no wild card: his
    # turn ends. Seat 2 holds no natural 3 but the 9D: he may lay it as a 3 or pass; he
    # passes ("sans 3"). Seat 3 lays the 3D and holds no 4: seat 4 is to lay the 4H.
    # Seat 4 has seen neither red nine. Seat 2's pass proves he held one of them (a player
    # with no way on is passed over, not asked), though not which: every copy seat 4
    # imagines must give seat 2 the 9H or the 9D (and no natural 3). A copy giving him
    # neither would have had him passed over.
    deal = stops.replay(record(HANDS_P, DEAD_P, [lead(1, "2H"), pass_(2), play(3, "3D")]),
                        partial=True)
    assert legal(deal) == norm(play(4, "4H"))
    assert [e.seat for e in deal.events if e.kind == "passed"] == [2]
    for k in range(30):
        hand = {str(c) for c in deal.clone_for(4, random.Random(k)).hand(2)}
        assert hand & {"9H", "9D"}
        assert not hand & {"3C", "3H", "3S"}

"""Hand-derived tests for the general options built for `newmarket` and `tripoley` that the
two games' own test files do not exercise (docs/family-rulings.md F8-F13, F47-F54): the
opening's ace-low order and lowest-black fallbacks, `colour_fallback: same_colour` with both
`switch_card` rules, the dealer's swap under `pay_card_blocks_spare`, the `share` alias of
`ten_share`, the variant's starting chips, no-limit poker with automatic hands, and the
`one_player_left` session end.

Deals are ownership grids as in tests/games/test_newmarket.py: per suit one character per
rank 2 3 4 5 6 7 8 9 T J Q K A, a digit for the seat holding the card, ``x`` for the spare.
Four players, dealer 0: 52 = 5 x 10 + 2, so seats 1 and 2 (nearest the dealer's left) hold
11 cards, seats 3 and 0 hold 10, and the spare 10.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

import stops
import support
from stops.apps.cli import main
from stops.io.schema import variant_schema
from support import act, expect_illegal, lead_choices, legal, make_record, nonzero, plays
from support import lead_decision as L
from support import plays_written as P

pytestmark = support.skip_unless_built("newmarket") + support.skip_unless_built(
    "tripoley-colours")

FOUR = (10, 11, 11, 10)  # 4 players, dealer 0
newmarket = partial(make_record, "newmarket")
# the colour rules (dead-hand auction, lowest black opening) are tripoley-colours' (G.1)
tripoley = partial(make_record, "tripoley-colours", chips=200)


def grid(rows: dict[str, str]) -> tuple[list[list[str]], list[str]]:
    return support.grid(rows, FOUR, 10)


# -- Newmarket N1: the dealer holds the AH horse ----------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 1 1 1 1 1 1 2 2     seat 0: 2S-TS AH (10)
# diams   2 2 2 2 2 2 2 2 2 x x x x     seat 1: 2C-QC (11)
# hearts  3 3 3 3 3 3 3 3 3 3 x x 0     seat 2: KC AC 2D-TD (11)
# spades  0 0 0 0 0 0 0 0 0 x x x x     seat 3: 2H-JH (10)
#                                       dummy:  JD QD KD AD QH KH JS QS KS AS
N1 = {
    "C": "1 1 1 1 1 1 1 1 1 1 1 2 2",
    "D": "2 2 2 2 2 2 2 2 2 x x x x",
    "H": "3 3 3 3 3 3 3 3 3 3 x x 0",
    "S": "0 0 0 0 0 0 0 0 0 x x x x",
}
HANDS_N1, SPARE_N1 = grid(N1)
SWAP = {"spare_protocol": "dealer_swap"}


def test_dealer_swap_blocked_by_a_held_horse() -> None:
    # F13 dealer_swap with pay_card_blocks_spare true (F49's rule, shared): the dealer holds
    # the AH horse, which would pay him; he may only keep. Then seat 2's 2D opens.
    opts = {**SWAP, "pay_card_blocks_spare": True}
    deal = stops.replay(newmarket(HANDS_N1, SPARE_N1, options=opts), partial=True)
    assert legal(deal) == [act(0, "keep")]
    expect_illegal(deal, act(0, "swap"))
    deal.apply(act(0, "keep"))
    assert legal(deal) == [L(2, "2D")]


def test_dealer_swap_then_the_dealer_runs_the_diamonds_and_goes_out() -> None:
    # F13 dealer_swap, default pay_card_blocks_spare false: keep and swap are offered. The
    # dealer swaps: he holds JD QD KD AD QH KH JS QS KS AS; the dummy AH 2S-TS.
    # Stakes: 6 each -> 44; horses 4 each, kitty 8.
    # 2D (2) 3D ... TD (2) JD QD KD AD (0): QD horse 4 -> seat 0; AD ace, stop. Seat 0 must
    # lead black: spades only, JS: JS (horse 4) QS KS AS: stop. He must lead red: QH (his
    # lowest heart); QH KH: KH is his last card: out (the AH is in the dummy).
    # Seat 0: 44 + 4 + 4 + kitty 8 + cards 11 (seat 1) + 2 (seat 2) + 10 (seat 3) = 83;
    # seat 1: 33, seat 2: 42, seat 3: 34. AH and KC carry 4 each.
    deal = stops.replay(newmarket(HANDS_N1, SPARE_N1, options=SWAP), partial=True)
    assert sorted(a["action"] for a in legal(deal)) == ["keep", "swap"]
    actions = [act(0, "swap"), L(2, "2D"), L(0, "JS"), L(0, "QH")]
    deal = stops.replay(newmarket(HANDS_N1, SPARE_N1, actions, options=SWAP))
    assert plays(deal) == P("2:2D 2:3D 2:4D 2:5D 2:6D 2:7D 2:8D 2:9D 2:TD 0:JD 0:QD 0:KD 0:AD "
                            "0:JS 0:QS 0:KS 0:AS 0:QH 0:KH")
    assert deal.outcome == "went_out" and deal.winner == 0
    assert deal.stacks == (83, 33, 42, 34)
    assert nonzero(deal) == {"AH": 4, "KC": 4}


# N2: N1 with AD (dummy) and TS (seat 0) exchanged: the dealer holds the AD.
N2 = dict(N1, D="2 2 2 2 2 2 2 2 2 x x x 0", S="0 0 0 0 0 0 0 0 x x x x x")
HANDS_N2, SPARE_N2 = grid(N2)


def test_ace_low_diamonds_up_opens_with_the_ace() -> None:
    # F8 with F12 ace low: the opening climbs the diamonds in rank order, A 2 3 ...: the AD
    # (seat 0) opens. AD (0) 2D ... TD (2); JD is in the dummy: stop. Seat 2 must lead black:
    # his lowest club, the AC with the ace low (not KC).
    deal = stops.replay(newmarket(HANDS_N2, SPARE_N2, options={"ace": "low"}), partial=True)
    assert legal(deal) == [L(0, "AD")]
    deal.apply(L(0, "AD"))
    assert plays(deal) == P("0:AD 2:2D 2:3D 2:4D 2:5D 2:6D 2:7D 2:8D 2:9D 2:TD")
    assert lead_choices(deal) == [(2, "AC")]
    # ace high on the same deal: 2D (2) opens and the run stops at TD; seat 2 leads KC.
    deal = stops.replay(newmarket(HANDS_N2, SPARE_N2, [L(2, "2D")]), partial=True)
    assert plays(deal) == P("2:2D 2:3D 2:4D 2:5D 2:6D 2:7D 2:8D 2:9D 2:TD")
    assert lead_choices(deal) == [(2, "KC")]


# -- Newmarket N3: the stop player holds only red cards, in two suits ----------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 1 1 1 1 1 1 0 0     seat 0: KC AC 5S-QS (10)
# diams   2 2 2 x 2 2 x x x x x x x     seat 1: 2C-QC (11)
# hearts  3 3 2 2 2 2 2 2 3 3 3 3 3     seat 2: 2D 3D 4D 6D 7D 4H-9H (11)
# spades  3 3 3 0 0 0 0 0 0 0 0 x x     seat 3: 2H 3H TH-AH 2S 3S 4S (10)
N3 = {
    "C": "1 1 1 1 1 1 1 1 1 1 1 0 0",
    "D": "2 2 2 x 2 2 x x x x x x x",
    "H": "3 3 2 2 2 2 2 2 3 3 3 3 3",
    "S": "3 3 3 0 0 0 0 0 0 0 0 x x",
}
HANDS_N3, SPARE_N3 = grid(N3)


@pytest.mark.parametrize(("options", "choices"), [
    # F10 pass_left: seat 2 has no black card; seat 3 must lead black: 2S.
    ({}, [(3, "2S")]),
    # same_colour with lowest_in_chosen_suit: seat 2 leads the lowest of a red suit: 6D or 4H.
    ({"colour_fallback": "same_colour"}, [(2, "4H"), (2, "6D")]),
    # same_colour with lowest_of_colour: the same, the lowest of a red suit of his choice (F10:
    # switch_card rules the change of colour, not the fallback): 6D or 4H.
    ({"colour_fallback": "same_colour", "switch_card": "lowest_of_colour"},
     [(2, "4H"), (2, "6D")]),
])
def test_colour_fallback_with_both_switch_cards(options: dict[str, Any],
                                                choices: list[tuple[int, str]]) -> None:
    # 2D 3D 4D (seat 2); 5D is in the dummy: stop with seat 2, who must lead black.
    deal = stops.replay(newmarket(HANDS_N3, SPARE_N3, [L(2, "2D")], options=options),
                        partial=True)
    assert plays(deal) == P("2:2D 2:3D 2:4D")
    assert lead_choices(deal) == choices


# -- Tripoley T1: the dealer's left holds no black card ---------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   2 2 2 2 2 2 2 2 2 2 2 3 3     seat 0: TH JH QH KH AH 2S-6S (10)
# diams   1 1 1 1 1 1 1 1 1 1 1 x x     seat 1: 2D-QD (11): no black card
# hearts  3 3 3 3 3 3 3 3 0 0 0 0 0     seat 2: 2C-QC (11)
# spades  0 0 0 0 0 x x x x x x x x     seat 3: 2H-9H KC AC (10)
#                                       dead:   KD AD 7S-AS
T1 = {
    "C": "2 2 2 2 2 2 2 2 2 2 2 3 3",
    "D": "1 1 1 1 1 1 1 1 1 1 1 x x",
    "H": "3 3 3 3 3 3 3 3 0 0 0 0 0",
    "S": "0 0 0 0 0 x x x x x x x x",
}
HANDS_T1, DEAD_T1 = grid(T1)
UNSOLD = [act(0, "auction"), act(1, "pass"), act(2, "pass"), act(3, "pass")]
CHECKS = [act(s, "check") for s in (1, 2, 3, 0)]


def test_lowest_black_opening_passes_to_the_first_player_with_black() -> None:
    # Stakes 9 each: 191, every space 4. The dealer holds the heart honours: he cannot swap
    # (F49); he auctions, all pass (seats 1 and 2 hold an 8-9-10 and must).
    # Stage one: seat 0 AH KH QH JH TH KQ (6 x 4 = 24) -> 215; 8-9-10 shared by seats 1
    # (diamonds) and 2 (clubs): 2 each -> 193.
    # Poker, all check: seat 0's royal flush beats the two queen-high straight flushes: 219.
    # Stage three (opening_exempt true, the rule before G9): seat 1 holds no black card, so
    # seat 2 opens with his lowest black, 2C, and nobody pays. 2C ... QC are all his: out at
    # QC (KC is seat 3's). Kitty 4 + cards 10 (seat 0) + 11 (seat 1) + 10 (seat 3) = 35 ->
    # seat 2: 228. Seat 0 209, seat 1 182, seat 3 181: 800 in all, nothing left on the layout.
    exempt = {"opening_exempt": True}
    deal = stops.replay(tripoley(HANDS_T1, DEAD_T1, UNSOLD + CHECKS, options=exempt),
                        partial=True)
    assert deal.stacks == (219, 193, 193, 191)
    assert legal(deal) == [L(2, "2C")]
    expect_illegal(deal, L(1, "2D"))
    assert not [e for e in deal.events if e.kind == "lead_passed"]
    deal.apply(L(2, "2C"))
    assert plays(deal) == [(2, r + "C") for r in "23456789TJQ"]
    assert deal.winner == 2
    assert deal.stacks == (209, 182, 228, 181)
    assert nonzero(deal) == {}
    # G9 (the default): seat 1 fails the opening like any lead: lead_passed, he pays 1 into
    # the kitty (192; kitty 5), and seat 2 must open with his lowest black card, 2C. He goes
    # out as before and takes kitty 5 + 31 cards = 36: 229. Seat 1 192 - 11 = 181.
    deal = stops.replay(tripoley(HANDS_T1, DEAD_T1, UNSOLD + CHECKS), partial=True)
    assert deal.stacks == (219, 192, 193, 191) and deal.layout["kitty"] == 5
    assert legal(deal) == [L(2, "2C")]
    deal.apply(L(2, "2C"))
    assert deal.winner == 2
    assert deal.stacks == (209, 181, 229, 181)
    assert nonzero(deal) == {}


# T2: T1 with QC (seat 2) and 2S (seat 0) exchanged: seat 2 holds 2C and 2S.
T2 = dict(T1, C="2 2 2 2 2 2 2 2 2 2 0 3 3", S="2 0 0 0 0 x x x x x x x x")
HANDS_T2, DEAD_T2 = grid(T2)


def test_lowest_black_rank_tie_is_the_players_choice() -> None:
    deal = stops.replay(tripoley(HANDS_T2, DEAD_T2, UNSOLD + CHECKS), partial=True)
    assert lead_choices(deal) == [(2, "2C"), (2, "2S")]


def test_ten_share_share_is_the_per_player_rule() -> None:
    # F50's name for the default: `share` is an alias of three-in-one's `per_player`.
    for name in ("share", "per_player"):
        v = stops.load_variant("tripoley-colours", options={"ten_share": name})
        assert v.policy("pay_collection").params.ten_share == "per_player"
    deal = stops.replay(tripoley(HANDS_T1, DEAD_T1, UNSOLD, options={"ten_share": "share"}),
                        partial=True)
    assert deal.stacks == (215, 193, 193, 191)
    sch = variant_schema()["properties"]["rules"]["properties"]["ten_share"]
    assert "share" in sch["enum"]
    with pytest.raises(stops.VariantError):
        stops.load_variant("tripoley-colours", options={"ten_share": "halves"})


def test_lowest_seat_takes_the_whole_8_9_10() -> None:
    # F50 lowest_seat on T1: seats 1 and 2 hold an 8-9-10; seat 1 is nearer the dealer's
    # left: he takes all 4.
    deal = stops.replay(tripoley(HANDS_T1, DEAD_T1, UNSOLD, options={"ten_share": "lowest_seat"}),
                        partial=True)
    assert deal.stacks == (215, 195, 191, 191)


def test_the_variants_starting_chips() -> None:
    assert stops.Table("tripoley", seats=4, seed=1).stacks == (200,) * 4
    assert stops.Table("newmarket", seats=4, seed=1).stacks == (50,) * 4
    assert stops.Table("boodle", seats=3, seed=1, options={"starting_chips": 80}).stacks == (
        80,) * 3
    assert stops.Table("tripoley", seats=4, chips=30, seed=1).stacks == (30,) * 4


def test_no_limit_betting_and_automatic_hands_in_three_in_one() -> None:
    # The poker options Tripoley uses, on three-in-one: no `select` decision, and a bet up to
    # the whole stack (three-in-one's own limit is 10).
    table = stops.Table("three-in-one", seats=3, chips=50, seed=3, dealer=0,
                        options={"poker_selection": "auto", "betting": "no_limit"})
    deal = table.new_deal()
    deal.apply(act(0, "keep"))
    assert deal.current_seat == 1
    bets = [a["chips"] for a in legal(deal) if a["action"] == "bet"]
    assert max(bets) == deal.stacks[1] > 10
    before, pot = deal.stacks[1], deal.layout["pot"]
    deal.apply(act(1, "bet", chips=30))
    assert deal.stacks[1] == before - 30 and deal.layout["pot"] == pot + 30


def test_one_player_left_needs_elimination(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "endless.yaml"
    f.write_text("name: endless\nextends: boodle\nrules:\n  match_end: one_player_left\n",
                 encoding="utf-8")
    main(["check", str(f)])
    assert "chip_shortfall is eliminate" in capsys.readouterr().out
    root = Path(__file__).resolve().parents[2]
    for name in ("tripoley", "tripoley-colours", "tripoley-home-table"):
        assert main(["check", str(root / "variants" / f"{name}.yaml")]) == 0


def test_stacked_sizes_as_dealt_and_any() -> None:
    # F.0 (stacked_sizes: as_dealt in both games): with dealer 0 the 4-player sizes are 11, 11
    # (seats 1, 2), 10, 10 (seats 3, 0). Moving the 2H from seat 3 to seat 0 makes them 11,
    # 11, 9, 11: refused. With stacked_sizes: any the same hands are a legal stacked deal, and
    # seat 2's 2D still opens.
    hands = [list(h) for h in HANDS_N1]
    hands[3].remove("2H")
    hands[0].append("2H")
    with pytest.raises(stops.RecordError):
        stops.replay(newmarket(hands, SPARE_N1), partial=True)
    deal = stops.replay(newmarket(hands, SPARE_N1, options={"stacked_sizes": "any"}),
                        partial=True)
    assert [len(h) for h in deal.dealt_hands] == [11, 11, 11, 9]
    assert legal(deal) == [L(2, "2D")]

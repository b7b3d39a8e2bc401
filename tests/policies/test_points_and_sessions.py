"""The general mechanisms built for Nain Jaune and Comet, on other tables: settlement by card
points and the board-card penalty (``going_out_reward: card_points``), ``match_end:
until_short`` and ``deals`` with ``per_player``, flat option aliases, the wild card's refusal
codes, and the terminal's talon and "sans X".

Every deal is stacked and derived by hand. Unless a test says otherwise the table is the
rotation test variant (Boodle's layout AH KC QD JS and stakes, cards laid in turn by rank only,
ace low), 3 seats of 50 chips, dealer 0: stacks after stakes 42, 46, 46, each space 4.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import stops
from stops.rules.registry import default_registry
from support import lead, spare_of

ROTATION = str(Path(__file__).parents[1] / "data" / "rotation.yaml")

# s0 holds the KC (a board card of Boodle's layout) and never plays it.
HANDS = [["3C", "4D", "KC"], ["AH", "2C", "5S", "9S"], ["2D", "3H"]]


def rotation(**options: Any) -> stops.Deal:
    t = stops.Table(ROTATION, seats=3, chips=50, seed=1, dealer=0, options=options)
    d = t.new_deal(hands=HANDS, spare=spare_of(HANDS))
    # s1 leads AH (wins AH: 4, 50), must play 2C; s2 plays 3H; s0 plays 4D; s1 plays 5S;
    # nobody holds a 6: back to s1, who leads 9S, his last card: out.
    lead(d, 1, "AH")
    for seat, card in ((1, "2C"), (2, "3H"), (0, "4D"), (1, "5S")):
        d.apply({"seat": seat, "action": "play", "card": card})
    lead(d, 1, "9S")
    assert d.winner == 1
    return d


def test_card_points_with_the_board_card_penalty() -> None:
    """Points (F5): s2 holds 2D = 2, s0 holds 3C KC = 3 + 10 = 13, paid from the winner's
    left: s1 50 + 15 = 65, s2 44, s0 29. Then s0 holds KC: he doubles its box (4): 25, KC 8."""
    d = rotation(going_out_reward="card_points", board_card_penalty="double")
    assert d.stacks == (25, 65, 44)
    assert {k: v for k, v in d.layout.items() if v} == {"KC": 8, "QD": 4, "JS": 4}


def test_card_points_per_card_without_penalty() -> None:
    """``going_out_payment: per_card``, no penalty (the policy's default): s2 pays 1, s0 2:
    s1 53, s2 45, s0 40; KC keeps 4."""
    d = rotation(going_out_reward="card_points", going_out_payment="per_card")
    assert d.stacks == (40, 53, 45)
    assert d.layout["KC"] == 4


def test_the_penalty_is_in_the_rules_text_and_linted_without_card_spaces() -> None:
    v = stops.load_variant(ROTATION, options={"going_out_reward": "card_points",
                                               "board_card_penalty": "double"})
    from stops.rules.prose import rules_text

    text = rules_text(v)
    assert "doubling it" in text and "points of the cards" in text
    comet = stops.load_variant("comet", options={"going_out_reward": "card_points",
                                                 "board_card_penalty": "double"})
    from stops.rules.checks import static_problems

    assert any("no card space" in m for _, m in static_problems(comet))


def test_until_short_with_a_fixed_threshold() -> None:
    """``{use: until_short, chips: 30}`` on the rotation table: after the card-points deal
    above s0 holds 25 < 30: over. With the stake rule's own amount (Boodle: the next dealer,
    s1, stakes 2 x 4 = 8; the others 4) nobody is short: not over."""
    for chips, over in ((30, True), (0, False)):
        t = stops.Table(ROTATION, seats=3, chips=50, seed=1, dealer=0, options={
            "going_out_reward": "card_points", "board_card_penalty": "double",
            "match_end": {"use": "until_short", "chips": chips}})
        d = t.new_deal(hands=HANDS, spare=spare_of(HANDS))
        lead(d, 1, "AH")
        for seat, card in ((1, "2C"), (2, "3H"), (0, "4D"), (1, "5S")):
            d.apply({"seat": seat, "action": "play", "card": card})
        lead(d, 1, "9S")
        assert t.stacks == (25, 65, 44)
        assert t.is_over is over
        if over:
            assert "seat 0" in t.end_reason()


def test_until_short_prices_each_position_of_the_session() -> None:
    """The stakes due are priced once per position and remembered per variant: the price
    still follows the dealer and the retired spaces. Boodle's stakes on the rotation table's
    four spaces: the dealer 2 on each (8), the others 1 on each (4). Seat 0 holds 7 chips:
    short when he deals (7 < 8), not when seat 1 deals (7 >= 4); when he deals with AH and
    KC retired he stakes 2 x 2 = 4, not short. Asked again, each answer is the same."""
    options = {"match_end": {"use": "until_short"}}

    def table(dealer: int, retired: tuple[str, ...] = ()) -> stops.Table:
        return stops.Table(ROTATION, seats=3, chips=[7, 50, 50], seed=1, dealer=dealer,
                           retired=retired, options=options)

    for _ in range(2):
        assert table(0).is_over
        assert table(0).end_reason() == "seat 0 cannot pay the stake for the next deal"
        assert not table(1).is_over
        assert not table(0, ("AH", "KC")).is_over
        assert not table(2).is_over


def test_until_short_refuses_to_start_but_a_replay_is_not_judged() -> None:
    """Before the first deal a stack of 14 (Nain Jaune's stake is 15) ends the session at
    once; a deal record with such stacks still replays (it is one deal, not a session)."""
    short = stops.Table("nain-jaune", seats=3, chips=[14, 50, 50], seed=1)
    # the table says so before anyone asks for a deal (a driver loop tests is_over first)
    assert short.is_over and short.end_reason() == "seat 0 cannot pay the stake for the next deal"
    assert "over" in repr(short)
    with pytest.raises(stops.SessionOver, match="cannot start: seat 0 cannot pay the stake"):
        short.new_deal()
    assert short.is_over
    assert not stops.Table("nain-jaune", seats=3, chips=15, seed=1).is_over
    t = stops.Table("nain-jaune", seats=3, chips=50, seed=1)
    rec = t.new_deal().record()
    rec["stacks"] = [14, 50, 50]
    assert stops.replay(rec, partial=True).stacks[0] == -1


@pytest.mark.parametrize(("per_player", "seats", "deals"), [(2, 2, 4), (1, 3, 3), (2, 5, 10)])
def test_deals_per_player(per_player: int, seats: int, deals: int) -> None:
    t = stops.Table("comet", seats=seats, chips=50, seed=5,
                    options={"match_end": {"use": "deals", "per_player": per_player}})
    played = 0
    while not t.is_over:
        d = t.new_deal()
        while not d.is_terminal:
            d.apply(d.legal_actions()[0])
        played += 1
    assert played == deals
    assert t.end_reason() == f"{deals} deals played"


def test_comet_turn_is_an_alias_of_turn_length() -> None:
    """F41's option name is the rotation's turn_length under the Comet's name: either name
    sets the same parameter; both are documented and in the schema."""
    for name in ("comet_turn", "turn_length"):
        v = stops.load_variant("comet", options={name: "run"})
        assert v.policy("turn_order").params.per_turn == "run"
    owners = default_registry().options()
    assert owners["comet_turn"] == owners["turn_length"]
    from stops.io.schema import variant_schema

    schema = variant_schema()
    assert "comet_turn" in str(schema)
    reference = (Path(__file__).parents[2] / "docs" / "reference.md").read_text("utf-8")
    assert "`turn_length` / `comet_turn`" in reference


D = [["9D", "2S", "3S", "4S", "6S", "TS", "QC", "KH", "KS"],
     ["8C", "8S", "JS", "2C", "2D", "2H", "3C", "3D", "3H"],
     ["9H", "4C", "4D", "4H", "6C", "6D", "6H", "7C", "7D"],
     ["QH", "7H", "7S", "8D", "8H", "9C", "9S", "JC", "JD"],
     ["TC", "TD", "TH", "KC", "KD", "5C", "5D", "5H", "5S"]]


def test_comet_refusal_codes() -> None:
    """At seat 0's turn (needed J, only the comet): an ace (not in the pack) is
    ``no_such_rank``, a rank that is not the needed one ``wrong_rank``; at seat 1's turn (he
    holds JS) a pass is ``no_voluntary_stop``; a lead naming another rank than its naturals
    is ``wrong_rank``. Nothing changes."""
    t = stops.Table("comet", seats=5, chips=50, seed=1, dealer=0)
    d = t.new_deal(hands=D, spare=["JH", "QD", "QS"])
    for a in ({"seat": 1, "action": "lead", "cards": ["8C", "8S"]},
              {"seat": 2, "action": "play", "cards": ["9H"]},
              {"seat": 4, "action": "play", "cards": ["TC", "TD", "TH"]}):
        d.apply(a)
    before = d.record()
    for bad, code in (({"cards": ["9D"], "as_rank": "A"}, "no_such_rank"),
                      ({"cards": ["9D"], "as_rank": "Q"}, "wrong_rank")):
        with pytest.raises(stops.IllegalAction) as e:
            d.apply({"seat": 0, "action": "play", **bad})
        assert e.value.code == code and d.record() == before
    d.apply({"seat": 0, "action": "pass"})
    with pytest.raises(stops.IllegalAction) as e:
        d.apply({"seat": 1, "action": "pass"})
    assert e.value.code == "no_voluntary_stop"


def test_terminal_names_the_talon_and_says_sans(capsys: pytest.CaptureFixture[str]) -> None:
    """``stops play nain-jaune``: the talon's count on the status lines, and "sans X" when a
    turn ends because its player holds no card of the next rank."""
    import io

    from stops.apps.terminal import play_terminal

    out = io.StringIO()
    play_terminal(stops.load_variant("nain-jaune"), 4, seat=0, seed=3, deals=1,
                  inp=io.StringIO("1\n" * 200), out=out)
    text = out.getvalue()
    assert "Talon: 4 cards" in text and "The talon (4 cards)" in text
    assert ": sans " in text or "(sans " in text


def test_rules_text_reads_as_the_game() -> None:
    """``stops rules``: Nain Jaune's text names the talon, the "sans X" turns and rank-only
    sequences, with no Michigan wording (a suit's lowest card, the next card's holder, the
    spare hand, a kitty); Comet's has no layout, no stakes and the comet."""
    from stops.rules.prose import rules_text

    nj = rules_text(stops.load_variant("nain-jaune"))
    for words in ("talon", "sans 8", "by rank alone", "grand opéra", "doubling it",
                  "A King ends the sequence", "The player to the dealer's left makes"):
        assert words in nj, words
    for words in ("lowest card", "holds the next card", "spare hand", "kitty",
                  "passes the duty"):
        assert words not in nj, words
    comet = rules_text(stops.load_variant("comet"))
    for words in ("Nobody stakes anything", "no layout", "the comet", "four times",
                  "from two (low) to King (high)", "A King ends the sequence"):
        assert words in comet, words
    assert "block" not in comet and "an ace 1" not in comet  # neither exists in the Comet
    assert "Chips not won stay on the layout" not in comet

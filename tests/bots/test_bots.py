"""The bots of stops.bots: legal play from observations only, and the heuristic's choices."""

from __future__ import annotations

from itertools import combinations

import pytest

import stops
from stops.bots import BOTS, Bot, HeuristicBot, RandomBot, make_bot, play_deal
from stops.engine.actions import Action
from stops.engine.observation import MAX_LISTED_ACTIONS
from stops.phases.handrank import hand_key

BUILTINS = stops.list_variants()
DEALS = 30
PLAIN = sorted(b for b in BOTS if b != "ismcts")
"""The bots cheap enough to play every built-in for many deals here; the search bot plays
them at a tiny budget in tests/bots/test_ismcts.py."""


def seat_counts(name: str) -> list[int]:
    lo, hi = stops.load_variant(name).players
    return sorted({min(max(lo, 3), hi), hi})  # a game for two only (epsom): just 2


def total(deal: stops.Deal) -> int:
    return sum(deal.stacks) + sum(deal.layout.values())


def checked_play(deal: stops.Deal, bots: list[Bot]) -> list[tuple[stops.Observation, Action]]:
    """Play a deal through ``deal.observe`` only, checking every answer before applying it."""
    seen: list[tuple[stops.Observation, Action]] = []
    while not deal.is_terminal:
        seat = deal.current_seat
        assert seat is not None
        obs = deal.observe(seat)
        assert obs.current_seat == seat and obs.legal_actions
        action = bots[seat].act(obs)
        assert isinstance(action, Action)
        assert action.seat == seat
        if len(obs.legal_actions) < MAX_LISTED_ACTIONS:
            assert action in obs.legal_actions, f"{bots[seat]!r} chose illegal {action}"
        assert action in deal.legal_actions()
        deal.apply(action)
        seen.append((obs, action))
        assert len(seen) < 10_000, "deal did not finish"
    return seen


@pytest.mark.parametrize("bot_name", PLAIN)
@pytest.mark.parametrize(("variant", "seats"),
                         [(v, n) for v in BUILTINS for n in seat_counts(v)])
def test_bots_play_every_builtin_legally(variant: str, seats: int, bot_name: str) -> None:
    table = stops.Table(variant, seats=seats, chips=40, seed=11)
    start = table.total_chips()
    bots = [make_bot(bot_name, 100 + s) for s in range(seats)]
    for i in range(DEALS):
        if table.is_over:
            table = stops.Table(variant, seats=seats, chips=40, seed=1000 + i)
            start = table.total_chips()
        deal = table.new_deal()
        before = total(deal)
        for obs, action in checked_play(deal, bots):
            if bot_name == "heuristic" and action.action == "bid":
                assert action.chips is not None
                assert action.chips <= max(1, obs.stacks[obs.seat] // 4)
            if bot_name == "heuristic" and action.action in ("bet", "raise"):
                assert action.chips is not None and action.chips <= 4
        assert deal.is_terminal
        assert total(deal) == before
        assert table.total_chips() == start


def test_mixed_table_plays_to_the_end() -> None:
    for variant in ("boodle", "three-in-one", "pot-and-kitty", "nain-jaune", "comet"):
        table = stops.Table(variant, seats=4, chips=40, seed=3)
        bots: list[Bot] = [HeuristicBot(1), RandomBot(2), HeuristicBot(3), RandomBot(4)]
        for _ in range(10):
            if table.is_over:
                break
            deal = table.new_deal()
            assert play_deal(deal, bots) > 0
            assert deal.is_terminal


@pytest.mark.parametrize("seats", [3, 4, 8])
def test_heuristic_selects_its_best_poker_hand(seats: int) -> None:
    checked = 0
    for seed in range(6):
        table = stops.Table("three-in-one", seats=seats, chips=40, seed=seed)
        bots = [HeuristicBot(s) for s in range(seats)]
        deal = table.new_deal()
        while not deal.is_terminal:
            seat = deal.current_seat
            assert seat is not None
            obs = deal.observe(seat)
            action = bots[seat].act(obs)
            if action.action == "select":
                assert action.cards is not None
                k = min(5, len(obs.hand))
                best = max(hand_key(c) for c in combinations(obs.hand, k))
                assert hand_key(action.cards) == best
                checked += 1
            deal.apply(action)
    assert checked == 6 * seats


def test_heuristic_selects_a_royal_flush_from_a_stacked_hand() -> None:
    table = stops.Table("three-in-one", seats=3, chips=40, seed=0)
    pack = [str(c) for c in stops.CARDS]
    mine = ["TS", "JS", "QS", "KS", "AS", "2C", "2D", "2H", "3C", "3D", "3H", "4C", "4D"]
    rest = [c for c in pack if c not in mine]
    deal = table.new_deal(hands=[rest[0:13], mine, rest[13:26]], spare=rest[26:])
    bot = HeuristicBot(0)
    while deal.phase != "poker":  # the dealer keeps its hand, so seat 1 keeps the royal flush
        deal.apply(deal.legal_actions()[0])
    assert deal.current_seat == 1
    action = bot.act(deal.observe(1))
    assert action.cards == tuple(stops.parse_cards(["TS", "JS", "QS", "KS", "AS"]))


def boodle_deal(seat1: list[str], seat2_extra: list[str]) -> stops.Deal:
    """A 3-seat boodle deal, dealer 0, so seat 1 leads first with the hand ``seat1``."""
    table = stops.Table("boodle", seats=3, chips=40, seed=0, dealer=0)
    rest = [str(c) for c in stops.CARDS if str(c) not in seat1 and str(c) not in seat2_extra]
    half = len(rest) // 2
    return table.new_deal(hands=[rest[:half], seat1, rest[half:] + seat2_extra], spare=[])


def test_heuristic_goes_out_with_its_only_lead() -> None:
    deal = boodle_deal(["3S", "4S", "5S"], [])
    assert deal.current_seat == 1
    obs = deal.observe(1)
    assert [str(a.card) for a in obs.legal_actions] == ["3S"]
    action = HeuristicBot(0).act(obs)
    assert str(action.card) == "3S"
    deal.apply(action)
    assert deal.outcome == "went_out" and deal.winner == 1


def test_heuristic_takes_the_line_that_goes_out() -> None:
    # Leading TD runs to the ace (a sure stop), then 2C is the last card: out. Leading 2C
    # first hands the lead to the holder of 3C.
    deal = boodle_deal(["TD", "JD", "QD", "KD", "AD", "2C"], ["3C"])
    bot = HeuristicBot(0)
    obs = deal.observe(1)
    assert {str(a.card) for a in obs.legal_actions} == {"2C", "TD"}
    assert str(bot.act(obs).card) == "TD"
    deal.apply(bot.act(obs))
    assert deal.current_seat == 1
    deal.apply(bot.act(deal.observe(1)))
    assert deal.outcome == "went_out" and deal.winner == 1


def test_heuristic_keeps_the_lead_with_a_run_to_the_ace() -> None:
    # 9H-AH ends in a sure stop; 2C and 5D hand the lead on.
    deal = boodle_deal(["2C", "5D", "9H", "TH", "JH", "QH", "KH", "AH", "7S"], [])
    obs = deal.observe(1)
    assert str(HeuristicBot(0).act(obs).card) == "9H"


def test_heuristic_stakes_on_the_richest_key_card() -> None:
    table = stops.Table("pot-and-kitty", seats=4, chips=40, seed=0, dealer=0,
                        layout={"QC": 5, "JD": 2})
    deal = table.new_deal()
    assert deal.phase == "stake"
    obs = deal.observe(deal.current_seat or 0)
    assert HeuristicBot(0).act(obs).space == "QC"


def test_heuristic_spreads_free_stakes() -> None:
    table = stops.Table("boodle-free-stakes", seats=3, chips=40, seed=0)
    deal = table.new_deal()
    bot = HeuristicBot(0)
    first = deal.current_seat
    assert first is not None
    placed: dict[str, int] = {}
    while deal.phase == "stake" and deal.current_seat == first:
        action = bot.act(deal.observe(first))
        assert action.space is not None and action.chips == 1
        placed[action.space] = placed.get(action.space, 0) + 1
        deal.apply(action)
    assert placed == {"AH": 1, "KC": 1, "QD": 1, "JS": 1}


def spare_auction_deal(dealer_hand: list[str]) -> stops.Deal:
    table = stops.Table("boodle-spare-auction", seats=3, chips=40, seed=0, dealer=0)
    rest = [str(c) for c in stops.CARDS if str(c) not in dealer_hand]
    return table.new_deal(hands=[dealer_hand, rest[:13], rest[13:26]], spare=rest[26:])


def test_heuristic_dealer_swaps_a_weak_hand() -> None:
    weak = ["2C", "4C", "6C", "8C", "2D", "4D", "6D", "8D", "2H", "4H", "6H", "2S", "4S"]
    deal = spare_auction_deal(weak)
    assert deal.current_seat == 0 and deal.phase == "spare_hand"
    assert HeuristicBot(0).act(deal.observe(0)).action == "swap"


def test_heuristic_dealer_sells_the_spare_with_a_strong_hand() -> None:
    strong = [str(stops.card(r, 3)) for r in range(13)]  # all the spades: one run to the ace
    deal = spare_auction_deal(strong)
    assert HeuristicBot(0).act(deal.observe(0)).action == "auction"


@pytest.mark.parametrize("bot_name", PLAIN)
@pytest.mark.parametrize("variant", ["boodle-spare-auction", "three-in-one", "pot-and-kitty",
                                     "boodle-free-stakes", "pope-joan", "spinado", "newmarket",
                                     "tripoley"])
def test_same_seed_same_choices(variant: str, bot_name: str) -> None:
    def run() -> list[list[Action]]:
        table = stops.Table(variant, seats=4, chips=40, seed=5)
        bots = [make_bot(bot_name, 7 + s) for s in range(4)]
        out = []
        for _ in range(5):
            if table.is_over:
                break
            deal = table.new_deal()
            play_deal(deal, bots)
            out.append(list(deal.actions))
        return out

    assert run() == run()


def test_make_bot_and_protocol() -> None:
    for name in BOTS:
        bot = make_bot(name, 3)
        assert isinstance(bot, Bot)
        assert bot.name == name
    with pytest.raises(ValueError, match="no bot named"):
        make_bot("oracle", 0)


def test_bot_asked_out_of_turn_raises() -> None:
    deal = boodle_deal(["3S", "4S", "5S"], [])
    obs = deal.observe(2)
    assert not obs.legal_actions
    for name in BOTS:
        with pytest.raises(ValueError, match="no decision"):
            make_bot(name, 0).act(obs)


def test_play_deal_needs_one_bot_per_seat() -> None:
    deal = boodle_deal(["3S", "4S", "5S"], [])
    with pytest.raises(ValueError, match="one per seat"):
        play_deal(deal, [RandomBot(0)])


def test_the_heuristic_bot_reads_what_each_space_pays_from_the_rules() -> None:
    """Told the variant, the bot knows what wins each space from the layout's kinds, not
    from the spaces' ids (G.0 item 10, G.2, G.7): Peel's AS is won by the K♠ (the card
    below it), Rummoli's kitty is the space called ``rummoli``, Play or Pay's ``pot`` is a
    kitty won by going out (not a prize for a run), and only pot-and-kitty's run rule pays
    its pot for a run."""
    from stops.bots import board_of

    card = lambda c: int(stops.parse_card(c))  # noqa: E731
    peel = board_of(stops.load_variant("newmarket-peel"))
    assert peel.cards == {"AS": card("KS"), "KC": card("QC"), "QH": card("JH"),
                          "JD": card("TD")}
    assert board_of(stops.load_variant("rummoli")).kitty == "rummoli"
    pay = board_of(stops.load_variant("play-or-pay"))
    assert (pay.kitty, pay.pot) == ("pot", None)
    assert board_of(stops.load_variant("pot-and-kitty")).pot == "pot"
    assert board_of(stops.load_variant("three-in-one")).pot is None
    assert board_of(stops.load_variant("three-in-one")).runs == {"8-9-10": (6, 7, 8)}

"""The ISMCTS bot: legal play of every built-in, determinism, no peeking, a position whose best
move chip arithmetic forces, and its refusals. Budgets are tiny: the quick tier stays fast."""

from __future__ import annotations

import io
import json
import pickle
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

import stops
from stops.apps.cli import main
from stops.apps.simulate import compare, simulate
from stops.apps.terminal import play_terminal
from stops.bots import (
    Bot,
    BotParameterError,
    HeuristicBot,
    ISMCTSBot,
    make_bot,
    parse_bot,
    play_deal,
)
from stops.engine.actions import Action
from stops.engine.errors import StopsError
from stops.engine.observation import NoDeterminizer

BUILTINS = stops.list_variants()


def boodle_deal(seat1: list[str], seat0: list[str], chips: int = 100) -> stops.Deal:
    """A 3-seat boodle deal, dealer 0, no spare hand: seat 1 leads first with ``seat1``; seat 0
    holds ``seat0`` (the rest goes to seat 2)."""
    table = stops.Table("boodle", seats=3, chips=chips, seed=0, dealer=0)
    rest = [str(c) for c in stops.CARDS if str(c) not in seat1 and str(c) not in seat0]
    return table.new_deal(hands=[seat0, seat1, rest], spare=[])


@pytest.mark.parametrize("variant", BUILTINS)
def test_ismcts_plays_every_builtin_to_the_end_legally(variant: str) -> None:
    lo, hi = stops.load_variant(variant).players
    seats = min(max(lo, 3), hi)
    table = stops.Table(variant, seats=seats, seed=7)
    deal = table.new_deal()
    bots: list[Bot] = [HeuristicBot(s, variant=table.variant) for s in range(seats)]
    bots[deal.current_seat or 0] = ISMCTSBot(3, iterations=1, variant=table.variant)
    n = 0
    while not deal.is_terminal:
        seat = deal.current_seat
        assert seat is not None
        action = bots[seat].act(deal.observe(seat))
        assert isinstance(action, Action) and action.seat == seat
        assert action in deal.legal_actions()
        deal.apply(action)
        n += 1
        assert n < 5000
    assert deal.is_terminal


@pytest.mark.parametrize("variant", ["boodle", "three-in-one", "tripoley"])
def test_same_seed_same_decisions(variant: str) -> None:
    def run(seed: int) -> list[Action]:
        table = stops.Table(variant, seats=4, seed=5)
        deal = table.new_deal()
        bots: list[Bot] = [HeuristicBot(s) for s in range(4)]
        bots[1] = ISMCTSBot(seed, iterations=6)
        play_deal(deal, bots)
        return list(deal.actions)

    assert run(9) == run(9)


def test_two_deals_alike_to_the_seat_give_the_same_decision() -> None:
    # Seat 1's hand and everything it has seen are the same in both deals; seats 0 and 2 hold
    # different cards (the whole of the clubs and hearts moves between them). A bot that read
    # the hidden hands (through its determinizations) could decide differently.
    mine = ["2C", "5D", "9H", "7S", "TS", "4D"]
    rest = [str(c) for c in stops.CARDS if str(c) not in mine]
    a = boodle_deal(mine, rest[:23])
    b = boodle_deal(mine, rest[23:])
    oa, ob = a.observe(1), b.observe(1)
    assert oa == ob and a.hand(0) != b.hand(0)
    assert len(oa.legal_actions) > 1
    for seed in (1, 2, 3):
        assert ISMCTSBot(seed, iterations=40).act(oa) == ISMCTSBot(seed, iterations=40).act(ob)


def test_finds_the_lead_that_goes_out() -> None:
    # Boodle, 3 seats, dealer 0, 100 chips each, no spare hand. Stakes: the dealer puts 2 on
    # each of AH KC QD JS and the others 1: each space holds 4; seat 1 has paid 4.
    # Seat 1 holds TD JD QD KD AD 2C and may lead 2C or TD (the lowest of each suit).
    # * TD: seat 1 plays TD JD QD (the QD space: +4) KD AD; the ace is a stop, so seat 1
    #   leads again: 2C, its last card: out. Nobody else played a card, so the others hold
    #   52 - 6 = 46 cards: +46. Total -4 + 4 + 46 = +46, in every deal seat 1 may imagine.
    # * 2C: 3C is held by another seat, who plays it; whatever follows, the others hold at
    #   most 45 cards if seat 1 goes out and the QD space pays at most 4: at most
    #   -4 + 4 + 45 = +45 < +46.
    # So TD is the better lead by arithmetic alone, whatever the hidden hands.
    deal = boodle_deal(["TD", "JD", "QD", "KD", "AD", "2C"], ["3C", "4C"])
    obs = deal.observe(1)
    assert {str(x.card) for x in obs.legal_actions} == {"2C", "TD"}
    # the search alone (confidence 0: its best mean, not the heuristic's choice unless beaten)
    for seed in range(3):
        for rollout in ("random", "heuristic"):
            bot = ISMCTSBot(seed, iterations=30, rollout=rollout, confidence=0)
            assert str(bot.act(obs).card) == "TD"
    deal.apply(ISMCTSBot(0, iterations=30).act(obs))
    while not deal.is_terminal:
        deal.apply(ISMCTSBot(0, iterations=4).act(deal.observe(deal.current_seat or 0)))
    assert deal.winner == 1 and deal.returns()[1] == 46


def test_one_choice_is_not_searched() -> None:
    deal = boodle_deal(["3S", "4S", "5S"], ["7C"])
    obs = deal.observe(1).replace(determinizer=None)
    assert len(obs.legal_actions) == 1
    # no determinizer needed: a single legal action is played without search
    assert ISMCTSBot(0).act(obs) == obs.legal_actions[0]


def test_time_budget() -> None:
    deal = boodle_deal(["2C", "5D", "9H", "7S", "TS", "4D"], ["7C"])
    bot = ISMCTSBot(0, seconds=0.05)
    assert bot.iterations is None
    bot.act(deal.observe(1))
    assert bot.last_iterations >= 1


def test_a_sweep_of_the_root_imagines_one_deal() -> None:
    # Each deal imagined is tried with every one of the root's actions (one iteration each):
    # 12 iterations over k actions imagine ceil(12 / k) deals, and the bot says so.
    deal = boodle_deal(["2C", "5D", "9H", "7S", "TS", "4D"], ["7C"])
    obs = deal.observe(1)
    k = len(obs.legal_actions)
    assert k > 1
    bot = ISMCTSBot(0, iterations=12)
    bot.act(obs)
    assert bot.last_imagined == -(-12 // k)
    assert bot.last_iterations >= 12


# -- the determinizer and refusals ----------------------------------------------------------

def test_observation_determinizer_is_declared_and_not_part_of_the_view() -> None:
    deal = boodle_deal(["2C", "5D", "9H"], ["7C"])
    obs = deal.observe(1)
    assert obs.can_imagine
    assert "determinizer" not in repr(obs) and "determinizer" not in obs.to_dict()
    copy = obs.imagine(random.Random(1))
    assert copy.hand(1) == deal.hand(1) and copy is not deal
    bare = obs.replace(determinizer=None)
    assert bare == obs and not bare.can_imagine
    # pickled (sent elsewhere), an observation arrives without the deal behind it
    sent = pickle.loads(pickle.dumps(obs))
    assert sent == obs and not sent.can_imagine
    with pytest.raises(NoDeterminizer, match=r"not made by deal.observe"):
        bare.imagine(random.Random(1))
    with pytest.raises(StopsError, match="needs an observation that can imagine"):
        ISMCTSBot(0, iterations=2).act(bare)
    deal.apply(deal.legal_actions()[0])
    with pytest.raises(NoDeterminizer, match="moved on"):
        obs.imagine(random.Random(1))


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"iterations": 0}, "iterations"), ({"iterations": -3}, "iterations"),
    ({"iterations": 2.5}, "iterations"), ({"seconds": 0}, "seconds"),
    ({"seconds": -1.0}, "seconds"), ({"seconds": float("nan")}, "seconds"),
    ({"exploration": -0.1}, "exploration"), ({"rollout": "oracle"}, "rollout"),
    ({"confidence": float("inf")}, "confidence"),
])
def test_bad_parameters_are_refused(kwargs: dict[str, object], named: str) -> None:
    with pytest.raises(BotParameterError, match=f"ismcts: {named}"):
        ISMCTSBot(0, **kwargs)  # type: ignore[arg-type]


def test_bot_specs() -> None:
    assert parse_bot("ismcts:iterations=40:exploration=0.3") == (
        "ismcts", {"iterations": 40, "exploration": 0.3})
    bot = make_bot("ismcts:seconds=0.5:rollout=random", 1)
    assert isinstance(bot, ISMCTSBot) and bot.seconds == 0.5 and bot.rollout == "random"
    with pytest.raises(ValueError, match="no bot named 'oracle'; bots: random, heuristic, "
                                         "ismcts"):
        make_bot("oracle")
    with pytest.raises(ValueError, match=r"no parameter 'depth'.*iterations, seconds"):
        make_bot("ismcts:depth=3")
    with pytest.raises(ValueError, match=r"heuristic has no parameter 'iterations'.*no param"):
        make_bot("heuristic:iterations=3")
    with pytest.raises(ValueError, match="iterations='lots' is not a whole number"):
        make_bot("ismcts:iterations=lots")
    with pytest.raises(ValueError, match=r"ismcts: iterations must be .* at least 1, got 0"):
        make_bot("ismcts:iterations=0")


def test_cli_refuses_bad_bots(capsys: pytest.CaptureFixture[str]) -> None:
    for spec, says in [("ismcts:iterations=0", "iterations must be"),
                       ("ismcts:seconds=-2", "seconds must be"),
                       ("genius", "no bot named 'genius'; bots: random, heuristic, ismcts")]:
        code = main(["simulate", "boodle", "--deals", "1", "--bots", spec])
        _, err = capsys.readouterr()
        assert code != 0 and says in err
        code = main(["play", "boodle", "--bots", spec])
        _, err = capsys.readouterr()
        assert code != 0 and says in err
    with pytest.raises(StopsError, match="seconds must be"):
        simulate("boodle", players=3, deals=1, bots=("ismcts:seconds=0",))


def test_simulate_reports_the_bots_and_compares_on_workers() -> None:
    bots = ("ismcts:iterations=2", "heuristic")
    rep = simulate("boodle", players=3, deals=3, seed=1, bots=bots)
    assert rep.bots == ["ismcts:iterations=2", "heuristic", "ismcts:iterations=2"]
    assert "seat 0 ismcts:iterations=2, seat 1 heuristic" in rep.text()
    # in a worker process: the bots are rebuilt there from their specs
    one = compare("boodle", "boodle-free-stakes", players=3, deals=2, seed=2, bots=bots)
    with ProcessPoolExecutor(max_workers=1) as pool:
        two = compare("boodle", "boodle-free-stakes", players=3, deals=2, seed=2, bots=bots,
                      executor=pool)
    assert json.dumps(one.to_dict(), sort_keys=True) == json.dumps(two.to_dict(),
                                                                   sort_keys=True)


def test_a_person_plays_against_ismcts_bots() -> None:
    out = io.StringIO()
    answers = "\n" * 200 + "q\n"
    code = play_terminal(stops.load_variant("boodle"), players=3, seed=4, deals=1,
                         inp=io.StringIO(answers), out=out, bots="ismcts:iterations=3")
    assert code == 0 and "bots play the other seats (ismcts:iterations=3)" in out.getvalue()

"""The OpenSpiel adapter (extra ``stops-cards[openspiel]``): OpenSpiel's own API checks for
Python games, the deal as chance nodes, illegal ids, what each seat sees, registration.
Skipped without the extra."""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pyspiel")

import numpy as np
import pyspiel

import stops
from stops.engine.cards import CARDS
from stops.interop import openspiel as ospiel
from stops.interop.codec import ActionCodec

ROTATION = str(Path(__file__).parents[1] / "data" / "rotation.yaml")
GAMES = ["boodle", "three-in-one", "pot-and-kitty", "newmarket", "pope-joan", "spinado",
         "nain-jaune", "comet", "tripoley", "newmarket-peel", "poch",
         "play-or-pay", "royal-rummy", "rummoli", "pink-nines"]
"""Every built-in game (not the named variations); the campaign runs every variant."""


def game_of(variant: str, **params: int) -> Any:
    return ospiel.load_game(variant, **params)


def deal_in_order(state: Any, order: list[int] | None = None) -> None:
    """Play the chance nodes: each outcome the first card of ``order`` still left (default:
    the lowest card index left, i.e. the pack dealt in ``CARDS`` order)."""
    queue = list(order) if order is not None else None
    while state.is_chance_node():
        left = [c for c, _p in state.chance_outcomes()]
        if queue is None:
            state.apply_action(left[0])
        else:
            state.apply_action(queue.pop(0))


def names(cards: Any) -> list[str]:
    return [str(c) for c in cards]


# -- OpenSpiel's own checks -------------------------------------------------------------------


@pytest.mark.parametrize("variant", [*GAMES, ROTATION])
def test_random_sim_test_with_serialization(variant: str) -> None:
    game = game_of(variant)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.campaign
@pytest.mark.parametrize("variant", stops.list_variants())
def test_random_sim_test_every_variant_and_player_count(variant: str) -> None:
    lo, hi = stops.load_variant(variant).players
    for n in sorted({lo, min(max(4, lo), hi), hi}):
        game = game_of(variant, players=n)
        pyspiel.random_sim_test(game, num_sims=10, serialize=True, verbose=False)


@pytest.mark.campaign
@pytest.mark.parametrize("variant", GAMES)
def test_open_spiel_games_sim_test(variant: str) -> None:
    """OpenSpiel's test of every registered game (games_sim_test.sim_game): pickling the game,
    its type and states, cloning before every decision, returns within the utility range."""
    from open_spiel.python.tests import games_sim_test

    case = games_sim_test.GamesSimTest("sim_game")
    for seed in range(5):
        np.random.seed(seed)
        case.sim_game(game_of(variant))


@pytest.mark.parametrize("variant", ["boodle", "three-in-one", "royal-rummy"])
def test_pickle_clone_and_serialize_round_trip(variant: str) -> None:
    """What OpenSpiel's games_sim_test checks, at every step of one deal."""
    game = game_of(variant)
    assert str(pickle.loads(pickle.dumps(game))) == str(game)
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    state = game.new_initial_state()
    rng = np.random.default_rng(3)
    steps = 0
    while not state.is_terminal():
        if steps % 7 == 0 or not state.is_chance_node():
            copy = state.clone()
            assert str(copy) == str(state) and copy.history() == state.history()
            text = pyspiel.serialize_game_and_state(game, state)
            _g, back = pyspiel.deserialize_game_and_state(text)
            assert str(back) == str(state) and back.history() == state.history()
            assert str(pickle.loads(pickle.dumps(state))) == str(state)
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(cards, p=probs)))
        else:
            before = str(state)
            copy = state.clone()
            state.apply_action(int(rng.choice(state.legal_actions())))
            assert str(copy) == before  # the clone did not move with the original
        steps += 1
    assert state.returns() == [float(r) for r in state.deal.returns()]


# -- the chance model -------------------------------------------------------------------------


def test_boodle_deal_follows_the_dealing_order() -> None:
    # By hand: Boodle deals the whole pack one card at a time from the dealer's left, the
    # spare hand after the dealer in each round. Four players, dealer 0: the round is seats
    # 1, 2, 3, 0, then the spare. Dealing the pack in CARDS order (2C 3C ... AC 2D ... AS),
    # card k goes to round position k % 5: seat 1 gets cards 0, 5, ..., 50 (2C 7C QC 4D 9D
    # AD 6H JH 3S 8S KS: 11 cards), seat 2 gets 1, 6, ..., 51 (11 cards, ending AS), seat 3
    # and seat 0 ten each, the spare 4, 9, ..., 49 (6C JC 3D 8D KD 5H TH 2S 7S QS).
    game = game_of("boodle", players=4, dealer=0)
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 52
    assert all(p == pytest.approx(1 / 52) for _c, p in state.chance_outcomes())
    deal_in_order(state)
    deal = state.deal
    assert names(deal.hand(1)) == ["2C", "7C", "QC", "4D", "9D", "AD", "6H", "JH", "3S", "8S",
                                   "KS"]
    assert len(deal.hand(2)) == 11 and str(deal.hand(2)[-1]) == "AS"
    assert len(deal.hand(3)) == 10 and len(deal.hand(0)) == 10
    assert names(sorted(deal.dealt_spare)) == ["6C", "JC", "3D", "8D", "KD", "5H",
                                                    "TH", "2S", "7S", "QS"]
    assert state.history()[:3] == [0, 1, 2]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 51) == "deal AS"


def test_pope_joan_turns_up_the_last_card_dealt() -> None:
    # By hand: Pope Joan's pack has no 8D (51 cards); four players get 51 // 5 = 10 each, in
    # rounds of seats 1, 2, 3, 0 and the dead hand; once the hands are full the dead hand
    # takes the rest, so it holds 11 cards and the last card dealt, the last of the pack in
    # CARDS order, AS, is its own (F15). That card is turned up: spades are trumps (F16), and
    # a turned-up ace pays the dealer the ace compartment (F21: compartment_only), so seat 0
    # claims "ace".
    game = game_of("pope-joan", players=4, dealer=0)
    state = game.new_initial_state()
    assert len(state.chance_outcomes()) == 51
    deal_in_order(state)
    deal = state.deal
    assert "AS" in names(deal.dealt_spare) and len(deal.dealt_spare) == 11
    turned = [e for e in deal.events if e.kind == "turned_up"]
    assert [str(e.card) for e in turned] == ["AS"]
    claims = [(e.seat, e.space) for e in deal.events if e.kind == "claimed"]
    assert (0, "ace") in claims


@pytest.mark.parametrize("variant", stops.list_variants())
def test_chance_deal_gives_the_sizes_the_table_deals(variant: str) -> None:
    """The chance nodes fill the same hands the table's own shuffle fills (sizes per seat,
    spare), for every variant, at its smallest and largest table."""
    v = stops.load_variant(variant)
    for n in sorted(set(v.players)):
        state = game_of(variant, players=n, dealer=1).new_initial_state()
        deal_in_order(state)
        ours = [len(h) for h in state.deal.dealt_hands] + [len(state.deal.dealt_spare)]
        shuffled = stops.Table(v, seats=n, chips=50, seed=4, dealer=1).new_deal()
        theirs = [len(h) for h in shuffled.dealt_hands] + [len(shuffled.dealt_spare)]
        assert ours == theirs


# -- bad input --------------------------------------------------------------------------------


def test_illegal_action_raises_spiel_error_and_changes_nothing() -> None:
    game = game_of("three-in-one", players=4)
    state = game.new_initial_state()
    state.apply_action(7)
    before = (str(state), state.history())
    with pytest.raises(pyspiel.SpielError, match="not a card left"):
        state.apply_action(7)  # already dealt
    assert (str(state), state.history()) == before
    deal_in_order(state)
    rng = np.random.default_rng(0)
    tried = 0
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        bad = next(i for i in range(game.num_distinct_actions()) if i not in legal)
        before = (str(state), state.history(), state.deal.stacks, len(state.deal.events),
                  state.information_state_string(seat))
        with pytest.raises(pyspiel.SpielError, match="not legal"):
            state.apply_action(bad)
        after = (str(state), state.history(), state.deal.stacks, len(state.deal.events),
                 state.information_state_string(seat))
        assert after == before
        tried += 1
        state.apply_action(int(rng.choice(legal)))
    assert tried > 10
    with pytest.raises(pyspiel.SpielError):
        state.apply_action(0)  # the deal is over


def test_unknown_variant_and_taken_names_are_refused() -> None:
    with pytest.raises(stops.StopsError, match=r"no built-in variant named 'boodel'.*boodle"):
        ospiel.register("boodel")
    house = stops.load_variant("boodle", {"stake_unit": 2})
    with pytest.raises(ValueError, match="already registered for another variant"):
        ospiel.register(house)  # its name is boodle's
    name = ospiel.register(house, name="python_stops_boodle_double")
    assert ospiel.register(house, name=name) == name  # again: nothing to do
    assert ospiel.registered()[name] is not ospiel.registered()["python_stops_boodle"]
    with pytest.raises(ValueError, match="lower-case letters"):
        ospiel.register("boodle", name="Boodle!")
    with pytest.raises(ValueError, match="already an OpenSpiel game"):
        ospiel.register("boodle", name="kuhn_poker")
    with pytest.raises(ValueError, match="3 to 8 players, not 2"):
        pyspiel.load_game("python_stops_boodle(players=2)")
    with pytest.raises(ValueError, match=r"dealer must be a seat 0\.\.3"):
        pyspiel.load_game("python_stops_boodle(dealer=4)")


def test_names_parameters_and_game_type() -> None:
    assert ospiel.game_name("three-in-one") == "python_stops_three_in_one"
    assert ospiel.game_name("pot-and-kitty-four-kings") == "python_stops_pot_and_kitty_four_kings"
    registered = set(pyspiel.registered_names())
    assert {ospiel.game_name(v) for v in stops.list_variants()} <= registered
    game = pyspiel.load_game("python_stops_epsom")  # a game for two: the default follows it
    assert game.num_players() == 2
    gt = game.get_type()
    assert gt.utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert gt.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gt.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    game = pyspiel.load_game("python_stops_boodle(players=5,chips=20)")
    assert (game.num_players(), game.min_utility(), game.max_utility()) == (5, -100.0, 100.0)
    assert game.num_distinct_actions() == len(ActionCodec(game.variant, 5))
    # Tripoley: a short seat pays what it can, so a seat loses at most its stack
    game = pyspiel.load_game("python_stops_tripoley(players=3,chips=30)")
    assert (game.min_utility(), game.max_utility()) == (-30.0, 60.0)


def test_house_variant_file_registers_under_its_name() -> None:
    name = ospiel.register(ROTATION)
    assert name.startswith("python_stops_")
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


# -- what a seat sees -------------------------------------------------------------------------


def swapped_order(game: Any, a: int, b: int) -> list[int]:
    """The pack in CARDS order, with the cards dealt at positions ``a`` and ``b`` exchanged."""
    order = [c for c, _ in game.new_initial_state().chance_outcomes()]
    order[a], order[b] = order[b], order[a]
    return order


@pytest.mark.parametrize("variant", ["boodle", "three-in-one", "pope-joan"])
def test_views_do_not_depend_on_cards_a_seat_cannot_see(variant: str) -> None:
    # Boodle, 4 players, dealer 0: the pack's first card goes to seat 1, the second to seat 2
    # (the round is 1, 2, 3, 0, spare). Exchanging those two cards changes seats 1 and 2's
    # hands and nothing seat 0 or seat 3 may see, so their four views must not change while
    # seat 1's must. (The same round starts Three-in-One's and Pope Joan's deals.)
    game = game_of(variant, players=4, dealer=0)
    one, two = game.new_initial_state(), game.new_initial_state()
    deal_in_order(one)
    deal_in_order(two, swapped_order(game, 0, 1))
    assert names(one.deal.hand(1)) != names(two.deal.hand(1))
    for _ in range(3):  # the first decisions, as long as both deals offer them
        if one.is_terminal() or one.current_player() != two.current_player():
            break
        for seat in (0, 3):
            assert one.information_state_string(seat) == two.information_state_string(seat)
            assert one.observation_string(seat) == two.observation_string(seat)
            assert one.information_state_tensor(seat) == two.information_state_tensor(seat)
            assert one.observation_tensor(seat) == two.observation_tensor(seat)
        assert one.information_state_string(1) != two.information_state_string(1)
        assert one.observation_tensor(1) != two.observation_tensor(1)
        common = sorted(set(one.legal_actions()) & set(two.legal_actions()))
        if not common:
            break
        one.apply_action(common[0])
        two.apply_action(common[0])


def test_no_card_is_seen_while_dealing_and_tensors_have_their_sizes() -> None:
    game = game_of("boodle")
    state = game.new_initial_state()
    for _ in range(20):
        state.apply_action(state.chance_outcomes()[0][0])
    for seat in range(4):
        assert state.information_state_string(seat) == f"seat {seat}; dealing: 20 cards dealt"
        assert not any(state.information_state_tensor(seat))
    deal_in_order(state)
    seat = state.current_player()
    obs = np.array(state.observation_tensor(seat))
    info = np.array(state.information_state_tensor(seat))
    assert obs.shape == tuple(game.observation_tensor_shape())
    assert info.shape == tuple(game.information_state_tensor_shape())
    assert np.array_equal(info[:obs.size], obs)  # the view now, then the history
    hand = {int(c) for c in state.deal.hand(seat)}
    assert set(np.flatnonzero(obs[:52]).tolist()) == hand  # the PettingZoo "hand" segment


def test_poker_choice_is_card_picks_seen_only_by_the_chooser() -> None:
    game = game_of("three-in-one", players=4)
    state = game.new_initial_state()
    deal_in_order(state)
    rng = np.random.default_rng(2)
    while state.deal.phase != "poker":
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    other = (seat + 1) % 4
    hand = {int(c) for c in state.deal.hand(seat)}
    before_other = state.information_state_string(other)
    picks: list[int] = []
    for _ in range(5):
        assert set(state.legal_actions()) == hand - set(picks)
        picks.append(min(set(state.legal_actions())))
        state.apply_action(picks[-1])
        if len(picks) < 5:
            assert "picked " + " ".join(str(CARDS[c]) for c in picks) in (
                state.information_state_string(seat))
            assert state.information_state_string(other) == before_other
    chosen = [ev for ev in state.deal.events if ev.kind == "selected" and ev.seat == seat
              and ev.cards]
    assert [int(c) for c in chosen[0].cards] == sorted(picks)


@pytest.mark.parametrize("variant", ["boodle", "three-in-one", "pope-joan", "royal-rummy"])
def test_resampled_states_look_the_same_to_the_seat(variant: str) -> None:
    """ISMCTS's determinization: a resampled state gives the seat the same information
    state (it asserts so), deals the others' cards again, and plays on legally."""
    game = game_of(variant)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    moved = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
            if rng.random() > 0.1:
                continue
        for seat in range(game.num_players()):
            other = state.resample_from_infostate(seat, sampler)
            assert other.information_state_string(seat) == state.information_state_string(
                seat)
            assert other.observation_tensor(seat) == state.observation_tensor(seat)
            if other.deal is not None and other.deal.dealt_hands and (
                    other.information_state_string((seat + 1) % game.num_players())
                    != state.information_state_string((seat + 1) % game.num_players())):
                moved += 1
            if not other.is_chance_node() and not other.is_terminal():
                other.apply_action(int(rng.choice(other.legal_actions())))
        if not state.is_chance_node():
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert moved > 0  # the hidden cards were dealt again


def test_history_rows_hold_every_event_of_the_longest_games() -> None:
    """The information-state tensor keeps the first ``history_rows`` events a seat saw:
    random deals of the games with the most events per card stay well inside it (Play or
    Pay, where a seat that cannot play pays and passes, has the longest logs; Poch the most
    events for its 32 cards)."""
    for variant, n in (("play-or-pay", 8), ("play-or-pay", 3), ("poch", 6)):
        game = game_of(variant, players=n)
        assert game.history_rows == len(game.deck) * (n + 4)
        rng = np.random.default_rng(1)
        for _ in range(3):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(int(rng.choice([c for c, _ in state.chance_outcomes()])))
                else:
                    state.apply_action(int(rng.choice(state.legal_actions())))
            longest = max(len(state.deal.seen_by(s)) for s in range(n))
            assert longest <= game.history_rows * 3 // 4


# -- the example ------------------------------------------------------------------------------


def test_openspiel_bots_example_runs() -> None:
    root = Path(__file__).parents[2]
    out = subprocess.run([sys.executable, str(root / "examples" / "openspiel_bots.py")],
                         capture_output=True, text=True, timeout=300, check=True).stdout
    assert "returns" in out and "ISMCTS" in out


def test_a_resampling_draws_again_where_clone_for_finds_no_deal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """clone_for can exhaust its tries (about one call in a thousand in Tripoley after the
    showdown): the resampling draws again from the same rng, and after RESAMPLE_TRIES failed
    calls raises OpenSpiel's error, never a stops traceback."""
    from stops.engine.errors import StopsError

    game = game_of("boodle")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    real = ospiel.clone_for
    calls = {"n": 0, "fail": 2}

    def flaky(deal: stops.Deal, seat: int, rng: Any) -> stops.Deal:
        calls["n"] += 1
        if calls["n"] <= calls["fail"]:
            raise StopsError("clone_for: found no deal consistent with the view")
        return real(deal, seat, rng)

    monkeypatch.setattr(ospiel, "clone_for", flaky)
    other = state.resample_from_infostate(1, sampler)
    assert calls["n"] == 3
    assert other.information_state_string(1) == state.information_state_string(1)
    calls.update(n=0, fail=10**6)
    with pytest.raises(pyspiel.SpielError, match="no deal fitting seat 1's view"):
        state.resample_from_infostate(1, sampler)
    assert calls["n"] == ospiel.RESAMPLE_TRIES

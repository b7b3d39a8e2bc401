"""Simulation reports: deterministic, identical across workers and executors."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

import stops
from stops.apps.cli import main
from stops.apps.simulate import compare_text, simulate


def test_same_seed_same_report_and_different_seed_differs() -> None:
    a = simulate("boodle", players=4, deals=300, seed=1)
    b = simulate("boodle", players=4, deals=300, seed=1)
    c = simulate("boodle", players=4, deals=300, seed=2)
    assert a.to_dict() == b.to_dict()
    assert a.to_dict() != c.to_dict()
    assert a.deals == 300
    assert set(a.claim_rate) == {"AH", "KC", "QD", "JS"}
    assert a.went_out_rate == 1.0          # basic Boodle can never block


def test_workers_and_executors_give_identical_results() -> None:
    one = simulate("pot-and-kitty", players=4, deals=600, seed=9).to_dict()
    two = simulate("pot-and-kitty", players=4, deals=600, seed=9, workers=2).to_dict()
    with ThreadPoolExecutor(max_workers=3) as pool:
        threads = simulate("pot-and-kitty", players=4, deals=600, seed=9,
                           executor=pool).to_dict()
    assert one == two == threads


def test_sessions_mode_reports_lengths_and_standings() -> None:
    rep = simulate("pot-and-kitty", players=3, sessions=20, seed=4)
    assert rep.sessions == 20
    assert rep.mean_session_length >= 1
    assert abs(sum(rep.session_win_share) - 1.0) < 1.0  # ties count for every top seat
    assert len(rep.session_net) == 3


def test_poker_outcomes_and_compare() -> None:
    a = simulate("three-in-one", players=4, deals=250, seed=3)
    poker = a.to_dict()["poker"]  # the poker phase's section, under its key in --json
    assert poker == a.sections["poker"]
    assert poker["showdown_rate"] + poker["uncontested_rate"] == 1.0
    assert set(poker["hands_shown"]) <= {
        "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush",
        "full_house", "four_of_a_kind", "straight_flush"}
    b = simulate("three-in-one-on-play", players=4, deals=250, seed=3)
    text = compare_text(a, b)
    assert "three-in-one-on-play" in text and "difference" in text


def test_heuristic_bots_finish() -> None:
    rep = simulate("boodle", players=4, deals=40, seed=1, bots=["heuristic", "random"])
    assert rep.bots == ["heuristic", "random", "heuristic", "random"]
    assert rep.deals == 40
    assert isinstance(stops.load_variant("boodle"), stops.Variant)


def test_a_session_that_cannot_start_is_an_error_not_a_hang(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Nain Jaune's stake is 15 chips (until_short): with 10 a seat no session can start, so
    the simulator would make new tables forever. It says why instead, as the CLI does."""
    with pytest.raises(stops.SessionOver, match="10 chips a seat cannot start: seats 0, 1, 2"):
        simulate("nain-jaune", players=3, deals=5, seed=1, chips=10)
    assert main(["simulate", "nain-jaune", "--players", "3", "--chips", "10", "--deals", "5"]) == 1
    assert "cannot start" in capsys.readouterr().err


def test_a_simulation_plays_the_games_own_chips(capsys: pytest.CaptureFixture[str]) -> None:
    """Every seat starts with the variant's ``starting_chips`` unless told otherwise, as in
    ``stops play`` and ``stops rules``: Nain Jaune's 50 (its sessions end when a player is
    short of his 15-chip stake, so their length turns on the chips) and Tripoley's 200."""
    own = simulate("nain-jaune", players=3, sessions=6, seed=2)
    assert own.run["chips"] == stops.load_variant("nain-jaune").rules.starting_chips == 50
    assert "50 chips each" in own.text()
    assert own.to_dict() == simulate("nain-jaune", players=3, sessions=6, seed=2,
                                     chips=50).to_dict()
    hundred = simulate("nain-jaune", players=3, sessions=6, seed=2, chips=100)
    assert hundred.run["chips"] == 100
    assert hundred.session_net != own.session_net   # another game: longer sessions
    trip = simulate("tripoley", players=4, deals=10, seed=1)
    assert trip.run["chips"] == 200 and "200 chips each" in trip.text()
    # an option changes them too
    assert simulate("boodle", players=3, deals=5, seed=1,
                    options={"starting_chips": 80}).run["chips"] == 80
    # the command line: the report states them, --help says where the default comes from
    assert main(["simulate", "tripoley", "--players", "4", "--deals", "10",
                 "--no-progress"]) == 0
    assert "4 players, 200 chips each" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    helped = " ".join(capsys.readouterr().out.split())
    assert "default: the variant's own starting chips" in helped

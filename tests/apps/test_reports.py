"""Reports you can trust (issue 14, items 6-9): what ran, standard errors and intervals,
pictures, the progress bar and the cluster path."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import stops
from stops.apps import cli
from stops.apps.simulate import compare_text, differences, simulate

SIM = ["simulate", "boodle", "--players", "4", "--deals", "300", "--seed", "3"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    got = capsys.readouterr()
    return code, got.out, got.err


def test_the_header_and_json_state_what_ran(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [*SIM, "-o", "after_stop=must_change_suit", "--chips", "40", "--bots",
            "heuristic,random"]
    code, out, _ = run(capsys, *argv)
    assert code == 0
    head = out.splitlines()[:3]
    assert head[0].startswith("boodle (Boodle") and f"stops {stops.__version__}" in head[0]
    assert "options (-o): after_stop=must_change_suit" in head[1]
    assert ("300 deals, 4 players, 40 chips each, seed 3, bots: seat 0 heuristic, "
            "seat 1 random, seat 2 heuristic, seat 3 random") in head[2]
    code, out, _ = run(capsys, *argv, "--json")
    ran = json.loads(out)["run"]
    assert ran == {"variant": "boodle", "title": ran["title"], "source": "boodle",
                   "options": {"after_stop": "must_change_suit"}, "players": 4, "chips": 40,
                   "deals": 300, "sessions": None, "seed": 3,
                   "bots": ["heuristic", "random", "heuristic", "random"],
                   "stops_version": stops.__version__, "plugins": []}


def test_compare_states_both_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *SIM, "--compare", "boodle-change-suit-pass", "--json")
    assert code == 0
    got = json.loads(out)
    assert got["a"]["run"]["variant"] == "boodle"
    assert got["b"]["run"]["variant"] == "boodle-change-suit-pass"
    assert got["a"]["run"]["seed"] == got["b"]["run"]["seed"] == 3
    _code, out, _ = run(capsys, *SIM, "--compare", "boodle-change-suit-pass")
    assert out.startswith("A: boodle (") and "\nB: boodle-change-suit-pass (" in out


def test_every_mean_has_a_standard_error() -> None:
    rep = simulate("three-in-one", players=4, deals=400, seed=2)
    d = rep.to_dict()
    for key in ("chips_per_deal", "claim_rate", "mean_payout", "mean_cards_played",
                "mean_decisions", "block_rate", "went_out_rate", "mean_session_length",
                "session_net", "session_win_share"):
        assert f"{key}_se" in d, key
    # the standard error of a mean is the sample sd over sqrt(n)
    n = rep.deals
    for s in range(4):
        assert rep.chips_per_deal_se[s] == pytest.approx(
            rep.chips_sd[s] * math.sqrt(n / (n - 1)) / math.sqrt(n))
    p = rep.claim_rate["AH"]
    assert rep.claim_rate_se["AH"] == pytest.approx(math.sqrt(p * (1 - p) / n))
    text = rep.text()
    assert text.count("±") >= 4 * 3 + len(rep.claim_rate) * 2 + 4


def test_compare_gives_the_difference_and_its_interval() -> None:
    a = simulate("boodle", players=4, deals=500, seed=1)
    b = simulate("boodle-change-suit-pass", players=4, deals=500, seed=1)
    diffs = {d.measure: d for d in differences(a, b)}
    cards = diffs["cards played/deal"]
    assert cards.difference == pytest.approx(b.mean_cards_played - a.mean_cards_played)
    se = math.hypot(a.mean_cards_played_se, b.mean_cards_played_se)
    assert cards.low == pytest.approx(cards.difference - 1.959964 * se)
    assert cards.distinguishable        # changing suit plays more cards per deal
    seat = diffs["seat 0 chips/deal"]
    assert seat.low < 0 < seat.high and not seat.distinguishable
    text = compare_text(a, b)
    assert "95% interval" in text and "not distinguishable from 0" in text
    # spaces in layout order, not sorted
    spaces = [line.split()[0] for line in text.splitlines() if " claimed %" in line]
    assert spaces == ["AH", "KC", "QD", "JS"]
    # differences are always signed; levels of rates never are
    for line in text.splitlines():
        if " claimed %" in line:
            cells = line.split()
            assert cells[3][0].isdigit() and cells[4][0].isdigit() and cells[5][0] in "+-"


def test_plot_single_and_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    one = tmp_path / "one.png"
    code, _, _err = run(capsys, *SIM, "--plot", str(one))
    assert code == 0 and one.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    both = tmp_path / "both.png"
    code, _, _ = run(capsys, *SIM, "--compare", "boodle-change-suit-pass", "--plot", str(both))
    assert code == 0
    from PIL import Image  # matplotlib depends on pillow

    w1, _ = Image.open(one).size
    w2, _ = Image.open(both).size
    assert w2 > 1.5 * w1          # the two variants side by side


def test_plot_without_matplotlib_is_one_clear_error(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run(capsys, *SIM, "--plot", str(tmp_path / "x.png"))
    assert code == 1 and out == ""
    assert "stops-cards[plot]" in err and "Traceback" not in err


def test_progress_shows_rate_and_time_left(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setitem(sys.modules, "tqdm", None)   # the plain bar
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main([*SIM, "--deals", "600"]) == 0
    shown = err.getvalue()
    assert "/s" in shown and "left" in shown and "600/600" in shown
    err2 = Tty()
    monkeypatch.setattr(sys, "stderr", err2)
    assert cli.main([*SIM, "--no-progress"]) == 0
    assert err2.getvalue() == ""
    capsys.readouterr()


def test_progress_with_tqdm(monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert cli.main([*SIM, "--deals", "600"]) == 0
    assert "600/600" in err.getvalue() and "deal/s" in err.getvalue()
    capsys.readouterr()


def test_the_cluster_path_on_a_local_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    from distributed import LocalCluster

    argv = [*SIM, "--deals", "600", "-o", "after_stop=must_change_suit", "--json"]
    code, here, _ = run(capsys, *argv)
    assert code == 0
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                      dashboard_address=None) as cluster:
        code, there, err = run(capsys, *argv, "--scheduler", cluster.scheduler_address)
    assert code == 0, err
    assert json.loads(there) == json.loads(here)


def test_an_unreachable_scheduler_is_one_clear_error(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("distributed")
    # nothing listens on port 9 (discard): dask retries until its timeout, which would be the
    # real 20 s; one second takes the same path
    monkeypatch.setattr(cli, "SCHEDULER_TIMEOUT", 1.0)
    code, _out, err = run(capsys, *SIM, "--scheduler", "tcp://127.0.0.1:9")
    assert code == 1 and "cannot reach the dask scheduler" in err


def test_a_cluster_needs_no_files_and_its_errors_say_where(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Workers in their own processes, started in another directory: a relative variant
    path and a --plugins file work, because the variant's resolved rules and the plug-in's
    source travel with the work; an error raised on a worker says it came from one."""
    pytest.importorskip("distributed")
    import shutil

    from distributed import LocalCluster

    examples = Path(__file__).resolve().parents[2] / "examples"
    club, elsewhere = tmp_path / "club", tmp_path / "elsewhere"
    club.mkdir()
    elsewhere.mkdir()
    shutil.copy(examples / "newmarket_plugins.py", club / "rules.py")
    shutil.copy(examples / "peels-newmarket.yaml", club / "house.yaml")
    argv = ["simulate", "house.yaml", "--plugins", "rules.py", "--players", "4", "--deals",
            "300", "--seed", "2", "--json", "--no-progress"]
    monkeypatch.chdir(elsewhere)       # the workers start here, where the files are not
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster:
        monkeypatch.chdir(club)
        code, here, err = run(capsys, *argv)
        assert code == 0, err
        code, there, err = run(capsys, *argv, "--scheduler", cluster.scheduler_address)
        assert code == 0, err
        assert json.loads(there) == json.loads(here)
        code, _, err = run(capsys, "simulate", "nain-jaune", "--players", "3", "--chips",
                           "10", "--deals", "5", "--no-progress", "--scheduler",
                           cluster.scheduler_address)
        assert code == 1 and "on a worker (host" in err and "cannot start" in err

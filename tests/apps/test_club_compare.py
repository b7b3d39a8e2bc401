"""A club comparing house rules (issue 21, first three points): paired differences for
``--compare``, a differences panel and readable histograms for ``--plot``, and variants and
plug-ins that travel with the work to a cluster's workers."""

from __future__ import annotations

import json
import math
import pickle
import shutil
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest

from stops.apps import cli
from stops.apps.simulate import (
    Pairs,
    Report,
    WorkerError,
    compare,
    deal_measure_names,
    simulate,
)
from stops.engine.rng import derive_seed
from stops.engine.table import Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CMP = ["simulate", "boodle", "--players", "4", "--deals", "500", "--seed", "3",
       "--compare", "boodle-change-suit-pass", "--no-progress"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    got = capsys.readouterr()
    return code, got.out, got.err


# -- pairing -----------------------------------------------------------------------------


def test_paired_sums_give_the_mean_and_standard_error_of_the_differences() -> None:
    # Three pairs, two measures (hand arithmetic):
    #   A (2, 1) B (5, 1) -> d = (3, 0);  A (4, 0) B (4, 1) -> d = (0, 1);
    #   A (1, 1) B (2, 0) -> d = (1, -1).
    # measure x: mean 4/3; sample variance ((5/3)² + (4/3)² + (1/3)²) / 2 = 42/18 = 7/3;
    #   se = sqrt(7/3 / 3) = sqrt(7/9).
    # measure y: mean 0; variance (0 + 1 + 1) / 2 = 1; se = sqrt(1/3).
    whole = Pairs("deal", ["x", "y"])
    for a, b in (((2, 1), (5, 1)), ((4, 0), (4, 1)), ((1, 1), (2, 0))):
        whole.add_pair(a, b, True)
    assert whole.mean_se("x") == pytest.approx((4 / 3, math.sqrt(7 / 9)))
    assert whole.mean_se("y") == pytest.approx((0.0, math.sqrt(1 / 3)))
    # the sums merge: one chunk of one pair plus one of two is the same
    first, rest = Pairs("deal", ["x", "y"]), Pairs("deal", ["x", "y"])
    first.add_pair((2, 1), (5, 1), True)
    rest.add_pair((4, 0), (4, 1), False)
    rest.add_pair((1, 1), (2, 0), True)
    first.add(rest)
    assert (first.n, first.sums, first.squares) == (whole.n, whole.sums, whole.squares)
    assert first.same_seed == 2


def test_both_variants_are_dealt_the_same_cards_deal_by_deal() -> None:
    # Session k of chunk c is seeded derive_seed(seed, "session", c, k) for either variant,
    # and deal i of it is shuffled from (that seed, i): Boodle and its change-of-suit house
    # rule deal the same 52-card pack the same way, so the first deal's hands are equal.
    s = derive_seed(3, "session", 0, 0)
    a = Table("boodle", seats=4, seed=s).new_deal()
    b = Table("boodle-change-suit-pass", seats=4, seed=s).new_deal()
    assert a.dealt_hands == b.dealt_hands and len(a.dealt_hands[0]) > 0
    cmp = compare("boodle", "boodle-change-suit-pass", players=4, deals=600, seed=3)
    # Boodle's sessions run 10 deals under both rules, so no session ends early: every
    # deal pairs with the one dealt from the same seed
    assert cmp.pairs.n == cmp.pairs.same_seed == 600


def test_compare_pairs_deals_and_its_intervals_are_narrower() -> None:
    cmp = compare("boodle", "boodle-change-suit-pass", players=4, deals=500, seed=1)
    # each side's report is the one the variant gives alone
    assert cmp.a.to_dict() == simulate("boodle", players=4, deals=500, seed=1).to_dict()
    assert cmp.b.to_dict() == simulate("boodle-change-suit-pass", players=4, deals=500,
                                       seed=1).to_dict()
    diffs = {d.measure: d for d in cmp.differences()}
    assert set(deal_measure_names(4, ["AH", "KC", "QD", "JS"])) <= {
        m for m, d in diffs.items() if d.paired}
    cards = diffs["cards played/deal"]
    # the mean of per-deal differences is the difference of the means (every deal paired)
    assert cards.difference == pytest.approx(cmp.b.mean_cards_played - cmp.a.mean_cards_played)
    assert cards.low == pytest.approx(cards.difference - 1.959964 * cards.se)
    for m in ("cards played/deal", "decisions/deal", "seat 0 chips/deal", "AH claimed"):
        assert diffs[m].se < 0.9 * diffs[m].se_independent, m
    assert not diffs["session length"].paired   # deals mode: sessions are not paired
    text = cmp.text()
    assert "500 paired deals (500 of them dealt from the same seed in both)" in text
    # the same from any number of workers: the sums merge exactly
    two = compare("boodle", "boodle-change-suit-pass", players=4, deals=500, seed=1,
                  workers=2)
    assert two.to_dict() == cmp.to_dict()


def test_compare_json_carries_the_paired_difference_and_interval(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *CMP, "--json")
    assert code == 0
    got = json.loads(out)
    assert got["paired"] == {"unit": "deal", "pairs": 500, "same_seed": 500}
    row = next(d for d in got["differences"] if d["measure"] == "cards played/deal")
    assert row["paired"] is True
    lo, hi = row["ci95"]
    ilo, ihi = row["ci95_independent"]
    assert lo < row["difference"] < hi and hi - lo < ihi - ilo


def test_sessions_mode_pairs_whole_sessions() -> None:
    cmp = compare("pot-and-kitty", "pot-and-kitty-four-kings", players=4, sessions=12,
                  seed=2)
    assert cmp.pairs.unit == "session" and cmp.pairs.n == 12
    diffs = {d.measure: d for d in cmp.differences()}
    length = diffs["session length"]
    assert length.paired
    assert length.difference == pytest.approx(cmp.b.mean_session_length
                                              - cmp.a.mean_session_length)
    net = diffs["seat 0 net/session"]
    assert net.paired and net.difference == pytest.approx(cmp.b.session_net[0]
                                                          - cmp.a.session_net[0])
    assert not diffs["cards played/deal"].paired   # deal counts differ per session
    assert "session by session" in cmp.text()


# -- pictures ----------------------------------------------------------------------------


def test_histograms_leave_out_a_long_tail_and_say_so() -> None:
    from stops.apps.plot import histogram_range

    # 1,000 seat-deals: 990 at 0, 5 at +1, 5 at +400. Half a percent (5 deals) may go at
    # each end: from the top, +400 holds 5 (not more than 5), +1 brings it to 10: the range
    # ends at +1; from the bottom, 0 holds 990 at once: the range starts at 0.
    rep = Report(variant="x", players=1, deals=1000, seed=0, bots=["random"],
                 chips_histogram=[{"0": 990, "1": 5, "400": 5}])
    assert histogram_range([rep]) == (0, 1)


def test_plot_compare_has_a_differences_row(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    from PIL import Image

    one, both = tmp_path / "one.png", tmp_path / "both.png"
    assert run(capsys, *CMP[:8], "--no-progress", "--plot", str(one))[0] == 0
    assert run(capsys, *CMP, "--plot", str(both))[0] == 0
    (w1, h1), (w2, h2) = Image.open(one).size, Image.open(both).size
    assert w2 > 1.5 * w1 and h2 > 1.3 * h1   # side by side, and a row of differences


# -- workers -----------------------------------------------------------------------------


class FarAway(Executor):
    """Runs each call as a worker elsewhere would: arguments and results pickled, in a
    working directory where the caller's files are not, with no plug-in module imported."""

    def __init__(self, elsewhere: Path) -> None:
        self.elsewhere = elsewhere

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        import os

        call = pickle.loads(pickle.dumps((fn, args, kwargs)))
        for name in [m for m in sys.modules if m.startswith("stops_plugin")]:
            del sys.modules[name]
        here = Path.cwd()
        os.chdir(self.elsewhere)
        f: Future[Any] = Future()
        try:
            f.set_result(pickle.loads(pickle.dumps(call[0](*call[1], **call[2]))))
        except Exception as e:
            f.set_exception(pickle.loads(pickle.dumps(e)))
        finally:
            os.chdir(here)
        return f

    def map(self, fn: Callable[..., Any], *iterables: Iterable[Any], timeout: float | None = None,
            chunksize: int = 1) -> Iterator[Any]:
        futures = [self.submit(fn, *a) for a in zip(*iterables, strict=True)]
        return (f.result() for f in futures)


@pytest.fixture
def club(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A club's folder with a house-rule file and its plug-in, the current directory."""
    here = tmp_path / "club"
    here.mkdir()
    shutil.copy(EXAMPLES / "newmarket_plugins.py", here / "rules.py")
    shutil.copy(EXAMPLES / "peels-newmarket.yaml", here / "house.yaml")
    (tmp_path / "elsewhere").mkdir()
    monkeypatch.chdir(here)
    return tmp_path


def test_workers_need_no_files(club: Path) -> None:
    here = simulate("house.yaml", players=4, deals=300, seed=5, plugins=["rules.py"])
    there = simulate("house.yaml", players=4, deals=300, seed=5, plugins=["rules.py"],
                     executor=FarAway(club / "elsewhere"))
    assert there.to_dict() == here.to_dict()
    both = compare("house.yaml", "boodle", players=4, deals=300, seed=5,
                   plugins=["rules.py"], executor=FarAway(club / "elsewhere"))
    assert both.a.to_dict() == here.to_dict()


def test_an_error_on_a_worker_says_so(club: Path) -> None:
    # Nain Jaune's stake is 15 chips (until_short): with 10 a seat the session cannot start,
    # which the chunk finds out on the worker
    with pytest.raises(WorkerError, match=r"^on a worker \(host .*, process \d+\), chunk 0: "
                       "a session with 10 chips a seat cannot start"):
        simulate("nain-jaune", players=3, deals=5, chips=10,
                 executor=FarAway(club / "elsewhere"))

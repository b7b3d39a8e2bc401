"""The ``stops`` command line (docs/concepts.md, "Deal records" and "Command line").

Everything goes through ``stops.apps.cli.main([...])`` (its return value is the exit code, output is
read with ``capsys``); two tests run a real ``python -m stops.apps.cli`` subprocess to prove that an
error is one clear message and never a traceback.

Records replayed here come from real deals played through the public API with random legal
decisions (fixed seeds), dumped with ``stops.io.records.dumps`` as YAML or JSON; the expected values
are the live deal's own ``stacks``, ``layout``, ``plays`` and ``events``.
"""

from __future__ import annotations

import copy
import difflib
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

import stops
from stops.apps.cli import main
from stops.io import records as record

BOODLE_SPACES = ("AH", "KC", "QD", "JS")
LINE_RE = re.compile(r"^(?P<file>.+?)(?::(?P<line>\d+))?: (?P<path>\S+): (?P<msg>.+)$")


# --------------------------------------------------------------------------- helpers


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run the command line in-process; (exit code, stdout, stderr)."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_subprocess(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "stops.apps.cli", *argv], capture_output=True,
                          text=True, timeout=60, cwd=cwd)


def play_random(deal: stops.Deal, rng: random.Random) -> list[int]:
    """Finish ``deal`` with random legal decisions; the number of choices at each decision."""
    counts = []
    while not deal.is_terminal:
        legal = deal.legal_actions()
        counts.append(len(legal))
        deal.apply(legal[rng.randrange(len(legal))])
    return counts


def write_record(path: Path, rec: Any, fmt: str = "yaml") -> Path:
    path.write_text(record.dumps(rec, fmt), encoding="utf-8")
    return path


def write_yaml(path: Path, data: Any) -> Path:
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def json_roundtrip(x: Any) -> Any:
    return json.loads(json.dumps(x))


def nonzero(layout: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in layout.items() if v}


def one_clear_error(code: int, out: str, err: str) -> str:
    """An error run: exit 1, nothing on stdout, a short message on stderr, no traceback."""
    assert code == 1, (code, out, err)
    assert out == ""
    assert err.strip(), "no message"
    assert "Traceback" not in err
    return err


class Played:
    """A finished Boodle deal played through the API, its record and the choices it offered."""

    def __init__(self, deal: stops.Deal, counts: list[int]) -> None:
        self.deal = deal
        self.counts = counts
        self.rec = deal.record()


@pytest.fixture(scope="module")
def played() -> Played:
    table = stops.Table("boodle", seats=4, chips=50, seed=11, dealer=0)
    deal = table.new_deal()
    counts = play_random(deal, random.Random(5))
    p = Played(deal, counts)
    # preconditions the tests below rely on
    assert len(p.rec["actions"]) == len(counts) >= 5
    assert all(a["action"] == "lead" for a in p.rec["actions"])
    return p


# --------------------------------------------------------------------------- variants, help


def test_variants_lists_every_builtin(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "variants")
    assert code == 0, err
    names = stops.list_variants()
    assert {"boodle", "three-in-one", "pot-and-kitty"} <= set(names)
    listed = [line.split()[0] for line in out.splitlines() if line.strip()]
    assert listed == list(names)


@pytest.mark.parametrize("command", [None, "variants", "rules", "check", "simulate", "play",
                                     "replay"])
def test_help_for_every_subcommand(capsys: pytest.CaptureFixture[str],
                                   command: str | None) -> None:
    argv = ["--help"] if command is None else [command, "--help"]
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert "usage" in out.lower()
    if command is not None:
        assert command in out


# --------------------------------------------------------------------------- rules


def test_rules_boodle_prose(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "boodle")
    assert code == 0, err
    low = out.lower()
    for card in ("ace of hearts", "king of clubs", "queen of diamonds", "jack of spades"):
        assert card in low
    for space in BOODLE_SPACES:
        assert space in out
    # the first player out is paid one chip per card left in the other hands
    assert re.search(r"(one|1|a) chip (per|for every|for each) card", low), out
    assert len(out.splitlines()) > 10  # prose, not a one-liner


def test_rules_house_rule_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = write_yaml(tmp_path / "house.yaml", {
        "name": "house-boodle", "extends": "boodle", "title": "Our House Boodle",
        "rules": {"after_stop": "must_change_suit"},
    })
    code, out, err = run(capsys, "rules", str(house))
    assert code == 0, err
    assert "Our House Boodle" in out
    assert "ace of hearts" in out.lower()
    code, plain, _ = run(capsys, "rules", "boodle")
    assert code == 0
    assert out != plain


def test_rules_option_changes_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, plain, _ = run(capsys, "rules", "boodle")
    assert code == 0
    code, changed, err = run(capsys, "rules", "boodle", "-o", "after_stop=must_change_suit")
    assert code == 0, err
    assert changed != plain
    new_lines = "\n".join(line[1:] for line in difflib.ndiff(plain.splitlines(),
                                                              changed.splitlines())
                          if line.startswith("+ "))
    assert re.search(r"another suit|different suit|change (of )?suit", new_lines, re.I), new_lines
    # the long form of the flag is the same thing
    code, long_form, _ = run(capsys, "rules", "boodle", "--option",
                             "after_stop=must_change_suit")
    assert code == 0
    assert long_form == changed


@pytest.mark.parametrize(("option", "words"), [
    ("after_stop=no_such_policy", ("after_stop", "no_such_policy")),
    ("no_such_rule=1", ("no_such_rule",)),
    ("after_stop", ("RULE=VALUE",)),
])
def test_rules_bad_option_is_one_clear_error(capsys: pytest.CaptureFixture[str], option: str,
                                             words: tuple[str, ...]) -> None:
    err = one_clear_error(*run(capsys, "rules", "boodle", "-o", option))
    for w in words:
        assert w in err


def test_rules_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_clear_error(*run(capsys, "rules", "no-such-variant"))
    assert "no-such-variant" in err


# --------------------------------------------------------------------------- check


def problem_lines(out: str, err: str) -> list[str]:
    return [line for line in (out + err).splitlines() if line.strip()]


def test_check_good_file_prints_ok(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = write_yaml(tmp_path / "good.yaml", {
        "name": "good", "extends": "boodle", "title": "Good",
        "rules": {"after_stop": "must_change_suit"},
    })
    code, out, err = run(capsys, "check", str(good))
    assert code == 0, err
    assert out == "ok\n"
    assert err == ""


def test_check_builtin_file_is_ok(capsys: pytest.CaptureFixture[str]) -> None:
    path = Path(__file__).resolve().parents[2] / "variants" / "boodle.yaml"
    code, out, _ = run(capsys, "check", str(path))
    assert code == 0
    assert out == "ok\n"


def test_check_unknown_policy(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = write_yaml(tmp_path / "bad.yaml", {
        "name": "bad", "extends": "boodle", "rules": {"after_stop": "no_such_policy"},
    })
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    lines = problem_lines(out, err)
    assert len(lines) == 1, lines
    m = LINE_RE.match(lines[0])
    assert m, lines[0]
    assert m["file"].endswith("bad.yaml")
    assert m["path"] == "rules.after_stop"
    assert "no_such_policy" in m["msg"]
    assert "must_change_suit" in m["msg"]  # says what would be right


def test_check_two_problems_two_lines(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    bad = write_yaml(tmp_path / "bad2.yaml", {
        "name": "bad2", "extends": "boodle",
        "rules": {"after_stop": "no_such_policy", "going_out_reward": "nope"},
    })
    code, out, err = run(capsys, "check", str(bad))
    assert code == 1
    lines = problem_lines(out, err)
    assert len(lines) == 2, lines
    matches = [LINE_RE.match(line) for line in lines]
    assert all(matches), lines
    assert all(m["file"].endswith("bad2.yaml") for m in matches if m)
    assert sorted(m["path"] for m in matches if m) == ["rules.after_stop",
                                                       "rules.going_out_reward"]
    assert "no_such_policy" in lines[0] + lines[1]
    assert "nope" in lines[0] + lines[1]


def test_check_static_problem_unpaid_kitty(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    layout = [{"id": s, "kind": "card", "card": s} for s in BOODLE_SPACES]
    layout.append({"id": "kitty", "kind": "kitty"})
    path = write_yaml(tmp_path / "kitty.yaml", {
        "name": "kitty-boodle", "extends": "boodle", "layout": layout,
        "rules": {"going_out_reward": "per_card"},
    })
    # it loads: the problem is only found by the static checks
    stops.load_variant(str(path))
    code, out, err = run(capsys, "check", str(path))
    assert code == 1
    lines = problem_lines(out, err)
    assert lines, "no problem reported"
    hits = [m for m in map(LINE_RE.match, lines) if m and m["path"] == "layout[4]"]
    assert hits, lines
    assert hits[0]["file"].endswith("kitty.yaml")
    assert "kitty" in hits[0]["msg"]


@pytest.mark.parametrize(("name", "text"), [
    ("broken.yaml", "name: x\nrules: [\n"),
    ("empty.yaml", ""),
    ("list.yaml", "- 1\n- 2\n"),
])
def test_check_unloadable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                               text: str) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "check", str(path))
    assert code == 1
    lines = problem_lines(out, err)
    assert len(lines) >= 1
    assert "Traceback" not in out + err
    assert all(name in line for line in lines), lines


def test_check_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", str(tmp_path / "absent.yaml"))
    assert code == 1
    lines = problem_lines(out, err)
    assert len(lines) == 1
    assert "absent.yaml" in lines[0]


# --------------------------------------------------------------------------- simulate

SIM = ("simulate", "boodle", "--players", "4", "--deals", "200", "--seed", "3")


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SIM)
    assert code == 0, err
    for seat in range(4):
        assert re.search(rf"seat {seat}\b.*[-+]?\d+\.\d+", out), f"no mean for seat {seat}"
    for space in BOODLE_SPACES:
        assert re.search(rf"^\s*{space}\b.*\d", out, re.M), f"no line for {space}"
    assert re.search(r"cards played.*\d+\.\d+", out, re.I)


def test_simulate_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SIM, "--json")
    assert code == 0, err
    data = json.loads(out)  # exactly one JSON object
    assert isinstance(data, dict)
    assert len(data["chips_per_deal"]) == 4
    assert all(isinstance(x, int | float) for x in data["chips_per_deal"])
    assert set(data["claim_rate"]) == set(BOODLE_SPACES)
    assert all(0.0 <= r <= 1.0 for r in data["claim_rate"].values())
    assert 0 < data["mean_cards_played"] <= 52


def test_simulate_json_same_seed_same_output(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, *SIM, "--json")
    _, second, _ = run(capsys, *SIM, "--json")
    assert first == second
    other = list(SIM)
    other[other.index("--seed") + 1] = "4"
    code, third, _ = run(capsys, *other, "--json")
    assert code == 0
    assert json.loads(third) != json.loads(first)


@pytest.mark.parametrize("players", ["2", "9"])
def test_simulate_bad_player_count(capsys: pytest.CaptureFixture[str], players: str) -> None:
    err = one_clear_error(*run(capsys, "simulate", "boodle", "--players", players,
                               "--deals", "10"))
    assert players in err
    assert "3" in err and "8" in err  # the allowed range


def test_players_default_is_four_brought_into_the_games_range(
        capsys: pytest.CaptureFixture[str]) -> None:
    # Epsom is for two: without --players the table has two seats, not four (refused).
    code, out, _ = run(capsys, "simulate", "epsom", "--deals", "20", "--json")
    assert code == 0 and json.loads(out)["players"] == 2
    code, out, _ = run(capsys, "simulate", "boodle", "--deals", "20", "--json")
    assert code == 0 and json.loads(out)["players"] == 4
    err = one_clear_error(*run(capsys, "simulate", "epsom", "--players", "3", "--deals", "5"))
    assert "epsom is for 2 players, not 3" in err


def test_simulate_bad_players_subprocess_no_traceback() -> None:
    p = run_subprocess("simulate", "boodle", "--players", "9", "--deals", "10")
    assert p.returncode == 1
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert "9" in p.stderr and "players" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1


def test_simulate_zero_deals(capsys: pytest.CaptureFixture[str]) -> None:
    err = one_clear_error(*run(capsys, "simulate", "boodle", "--deals", "0"))
    assert "deals" in err


def test_simulate_house_rule_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    house = write_yaml(tmp_path / "house.yaml", {
        "name": "house-boodle", "extends": "boodle",
        "rules": {"after_stop": "must_change_suit"},
    })
    code, out, err = run(capsys, "simulate", str(house), "--players", "3", "--deals", "20",
                         "--json")
    assert code == 0, err
    data = json.loads(out)
    assert len(data["chips_per_deal"]) == 3
    assert set(data["claim_rate"]) == set(BOODLE_SPACES)


# --------------------------------------------------------------------------- replay: good


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_replay_readable_account(played: Played, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    path = write_record(tmp_path / f"deal.{fmt}", played.rec, fmt)
    code, out, err = run(capsys, "replay", str(path), "--events")
    assert code == 0, err
    assert len(out.splitlines()) > len(played.deal.plays)  # an account, event by event
    for _, card in played.deal.plays:
        assert str(card) in out
    for chips in played.deal.stacks:
        assert str(chips) in out
    assert played.deal.winner is not None
    assert f"seat {played.deal.winner}" in out
    code, out, err = run(capsys, "replay", str(path))  # told as stops play tells it
    assert code == 0, err
    for _, card in played.deal.plays:
        assert card.symbol() in out
    assert "Chips after the deal: " + " · ".join(
        f"seat {s} {x}" for s, x in enumerate(played.deal.stacks)) in " ".join(
            re.sub(r" \([+-]\d+\)", "", out).split())
    assert f"seat {played.deal.winner}" in out


@pytest.mark.parametrize("fmt", ["yaml", "json"])
def test_replay_json_matches_live_deal(played: Played, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    deal = played.deal
    path = write_record(tmp_path / f"deal.{fmt}", played.rec, fmt)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert isinstance(data, dict)
    assert data["stacks"] == list(deal.stacks)
    assert set(data["layout"]) <= set(BOODLE_SPACES)
    assert nonzero(data["layout"]) == nonzero(dict(deal.layout))
    assert data["plays"] == [[s, str(c)] for s, c in deal.plays]
    assert len(data["plays"]) == len(deal.plays) > 0
    assert isinstance(data["events"], list)
    assert [e["kind"] for e in data["events"]] == [e.kind for e in deal.events]
    assert data["events"] == json_roundtrip([e.to_dict() for e in deal.events])


@pytest.mark.parametrize(("variant", "seats"), [
    ("three-in-one", 5), ("boodle-spare-auction", 4), ("pot-and-kitty", 4),
    ("boodle-free-stakes", 3), ("nain-jaune", 5), ("comet", 2), ("newmarket", 4),
    ("tripoley", 5),
])
def test_replay_json_matches_live_deal_other_variants(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str, seats: int) -> None:
    table = stops.Table(variant, seats=seats, chips=50, seed=3, dealer=1)
    deal = table.new_deal()
    play_random(deal, random.Random(1))
    path = write_record(tmp_path / "deal.json", deal.record(), "json")
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["stacks"] == list(deal.stacks)
    assert nonzero(data["layout"]) == nonzero(dict(deal.layout))
    assert data["plays"] == [[s, str(c)] for s, c in deal.plays]
    assert data["events"] == json_roundtrip([e.to_dict() for e in deal.events])


def test_replay_with_option_override(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = stops.Table("boodle", seats=4, chips=50, seed=21, dealer=2,
                        options={"after_stop": "must_change_suit"})
    deal = table.new_deal()
    play_random(deal, random.Random(4))
    rec = deal.record()
    assert rec["options"] == {"after_stop": "must_change_suit"}
    path = write_record(tmp_path / "deal.yaml", rec)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["stacks"] == list(deal.stacks)
    assert data["plays"] == [[s, str(c)] for s, c in deal.plays]


def test_replay_fills_in_omitted_forced_decisions(played: Played, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A record may leave out decisions with exactly one legal choice (docs/concepts.md)."""
    rec = copy.deepcopy(played.rec)
    kept = [a for a, n in zip(rec["actions"], played.counts, strict=True) if n > 1]
    assert len(kept) < len(rec["actions"]), "fixture has no single-choice decision"
    rec["actions"] = kept
    path = write_record(tmp_path / "short.yaml", rec)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["stacks"] == list(played.deal.stacks)
    assert data["plays"] == [[s, str(c)] for s, c in played.deal.plays]


def test_replay_session_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = stops.Table("boodle", seats=4, chips=50, seed=9)
    rng = random.Random(2)
    for _ in range(3):
        play_random(table.new_deal(), rng)
    path = write_record(tmp_path / "session.yaml", table.record())
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert out.strip()
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    data = json.loads(out)
    last = data[-1] if isinstance(data, list) else data
    if isinstance(last, dict) and "deals" in last:  # pragma: no cover - alternative shape
        last = last["deals"][-1]
    assert last["stacks"] == list(table.stacks)


# --------------------------------------------------------------------------- replay: errors


def lead_at(played: Played, index: int) -> tuple[int, str]:
    a = played.rec["actions"][index]
    return a["seat"], a["card"]


def test_replay_card_not_held(played: Played, tmp_path: Path,
                              capsys: pytest.CaptureFixture[str]) -> None:
    seat, _ = lead_at(played, 3)
    not_held = played.rec["spare"][0]  # a spare card: nobody holds it, ever
    rec = copy.deepcopy(played.rec)
    rec["actions"][3]["card"] = not_held
    path = write_record(tmp_path / "bad.yaml", rec)
    code, out, err = run(capsys, "replay", str(path))
    assert code != 0
    assert out == ""
    assert "action 3" in err
    assert f"seat {seat}" in err
    assert not_held in err
    assert "hold" in err.lower()  # the rule: you lead a card you hold
    assert "Traceback" not in err


def test_replay_card_not_held_subprocess_no_traceback(played: Played, tmp_path: Path) -> None:
    seat, _ = lead_at(played, 3)
    rec = copy.deepcopy(played.rec)
    rec["actions"][3]["card"] = played.rec["spare"][0]
    path = write_record(tmp_path / "bad.json", rec, "json")
    p = run_subprocess("replay", str(path), "--json")
    assert p.returncode != 0
    assert p.stdout == ""
    assert "Traceback" not in p.stderr
    assert "action 3" in p.stderr
    assert f"seat {seat}" in p.stderr


def test_replay_wrong_seat(played: Played, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str]) -> None:
    seat, _ = lead_at(played, 3)
    wrong = (seat + 1) % 4
    rec = copy.deepcopy(played.rec)
    rec["actions"][3]["seat"] = wrong
    path = write_record(tmp_path / "bad.yaml", rec)
    code, out, err = run(capsys, "replay", str(path))
    assert code != 0
    assert out == ""
    assert "Traceback" not in err
    assert "action 3" in err
    assert f"seat {wrong}" in err
    assert f"seat {seat}" in err  # whose decision it really is
    assert re.search(r"turn|cannot act|decision", err)


def test_replay_missing_decision(played: Played, tmp_path: Path,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    last_choice = max(i for i, n in enumerate(played.counts) if n > 1)
    seat, _ = lead_at(played, last_choice)
    rec = copy.deepcopy(played.rec)
    rec["actions"] = rec["actions"][:last_choice]
    rec.pop("result", None)
    path = write_record(tmp_path / "short.yaml", rec)
    code, out, err = run(capsys, "replay", str(path))
    assert code != 0
    assert out == ""
    assert "Traceback" not in err
    assert f"action {last_choice}" in err
    assert f"seat {seat}" in err
    assert re.search(r"missing|still has a decision|decision to make", err), err


def test_replay_unfinished_deal_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = stops.Table("boodle", seats=4, chips=50, seed=11)
    deal = table.new_deal()
    legal = deal.legal_actions()
    deal.apply(legal[0])
    while len(deal.legal_actions()) == 1:  # stop where a real choice is due
        deal.apply(deal.legal_actions()[0])
    assert not deal.is_terminal
    path = write_record(tmp_path / "unfinished.yaml", deal.record())
    code, out, err = run(capsys, "replay", str(path))
    assert code != 0
    assert out == ""
    assert "Traceback" not in err
    assert f"seat {deal.current_seat}" in err
    assert "decision" in err


def test_replay_extra_action(played: Played, tmp_path: Path,
                             capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(played.rec)
    n = len(rec["actions"])
    rec["actions"].append(dict(rec["actions"][0]))
    path = write_record(tmp_path / "extra.yaml", rec)
    code, out, err = run(capsys, "replay", str(path))
    assert code != 0
    assert out == ""
    assert f"action {n}" in err


def test_replay_result_mismatch(played: Played, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    rec = copy.deepcopy(played.rec)
    assert "result" in rec
    rec["result"]["stacks"] = [s + 1 for s in rec["result"]["stacks"]]
    path = write_record(tmp_path / "tampered.yaml", rec)
    err = one_clear_error(*run(capsys, "replay", str(path)))
    assert "differ" in err


def _bad_card(rec: dict[str, Any]) -> None:
    rec["hands"][0][0] = "ZZ"


def _no_players(rec: dict[str, Any]) -> None:
    del rec["players"]


def _unknown_key(rec: dict[str, Any]) -> None:
    rec["bogus_key"] = 1


def _players_mismatch(rec: dict[str, Any]) -> None:
    rec["players"] = 5
    del rec["stacks"]


def _unknown_variant(rec: dict[str, Any]) -> None:
    rec["variant"] = "no-such-variant"


def _card_twice(rec: dict[str, Any]) -> None:
    rec["hands"][0][0] = rec["hands"][1][0]


def _actions_not_list(rec: dict[str, Any]) -> None:
    rec["actions"] = {"seat": 1}


def _action_unknown_verb(rec: dict[str, Any]) -> None:
    rec["actions"][3]["action"] = "fly"


@pytest.mark.parametrize(("mutate", "words"), [
    (_bad_card, ("ZZ",)),
    (_no_players, ("players",)),
    (_unknown_key, ("bogus_key",)),
    (_players_mismatch, ("5", "4")),
    (_unknown_variant, ("no-such-variant",)),
    (_card_twice, ("twice",)),
    (_actions_not_list, ("actions",)),
    (_action_unknown_verb, ("action 3", "fly")),
])
def test_replay_bad_record(played: Played, tmp_path: Path,
                           capsys: pytest.CaptureFixture[str], mutate: Any,
                           words: tuple[str, ...]) -> None:
    rec = copy.deepcopy(played.rec)
    mutate(rec)
    path = write_yaml(tmp_path / "bad.yaml", rec)
    err = one_clear_error(*run(capsys, "replay", str(path)))
    for w in words:
        assert w in err, err


@pytest.mark.parametrize(("text", "words"), [
    ("variant: boodle\nhands: [\n  players: }\n", ("YAML",)),
    ("just some words\n", ("mapping",)),
    ("", ("mapping",)),
    ("[1, 2, 3]\n", ("mapping",)),
])
def test_replay_not_a_record(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str,
                             words: tuple[str, ...]) -> None:
    path = tmp_path / "junk.yaml"
    path.write_text(text, encoding="utf-8")
    err = one_clear_error(*run(capsys, "replay", str(path)))
    assert "junk.yaml" in err
    for w in words:
        assert w in err


def test_replay_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = one_clear_error(*run(capsys, "replay", str(tmp_path / "absent.yaml")))
    assert "absent.yaml" in err


# ----- malformed optional keys: each must be a clear message, never a traceback


def _layout_list(rec: dict[str, Any]) -> None:
    rec["layout"] = ["AH", 3]


def _retired_nested(rec: dict[str, Any]) -> None:
    rec["retired"] = [["AH"]]


def _deal_index_text(rec: dict[str, Any]) -> None:
    rec["deal_index"] = "x"


def _result_stacks_number(rec: dict[str, Any]) -> None:
    rec["result"] = {"stacks": 5}


def _result_layout_list(rec: dict[str, Any]) -> None:
    rec["result"] = {"layout": ["AH", 5]}


@pytest.mark.parametrize(("mutate", "word"), [
    pytest.param(_layout_list, "layout"),
    pytest.param(_retired_nested, "retired"),
    pytest.param(_deal_index_text, "deal_index"),
    pytest.param(_result_stacks_number, "result"),
    pytest.param(_result_layout_list, "result"),
])
def test_replay_malformed_optional_key_is_clear_error(
        played: Played, tmp_path: Path, capsys: pytest.CaptureFixture[str], mutate: Any,
        word: str) -> None:
    rec = copy.deepcopy(played.rec)
    mutate(rec)
    path = write_yaml(tmp_path / "bad.yaml", rec)
    err = one_clear_error(*run(capsys, "replay", str(path)))
    assert word in err, err


def test_replay_session_record_unknown_key(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    table = stops.Table("boodle", seats=4, chips=50, seed=9)
    play_random(table.new_deal(), random.Random(2))
    rec = table.record()
    rec["bogus_key"] = 1
    path = write_record(tmp_path / "session.yaml", rec)
    err = one_clear_error(*run(capsys, "replay", str(path)))
    assert "bogus_key" in err


def test_replay_record_of_relative_variant_file_from_elsewhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "rules"
    home.mkdir()
    write_yaml(home / "house.yaml", {"name": "house", "extends": "boodle",
                                     "rules": {"after_stop": "must_change_suit"}})
    monkeypatch.chdir(home)
    table = stops.Table("house.yaml", seats=4, chips=50, seed=1)
    deal = table.new_deal()
    play_random(deal, random.Random(0))
    path = write_record(home / "deal.yaml", deal.record())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    assert json.loads(out)["stacks"] == list(deal.stacks)

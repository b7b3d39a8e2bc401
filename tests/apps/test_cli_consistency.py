"""Issue 21, "a typo anywhere" and "consistency a user notices": suggestions for misspelt
names, options no rule of the variant reads refused with the reason, ``stops check``
reporting every problem of a file at once, ``-o`` and ``--json`` on every command that loads
variants, ``stops diff``'s exit code, and starting stacks refused with the reason.

Everything goes through ``stops.apps.cli.main([...])`` or the public API.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import stops
from stops.apps.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- a typo anywhere ------------------------------------------------------------------------


def test_a_misspelt_option_gets_the_one_name_meant(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "boodle", "-o", "bet_limt=4")
    assert code == 1 and out == ""
    assert "unknown rule 'bet_limt' (did you mean bet_limit?)" in err
    # not every rule there is: the message is two lines, not a hundred names
    assert "after_stop" not in err and len(err.splitlines()) == 2


@pytest.mark.parametrize(("typed", "meant"), [("bodle", "boodle"), ("pope_joan", "pope-joan")])
def test_a_misspelt_variant_gets_the_one_name_meant(capsys: pytest.CaptureFixture[str],
                                                    typed: str, meant: str) -> None:
    code, _, err = run(capsys, "rules", typed)
    assert code == 1
    assert f"no built-in variant named '{typed}' (did you mean {meant}?)" in err
    assert "<top>" not in err   # no jargon for "the whole file": the name itself is wrong


def test_an_option_no_rule_of_the_variant_reads_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    # bet_limit is a setting of the poker stage; boodle's flow is stake, deal, spare_hand,
    # play, settle: no poker stage, so the option would change nothing
    code, out, err = run(capsys, "rules", "boodle", "-o", "bet_limit=4")
    assert code == 1 and out == ""
    assert ("bet_limit is a setting of the poker stage, which boodle does not have" in err)
    # three-in-one has a poker stage: the same option is read there, and accepted
    code, out, _ = run(capsys, "rules", "three-in-one", "-o", "bet_limit=4")
    assert code == 0 and "1 rule changed" in out


def test_a_policy_setting_needs_its_policy() -> None:
    # change_suit_fallback is a parameter of after_stop: must_change_suit; boodle plays
    # any_suit, so alone it is refused, naming the choice that would make it count ...
    with pytest.raises(stops.VariantError) as exc:
        stops.load_variant("boodle", options={"change_suit_fallback": "pass_left"})
    ((file, path, msg),) = exc.value.problems
    assert (file, path) == ("<options>", "change_suit_fallback")
    assert "after_stop: must_change_suit, which boodle does not use" in msg
    assert "-o after_stop=must_change_suit" in msg
    # ... and with that choice it is read
    v = stops.load_variant("boodle", options={"change_suit_fallback": "pass_left",
                                              "after_stop": "must_change_suit"})
    assert v.policy("after_stop").params.fallback == "pass_left"


def test_a_house_rule_file_may_keep_a_setting_its_flow_does_not_read(tmp_path: Path) -> None:
    # a flat rule in a file is hinted at by stops check, not refused: only options are
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: boodle\nrules:\n  change_suit_fallback: pass_left\n",
                 encoding="utf-8")
    assert stops.load_variant(str(f)).name == "house"


# -- stops check reports every problem at once ----------------------------------------------

FOUR_PROBLEMS = """\
name: house
extends: boodle
colour: red
players: {min: 3, max: lots}
deck: {remove: [2C]}
layout:
  - {id: TWO, kind: card, card: 2C}
rules:
  change_suit_fallback: sideways
"""
"""Four independent problems, at four stages of a load: an unknown top-level key (stepped
over), a value of the wrong type (stops structuring), a flat rule's value (found when the
rules are bound) and a layout card taken out of the pack (a check of the whole variant)."""


def test_check_reports_every_problem_of_a_file_in_one_run(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text(FOUR_PROBLEMS, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f))
    assert code == 1
    lines = out.splitlines()
    # one line per problem, in the file's order, each at its own line of the file
    assert [line.split(": ")[0:2] for line in lines] == [
        [f"{f}:3", "colour"], [f"{f}:4", "players.max"], [f"{f}:7", "layout[0].card"],
        [f"{f}:9", "rules.change_suit_fallback"]], out
    assert "2C is removed from the pack" in lines[2]
    assert "expected one of 'same_suit', 'pass_left', got 'sideways'" in lines[3]
    # fixing the first two leaves exactly the other two: nothing new appears
    f.write_text(FOUR_PROBLEMS.replace("colour: red\n", "").replace("lots", "8"),
                 encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f))
    assert [line.split(": ")[1] for line in out.splitlines()] == [
        "layout[0].card", "rules.change_suit_fallback"]


def test_check_blames_no_key_it_put_back(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    # a bad preset and a bad value: the preset is set aside, the value put back as boodle
    # has it (players.max 8), and the rest of the file is checked (the unknown flat rule)
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: boodle\nplayers: {min: 3, max: lots}\npresets:\n"
                 "  odd: {flow: [stake, play, settle, deal]}\nrules:\n  chnge_suit_fallback: "
                 "pass_left\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f))
    paths = [line.split(": ")[1] for line in out.splitlines()]
    assert code == 1
    assert "players.max" in paths and "rules.chnge_suit_fallback" in paths
    # the preset's own problem, once: not boodle's players.max, which the preset inherits,
    # nor what follows from setting its flow's bad item aside
    assert [p for p in paths if p.startswith("presets")] == ["presets.odd -> flow[1]"]
    assert "phase 'play' must come after 'deal'" in out
    assert len(paths) == 3
    assert "did you mean change_suit_fallback?" in out


# -- -o, --json and exit codes alike on every command ---------------------------------------


def test_check_takes_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text("name: house\nextends: boodle\n", encoding="utf-8")
    assert run(capsys, "check", str(f), "-o", "after_stop=must_change_suit")[:2] == (0, "ok\n")
    # an option the file's rules do not read is a problem of the check, named as such
    code, out, _ = run(capsys, "check", str(f), "-o", "bet_limit=4")
    assert code == 1
    assert out.startswith("<options>: bet_limit: bet_limit is a setting of the poker stage")


def test_diff_exits_1_when_the_variants_differ_and_takes_options(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "diff", "boodle", "boodle")[:2] == (
        0, "boodle and boodle have the same rules.\n")
    # -o applies to the second variant: what the option changes, and only that
    code, out, _ = run(capsys, "diff", "boodle", "boodle", "-o", "after_stop=must_change_suit")
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "1 difference(s) between boodle and boodle -o after_stop=must_change_suit:"
    assert lines[1].startswith("- after_stop ")
    assert lines[2].startswith("    boodle: any_suit — ")
    assert lines[3].startswith("    boodle -o after_stop=must_change_suit: must_change_suit — ")


def test_diff_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "diff", "boodle", "boodle-change-suit", "--json")
    data = json.loads(out)
    assert code == 1
    assert set(data) == {"a", "b", "options", "same", "differences"}
    assert (data["a"], data["b"], data["options"], data["same"]) == (
        "boodle", "boodle-change-suit", {}, False)
    assert any(d.startswith("after_stop ") for d in data["differences"])
    code, out, _ = run(capsys, "diff", "boodle", "boodle", "--json")
    assert code == 0 and json.loads(out)["same"] is True
    assert json.loads(out)["differences"] == []


def test_variants_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "variants", "--json")
    data = json.loads(out)
    assert code == 0
    assert [d["name"] for d in data] == stops.list_variants()
    boodle = next(d for d in data if d["name"] == "boodle")
    assert boodle == {"name": "boodle", "title": "Boodle (Michigan, Stops, Newmarket)",
                      "players": {"min": 3, "max": 8}}


def test_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "boodle", "-o", "after_stop=must_change_suit",
                       "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"name", "title", "players", "options", "text"}
    assert data["options"] == {"after_stop": "must_change_suit"}
    assert data["players"] == {"min": 3, "max": 8}
    # the same paragraphs as the text, with no terminal underline
    assert "with 1 rule changed:" in data["text"][1]
    assert not any(set(p) == {"="} for p in data["text"])


def test_check_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "house.yaml"
    f.write_text(FOUR_PROBLEMS, encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f), "--json")
    data = json.loads(out)
    assert code == 1
    assert (data["file"], data["ok"], data["hints"]) == (str(f), False, [])
    assert data["problems"][1] == {"file": str(f), "line": 4, "path": "players.max",
                                   "message": "expected a whole number, got 'lots'"}
    assert len(data["problems"]) == 4
    # a file that loads: ok, and its hints in the same shape
    f.write_text("name: house\nextends: boodle-change-suit\nrules:\n  change_suit_fallback: "
                 "pass_left\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", str(f), "--json")
    data = json.loads(out)
    assert code == 0 and data["ok"] is True and data["problems"] == []
    assert [(h["line"], h["path"]) for h in data["hints"]] == [
        (4, "rules.change_suit_fallback")]


def test_replay_takes_options(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import random

    from stops.io import records as record

    table = stops.Table("boodle", seats=4, chips=50, seed=21, dealer=2,
                        options={"after_stop": "must_change_suit"})
    deal = table.new_deal()
    rng = random.Random(4)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    rec = deal.record()
    del rec["options"]   # a record that lost its options: -o gives them back
    path = tmp_path / "deal.yaml"
    path.write_text(record.dumps(rec, "yaml"), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--json", "-o",
                         "after_stop=must_change_suit")
    assert code == 0, err
    assert json.loads(out)["stacks"] == list(deal.stacks)


# -- starting stacks ------------------------------------------------------------------------


@pytest.mark.parametrize(("chips", "why"), [
    (-5, "a starting stack cannot be negative (-5 chips)"),
    (0, "a starting stack of 0 chips leaves every player nothing to stake")])
def test_a_table_starts_with_at_least_one_chip_each(chips: int, why: str) -> None:
    with pytest.raises(stops.StopsError) as exc:
        stops.Table("boodle", seats=4, chips=chips)
    assert why in str(exc.value) and "give at least 1 chip" in str(exc.value)
    assert stops.Table("boodle", seats=4, chips=1).stacks == (1, 1, 1, 1)


def test_a_position_may_have_a_seat_out_of_chips_and_debts_only_under_debt() -> None:
    # carrying a session on: a seat at 0 is a seat that has run out of chips
    assert stops.Table("boodle", seats=3, chips=[0, 5, 6]).stacks == (0, 5, 6)
    # boodle plays chip_shortfall: debt, so a stack may be below 0 ...
    assert stops.Table("boodle", seats=3, chips=[-2, 5, 6]).stacks == (-2, 5, 6)
    # ... tripoley does not (a short payer pays what he can): never below 0 there
    with pytest.raises(stops.StopsError) as exc:
        stops.Table("tripoley", seats=3, chips=[-2, 5, 6])
    assert "seat 0 has -2" in str(exc.value) and "chip_shortfall: debt" in str(exc.value)


@pytest.mark.parametrize("command", ["simulate", "play"])
@pytest.mark.parametrize("chips", ["0", "-5"])
def test_chips_on_the_command_line(capsys: pytest.CaptureFixture[str], command: str,
                                   chips: str) -> None:
    code, out, err = run(capsys, command, "boodle", "--chips", chips, "--deals", "1")
    assert code == 1 and out == ""
    assert err.startswith("stops: --chips: a starting stack") and "at least 1 chip" in err


# -- help and install hints ------------------------------------------------------------------


def test_schema_help_points_to_the_editor_set_up(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["schema", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "# yaml-language-server: $schema=./stops-variant.schema.json" in out
    assert "yaml.schemas" in out and "docs/house-rules.md" in out
    # the section it names is there
    doc = (Path(__file__).resolve().parents[2] / "docs" / "house-rules.md").read_text(
        encoding="utf-8")
    assert "## 3. Check it, read it, try it" in doc and "yaml.schemas" in doc


def test_the_dask_hint_names_both_install_forms(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib

    from stops.apps import cli

    real = importlib.import_module

    def no_distributed(name: str, *args: object) -> object:
        if name == "distributed":
            raise ImportError(name)
        return real(name, *args)   # type: ignore[arg-type]

    monkeypatch.setattr(importlib, "import_module", no_distributed)
    with pytest.raises(stops.StopsError) as exc:
        cli._cluster_executor("tcp://127.0.0.1:1")
    assert 'pip install "stops-cards[dask]"' in str(exc.value)
    assert 'from a checkout: pip install ".[dask]"' in str(exc.value)


def test_a_record_replays_with_an_option_no_rule_reads() -> None:
    # refused anew, an unread option changes nothing: a record that carries one (made before
    # options were checked) replays as recorded, to the same stacks
    import random

    from stops.io import records as record

    deal = stops.Table("boodle", seats=3, chips=20, seed=5, dealer=0).new_deal()
    rng = random.Random(5)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    rec = deal.record()
    rec["options"] = {"bet_limit": 4}
    with pytest.raises(stops.VariantError):
        stops.load_variant("boodle", options={"bet_limit": 4})
    assert record.replay(rec).stacks == deal.stacks
    # a variant rebuilt from it (a worker's pickle) keeps it too
    import pickle

    v = record.replay(rec).variant
    assert pickle.loads(pickle.dumps(v)).options == {"bet_limit": 4}

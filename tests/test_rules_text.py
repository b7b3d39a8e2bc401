"""``stops rules`` of a derived variant (issue 14, item 10): the summary is regenerated from
the rules in force, never inherited from the parent, and a house-rule file does not claim
its parent's source."""

from __future__ import annotations

from pathlib import Path

import pytest

from stops.apps import cli


def rules(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(["rules", *argv]) == 0
    return capsys.readouterr().out


def test_an_option_regenerates_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    text = rules(capsys, "boodle", "-o", "after_stop=must_change_suit")
    head = "\n".join(text.splitlines()[:6])
    assert "any suit" not in head                       # the parent's summary is gone
    assert "must change suit" in head
    assert "must be of another suit" in text.split("The play", 1)[1]
    assert "House rules: the options after_stop=must_change_suit; based on boodle" in head
    assert "\nSource:" not in text


def test_a_house_rule_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "my-club.yaml"
    f.write_text("name: my-club\nextends: boodle\nrules:\n  after_stop: must_change_suit\n"
                 "  change_suit_fallback: pass_left\n", encoding="utf-8")
    text = rules(capsys, str(f))
    lines = text.splitlines()
    assert lines[0] == "my-club: Boodle (Michigan, Stops, Newmarket), with house rules"
    head = "\n".join(lines[:8])
    assert "leads again, any suit" not in head
    assert "- after_stop: must change suit." in head
    assert "passes the lead to the left" in head       # its fallback, given by its flat name
    assert f"House rules: {f}; based on boodle" in head
    assert "\nSource:" not in text                     # not the parent's source line


def test_a_file_with_its_own_summary_keeps_it(capsys: pytest.CaptureFixture[str]) -> None:
    text = rules(capsys, "boodle-change-suit-pass")
    assert text.splitlines()[2].startswith("Boodle, except that after a stop")
    assert "Source: seed 001" in text
    plain = rules(capsys, "boodle")
    assert "The player of the stop leads again, any suit." in plain

"""``stops rules`` of a derived variant (issue 14, item 10): the summary is regenerated from
the rules in force, never inherited from the parent, and a house-rule file does not claim
its parent's source."""

from __future__ import annotations

from pathlib import Path

import pytest

import stops
from stops.apps import cli
from stops.rules.loader import builtin_names
from stops.rules.prose import in_force, policy_text, rules_text


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


# -- what every built-in's printed rules say (issue 19, section 3) ---------------------------

BUILTINS = builtin_names()


def _generated(text: str) -> str:
    """The rules the library writes: everything after the file's own description and
    source (which are the author's free prose)."""
    return text[text.index("\nPlayers and cards\n"):]


def _flat(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("name", BUILTINS)
def test_the_printed_rules_name_each_policy_in_force_and_no_other(name: str) -> None:
    """Each policy in force declares the words (``phrase``) that find its rule; the printed
    rules contain them for every policy in force that has something to say, and never the
    words of a policy that is not in force: not those of a slot that cannot apply (Boodle's
    block, a failed lead where every player can always lead), nor those of another policy
    of a slot in force (unless the policy in force says the same words itself)."""
    v = stops.load_variant(name)
    text = _flat(_generated(rules_text(v)))
    force = in_force(v)
    reg = v.registry
    for slot, b in force.items():
        own = _flat(policy_text(v, slot))
        if not own:
            continue  # nothing to tell the players of this game (no wild card)
        assert b.spec.phrase, f"{slot}: {b.name} says something but declares no phrase"
        assert b.spec.phrase in own, (slot, b.name, b.spec.phrase, own)
        assert b.spec.phrase in text, (slot, b.name, b.spec.phrase)
    for (slot, pname), spec in reg.policies.items():
        if not spec.phrase or (slot in force and force[slot].name == pname):
            continue
        if slot in force and spec.phrase in _flat(policy_text(v, slot)):
            continue  # the rule in force says the same words (both name the first lead)
        assert spec.phrase not in text, f"{name}: {slot}: {pname} is not in force but is named"


def test_phrases_are_distinct_across_slots() -> None:
    """A phrase names one rule: no policy's phrase is inside the phrase of a policy of
    another slot (within a slot, rules may share words)."""
    specs = [s for s in stops.default_registry().policies.values() if s.phrase]
    for a in specs:
        for b in specs:
            if a.slot != b.slot:
                assert a.phrase not in b.phrase, (a.slot, a.name, b.slot, b.name)  # type: ignore[operator]


def test_in_force_follows_what_the_rules_declare() -> None:
    """Boodle: any suit may be led, so no failed lead and no block; with the change of suit
    and a pass to the left both come into force; Tripoley's colour flip never blocks."""
    boodle = stops.load_variant("boodle")
    assert {"failed_lead", "block_outcome"}.isdisjoint(in_force(boodle))
    assert {"failed_lead", "block_outcome"} <= set(in_force(
        stops.load_variant("boodle-change-suit-pass")))
    assert {"failed_lead", "block_outcome"}.isdisjoint(in_force(
        stops.load_variant("boodle-change-suit")))  # same suit as a last resort: never stuck
    colours = in_force(stops.load_variant("boodle", options={
        "after_stop": "opposite_colour", "failed_lead": {"use": "pass_left",
                                                         "colour_flip": True}}))
    assert "failed_lead" in colours and "block_outcome" not in colours
    assert "spare_protocol" not in in_force(stops.load_variant("nain-jaune"))  # no such phase
    assert "final_share" in in_force(stops.load_variant("pot-and-kitty"))
    assert "final_share" not in in_force(boodle)

"""``stops rules`` of a derived variant (issue 14, item 10): the summary is regenerated from
the rules in force, never inherited from the parent, and a house-rule file does not claim
its parent's source."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import stops
from stops.apps import cli
from stops.rules.loader import builtin_names
from stops.rules.prose import in_force, policy_text, rules_text


def rules(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert cli.main(["rules", *argv]) == 0
    return capsys.readouterr().out


def _head(text: str) -> str:
    """The printed summary before the rules themselves, its cut lines joined."""
    return " ".join(text.split("\nPlayers and cards\n")[0].split())


def test_an_option_regenerates_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    text = rules(capsys, "boodle", "-o", "after_stop=must_change_suit")
    head = _head(text)
    assert "any suit" not in head                       # the parent's summary is gone
    assert "must change suit" in head
    assert "must be of another suit" in _head(text.split("The play", 1)[1])
    assert "House rules: the options after_stop=must_change_suit; based on boodle" in head
    assert "\nSource:" not in text


def test_a_house_rule_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "my-club.yaml"
    f.write_text("name: my-club\nextends: boodle\nrules:\n  after_stop: must_change_suit\n"
                 "  change_suit_fallback: pass_left\n", encoding="utf-8")
    text = rules(capsys, str(f))
    lines = text.splitlines()
    assert lines[0] == "my-club: Boodle (Michigan, Stops, Newmarket), with house rules"
    head = _head(text)
    assert "leads again, any suit" not in head
    assert "- after_stop: must change suit." in head
    assert "passes the lead to the left" in head       # its fallback, given by its flat name
    assert f"House rules: {f}; based on boodle" in head
    assert "\nSource:" not in text                     # not the parent's source line


def test_a_file_with_its_own_summary_keeps_it(capsys: pytest.CaptureFixture[str]) -> None:
    text = rules(capsys, "boodle-change-suit-pass")
    assert text.splitlines()[2].startswith("Boodle, except that after a stop")
    assert "Source: docs/rulings.md ruling 29" in text
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


# -- the specific readings of issue 19 and FAMILY-RULINGS-2 G.10 ------------------------------


def _play(text: str) -> str:
    return _flat(text.split("\nThe play\n", 1)[1].split("\nClaims\n", 1)[0])


@pytest.mark.parametrize("name", BUILTINS)
def test_who_leads_after_a_stop_is_stated(name: str) -> None:
    """Every game says who leads after a stop: the player of the stop (holder plays: "its
    player leads next"; in rotation, the top rank "ends the sequence: its player starts a
    new one at once")."""
    play = _play(rules_text(stops.load_variant(name)))
    assert ("the last card played is a stop, and its player leads next" in play
            or "ends the sequence: its player starts a new one at once" in play), play


@pytest.mark.parametrize("name", BUILTINS)
def test_no_implementation_words_and_amounts_in_chips(name: str) -> None:
    text = _flat(rules_text(stops.load_variant(name)))
    for words in ("prearranged deal", "(a record)", "stake unit", "unit(s)", "chip(s)",
                  "a lead with one choice", "laid as a 8", "the top of the order",
                  "(in stake units)"):
        assert words not in text, (name, words)


@pytest.mark.parametrize("name", BUILTINS)
def test_no_line_is_wider_than_80_columns_when_not_a_terminal(
        name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``stops rules`` cuts its lines to the terminal's width, 80 when the output is not a
    terminal (as here); a list item goes on indented under its own text."""
    text = rules(capsys, name)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert _flat(text) == _flat(rules_text(stops.load_variant(name)))  # only cut, not changed


def test_the_rules_cut_to_a_given_width() -> None:
    v = stops.load_variant("pope-joan")
    for width in (40, 60, 100):
        lines = rules_text(v, width=width).splitlines()
        assert max(len(x) for x in lines) <= width
        assert any(len(x) > width - 12 for x in lines)  # and use the room they have
    cut = rules_text(stops.load_variant("three-in-one"), width=40).splitlines()
    item = cut.index("- KQ (king-queen of hearts): the king of")
    assert cut[item + 1] == "  hearts and the queen of hearts, by one"  # under its own text


@pytest.mark.parametrize("name", [n for n in BUILTINS if stops.load_variant(n).policy(
    "successor").name == "rank_only"])
def test_where_suits_are_ignored_no_suit_is_named(name: str) -> None:
    """Nain Jaune and the Comet build by rank alone: the printed rules never speak of a
    suit, a King ends the sequence, and the dealer's left leads first."""
    v = stops.load_variant(name)
    text = rules_text(v)
    top = "an ace" if v.rules.ace == "high" else "a king"  # Pink Nines: ace high
    assert "suit" not in text.lower()
    assert f"{top} ends the sequence: its player starts a new one at once" in _flat(
        text).lower()
    assert "The player to the dealer's left makes the first lead" in _flat(text)
    assert "turn order" not in text and "anticlockwise" not in text


def test_anticlockwise_turns_lead_from_the_dealers_right() -> None:
    text = rules_text(stops.load_variant("nain-jaune", options={"direction": "anticlockwise"}))
    assert "The player to the dealer's right makes the first lead." in _flat(text)


@pytest.mark.parametrize("name", BUILTINS)
def test_no_aces_where_there_are_none(name: str) -> None:
    """The Comet's pack has no aces: the printed rules name them only as taken out."""
    v = stops.load_variant(name)
    if any(int(c) % 13 == 12 for c in v.deck):
        return
    text = _flat(_generated(rules_text(v))).replace("(the 52 without the four aces)", "")
    assert re.search(r"\baces?\b", text) is None, text


def test_the_fixed_stops_are_named() -> None:
    """Pope Joan: every King and the 7♦ (8♦ out of the pack); Spinado: the aces too (the
    twos are out); Parlett's Pope Joan, ace high: every ace and the 7♦; Boodle: the aces."""
    def stops_of(name: str) -> str:
        return _play(rules_text(stops.load_variant(name))).split("The stops are ")[1]
    assert stops_of("pope-joan").startswith(
        "every King (the top of its suit), the 7♦ (the 8♦ is out of the pack) and any card "
        "whose next card is in the dead hand or already played.")
    assert stops_of("spinado").startswith(
        "every King (the top of its suit), every ace (the twos are out of the pack), the 7♦ "
        "(the 8♦ is out of the pack) and any card whose next card is in the widow or already "
        "played.")
    assert stops_of("pope-joan-parlett").startswith(
        "every ace (the top of its suit), the 7♦ (the 8♦ is out of the pack) and any card")
    assert stops_of("newmarket").startswith(
        "every ace (the top of its suit) and any card whose next card is in the dummy or "
        "already played.")


def test_boodle_describes_no_block_no_failed_lead_and_no_space_it_cannot_have() -> None:
    """Under any_suit every player with cards can lead (rulings 28): no block, no passed
    lead; Boodle's layout has card spaces only, so no combination or run space is named."""
    text = _flat(_generated(rules_text(stops.load_variant("boodle"))))
    for words in ("nobody can lead", "cannot lead", "passes the", "block", "combination",
                  "run space", "in one suit"):
        assert words not in text, words
    passing = _flat(rules_text(stops.load_variant("boodle-change-suit-pass")))
    assert "passes the lead to the left" in passing
    assert "If nobody can lead, the deal ends and nobody pays for the cards left." in passing


def test_the_pope_holder_is_excused_only_where_a_rule_excuses() -> None:
    """FAMILY-RULINGS-2 G.10 item 8: Spinado has no excuse, so its going-out payment names
    none; Pope Joan's names the holder of the Pope, and not with pope_holder_pays."""
    spinado = _flat(rules_text(stops.load_variant("spinado")))
    assert "excuse" not in spinado and "claims above" not in spinado
    assert ("The first player out takes the Game, and every other player pays him one chip "
            "per card still held.") in spinado
    pope = _flat(rules_text(stops.load_variant("pope-joan")))
    assert ("The first player out takes the Game, and every other player but the holder of "
            "the Pope pays him one chip per card still held.") in pope
    paying = _flat(rules_text(stops.load_variant("pope-joan",
                                                 options={"pope_holder_pays": True})))
    assert "but the holder" not in paying and "pays nothing for the cards" not in paying


def test_a_redeal_on_the_pope_is_the_programs_own_option() -> None:
    """G.10 item 7: no source plays ``pope_turn_up: redeal``; the rules say so."""
    text = _flat(rules_text(stops.load_variant("pope-joan",
                                               options={"pope_turn_up": "redeal"})))
    assert "deals again, with no new stakes (an option of this program's own" in text
    assert "this library's own option" in text  # the changed rule's own note


def test_poker_mentions_short_hands_only_where_a_hand_can_be_short() -> None:
    """52 cards among at most eight players and a spare hand: every hand has five cards."""
    assert "fewer than 5 cards" not in rules_text(stops.load_variant("three-in-one"))
    many = stops.load_variant("three-in-one", options={"poker_hand_size": 7})
    assert "fewer than 7 cards" in rules_text(many)


def test_the_comet_laid_as_an_eight_reads_as_english() -> None:
    from stops.games.comet import Comet, CometParams

    deal = stops.Table(stops.load_variant("comet"), seats=3, seed=1).new_deal()
    assert Comet().on_lay(deal, 0, "8", CometParams()) == (
        "the comet, laid as an 8, always ends the sequence")
    assert Comet().on_lay(deal, 0, "9", CometParams()) == (
        "the comet, laid as a 9, always ends the sequence")


def test_the_house_rules_guide_lists_every_builtin() -> None:
    """docs/house-rules.md "Start from a built-in" names every built-in (G.10 item 6)."""
    doc = (Path(__file__).resolve().parents[2] / "docs" / "house-rules.md").read_text(
        encoding="utf-8")
    table = doc.split("## 1. Start from a built-in", 1)[1].split("\n## ", 1)[0]
    for name in BUILTINS:
        assert f"`{name}`" in table, name


def test_a_preset_with_its_own_name_is_told_as_that_game() -> None:
    # pink-nines' preset red-nines gives a title and description of its own (G37): the text
    # is Red Nines' rules under its own name, not Pink Nines with nine settings listed
    v = stops.load_variant("pink-nines", options={"red-nines": True})
    text = rules_text(v)
    assert text.startswith("Red Nines\n=========\nPink Nines for four players with no stake")
    assert "Played as Pink Nines with the option red-nines." in text
    assert "house rules" not in text and "rules changed" not in text
    # a preset that names no game of its own is still a house rule, its changes listed
    v = stops.load_variant("royal-rummy", options={"ace_bet": True})
    assert "with house rules" in rules_text(v)

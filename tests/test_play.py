"""`stops play` scripted through piped input."""

from __future__ import annotations

import io
import subprocess
import sys

import stops
from stops.apps.terminal import play_terminal


def run(variant: str, answers: str, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    code = play_terminal(stops.load_variant(variant), inp=io.StringIO(answers), out=out,
                         **kw)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_a_whole_session_by_numbers() -> None:
    code, text = run("boodle", "1\n" * 500, players=3, seed=5, deals=2)
    assert code == 0
    assert text.count("=== Deal") == 2
    assert "The session is over. Standings:" in text
    assert "Your hand:" in text and "Layout:" in text and "Stacks:" in text
    assert "1) lead" in text
    assert "pays" in text  # payments are narrated


def test_every_game_plays_through_piped_input() -> None:
    for name in ("three-in-one", "pot-and-kitty", "boodle-free-stakes",
                 "boodle-spare-auction"):
        code, text = run(name, "1\n" * 3000, players=4, seed=2, deals=1)
        assert code == 0, name
        assert "The session is over" in text, name


def test_bad_input_reprompts_with_a_reason_and_help_explains() -> None:
    code, text = run("boodle", "0\nzz\n9h\n?\nq\n", players=3, seed=1, deals=1)
    assert code == 0
    assert "choose 1 to" in text                    # 0 is out of range
    assert "Not understood" in text or "Not allowed" in text
    assert "Whoever holds the next card" in text   # ? explains the rule
    assert text.rstrip().endswith("Goodbye.")


def test_cards_may_be_typed() -> None:
    # seed 1, 3 players: find a legal lead and type it as a card
    table = stops.Table("boodle", seats=3, chips=50, seed=1, deals=1)
    deal = table.new_deal()
    first = deal.legal_actions()[0]
    assert first.card is not None
    typed = first.card.symbol().lower()
    code, text = run("boodle", f"{typed}\nq\n", players=3, seed=1, deals=1,
                     seat=deal.current_seat)
    assert code == 0
    assert f"leads {first.card}" in text


def test_end_of_input_and_bad_arguments() -> None:
    code, text = run("boodle", "", players=3, seed=1)
    assert code == 0 and "Goodbye." in text
    code, text = run("boodle", "", players=2, seed=1)
    assert code == 1
    code, text = run("boodle", "", players=3, seed=1, bots="genius")
    assert code == 1 and "unknown bot" in text


def test_the_command_works_with_a_pipe() -> None:
    done = subprocess.run([sys.executable, "-m", "stops.apps.cli", "play", "boodle", "--players",
                           "3", "--seed", "3", "--deals", "1", "--bots", "random"],
                          input="1\n" * 300, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "The session is over" in done.stdout
    assert "\x1b[" not in done.stdout   # no colour codes when not a terminal

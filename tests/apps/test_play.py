"""`stops play` scripted through piped input."""

from __future__ import annotations

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import stops
from stops.apps.terminal import _ANSI, play_terminal
from stops.engine.rng import Rng


def run(variant: str, answers: str, **kw: object) -> tuple[int, str]:
    out = io.StringIO()
    code = play_terminal(stops.load_variant(variant), inp=io.StringIO(answers), out=out,
                         **kw)  # type: ignore[arg-type]
    return code, out.getvalue()


def test_a_whole_session_by_numbers() -> None:
    code, text = run("boodle", "1\n" * 500, players=3, seed=5, deals=2)
    assert code == 0
    assert text.count("=== Deal") == 2
    assert "The session is over (" in text and "Standings:" in text
    assert "Your hand:" in text and "Layout:" in text and "Chips:" in text
    assert "1) lead" in text
    assert "pays" in text  # payments are narrated


def test_every_game_plays_through_piped_input() -> None:
    for name in ("three-in-one", "pot-and-kitty", "boodle-free-stakes",
                 "boodle-spare-auction", "pope-joan", "spinado", "newmarket", "tripoley",
                 "nain-jaune", "comet"):
        code, text = run(name, "1\n" * 3000, players=4, seed=2, deals=1)
        assert code == 0, name
        assert "The session is over" in text, name
        # nothing is wider than an 80-column screen (Pope Joan's layout and turn-up were);
        # piped answers are not echoed, so a "> " prompt shares the next line: not counted
        wide = [line for line in text.splitlines()
                if len(_ANSI.sub("", re.sub(r"^(> )+", "", line))) > 80]
        assert not wide, (name, wide)


def test_bad_input_reprompts_with_a_reason_and_help_explains() -> None:
    code, text = run("boodle", "0\nzz\n9h\n?\nq\n", players=3, seed=1, deals=1)
    assert code == 0
    assert "choose 1 to" in text                    # 0 is out of range
    assert "Not understood" in text or "Not allowed" in text
    assert "Whoever holds the next card" in " ".join(text.split())  # ? explains the rule
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
    assert f"{'you' if deal.current_seat == 0 else 'seat'}" in text
    assert f"lead {first.card.symbol()}" in text


def test_several_cards_may_be_typed_in_any_order() -> None:
    # Comet, 3 players, seed 1: seat 1 leads first and may lead his two Queens together
    # (QC QH, in the engine's order). Typed the other way round, "qh qc", it is the same
    # decision, and he lays them in the order typed (F6); "lead qh qc" too.
    table = stops.Table("comet", seats=3, chips=50, seed=1, deals=1)
    deal = table.new_deal()
    seat = deal.current_seat
    assert seat == 1
    assert stops.Action.from_dict({"seat": 1, "action": "lead", "cards": ["QC", "QH"]}) in (
        deal.legal_actions())
    for typed in ("qh qc", "QH Q♣", "lead qh qc"):
        code, text = run("comet", f"{typed}\nq\n", players=3, seed=1, deals=1, seat=seat)
        assert code == 0
        assert "Not understood" not in text and "Not allowed" not in text, (typed, text)
        assert "you lead Q♥ Q♣" in text or "you lead Q♥, Q♣" in text, (typed, text)
    # cards that make no legal decision together are refused with the reason
    code, text = run("comet", "qh 3c\nq\n", players=3, seed=1, deals=1, seat=seat)
    assert "Not allowed" in text and "one rank" in text
    # where a turn lays one card, several are not understood, with the reason
    code, text = run("boodle", "2d 2h\nq\n", players=3, seed=1, deals=1)
    assert "Not understood: one card at a time" in text


def test_end_of_input_and_bad_arguments() -> None:
    code, text = run("boodle", "", players=3, seed=1)
    assert code == 0 and "Goodbye." in text
    code, text = run("boodle", "", players=2, seed=1)
    assert code == 1
    code, text = run("boodle", "", players=3, seed=1, bots="genius")
    assert code == 1 and "--bots: no bot named 'genius'; bots: random, heuristic" in text


def test_the_command_works_with_a_pipe() -> None:
    done = subprocess.run([sys.executable, "-m", "stops.apps.cli", "play", "boodle", "--players",
                           "3", "--seed", "3", "--deals", "1", "--bots", "random"],
                          input="1\n" * 300, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "The session is over" in done.stdout
    assert "\x1b[" not in done.stdout   # no colour codes when not a terminal


# -- issue 14, items 4-5: what a newcomer sees ---------------------------------------------

def _deal_blocks(text: str) -> list[str]:
    return text.split("=== Deal")[1:]


def test_hand_and_layout_at_the_start_of_every_deal_even_with_no_decision() -> None:
    # seat 0 has no decision at all in this Boodle deal: the hand must still be shown
    code, text = run("boodle", "", players=4, seed=3, deals=1)
    assert code == 0
    block = _deal_blocks(text)[0]
    assert "dealer: you" in block
    assert "Your hand: 5♠ Q♠   3♥ 9♥ A♥   3♦ 4♦   2♣ 3♣ 4♣" in block
    assert "Layout: A♥ 5 · K♣ 5 · Q♦ 5 · J♠ 5" in block
    assert block.index("Your hand:") < block.index("leads")
    assert "seat 0" not in text.split("\n", 1)[1]   # past the greeting, the player is "you"
    assert "you pay 8 to seat 2" in text


def test_hand_and_layout_before_every_decision() -> None:
    code, text = run("three-in-one", "1\n" * 400, players=4, seed=3, deals=2)
    assert code == 0
    prompts = text.split("> ")[:-1]
    assert len(prompts) > 3
    for before in prompts:
        tail = before[before.rfind("\nLayout: "):]
        assert "Your hand:" in tail and "Chips:" in tail, tail


def test_one_line_per_event_stakes_summed_and_runs_compact() -> None:
    code, text = run("three-in-one", "1\n" * 400, players=4, seed=3, deals=1)
    assert code == 0
    assert text.count("Stakes:") == 1
    assert "you and seats 1, 2, 3: 1 on each space (9 each)" in text
    assert "stakes 1 on" not in text
    # a forced run is one line: the lead, each holder's cards, and why it stopped
    assert "seat 1 leads 2♥ · you 3♥ · seat 1 4♥ · seat 3 5♥ · seat 1 6♥ — stop: the next" in text
    assert "*" not in text
    # one way of writing cards everywhere: no canonical "7S"-style text on the screen
    import re
    assert not re.search(r"\b[2-9TJQKA][CDHS]\b", text)
    # the poker prompt says what calling costs
    assert "calling costs 4" in text and "2) call 4" in text


def test_an_exchange_is_told_once() -> None:
    code, text = run("pot-and-kitty", "1\n" * 400, players=4, seed=2, deals=1)
    assert code == 0
    assert text.count("seat 1 pays 1 to kitty and exchanges their hand for the spare") == 1
    assert "takes the spare hand unseen" not in text
    code, text = run("pot-and-kitty", "1\n2\n" + "1\n" * 400, players=4, seed=2, deals=1)
    assert text.count("You take the spare hand") == 1


def test_ascii_fallback_when_the_terminal_cannot_show_suits() -> None:
    done = subprocess.run([sys.executable, "-m", "stops", "play", "boodle", "--players", "4",
                           "--seed", "3", "--deals", "1"], input=b"1\n" * 50,
                          capture_output=True, timeout=60,
                          env={**os.environ, "PYTHONIOENCODING": "cp1252"})
    assert done.returncode == 0, done.stderr.decode("cp1252")
    out = done.stdout.decode("cp1252")
    assert "Your hand: 5S QS   3H 9H AH   3D 4D   2C 3C 4C" in out
    assert "Layout: AH 5 | KC 5 | QD 5 | JS 5" in out
    assert "Traceback" not in done.stderr.decode("cp1252")


def test_enter_on_an_empty_line_does_not_crash() -> None:
    code, text = run("boodle", "\n\n   \nq\n", players=3, seed=1, deals=1)
    assert code == 0
    assert "Type a number from 1 to" in text
    assert text.rstrip().endswith("Goodbye.")
    # with one choice only, Enter takes it
    code, text = run("boodle", "\n" * 200, players=3, seed=1, deals=1)
    assert code == 0


def test_variant_text_cannot_drive_the_terminal(tmp_path: Path) -> None:
    from stops.apps.terminal import sanitise

    assert sanitise("a\x1b[2Jb\x1b]0;owned\x07c\x07d\te") == "abcd e"
    f = tmp_path / "evil.yaml"
    f.write_text("name: evil\nextends: boodle\ntitle: \"Evil\\e[2J\\e]0;pwned\\a game\"\n",
                 encoding="utf-8")
    _code, text = run(str(f), "", players=3, seed=1, deals=1)
    assert "\x1b" not in text and "\x07" not in text
    assert text.startswith("Evil game")


def test_the_screen_in_a_real_terminal(tmp_path: Path) -> None:
    """Drive ``stops play`` through tmux: type with send-keys, read with capture-pane."""
    tmux = shutil.which("tmux")
    if tmux is None:
        pytest.skip("tmux is not installed")
    name = f"stops-test-{os.getpid()}"
    sock = str(tmp_path / "tmux.sock")
    cmd = (f"{shlex.quote(sys.executable)} -m stops play three-in-one --players 4 --seed 3 "
           "--deals 1; sleep 30")

    def tm(*args: str) -> str:
        return subprocess.run([tmux, "-S", sock, *args], capture_output=True, text=True,
                              timeout=30).stdout

    def screen_until(text: str, timeout: float = 20.0) -> str:
        end = time.monotonic() + timeout
        shot = ""
        while time.monotonic() < end:
            shot = tm("capture-pane", "-p", "-t", name, "-S", "-200")
            if text in shot:
                return shot
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared:\n{shot}")

    env = {"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
    tm("-f", "/dev/null", "new-session", "-d", "-s", name, "-x", "100", "-y", "50",
       *[a for k, v in env.items() for a in ("-e", f"{k}={v}")], cmd)
    try:
        shot = screen_until("1) keep (your hand)")
        assert "dealer: you" in shot and "Your hand:" in shot and "Layout:" in shot
        tm("send-keys", "-t", name, "Enter")            # an empty line: a hint, no crash
        shot = screen_until("Type a number from 1 to 3")
        tm("send-keys", "-t", name, "1", "Enter")
        shot = screen_until("choose 5 cards for poker")
        tm("send-keys", "-t", name, "best", "Enter")
        shot = screen_until("calling costs")
        tm("send-keys", "-t", name, "q", "Enter")
        shot = screen_until("Goodbye.")
        assert "Traceback" not in shot
        assert "you select your poker hand" in shot
    finally:
        tm("kill-session", "-t", name)


def test_a_stake_space_may_be_typed_in_any_case_or_as_its_card() -> None:
    for typed in ("stake qc", "stake Q♣", "stake QC"):
        code, text = run("pot-and-kitty", f"{typed}\n" + "1\n" * 300, players=4, seed=5,
                         deals=1)
        assert code == 0
        assert "Not allowed" not in text.split("Stakes:", 1)[0]
        assert "you and seats" in text or "you: 1 on Q♣" in text
        assert "1 on Q♣" in text.split("Stakes:", 1)[1].split("\n", 1)[0]


def test_a_side_bet_is_typed_with_its_space_and_amount() -> None:
    # Royal Rummy's ace side-bet (G21): the dealer (seat 0, "you") types 'wager ace-h 2'
    # (the space in any case); the narration tells it; then the deal plays on by numbers.
    out = io.StringIO()
    code = play_terminal(stops.load_variant("royal-rummy", options={"ace_bet": True}),
                         players=4, seed=1, deals=1,
                         inp=io.StringIO("wager ace-h 2\n" + "1\n" * 3000), out=out)
    text = out.getvalue()
    assert code == 0
    assert "Your side-bet: wager 1 to 42 chips on one of ace-C, ace-D, ace-H, ace-S" in text
    assert "you wager 2 chips on ace-H" in text
    assert "The session is over" in text


def test_a_word_that_is_not_a_card_at_a_bet_is_not_explained_as_a_card() -> None:
    # At a bet (no choice lays a card) a stray word is answered with what may be typed there:
    # a number or the bet's words, not how a card is written; where a card may be laid, the
    # card's spelling is still the help.
    from stops.apps.terminal import _parse_answer

    table = stops.Table("three-in-one", seats=4, chips=50, seed=3, deals=1)
    deal = table.new_deal()
    rng = Rng(1)
    while not any(a.action in ("bet", "check", "call") for a in deal.legal_actions()):
        legal = deal.legal_actions()
        deal.apply(legal[rng.below(len(legal))])
    legal = deal.legal_actions()
    with pytest.raises(ValueError) as bet:
        _parse_answer("x", deal.current_seat, legal)
    assert "not a card" not in str(bet.value)
    assert str(bet.value).startswith("'x': type a number or a word such as ")
    while deal.phase != "play":
        legal = deal.legal_actions()
        deal.apply(legal[rng.below(len(legal))])
    with pytest.raises(ValueError) as lead:
        _parse_answer("x", deal.current_seat, deal.legal_actions())
    assert "not a card: 'x'" in str(lead.value)


def test_a_refusal_speaks_to_you_in_the_second_person() -> None:
    # Boodle, 5 players, seed 3: seat 0's first turn is a lead from J♠ 10♥ J♥ 4♦ 8♦ 9♦ K♣
    # (played in the terminal by hand). Typing 7♠, a card seat 0 does not hold, is refused
    # with the engine's note "seat 0 does not hold 7S", which the player reads about himself:
    # "you do not hold 7♠", not "you does not hold".
    code, text = run("boodle", "7s\nq\n", players=5, seed=3, deals=1)
    assert code == 0
    assert "Not allowed: you do not hold 7" in text, text
    assert "you does" not in text

"""The player at the terminal (issue 21): what ``stops play`` shows before a bet, in an
auction and in a rotation game, and ``--record`` / ``r`` / ``stops replay`` telling a deal as
play does. Each test fed the terminal as a person would (piped answers)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

import stops
from stops.apps.cli import main
from stops.apps.terminal import Narrator, Style, play_terminal


def run(variant: str, answers: str, **kw: object) -> str:
    out = io.StringIO()
    code = play_terminal(stops.load_variant(variant), inp=io.StringIO(answers), out=out,
                         **kw)  # type: ignore[arg-type]
    assert code == 0
    return out.getvalue()


def test_the_poker_hand_is_shown_before_betting() -> None:
    # Tripoley (the boxed game: the hands are made for the players), 4 players, seed 3:
    # seat 0 holds 5S QS 3H 9H AH 3D 4D 2C 3C 4C when the betting starts (his A♥ claimed,
    # none played). By hand, his best five are the three threes with the two fours: a full
    # house, threes over fours, and the screen shows it before he is asked to bet.
    text = run("tripoley", "1\n" * 300, players=4, seed=3, deals=1)
    shown = text.index("Your poker hand: 3♣ 3♦ 3♥ 4♣ 4♦ (full house, threes over fours)")
    assert shown < text.index("Your turn to bet")


def _tripoley_at_betting() -> stops.Deal:
    table = stops.Table("tripoley", seats=4, seed=3, deals=1)
    deal = table.new_deal()
    while deal.phase != "poker":
        deal.apply(deal.legal_actions()[0])
    return deal


def test_a_raise_is_told_by_how_much_and_to_what() -> None:
    # By hand: the first bettor bets 2 (the bet is 2); the next raises by 3, putting in
    # 2 + 3 = 5, so the bet is now 5: "raises by 3 to 5"; the third calls 5.
    deal = _tripoley_at_betting()
    first = deal.current_seat
    assert first is not None
    told = Narrator(deal, (first + 3) % 4, Style(), {})
    told.new_lines()
    deal.apply({"seat": first, "action": "bet", "chips": 2})
    second = deal.current_seat
    deal.apply({"seat": second, "action": "raise", "chips": 3})
    third = deal.current_seat
    deal.apply({"seat": third, "action": "call"})
    lines = told.new_lines()
    assert f"seat {first} bets 2" in lines
    assert f"seat {second} raises by 3 to 5" in lines
    assert f"seat {third} calls 5" in lines


def test_an_auction_sale_is_told_once_in_the_games_word_for_the_spare() -> None:
    # Tripoley with the dead-hand auction, seed 2, seated at 1: the dealer (seat 0) auctions
    # the dead hand; seat 2 bids 1 and the others pass, so seat 2 buys it for 1, paid to
    # the dealer: one line, not a payment, a sale and a swap.
    text = run("tripoley-colours", "1\n" * 300, players=4, seed=2, deals=1, seat=1)
    assert text.count("seat 2 buys the dead hand for 1, paid to seat 0") == 1
    assert "(buys the hand)" not in text
    assert "takes the dead hand unseen" not in text
    assert "seat 0 puts the dead hand up for auction" in text
    assert "spare" not in text                      # one name for it on the screen


def test_the_dealer_is_offered_the_dead_hand_by_its_name() -> None:
    text = run("tripoley-colours", "1\n" * 300, players=4, seed=2, deals=1)
    assert "1) auction (sell the unseen dead hand)" in text
    assert "spare" not in text


def test_a_bidder_is_asked_for_an_amount_not_the_dealers_paragraph() -> None:
    # Tripoley with the auction, seed 7, seated at 1: seat 1 is first to bid (the dealer's
    # left) with 191 chips. He sees one line asking for an amount, not 191 numbered bids
    # nor the dealer's options; typing 3 bids 3 (nobody outbids: he buys it for 3).
    text = run("tripoley-colours", "3\n" + "1\n" * 300, players=4, seed=7, deals=1, seat=1)
    prompt = text.index("Your bid for the dead hand, unseen: nobody has bid yet.")
    after = text[prompt:text.index("you bid 3")]
    assert "Type the amount to bid (1 to 191), or pass." in after
    assert not re.search(r"\d\) bid", after)
    assert "The dealer, without looking" not in text[:text.index("you bid 3")]
    assert "you buy the dead hand for 3, paid to seat 0" in text
    assert "? explains" in text   # the rule is still there for whoever asks


@pytest.mark.parametrize(("name", "players"), [("comet", 3), ("nain-jaune", 3)])
def test_a_rotation_turn_with_one_play_is_played_for_you(name: str, players: int) -> None:
    """No screen asks for a decision with one choice in a rotation game: those cards go in
    the run's line."""
    text = run(name, "1\n" * 500, players=players, seed=4, deals=1)
    screens = text.split("Your hand: ")[1:]
    asked = [s for s in screens if "\n   1) " in s]
    assert asked
    for s in asked:
        menu = s.split("\n   1) ", 1)[1].split("\n>", 1)[0]
        assert "2) " in menu, menu


def test_the_comets_forced_turns_are_told_in_one_line() -> None:
    # Comet, 3 players, seed 4, seat 0: after seat 1 leads 8♣ 8♦ and seat 2 plays 9♥, seat 0
    # chooses 10♣ (of 10♣, 10♥, both); seat 1 plays J♣, seat 2 Q♦, and seat 0's only card of
    # the next rank is K♠ (a king stops): played for him, in the same line.
    text = run("comet", "1\n" * 500, players=3, seed=4, deals=1)
    assert "... · you 10♣ · seat 1 J♣ · seat 2 Q♦ · you K♠ — stop: a king is the " \
        "highest" in text
    assert "1) play K♠\n" not in text
    # a turn passed over is part of the run, not a line after it
    assert "you lead 2♣ · seat 1 3♣ 3♦ 3♥ · seat 2 (no 4)" in text


def test_record_writes_the_session_and_replay_tells_it_as_play_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "session.yaml"
    text = run("boodle", "1\n" * 500, players=3, seed=5, deals=2, record=str(path))
    assert f"The session's record is in {path}" in " ".join(text.split())
    assert main(["replay", str(path), "--seat", "0"]) == 0
    told = capsys.readouterr().out
    play_lines = {line.strip() for line in text.splitlines() if line.startswith("  ")}
    # the same narration: stakes in one line, cards as symbols, "you"
    for line in ("=== Deal 1", "=== Deal 2", "Stakes: ", "Chips after the deal: you "):
        assert line in told
    stakes = next(line.strip() for line in told.splitlines() if "Stakes:" in line)
    assert stakes in play_lines
    assert main(["replay", str(path)]) == 0       # every hand, seats by number
    every = capsys.readouterr().out
    assert "Seat 1's hand: " in every and not re.search(r"\byou\b", every)
    assert main(["replay", str(path), "--events"]) == 0   # the raw log, as before
    raw = capsys.readouterr().out
    assert "Stacks: seat 0: " in raw and "===" not in raw


def test_record_as_json_by_the_extension(tmp_path: Path) -> None:
    path = tmp_path / "session.json"
    run("boodle", "1\n" * 500, players=3, seed=5, deals=1, record=str(path))
    import json

    data = json.loads(path.read_text())
    assert data["format"] == "stops.session/1" and len(data["deals"]) == 1


def test_r_saves_the_deal_as_it_stands_and_replay_partial_tells_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = run("boodle", "1\nr\nq\n", players=3, seed=5, deals=1, save_dir=tmp_path)
    saved = tmp_path / "stops-boodle-deal1.yaml"
    assert f"Saved this deal as it stands to {saved}" in " ".join(text.split())
    assert main(["replay", str(saved), "--partial", "--seat", "0"]) == 0
    told = capsys.readouterr().out
    assert "=== Deal 1" in told and "The record stops here: you to play." in told
    assert main(["replay", str(saved)]) == 1       # unfinished: an error without --partial


def test_a_wrapped_line_keeps_each_number_with_what_it_counts() -> None:
    """Tripoley's layout at 4 players, 4 chips on each of the nine spaces, is 82 columns after
    its indent: it is cut before "kitty 4", never between "kitty" and its chips."""
    from stops.apps.terminal import _wrap

    line = ("  Layout: A♥ 4 · K♥ 4 · Q♥ 4 · J♥ 4 · 10♥ 4 · K♥+Q♥ 4 · 8-9-10 4 · pot 4 · "
            "kitty 4")
    assert _wrap(line, "      ") == [
        "  Layout: A♥ 4 · K♥ 4 · Q♥ 4 · J♥ 4 · 10♥ 4 · K♥+Q♥ 4 · 8-9-10 4 · pot 4 ·",
        "      kitty 4"]
    assert _wrap("Stakes: you: 2 on each space (8)", "    ") == [
        "Stakes: you: 2 on each space (8)"]


def test_a_turn_passed_over_is_told_in_its_place_in_the_run() -> None:
    # Nain Jaune, 4 players, dealer seat 0: seat 1 leads first. Seat 1 holds the A♣ and no
    # two, seat 2 no two, seat 3 the 2♥ (and no three). Seat 1 leads A♣ and cannot go on
    # ("sans 2"); seat 2 is passed over (it holds no 2); seat 3 lays 2♥. Told to seat 0,
    # in the order it happened: the pass-over between the ace and the two, not after the
    # run (as it was told before session 14).
    from support import lead, ready

    table = stops.Table("nain-jaune", seats=4, seed=1)
    pack = [str(c) for c in stops.CARDS]
    plain = [c for c in pack if c[0] not in "23A"]
    seat1 = ["AC", *plain[:11]]
    seat2 = plain[11:23]
    seat3 = ["2H", *plain[23:34]]
    seat0 = [c for c in pack if c not in seat1 + seat2 + seat3][:12]
    deal = ready(table, [seat0, seat1, seat2, seat3], {})
    assert deal.dealer == 0 and deal.current_seat == 1
    told = Narrator(deal, 0, Style(), {})
    told.new_lines()
    lead(deal, 1, "AC")
    if deal.current_seat == 3:  # the 2♥ is a decision (a player who can play must)
        deal.apply(deal.legal_actions()[0])
    text = " ".join(told.new_lines())
    ace, passed, two = text.index("leads A"), text.index("seat 2 (no 2)"), text.index("seat 3 2")
    assert ace < passed < two, text
    assert "is passed over" not in text

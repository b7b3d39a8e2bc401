"""``?`` in ``stops play`` explains the decision on offer from the variant's own rules.

The answer is the registered text of the policy in force for the decision (with the variant's
parameters), never text written for another game: a game played in rotation (Nain Jaune, the
Comet) is told its turns, not "the holder of the next card of the suit must play it"; a poker
bet is told the variant's own limit, not "1 to 10"; nobody is told to choose poker cards where
the hands are made with no decision.
"""

from __future__ import annotations

import io
import random
from typing import Any

import pytest

import stops
from stops.apps.terminal import _why, play_terminal
from stops.rules.loader import builtin_names
from stops.rules.registry import default_registry
from support import lead, ready

OLD_TEXT = ("holder of the next card", "next card of the suit")
"""What ``?`` told every game before, whatever it played."""


def own(v: stops.Variant, slot: str) -> str:
    """The text the variant's policy in ``slot`` registered, as ``stops rules`` prints it."""
    return v.phases[0].policy_text(slot)


def flat(text: str) -> str:
    """Text with its line breaks and runs of spaces as single spaces (the screen wraps)."""
    return " ".join(text.split())


def kind(deal: stops.Deal) -> str:
    """The kind of decision on offer: what ``?`` has to explain."""
    verbs = set(deal.legal_actions().verbs)
    if deal.phase == "play":
        if "lead" in verbs:
            return "first lead" if not deal.plays else "lead"
        return "follow" if "follow" in verbs else "play"
    if deal.phase == "poker":
        return "select" if "select" in verbs else "bet"
    if deal.phase == "spare_hand":
        return "bid" if verbs <= {"bid", "pass"} else "spare"
    return deal.phase


def helps(v: stops.Variant, seeds: int = 12) -> dict[str, set[str]]:
    """Every answer ``?`` gives, by kind of decision, over a few sessions of random play."""
    found: dict[str, set[str]] = {}
    lo, hi = v.players
    for seed in range(seeds):
        table = stops.Table(v, seats=min(hi, max(lo, 3 + seed % 3)), seed=seed)
        rng = random.Random(seed)
        for _ in range(2):
            if table.is_over:
                break
            deal = table.new_deal()
            while not deal.is_terminal:
                found.setdefault(kind(deal), set()).add(_why(deal))
                legal = deal.legal_actions()
                deal.apply(legal[rng.randrange(len(legal))])
    return found


def expected_kinds(v: stops.Variant) -> set[str]:
    """The decisions a variant's rules give its players (so that none goes untested)."""
    kinds = {"first lead", "lead"}
    if v.policy("turn_order").name != "holder":
        kinds.add("play")
    if v.policy("companion").name != "none":
        kinds.add("follow")
    if "poker" in v.flow:
        kinds.add("bet")
        if v.settings("poker").selection != "auto":
            kinds.add("select")
    if v.rules.spare_hand and v.policy("spare_protocol").name != "none":
        kinds.add("spare")
    if v.policy("stake_rule").name in ("free", "choose_one_card", "choose_one_horse"):
        kinds.add("stake")
    return kinds


@pytest.mark.parametrize("name", builtin_names())
def test_every_decision_is_explained_by_the_variants_own_rules(name: str) -> None:
    v = stops.load_variant(name)
    found = helps(v)
    assert expected_kinds(v) <= set(found), (name, sorted(found))
    holder = v.policy("turn_order").name == "holder"
    others = [spec.text(None) for (slot, n), spec in default_registry().policies.items()
              if slot == "turn_order" and n != v.policy("turn_order").name
              and spec.text is not None and spec.params is None]
    for k, answers in found.items():
        for text in answers:
            where = (name, k, text)
            assert text and text != "Choose one of the numbered options.", where
            for old in OLD_TEXT:
                assert old not in text, where
            if k in ("first lead", "lead", "play", "follow"):
                # how the sequence goes on: this variant's successor and turns, nobody else's
                assert own(v, "successor") in text, where
                assert own(v, "turn_order") in text, where
                assert not any(o in text for o in others), where
                if not holder:
                    assert "Whoever holds the next card" not in text, where
            if k == "first lead":
                assert own(v, "first_leader") in text, where
            if k == "lead":
                assert own(v, "after_stop") in text, where
            if k == "play" and v.policy("wild_card").name != "none":
                assert own(v, "wild_card") in text, where
            if k == "follow":
                assert own(v, "companion") in text, where
            if k in ("spare", "bid"):
                assert v.phases[0].policy_text("spare_protocol") in text, where
            if k == "stake":
                assert own(v, "stake_rule") in text, where
            if k != "bet":
                assert "check or bet" not in text, where
            if k == "select":
                poker = v.settings("poker")
                assert f"{poker.hand_size}" in text and "check or bet" not in text, where
            if k == "bet":
                poker = v.settings("poker")
                assert "check or bet" in text, where
                assert "choose" not in text.lower().replace("nobody chooses", ""), where
                if poker.betting == "limit":
                    assert f"1 to {poker.bet_limit} chips" in text, where
                else:  # no limit but the stacks: no made-up limit
                    assert "1 to " not in text, where


def test_the_betting_help_names_the_variants_own_limit() -> None:
    # Three-in-One with a limit of 7: every bet and raise is 1 to 7, so the help says so
    v = stops.load_variant("three-in-one", {"bet_limit": 7})
    bets = helps(v, seeds=4)["bet"]
    assert all("1 to 7 chips" in t and "1 to 10" not in t for t in bets)
    # Tripoley bets with no limit but the stacks: no "1 to 10", no poker cards to choose
    trip = helps(stops.load_variant("tripoley"), seeds=4)
    assert "select" not in trip
    assert all("1 to 10" not in t and "Choose 5" not in t for t in trip["bet"])


def test_no_selection_help_where_the_hands_are_made_for_the_players() -> None:
    v = stops.load_variant("three-in-one", {"poker_selection": "auto"})
    found = helps(v, seeds=4)
    assert "select" not in found
    assert all("choose" not in t.lower().replace("nobody chooses", "") and "selects" not in t
               for t in found["bet"])


def test_a_rotation_turn_is_told_its_turns_in_a_stacked_nain_jaune_deal() -> None:
    # 3 players, dealer seat 0: the first lead is the dealer's left, seat 1 (next_in_turn).
    # Seat 1 holds the A♣ and no two; seat 2 holds the 2♥ and no other two. Seat 1 leads
    # A♣; the two is needed; seat 1 holds none ("sans 2"), so the turn passes clockwise to
    # seat 2, whose only decision is to play 2♥ (a player who can play must). ? at that
    # decision is the rotation's rule, not a forced run.
    v = stops.load_variant("nain-jaune")
    table = stops.Table(v, seats=3, seed=1)
    pack = [str(c) for c in stops.CARDS]
    twos = [c for c in pack if c[0] == "2"]
    seat1 = ["AC", *[c for c in pack if c[0] not in "2A"][:14]]
    seat2 = ["2H", *[c for c in pack if c not in seat1 and c[0] != "2"][:14]]
    seat0 = [c for c in pack if c not in seat1 + seat2][:15]
    assert not set(twos) & set(seat1)
    deal = ready(table, [seat0, seat1, seat2], {})
    assert deal.dealer == 0 and deal.current_seat == 1
    lead(deal, 1, "AC")
    assert deal.current_seat == 2
    assert [a.to_dict()["card"] for a in deal.legal_actions()] == ["2H"]
    text = _why(deal)
    assert text == own(v, "successor") + " " + own(v, "turn_order")
    assert "Whoever holds the next card" not in text
    assert "When the turn comes back to the player who laid the last card" in text


def test_a_lead_after_a_stop_names_the_suit_and_the_variants_lead_rule() -> None:
    # Boodle, 3 players and a spare hand of 13, dealer seat 0: seat 1 leads first. Seat 1
    # holds 2♠ 3♠ 4♠ and the 5♠ lies in the spare hand: 2♠ is led, 3♠ and 4♠ follow from
    # seat 1 itself, and 4♠ is a stop (its successor is in the spare hand). The player of
    # the stop, seat 1, leads again, under Boodle's any_suit rule.
    v = stops.load_variant("boodle")
    table = stops.Table(v, seats=3, seed=1)
    pack = [str(c) for c in stops.CARDS]
    seat1 = ["2S", "3S", "4S", *[c for c in pack if c[1] in "CH"][:10]]
    rest = [c for c in pack if c not in seat1 and c != "5S"]
    seat0, seat2 = rest[:13], rest[13:26]
    deal = ready(table, [seat0, seat1, seat2], {})
    assert deal.current_seat == 1
    first = _why(deal)
    assert first.startswith(own(v, "first_leader"))
    lead(deal, 1, "2S")
    assert deal.current_seat == 1 and deal.plays and kind(deal) == "lead"
    text = _why(deal)
    assert text.startswith("The last sequence stopped in spades. " + own(v, "after_stop"))
    assert "Whoever holds the next card must play it at once" in text


def _screen(name: str, **kw: Any) -> str:
    out = io.StringIO()
    play_terminal(stops.load_variant(name), players=kw.pop("players", 4),
                  seed=kw.pop("seed", 2), deals=1,
                  inp=io.StringIO("?\n1\n" * 1500), out=out, **kw)
    return flat(out.getvalue())


@pytest.mark.parametrize("name", ["nain-jaune", "comet", "tripoley", "three-in-one",
                                  "boodle-spare-auction", "pope-joan", "spinado"])
def test_question_mark_on_the_screen(name: str) -> None:
    """Played through the terminal, ``?`` at every decision prints the variant's own rule."""
    v = stops.load_variant(name)
    # a turn with one card to play is played for you (no decision, no ``?``): the Comet's
    # seed 2 gives seat 0 no turn with a choice, seed 3 gives two
    text = _screen(name, players=3 if name == "nain-jaune" else 4,
                   seed=3 if name == "comet" else 2)
    assert "The session is over" in text
    assert flat(own(v, "turn_order")) in text
    for old in OLD_TEXT:
        assert old not in text, name
    if v.policy("turn_order").name != "holder":
        assert "Whoever holds the next card" not in text
    if "Your turn: the " in text and v.rules.spare_hand:  # a spare-hand decision
        assert f"Your turn: the {v.spare_name}." in text
    if "poker" in v.flow:
        poker = v.settings("poker")
        assert "check or bet" in text
        assert ("1 to 10 chips" in text) == (poker.betting == "limit")

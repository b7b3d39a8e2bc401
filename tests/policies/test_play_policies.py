"""Issue 11, the play itself as policies: rank order, successors, fixed stops, turns in
rotation, the cost of a failed lead, and claims that stop a sequence.

Every deal is stacked and derived by hand before running. Unless a test says otherwise the
table is Boodle's (layout AH KC QD JS; the dealer stakes 2 on each, the others 1, so each
space holds 4 chips), 3 seats of 50 chips, dealer 0: stacks after stakes 42, 46, 46, and
seat 1 (the dealer's left) leads first. Every card not in a hand is in the spare hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stops
from stops.engine.eventkind import EventKind
from stops.phases.rotation import WildCardPolicy
from stops.policies.claims import ClaimPolicy
from support import lead, legal, plays, settle_spare, spare_of, stake_all

ROTATION = str(Path(__file__).parents[1] / "data" / "rotation.yaml")


def boodle(hands: list[list[str]], variant: Any = "boodle", **options: Any) -> stops.Deal:
    v = stops.load_variant(variant, options=options) if isinstance(variant, str) else variant
    t = stops.Table(v, seats=3, chips=50, seed=1, dealer=0)
    return t.new_deal(hands=hands, spare=spare_of(hands))


def nonzero(layout: dict[str, int]) -> dict[str, int]:
    return {k: v for k, v in layout.items() if v}


def play(deal: stops.Deal, seat: int, card: str) -> None:
    deal.apply({"seat": seat, "action": "play", "card": card})


# -- rank order: ace low ----------------------------------------------------------------------

def test_ace_low_the_ace_is_the_lowest_card_and_is_followed_by_the_two() -> None:
    hands = [["QH", "4C"], ["AS", "3S"], ["2S", "KH"]]
    # ace high: seat 1's lowest spade is the 3S; ace low: the AS
    assert legal(boodle(hands)) == [{"seat": 1, "action": "lead", "card": "3S"}]
    d = boodle(hands, ace="low")
    assert legal(d) == [{"seat": 1, "action": "lead", "card": "AS"}]
    # AS (s1) -> 2S (s2, forced) -> 3S (s1, forced): seat 1 is out after three cards.
    # Per card: s2 holds KH (pays 1), s0 holds QH 4C (pays 2).
    lead(d, 1, "AS")
    assert plays(d) == [(1, "AS"), (2, "2S"), (1, "3S")]
    assert d.winner == 1 and d.stacks == (40, 49, 45)
    assert nonzero(d.layout) == {"AH": 4, "KC": 4, "QD": 4, "JS": 4}


def test_ace_low_every_king_is_a_stop() -> None:
    # s1 leads QD (wins the QD boodle: 4), s2's KD follows and stops (the top of the suit,
    # though the AD... is irrelevant: nothing comes after a king). s2 leads 9H: TH is in the
    # spare, and s2's hand is empty: out. s1 pays 1 (5C), s0 pays 2 (2C, 8H).
    d = boodle([["2C", "8H"], ["QD", "5C"], ["KD", "9H"]], ace="low")
    lead(d, 1, "QD")
    assert d.current_seat == 2
    stops_ = [e for e in d.events if e.kind is EventKind.STOP]
    assert stops_[-1].card == stops.parse_card("KD") and "king is the top" in stops_[-1].note
    lead(d, 2, "9H")
    assert plays(d) == [(1, "QD"), (2, "KD"), (2, "9H")]
    assert d.stacks == (40, 49, 49)
    assert nonzero(d.layout) == {"AH": 4, "KC": 4, "JS": 4}


def test_ace_high_the_ace_stops_and_the_king_does_not() -> None:
    # the same cards, ace high: KD is followed by AD (in the spare): a stop either way, but
    # the reason is the spare hand, not the top of the suit
    d = boodle([["2C", "8H"], ["QD", "5C"], ["KD", "9H"]])
    lead(d, 1, "QD")
    assert [e.note for e in d.events if e.kind is EventKind.STOP][-1] == \
        "the next card is in the spare hand"


# -- fixed stop cards -------------------------------------------------------------------------

def test_a_stop_card_ends_the_sequence_though_its_successor_is_held() -> None:
    # stop_cards [5C]: s1 4C, s2 5C (forced) stops although s1 holds 6C; s2 leads 9S (TS in
    # the spare) and is out. s1 pays 1 (6C), s0 pays 2 (7C, 2D).
    d = boodle([["7C", "2D"], ["4C", "6C"], ["5C", "9S"]], stop_cards=["5C"])
    lead(d, 1, "4C")
    assert d.current_seat == 2
    lead(d, 2, "9S")
    assert plays(d) == [(1, "4C"), (2, "5C"), (2, "9S")]
    assert d.stacks == (40, 45, 49)
    without = boodle([["7C", "2D"], ["4C", "6C"], ["5C", "9S"]])
    lead(without, 1, "4C")  # 4C 5C 6C run on, and the 6C is s1's last card: out at once
    assert plays(without) == [(1, "4C"), (2, "5C"), (1, "6C")] and without.winner == 1


# -- a claim that makes a card a stop ---------------------------------------------------------

class StopOnFiveOfClubs(ClaimPolicy):
    """A test claim: the 5C pays nothing but ends the sequence (like Peel's claiming card)."""

    def watch(self, variant: Any, params: Any, triggers: Any, every: Any) -> None:
        triggers.setdefault(int(stops.parse_card("5C")), []).append(
            lambda deal, seat, card: "the five of clubs stops here")


def test_a_claim_handler_can_make_its_card_a_stop() -> None:
    reg = stops.default_registry().copy()
    reg.register_policy("pay_collection", "stop_5c")(StopOnFiveOfClubs())
    v = stops.load_variant("boodle", options={"pay_collection": "stop_5c"}, registry=reg)
    d = boodle([["7C", "2D"], ["4C", "6C"], ["5C", "9S"]], variant=v)
    lead(d, 1, "4C")
    assert [e.note for e in d.events if e.kind is EventKind.STOP] == [
        "the five of clubs stops here"]
    assert d.current_seat == 2


# -- turns in rotation (rank only, ace low, any card led) ---------------------------------------

HANDS = [["3C", "4D", "KS"], ["AH", "2C", "5S", "9S"], ["2D", "3H"]]


def test_rotation_every_card_is_a_decision_and_passes_are_events() -> None:
    # s1 leads AH (the AH boodle: 4 chips) and, holding a 2, must go on: 2C. No 3 in s1's
    # hand: the turn passes to s2, who plays 3H; no 4 (2D): s0 plays 4D; no 5: s1 plays 5S.
    # No 6 anywhere: s2 and s0 are passed over, the turn is back with s1, who laid the last
    # card and leads anew: 9S, his last card. Out: s2 pays 1 (2D), s0 pays 2 (3C, KS).
    d = boodle(HANDS, variant=ROTATION)
    assert legal(d) == [{"seat": 1, "action": "lead", "card": c}
                        for c in ("2C", "AH", "5S", "9S")]
    lead(d, 1, "AH")
    assert legal(d) == [{"seat": 1, "action": "play", "card": "2C"}]
    play(d, 1, "2C")
    assert legal(d) == [{"seat": 2, "action": "play", "card": "3H"}]
    play(d, 2, "3H")
    assert d.current_seat == 0
    play(d, 0, "4D")
    play(d, 1, "5S")
    passed = [(e.seat, e.note) for e in d.events if e.kind is EventKind.PASSED_OVER]
    assert passed == [(2, "holds no 6"), (0, "holds no 6")]
    assert legal(d) == [{"seat": 1, "action": "lead", "card": "9S"}]
    lead(d, 1, "9S")
    assert plays(d) == [(1, "AH"), (1, "2C"), (2, "3H"), (0, "4D"), (1, "5S"), (1, "9S")]
    assert d.winner == 1 and d.stacks == (40, 53, 45)
    assert nonzero(d.layout) == {"KC": 4, "QD": 4, "JS": 4}


def test_rotation_refusals_say_why_and_change_nothing() -> None:
    d = boodle(HANDS, variant=ROTATION)
    lead(d, 1, "AH")
    play(d, 1, "2C")  # s2 must now play its 3
    before = d.record()
    for bad, code in (({"action": "pass"}, "no_voluntary_stop"),
                      ({"action": "lead", "card": "3H"}, "must_continue"),
                      ({"action": "play", "card": "2D"}, "wrong_rank"),
                      ({"action": "play", "card": "4D"}, "not_in_hand")):
        with pytest.raises(stops.IllegalAction) as e:
            d.apply({"seat": 2, **bad})
        assert e.value.code == code
        assert d.record() == before


def test_rotation_with_a_voluntary_stop() -> None:
    # voluntary_stop: s2 may pass instead of playing 3H; s0 then plays 3C; no 4... s0 holds
    # 4D: he goes on (a run); no 5 (KS): s1 plays 5S, and so on as before but s2 keeps 3H.
    d = boodle(HANDS, variant=ROTATION, voluntary_stop=True)
    lead(d, 1, "AH")
    play(d, 1, "2C")
    assert legal(d) == [{"seat": 2, "action": "play", "card": "3H"},
                        {"seat": 2, "action": "pass"}]
    d.apply({"seat": 2, "action": "pass"})
    assert [e.note for e in d.events if e.kind is EventKind.PASSED] == ["sans 3"]
    assert legal(d)[0] == {"seat": 0, "action": "play", "card": "3C"}
    play(d, 0, "3C")
    play(d, 0, "4D")
    assert d.current_seat == 1
    play(d, 1, "5S")
    lead(d, 1, "9S")
    # out: s2 pays 2 (2D, 3H), s0 pays 1 (KS): 42 - 1, 46 + 4 + 3, 46 - 2
    assert d.winner == 1 and d.stacks == (41, 53, 44)


def test_rotation_anticlockwise_and_a_skipped_rank() -> None:
    # anticlockwise: after s1's 2C the turn goes to s0 (seat 0 is s1's right), who holds
    # 3C; then the 4: s0 holds 4D and goes on; then 5: s0 none; s2 (right of s0) none;
    # s1 holds 5S. next_rank_up: after 5S nobody holds a 6; back at s1 the 6 is skipped, the
    # 7 is needed: nobody; ... up to the king: s0 holds KS. s0 has nothing left: out.
    # s1 (9S) pays 1, s2 (2D 3H) pays 2.
    d = boodle(HANDS, variant=ROTATION, direction="anticlockwise", dead_gap="next_rank_up")
    lead(d, 1, "AH")
    play(d, 1, "2C")
    assert d.current_seat == 0
    play(d, 0, "3C")
    play(d, 0, "4D")
    play(d, 1, "5S")
    # 6, 7 and 8 are skipped; s1's 9S is the next rank anyone holds
    assert legal(d) == [{"seat": 1, "action": "play", "card": "9S"}]
    play(d, 1, "9S")
    assert d.winner == 1 and d.stacks == (41, 53, 44)


# -- the cost of a failed lead ------------------------------------------------------------------

def _pot_and_kitty(**options: Any) -> stops.Deal:
    # pot-and-kitty, 3 seats of 20, dealer 0: everyone stakes 1 on KH, 1 pot, 1 kitty (17
    # each; KH 3, pot 3, kitty 3). s1 opens 2H, s2's 3H follows, 4H is in the spare: a stop.
    # s2 must switch to black, and nobody holds a black card.
    t = stops.Table("pot-and-kitty", seats=3, chips=20, seed=1, dealer=0, options=options)
    hands = [["QD", "5H"], ["2H", "9D"], ["3H", "JD"]]
    d = t.new_deal(hands=hands, spare=spare_of(hands))
    stake_all(d, {1: "KH", 2: "KH", 0: "KH"})
    settle_spare(d)
    lead(d, 1, "2H")
    return d


def test_a_failed_lead_pays_into_the_kitty_and_a_full_round_flips_the_colour() -> None:
    # each of s2, s0, s1 pays 1 into the kitty (16 each, kitty 6); then the colour flips and
    # s2, who had the duty first, must lead red: his lowest red card is the JD.
    d = _pot_and_kitty(lead_pass_penalty=1, colour_flip=True)
    passed = [e.seat for e in d.events if e.kind is EventKind.LEAD_PASSED]
    assert passed == [2, 0, 1]
    assert d.stacks == (16, 16, 16) and d.layout["kitty"] == 6
    assert legal(d) == [{"seat": 2, "action": "lead", "card": "JD"}]


def test_without_a_flip_a_full_round_of_failed_leads_is_a_block() -> None:
    d = _pot_and_kitty(lead_pass_penalty=1)
    assert d.outcome == "blocked" and d.is_terminal
    assert d.layout["kitty"] == 6
    free = _pot_and_kitty()
    assert free.outcome == "blocked" and free.layout["kitty"] == 3


# -- a companion card: a decision inside a forced run, a card laid out of sequence ----------------

class AceOfDiamondsCompanion:
    """A test companion (Spinado's mechanism, without its bonuses): the AD may go down
    straight after any card its holder plays, which then stops the sequence."""

    def card(self, params: Any) -> int:
        return int(stops.parse_card("AD"))

    def flag(self, params: Any) -> str:
        return "with_ad"

    def attach(self, deal: stops.Deal, seat: int, card: int, params: Any, lay: Any) -> str:
        lay(deal, seat, self.card(params), EventKind.PLAYED)
        return "the ace of diamonds went down with it"


@pytest.fixture(autouse=True, scope="module")
def _forget_test_flag() -> Iterator[None]:
    """The flag these tests register is global (a decision's fields are): take it away after
    them, so that later tests (the generated reference) see only the library's own flags."""
    yield
    from stops.engine.actions import FLAGS

    FLAGS.pop("with_ad", None)


def _companion_variant() -> stops.Variant:
    from stops.engine.actions import register_flag

    register_flag("with_ad", ("lead", "follow"))
    reg = stops.default_registry().copy()
    reg.register_policy("companion", "ad_test")(AceOfDiamondsCompanion())
    return stops.load_variant("boodle", options={"companion": "ad_test"}, registry=reg)


COMPANION_HANDS = [["7C", "2D"], ["4C", "6C", "AD"], ["5C", "9S"]]


def test_the_companion_holder_decides_each_card_due_from_him() -> None:
    # s1 holds the AD: his leads are offered with it too (not the AD itself). He leads 4C;
    # s2's 5C is forced (s2 has no AD); the 6C is due from s1, who holds the AD: a decision.
    # He follows with the AD: 6C, AD, and his hand is empty: out. s2 pays 1, s0 pays 2.
    v = _companion_variant()
    d = boodle(COMPANION_HANDS, variant=v)
    assert legal(d) == [{"seat": 1, "action": "lead", "card": "4C"},
                        {"seat": 1, "action": "lead", "card": "AD"},
                        {"seat": 1, "action": "lead", "card": "4C", "with_ad": True}]
    lead(d, 1, "4C")
    assert legal(d) == [{"seat": 1, "action": "follow", "card": "6C"},
                        {"seat": 1, "action": "follow", "card": "6C", "with_ad": True}]
    before = d.record()
    for bad in ({"action": "lead", "card": "6C"}, {"action": "follow", "card": "AD"}):
        with pytest.raises(stops.IllegalAction) as e:
            d.apply({"seat": 1, **bad})
        assert e.value.code == "must_follow" and d.record() == before
    d.apply({"seat": 1, "action": "follow", "card": "6C", "with_ad": True})
    assert plays(d) == [(1, "4C"), (2, "5C"), (1, "6C"), (1, "AD")]
    assert d.winner == 1 and d.stacks == (40, 49, 45)
    assert d.record()["actions"][-1] == {"seat": 1, "action": "follow", "card": "6C",
                                         "with_ad": True}
    assert stops.replay(d.record(), v).plays == d.plays  # the record replays


def test_following_without_the_companion_lets_the_run_go_on() -> None:
    # s1 follows 6C alone: s0's 7C is forced (8C is spare: a stop), s0 leads 2D (3D spare)
    # and is out. s1 pays 1 (AD), s2 pays 1 (9S): 42 + 2, 46 - 1, 46 - 1.
    d = boodle(COMPANION_HANDS, variant=_companion_variant())
    lead(d, 1, "4C")
    d.apply({"seat": 1, "action": "follow", "card": "6C"})
    lead(d, 0, "2D")
    assert plays(d) == [(1, "4C"), (2, "5C"), (1, "6C"), (0, "7C"), (0, "2D")]
    assert d.winner == 0 and d.stacks == (44, 45, 45)


def test_a_companion_flag_without_the_card_is_refused() -> None:
    d = boodle([["7C", "2D"], ["4C", "6C"], ["5C", "9S", "AD"]], variant=_companion_variant())
    with pytest.raises(stops.IllegalAction) as e:
        d.apply({"seat": 1, "action": "lead", "card": "4C", "with_ad": True})
    assert e.value.code == "no_companion"


# -- a wild card in rotation, several cards of one rank per turn ----------------------------------

class NineOfDiamondsWild(WildCardPolicy):
    """A test wild card (the Comet's mechanism): the 9D stands for any rank, always stops,
    and each other player pays its player 2 chips. It inherits ``on_turn`` (a turn pays
    nothing more) from the base class, as a plug-in does."""

    def card(self, params: Any) -> int:
        return int(stops.parse_card("9D"))

    def on_lay(self, deal: stops.Deal, seat: int, as_rank: Any, params: Any) -> str:
        for s in deal.order(seat, include_self=False):
            deal.pay(s, seat, 2, "the wild card")
        return "the wild card ends the sequence"


def _wild_variant() -> stops.Variant:
    reg = stops.default_registry().copy()
    reg.register_policy("wild_card", "nine_test")(NineOfDiamondsWild())
    return stops.load_variant(ROTATION, registry=reg, options={
        "wild_card": "nine_test", "cards_per_turn": "same_rank", "turn_length": "one_rank"})


def test_a_wild_card_stands_for_the_needed_rank_and_stops() -> None:
    # s1 leads both 3s; one rank per turn: s2 must play its 4H; s0 has no 5 (passed over);
    # s1 has no natural 5 but the wild 9D: he may lay it as a 5 or pass. He lays it: s2 and
    # s0 pay him 2 each, and it was his last card: out. Per card: s2 1 (5C), s0 2 (4C 6D).
    d = boodle([["4C", "6D"], ["3C", "3S", "9D"], ["4H", "5C"]], variant=_wild_variant())
    offered = legal(d)
    assert {"seat": 1, "action": "lead", "cards": ["3C", "3S"]} in offered
    assert {"seat": 1, "action": "lead", "cards": ["3C", "3S", "9D"], "as_rank": "3"} in offered
    assert {"seat": 1, "action": "lead", "cards": ["9D"], "as_rank": "K"} in offered
    before = d.record()
    for bad, code in (({"cards": ["3C", "9D"], "as_rank": "4"}, "wrong_rank"),
                      ({"cards": ["9D"], "as_rank": "Z"}, "malformed_action"),
                      ({"cards": ["3C", "9D"]}, "name_the_rank")):  # the 9D, for what?
        with pytest.raises(stops.IllegalAction) as e:
            d.apply({"seat": 1, "action": "lead", **bad})
        assert e.value.code in (code, "not_wild"), e.value.code
        assert d.record() == before
    d.apply({"seat": 1, "action": "lead", "cards": ["3C", "3S"]})
    assert legal(d) == [{"seat": 2, "action": "play", "cards": ["4H"]}]
    d.apply({"seat": 2, "action": "play", "cards": ["4H"]})
    assert legal(d) == [{"seat": 1, "action": "play", "cards": ["9D"], "as_rank": "5"},
                        {"seat": 1, "action": "pass"}]
    with pytest.raises(stops.IllegalAction) as e:
        d.apply({"seat": 1, "action": "play", "cards": ["9D"], "as_rank": "6"})
    assert e.value.code == "wrong_rank"
    d.apply({"seat": 1, "action": "play", "cards": ["9D"], "as_rank": "5"})
    assert plays(d) == [(1, "3C"), (1, "3S"), (2, "4H"), (1, "9D")]
    assert d.winner == 1 and d.stacks == (38, 53, 43)


# -- deal shapes -----------------------------------------------------------------------------------

def test_equal_plus_dead_gives_everyone_the_same_and_the_rest_to_the_spare() -> None:
    # 51 cards (8D out), 4 players: 51 // 5 = 10 each, 11 in the spare; the last card dealt
    # goes to the spare (a turn-up would be read from it)
    from stops.rules.variant import variant_from_mapping

    v = stops.load_variant("boodle", options={"deal_shape": "equal_plus_dead"})

    w = variant_from_mapping({"name": "w", "extends": "boodle", "deck": {"remove": ["8D"]},
                              "rules": {"deal_shape": "equal_plus_dead"}})
    assert w.deal_shape is not None and v.deal_shape is not None
    assert w.deal_shape.sizes(4) == [10, 10, 10, 10, 11] and v.deal_shape.sizes(5) == [8] * 5 + [12]
    for seed in range(5):
        d = stops.Table(w, seats=4, seed=seed).new_deal()
        assert [len(h) for h in d.dealt_hands] == [10, 10, 10, 10]
        assert len(d.dealt_spare) == 11 and d.last_dealt in d.dealt_spare
    # stacked hands must have those sizes
    hands = [["2C"], ["3C"], ["4C"], ["5C"]]
    spare = [c for c in spare_of(hands) if c != "8D"]
    with pytest.raises(stops.TableError, match="holds 1 cards; this deal gives each player 10"):
        stops.Table(w, seats=4, seed=1).new_deal(hands=hands, spare=spare)


def test_a_table_of_hand_sizes() -> None:
    sizes = {3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}
    v = stops.load_variant("boodle", options={"deal_shape": "table", "hand_sizes": sizes})
    for n, k in sizes.items():
        d = stops.Table(v, seats=n, seed=n).new_deal()
        assert [len(h) for h in d.dealt_hands] == [k] * n
        assert len(d.dealt_spare) == 52 - n * k
    with pytest.raises(stops.VariantError, match="needs hand_sizes for 8 players"):
        stops.load_variant("boodle", options={"deal_shape": "table",
                                              "hand_sizes": {3: 15, 4: 12, 5: 9, 6: 8, 7: 7}})

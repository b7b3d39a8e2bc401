"""A phase brings what the programs show of it (issue 20, :mod:`stops.phases.aids`).

A plug-in phase written here, *the ante*, is added to the pot-and-kitty game with no edit of
the apps: after the spare hand, each player in turn from the dealer's left either chips in
one chip for the pot (``chip_in``) or sits tight (``sit_tight``). It declares, besides its
verbs and events, its aids: how ``stops play`` tells its events ("seat 1 chips in 1 for the
pot"), asks for its decision, shows its status and writes its menu; how the heuristic bot
plays it (chip in holding an ace); what ``stops simulate`` counts of it; what the PettingZoo
environment observes of it. The tests below see each of them used by the terminal, the bot,
the simulator and the environment.

The stacked deal (three players, dealer 0, stakes on KH / QC / JD, the spare hand unused):

* seat 0: every spade (A♠ among them); seat 1: every heart (A♥); seat 2: the clubs but the
  ace, and 2♦ (no ace);
* the ante goes round from the dealer's left: seat 1, seat 2, seat 0. By hand, the bot's
  rule (chip in with an ace) makes seat 1 chip in, seat 2 sit tight, seat 0 chip in;
* the pot: the stake phase puts one chip from each seat on it (3), seat 1's chip makes it 4
  when seat 2 decides, and seat 0's makes it 5 when play begins.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, ClassVar, Final

import pytest

import stops
from stops.apps.simulate import simulate
from stops.apps.terminal import Narrator, Style, _ask, replay_text
from stops.bots import HeuristicBot, play_deal
from stops.engine import vocabulary as vocab
from stops.engine.actions import simple
from stops.engine.events import event
from stops.engine.legal import LegalActions, LegalSet
from stops.engine.vocabulary import EVENT_TYPES, VERBS, EventType, Verb
from stops.phases.aids import Feature, PhaseAids, PhaseTally, Prompt, Teller
from stops.phases.base import Phase
from stops.rules.variant import variant_from_mapping
from support import spare_of, stake_all

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.engine.observation import Observation
    from stops.phases.aids import BotView, Pen, Telling
    from stops.rules.registry import Registry

CHIPPED_IN: Final = "chipped_in"
SAT_TIGHT: Final = "sat_tight"
ACE: Final = 12


class AnteTeller(Teller):
    def lines(self, e: Event, t: Telling) -> list[str] | None:
        if e.kind == CHIPPED_IN:
            assert e.space is not None
            t.layout[e.space] = t.layout.get(e.space, 0) + e.chips
            return [f"{t.verb(e.seat, 'chip', 'chips')} in {e.chips} for the "
                    f"{t.pen.space(e.space)}"]
        if e.kind == SAT_TIGHT:
            return [f"{t.verb(e.seat, 'sit', 'sits')} tight"]
        return None


class AnteTally(PhaseTally):
    key: ClassVar[str] = "ante"

    def __init__(self) -> None:
        self.chips = 0
        self.decisions = 0

    def add_deal(self, deal: Deal) -> None:
        for e in deal.events:
            if e.kind in (CHIPPED_IN, SAT_TIGHT):
                self.decisions += 1
                self.chips += e.chips

    def add(self, other: PhaseTally) -> None:
        assert isinstance(other, AnteTally)
        self.chips += other.chips
        self.decisions += other.decisions

    def summary(self, deals: int) -> dict[str, Any]:
        return {"chip_in_rate": self.chips / max(self.decisions, 1), "chips": self.chips}

    def lines(self, summary: dict[str, Any]) -> list[str]:
        return [f"Ante: chipped in {100 * summary['chip_in_rate']:.1f}% of the time, "
                f"{summary['chips']} chips in all"]


class AnteAids(PhaseAids):
    def teller(self) -> Teller | None:
        return AnteTeller()

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        return Prompt("Chip in for the pot, or sit tight?", rule=True)

    def status_lines(self, deal: Deal, seat: int, pen: Pen) -> list[str]:
        n = sum(1 for e in deal.events if e.kind == CHIPPED_IN)
        return [f"Chipped in so far: {n}"]

    def choice_text(self, deal: Deal, action: Action, pen: Pen) -> str | None:
        if action.action == "chip_in":
            return f"chip in (the {pen.space('pot')} holds {deal.layout['pot']})"
        return None

    def advise(self, view: BotView) -> Action | None:
        ace = any(int(c) % 13 == ACE for c in view.obs.hand)
        return simple(view.obs.seat, "chip_in" if ace else "sit_tight")

    def tally(self) -> PhaseTally | None:
        return AnteTally()

    def features(self, variant: Any, players: int) -> tuple[Feature, ...]:
        return (Feature("chipped_in", players),)

    def fill(self, view: Observation, put: Callable[[str, int, float], None]) -> None:
        for e in view.events:
            if e.kind == CHIPPED_IN and e.seat is not None:
                put("chipped_in", e.seat, 1.0)


class Ante(Phase):
    """After the spare hand, each player in turn from the dealer's left chips in one chip
    for the pot, or sits tight."""

    name = "ante"
    title = "The ante"

    def describe(self) -> str:
        return ("Before the first lead each player in turn, from the dealer's left, may chip "
                "in one chip for the pot.")

    @classmethod
    def aids(cls) -> PhaseAids:
        return AnteAids()

    def _due(self, deal: Deal) -> int | None:
        done = sum(1 for e in deal.events if e.kind in (CHIPPED_IN, SAT_TIGHT))
        seats = deal.order(deal.dealer)
        return seats[done] if done < len(seats) else None

    def enter(self, deal: Deal) -> bool:
        deal.to_act = self._due(deal)
        return deal.to_act is not None

    def legal(self, deal: Deal) -> LegalSet:
        seat = deal.to_act
        assert seat is not None
        return LegalActions.of((simple(seat, "chip_in"), simple(seat, "sit_tight")))

    def apply(self, deal: Deal, action: Action) -> bool:
        if action.action == "chip_in":
            deal.ledger.move(action.seat, "pot", 1)
            deal.emit(event(CHIPPED_IN, action.seat, chips=1, space="pot"))
        else:
            deal.emit(event(SAT_TIGHT, action.seat))
        return self.enter(deal)


CHIP_IN = Verb("chip_in", doc="put one chip on the pot")
SIT_TIGHT = Verb("sit_tight", doc="put nothing in", label="keep your chips")
EVENTS = (EventType(CHIPPED_IN, "``seat`` put ``chips`` on ``space``"),
          EventType(SAT_TIGHT, "``seat`` put nothing in"))


@pytest.fixture
def registry() -> Iterator[Registry]:
    """A copy of the default registry with the ante; the global verb and event tables are
    put back as they were afterwards."""
    reg = stops.default_registry().copy()  # first: the built-ins register their own verbs
    saved = (dict(VERBS), dict(EVENT_TYPES), dict(vocab._VERB_OWNER),
             dict(vocab._EVENT_OWNER), set(vocab.SHOWS), set(vocab.SWAPS_SPARE),
             set(vocab.IN_ACCOUNT))
    reg.register_phase("ante", requires=("deal",), plugin="test_phase_aids",
                       pays=lambda variant: (), verbs=(CHIP_IN, SIT_TIGHT),
                       events=EVENTS)(Ante)
    yield reg
    for table, old in zip((VERBS, EVENT_TYPES, vocab._VERB_OWNER, vocab._EVENT_OWNER,
                           vocab.SHOWS, vocab.SWAPS_SPARE, vocab.IN_ACCOUNT), saved,
                          strict=True):
        table.clear()
        table.update(old)  # type: ignore[attr-defined]


@pytest.fixture
def variant(registry: Registry) -> stops.Variant:
    return variant_from_mapping({
        "name": "pot-and-kitty-ante", "extends": "pot-and-kitty",
        "flow": ["stake", "deal", "spare_hand", "ante", "play", "settle"],
        "rules": {"spare_protocol": "none"}}, registry=registry)


HANDS = [
    ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
    ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"],
    ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "2D"],
]


def at_the_ante(variant: stops.Variant) -> stops.Deal:
    table = stops.Table(variant, seats=3, chips=20, seed=0, dealer=0)
    deal = table.new_deal(hands=HANDS, spare=spare_of(HANDS))
    stake_all(deal, {0: "KH", 1: "QC", 2: "JD"})
    assert deal.phase == "ante" and deal.current_seat == 1
    return deal


def test_the_bot_plays_the_ante_as_the_phase_advises(variant: stops.Variant,
                                                     registry: Registry) -> None:
    deal = at_the_ante(variant)
    bots = [HeuristicBot(s, registry=registry) for s in range(3)]
    for seat, verb in ((1, "chip_in"), (2, "sit_tight"), (0, "chip_in")):  # by hand, above
        assert deal.current_seat == seat
        action = bots[seat].act(deal.observe(seat))
        assert action == simple(seat, verb)
        deal.apply(action)
    assert deal.phase == "play" and deal.layout["pot"] == 5
    # a bot that does not know the phase has no advice: it takes the first choice offered
    other = at_the_ante(variant)
    other.apply(simple(1, "chip_in"))
    assert HeuristicBot(0).act(other.observe(2)) == simple(2, "chip_in")
    play_deal(deal, bots)
    assert deal.is_terminal


def test_the_terminal_tells_asks_and_shows_the_ante(variant: stops.Variant) -> None:
    deal = at_the_ante(variant)
    deal.apply(simple(1, "chip_in"))
    st = Style(unicode=True)
    told = Narrator(deal, 2, st, dict(deal.start_layout))
    assert "seat 1 chips in 1 for the pot" in told.new_lines()
    out = io.StringIO()
    assert _ask(deal, 2, io.StringIO("2\n"), out, st) == simple(2, "sit_tight")
    screen = out.getvalue().splitlines()
    # the phase's status line, its prompt with its rule under it, its menu item (the pot:
    # 3 staked + seat 1's chip = 4) beside the verb's own label
    assert screen[screen.index("Chipped in so far: 1") + 1:][:3] == [
        "Chip in for the pot, or sit tight?",
        "Before the first lead each player in turn, from the dealer's left, may chip in",
        "one chip for the pot."]
    assert "   1) chip in (the pot holds 4)  2) sit_tight (keep your chips)" in screen
    deal.apply(simple(2, "sit_tight"))
    deal.apply(simple(0, "chip_in"))
    assert told.new_lines()[:2] == ["you sit tight", "seat 0 chips in 1 for the pot"]
    assert told.layout["pot"] == 5  # the teller kept the layout told in step
    # stops replay, every hand shown, tells it the same way, the seats by number
    text = replay_text([deal])
    assert "  seat 1 chips in 1 for the pot" in text and "  seat 2 sits tight" in text


def test_stops_play_asks_for_the_ante(variant: stops.Variant) -> None:
    from stops.apps.terminal import play_terminal

    out = io.StringIO()
    code = play_terminal(variant, 3, seat=0, seed=2, deals=1, inp=io.StringIO("1\n" * 300),
                         out=out)
    assert code == 0
    text = out.getvalue()
    assert "Chip in for the pot, or sit tight?" in text
    assert "1) chip in (the pot holds" in text and "you chip in 1 for the pot" in text


def test_simulate_reports_the_ante_section(variant: stops.Variant) -> None:
    one = simulate(variant, players=3, deals=600, seed=4, bots=["heuristic"])
    with ThreadPoolExecutor(max_workers=2) as pool:  # chunks of 250: tallies merged
        two = simulate(variant, players=3, deals=600, seed=4, bots=["heuristic"],
                       executor=pool)
    assert one.to_dict() == two.to_dict()
    section = one.to_dict()["ante"]
    assert 0 < section["chip_in_rate"] < 1 and section["chips"] > 0
    assert one.to_dict()["poker"] == {}  # a tallying phase the rules know, not in this game
    assert (f"Ante: chipped in {100 * section['chip_in_rate']:.1f}% of the time, "
            f"{section['chips']} chips in all") in one.text().splitlines()


def test_the_ante_tally_counts_one_deal(variant: stops.Variant, registry: Registry) -> None:
    deal = at_the_ante(variant)
    play_deal(deal, [HeuristicBot(s, registry=registry) for s in range(3)])
    tally = AnteTally()
    tally.add_deal(deal)
    assert (tally.chips, tally.decisions) == (2, 3)  # seats 1 and 0 chipped in (above)


def test_the_learning_environment_observes_the_ante(variant: stops.Variant) -> None:
    pytest.importorskip("pettingzoo")
    from stops.interop.pettingzoo import StopsAECEnv

    env = StopsAECEnv(variant=variant, players=3)
    lay = env.observation_layout
    names = list(lay)
    # the spare hand's segment, then the ante's, in flow order, before deals_left
    assert names[names.index("to_act") + 1:] == ["high_bid", "chipped_in", "deals_left"]
    env.reset(seed=1)
    deal = env.deal
    assert deal is not None
    while deal.phase != "play":
        seat = deal.current_seat
        assert seat is not None
        legal = deal.legal_actions()
        env.step(env.encode(legal[0]))  # everyone chips in
    obs = env.observe("player_0")["observation"]
    assert obs[lay["chipped_in"]].tolist() == [1.0, 1.0, 1.0]


def test_a_sealed_bid_stays_sealed_in_the_prompt() -> None:
    """The spare hand's prompt names the highest bid the bidder has seen. In a sealed auction
    (boodle-spare-auction, auction_format: sealed; 3 players, dealer 0, who auctions the
    spare) seat 1 bids 5 in secret: seat 2, next, has seen no bid, so by hand its prompt says
    "nobody has bid yet" (it said "the highest bid is 5" when it read every bid)."""
    table = stops.Table("boodle-spare-auction", seats=3, chips=40, seed=0, dealer=0,
                        options={"auction_format": "sealed"})
    deal = table.new_deal()
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])
    deal.apply(simple(0, "auction"))
    deal.apply(stops.Action(1, "bid", chips=5))
    assert deal.current_seat == 2
    out = io.StringIO()
    _ask(deal, 2, io.StringIO("pass\n"), out, Style(unicode=True))
    assert "Your bid for the spare hand, unseen: nobody has bid yet." in out.getvalue()
    out = io.StringIO()  # an open auction shows it
    open_table = stops.Table("boodle-spare-auction", seats=3, chips=40, seed=0, dealer=0)
    deal = open_table.new_deal()
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])
    deal.apply(simple(0, "auction"))
    deal.apply(stops.Action(1, "bid", chips=5))
    _ask(deal, 2, io.StringIO("pass\n"), out, Style(unicode=True))
    assert "Your bid for the spare hand, unseen: the highest bid is 5." in out.getvalue()

"""The worked plug-in example: examples/newmarket_plugins.py and its two variant files.

Expected values are derived by hand from the rules catalogue
(the wider family of Stops games), never copied from the engine:

* Peel's Newmarket (2.7, D12): the stake on a layout card goes to whoever plays the card
  immediately below it in the same suit (KC's space: the QC; an ace's space: the king, the
  ace counting low as well as high). Playing the layout card itself pays nothing.
* Dick's 1885 Newmarket (2.5a, D1, D18): the 8D is removed from the pack, so the 7D is always
  a stop ("the next card ... removed from the pack").

Everything else is Boodle (seed 001, basic rules): the dealer's left leads, a lead is the
lowest card held in its suit, the holder of the next card plays it, the player of a stop leads
again; stakes are dealer 2 and others 1 on each of AH KC QD JS, so with 3 players and chips=50
the dealer has 42, the others 46 and each space 4; the first out collects 1 chip per card
left from every other player.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

import stops
from stops import parse_card
from stops.engine.deal import ABSENT
from stops.testing import check_variant
from support import claims
from support import lead_action as lead

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PACK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def _load_plugins() -> ModuleType:
    """The plug-in module, imported from examples/ by path (it is not a package)."""
    spec = importlib.util.spec_from_file_location("newmarket_plugins",
                                                  EXAMPLES / "newmarket_plugins.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)
    spec.loader.exec_module(module)
    return module


plugins = _load_plugins()
PEEL_YAML = EXAMPLES / "peels-newmarket.yaml"
NM1885_YAML = EXAMPLES / "newmarket-1885.yaml"


@pytest.fixture(scope="module")
def registry() -> stops.Registry:
    return plugins.plugin_registry()


@pytest.fixture(scope="module")
def peel(registry: stops.Registry) -> stops.Variant:
    return stops.load_variant(PEEL_YAML, registry=registry)


@pytest.fixture(scope="module")
def nm1885() -> stops.Variant:
    return stops.load_variant(NM1885_YAML)


def spare_for(hands: list[list[str]], removed: tuple[str, ...] = ()) -> list[str]:
    """Every card of the pack (less ``removed``) not in ``hands``: the spare hand."""
    used = {c for h in hands for c in h}
    return [c for c in PACK if c not in used and c not in removed]


# -- (a) Peel: the card below pays ------------------------------------------------------------
def test_card_below() -> None:
    below = plugins.card_below
    assert below(parse_card("KC")) == parse_card("QC")
    assert below(parse_card("AH")) == parse_card("KH")
    assert below(parse_card("3D")) == parse_card("2D")
    assert below(parse_card("2S")) == parse_card("AS")     # the ace counts low too


PEEL_KC_HANDS = [
    ["KC", "2H", "3H"],           # seat 0, dealer
    ["JC", "QC", "2D", "3D"],     # seat 1, leads first
    ["4S", "5S"],                 # seat 2
]


def test_peel_player_of_queen_takes_king_space(peel: stops.Variant) -> None:
    # Seat 1 leads JC; it holds QC too and plays it: QC is just below KC, so seat 1 takes the
    # KC space (4 chips). Seat 0 then plays KC itself, which pays nothing; AC is in the spare,
    # so KC stops. Seat 0 leads 2H, plays 3H and is out: seat 1 pays 2 (2D 3D), seat 2 pays
    # 2 (4S 5S). Stacks: 42 + 4 = 46; 46 + 4 - 2 = 48; 46 - 2 = 44. Layout KC 0, others 4.
    table = stops.Table(peel, seats=3, chips=50, dealer=0, seed=1)
    deal = table.new_deal(hands=PEEL_KC_HANDS, spare=spare_for(PEEL_KC_HANDS))
    assert deal.current_seat == 1
    deal.apply(lead(1, "JC"))
    assert claims(deal) == [(1, "KC", 4)]
    claim = next(e for e in deal.events if e.kind == "claimed")
    assert "QC" in claim.note
    assert deal.layout["KC"] == 0
    kc = next(i for i, e in enumerate(deal.events) if e.card == parse_card("KC"))
    assert deal.events[kc].kind == "played" and deal.events[kc].seat == 0
    assert deal.events[kc + 1].kind == "stop"           # nothing claimed by playing KC
    deal.apply(lead(0, "2H"))
    assert deal.is_terminal and deal.winner == 0
    assert claims(deal) == [(1, "KC", 4)]
    assert deal.stacks == (46, 48, 44)
    assert deal.layout == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert table.total_chips() == 150


def test_same_deal_in_boodle_pays_the_king() -> None:
    # Control: the same cards under Boodle's on_play pay KC's player, seat 0.
    table = stops.Table("boodle", seats=3, chips=50, dealer=0, seed=1)
    deal = table.new_deal(hands=PEEL_KC_HANDS, spare=spare_for(PEEL_KC_HANDS))
    deal.apply(lead(1, "JC"))
    assert claims(deal) == [(0, "KC", 4)]


def test_peel_ace_space_pays_the_king(peel: stops.Variant) -> None:
    # Seat 1 leads QH (its lowest heart), plays KH: the king is the card below the ace, so
    # seat 1 takes AH's 4 chips. Seat 2 plays AH (nothing), an ace stops, seat 2 leads 3C
    # and is out: seat 0 pays 3, seat 1 pays 1. Stacks 42 - 3, 46 + 4 - 1, 46 + 4.
    hands = [["5S", "6S", "7S"], ["QH", "KH", "2C"], ["AH", "3C"]]
    table = stops.Table(peel, seats=3, chips=50, dealer=0, seed=1)
    deal = table.new_deal(hands=hands, spare=spare_for(hands))
    deal.apply(lead(1, "QH"))
    assert claims(deal) == [(1, "AH", 4)]
    assert deal.current_seat == 2
    deal.apply(lead(2, "3C"))
    assert deal.winner == 2
    assert claims(deal) == [(1, "AH", 4)]
    assert deal.stacks == (39, 49, 50)
    assert deal.layout == {"AH": 0, "KC": 4, "QD": 4, "JS": 4}


def test_peel_rules_text(peel: stops.Variant) -> None:
    from stops.rules.prose import rules_text

    assert "just below" in rules_text(peel)


# -- (b) 1885: 7D always stops ----------------------------------------------------------------
def test_1885_pack_has_51_cards(nm1885: stops.Variant) -> None:
    assert len(nm1885.deck) == 51
    assert parse_card("8D") not in nm1885.deck
    hands = [["7D", "2S"], ["5D", "9D", "3H"], ["6D", "4C"]]
    table = stops.Table(nm1885, seats=3, chips=50, dealer=0, seed=1)
    with pytest.raises(stops.TableError):       # 8D is not in this pack
        table.new_deal(hands=hands, spare=[*spare_for(hands, ("8D",)), "8D"])


def test_1885_seven_of_diamonds_stops(nm1885: stops.Variant) -> None:
    # Seat 1 leads 5D; seat 2 plays 6D, seat 0 plays 7D. The 8D is out of the pack, so 7D
    # stops at once, with 9D still in seat 1's hand: nobody is asked for 7D's successor.
    # Seat 0 leads 2S and is out: seat 1 pays 2 (9D 3H), seat 2 pays 1 (4C).
    hands = [["7D", "2S"], ["5D", "9D", "3H"], ["6D", "4C"]]
    table = stops.Table(nm1885, seats=3, chips=50, dealer=0, seed=1)
    deal = table.new_deal(hands=hands, spare=spare_for(hands, ("8D",)))
    assert deal.owner[parse_card("8D")] == ABSENT
    deal.apply(lead(1, "5D"))
    assert [(s, str(c)) for s, c in deal.plays] == [(1, "5D"), (2, "6D"), (0, "7D")]
    stop = deal.events[-1]
    assert (stop.kind, stop.seat, str(stop.card)) == ("stop", 0, "7D")
    assert stop.note == "the next card is not in the pack"
    assert deal.current_seat == 0                      # the stop's player leads again
    assert {str(a.card) for a in deal.legal_actions()} == {"2S"}
    assert parse_card("9D") in deal.hand(1)
    deal.apply(lead(0, "2S"))
    assert deal.winner == 0
    assert all(str(c) not in ("8D", "9D") for _, c in deal.plays)
    assert deal.stacks == (45, 44, 45)
    assert deal.layout == {"AH": 4, "KC": 4, "QD": 4, "JS": 4}


def test_boodle_with_8d_in_hand_runs_on() -> None:
    # Control: in Boodle the 8D exists; held by seat 1 it is played after 7D, no stop.
    hands = [["7D", "2S"], ["5D", "8D", "3H"], ["6D", "4C"]]
    table = stops.Table("boodle", seats=3, chips=50, dealer=0, seed=1)
    deal = table.new_deal(hands=hands, spare=spare_for(hands))
    deal.apply(lead(1, "5D"))
    assert [str(c) for _, c in deal.plays] == ["5D", "6D", "7D", "8D"]
    assert not any(e.kind == "stop" and str(e.card) == "7D" for e in deal.events)


@pytest.mark.parametrize("seed", range(12))
def test_1885_seven_of_diamonds_always_stops(nm1885: stops.Variant, seed: int) -> None:
    rng = random.Random(seed)
    table = stops.Table(nm1885, seats=4, chips=50, seed=seed)
    deal = table.new_deal()
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    seven = parse_card("7D")
    at = [i for i, e in enumerate(deal.events) if e.kind in ("led", "played") and e.card == seven]
    for i in at:
        after = deal.events[i + 1]
        if after.kind == "went_out":
            continue
        assert (after.kind, after.card, after.note) == (
            "stop", seven, "the next card is not in the pack")


# -- (c) YAML never imports code --------------------------------------------------------------
def test_importing_the_module_registers_nothing_globally() -> None:
    assert ("pay_collection", "peel_below") not in stops.default_registry().policies


def test_peel_yaml_needs_the_plugin_registry(registry: stops.Registry) -> None:
    with pytest.raises(stops.VariantError) as e:
        stops.load_variant(PEEL_YAML)
    assert "peel_below" in str(e.value)
    v = stops.load_variant(PEEL_YAML, registry=registry)
    assert v.name == "peels-newmarket"
    assert v.policy("pay_collection").name == "peel_below"
    assert v.title and "playingcardgames.net" in (v.spec.source or "")


def test_register_twice_is_refused(registry: stops.Registry) -> None:
    with pytest.raises(stops.rules.registry.RegistryError):
        plugins.register(registry)


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "v.yaml"
    p.write_text(text)
    return p


def test_peel_refuses_spaces_it_could_never_pay(registry: stops.Registry,
                                                tmp_path: Path) -> None:
    removed = _write(tmp_path, "name: x\nextends: boodle\ndeck: {remove: [QC]}\n"
                               "rules: {pay_collection: peel_below}\n")
    with pytest.raises(stops.VariantError, match="QC is removed from the pack"):
        stops.load_variant(removed, registry=registry)
    combo = _write(tmp_path, "name: y\nextends: three-in-one\n"
                             "rules: {pay_collection: peel_below}\n")
    with pytest.raises(stops.VariantError, match="card spaces only"):
        stops.load_variant(combo, registry=registry)


# -- (d) conformance ----------------------------------------------------------------------------
def test_peel_conformance(peel: stops.Variant) -> None:
    report = check_variant(peel, seats=[3, 4], deals=2)
    assert report.deals >= 4 and not report.failures


def test_1885_conformance(nm1885: stops.Variant) -> None:
    check_variant(nm1885, seats=[3, 4], deals=2)


# -- (e) entry points are opt-in ----------------------------------------------------------------
def test_entry_points_opt_in_with_nothing_installed() -> None:
    reg = stops.default_registry().copy()
    before = dict(reg.policies)
    assert reg.load_entry_points(allow=["stops-newmarket-plugins"]) == []
    assert reg.load_entry_points(allow=[]) == []
    assert reg.policies == before


def test_register_is_entry_point_shaped() -> None:
    reg = stops.default_registry().copy()
    assert plugins.register(reg) is None
    spec = reg.policy("pay_collection", "peel_below")
    assert spec.plugin == "newmarket_plugins"
    assert ("pay_collection", "peel_below") not in stops.default_registry().policies


# -- (f) plug-ins are first-class in the command line (issue 11) --------------------------------
PEEL = str(EXAMPLES / "peels-newmarket.yaml")
PLUGIN = str(EXAMPLES / "newmarket_plugins.py")


def test_every_variant_command_takes_plugins(capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    from stops.apps.cli import main

    assert main(["check", PEEL]) == 1
    assert "--plugins" in capsys.readouterr().out  # the refusal says how to register it
    assert main(["check", PEEL, "--plugins", PLUGIN]) == 0
    assert capsys.readouterr().out == "ok\n"
    assert main(["rules", PEEL, "--plugins", PLUGIN]) == 0
    assert "the card just below its card" in capsys.readouterr().out  # the plug-in's text
    assert main(["diff", "boodle", PEEL, "--plugins", PLUGIN]) == 1   # they differ
    assert "pay_collection" in capsys.readouterr().out
    assert main(["simulate", PEEL, "--plugins", PLUGIN, "--deals", "20", "--players", "3",
                 "--workers", "2", "--json"]) == 0
    capsys.readouterr()
    # a deal played under the plug-in replays only with it
    reg = stops.apps.plugins.load_plugins([PLUGIN])  # type: ignore[attr-defined]
    v = stops.load_variant(PEEL, registry=reg)
    d = stops.Table(v, seats=3, chips=50, seed=2).new_deal()
    while not d.is_terminal:
        d.apply(d.legal_actions()[0])
    rec = tmp_path / "deal.yaml"
    rec.write_text(stops.io.records.dumps(d.record()))  # type: ignore[attr-defined]
    assert main(["replay", str(rec)]) == 1
    capsys.readouterr()
    assert main(["replay", str(rec), "--plugins", PLUGIN]) == 0


def test_bad_plugins_are_clear_errors(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    from stops.apps.cli import main

    no_register = tmp_path / "empty.py"
    no_register.write_text("x = 1\n")
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    for spec, words in ((str(tmp_path / "missing.py"), "no such Python file"),
                        ("no_such_module_xyz", "no such module"),
                        (str(no_register), "no register(registry)"),
                        (str(broken), "importing it failed: boom"),
                        ("dist:no-such-dist", "not installed")):
        assert main(["rules", "boodle", "--plugins", spec]) == 1
        assert words in capsys.readouterr().err


def test_entry_points_are_allowed_by_distribution_not_by_their_own_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.metadata as md

    calls: list[str] = []

    class Dist:
        def __init__(self, name: str) -> None:
            self.name = name

    class EP:
        def __init__(self, name: str, dist: str) -> None:
            self.name, self.dist = name, Dist(dist)

        def load(self) -> object:
            return lambda reg: calls.append(self.name)

    eps = [EP("stops-cards-extra", "evil-package"), EP("peel", "Stops_Newmarket.Plugins")]
    monkeypatch.setattr(md, "entry_points", lambda group: eps)
    reg = stops.default_registry().copy()
    # the entry point named like an allowed distribution is not loaded; names normalise
    assert reg.load_entry_points(allow=["stops-cards-extra", "stops-newmarket-plugins"]) == [
        "peel"]
    assert calls == ["peel"]

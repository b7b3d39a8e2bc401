"""A worked plug-in: Peel's Newmarket, whose layout cards pay the card *below* them.

Peel's Newmarket (http://www.playingcardgames.net/CardGames/Newmarket.html) pays the chips on a
layout card to whoever plays the card immediately below it in the same suit: the space for KC
pays whoever plays QC, and since the ace counts low as well as high, an ace's space pays the
king (and a 2's space, were there one, would pay the ace). Playing the layout card itself pays
nothing. No ``rules:`` value says that, so this module supplies it as a ``pay_collection``
policy named ``peel_below``::

    registry = plugin_registry()                      # a copy of the default, plus peel_below
    peel = stops.load_variant("examples/peels-newmarket.yaml", registry=registry)

``register(registry)`` has the signature of a ``stops.plugins`` entry point, so a package could
offer it for ``registry.load_entry_points(allow=[...])``. Importing this module registers
nothing anywhere: the default registry never learns ``peel_below``, and a YAML file naming it
fails to load without the plug-in registry (YAML never imports code).

What the policy covers: every space of kind ``card``. Combination and run spaces have no
"card below", so a variant that has them (or whose card below a space is removed from the
pack) is refused at load time by the policy's ``check`` hook rather than silently never paying.

**Not modelled: "that card is then also a stop".** Peel's text goes on to make the claiming
card (the QC for the KC space) a stop whose player leads again. A claim policy cannot do
that: its handlers run inside the play phase's forced-run loop only to move chips, and the loop
itself decides whether the run goes on, solely from card positions (an ace, or a next card
whose ``owner`` is the spare hand, played, or removed from the pack). A handler has no way to
end the run short of corrupting ``deal.owner``, which would also misreport the stop's reason
and break the lead checks. Modelling it needs a change in the engine (a stop hook for claim
policies) or a replacement ``play`` phase; neither is done here, so in this example the run
carries on past the QC as in Boodle. Peel's other differences (all sevens removed, no spare
hand, a chosen stake per player covering every card) are expressible in YAML and left out of
``peels-newmarket.yaml`` to keep the example about the claim rule.

The companion ``newmarket-1885.yaml`` (Dick's 1885 Newmarket: 8D removed, so 7D always stops)
needs no Python at all: ``deck: {remove: [8D]}`` is enough, because the engine stops a run
whenever the next card is in no hand.

Run ``python examples/newmarket_plugins.py`` for one seeded deal of each.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING, Any

import stops
from stops.policies.claims import ClaimPolicy, Handler, Triggers

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

HERE = Path(__file__).resolve().parent
PEEL_FILE = HERE / "peels-newmarket.yaml"
NEWMARKET_1885_FILE = HERE / "newmarket-1885.yaml"

POLICY_NAME = "peel_below"
PLUGIN_NAME = "newmarket_plugins"


def card_below(card: int) -> int:
    """The card just below ``card`` in its suit; the ace counts low too, so below a 2 is the
    ace (and below the ace, as usual, the king)."""
    suit, rank = divmod(int(card), 13)
    return suit * 13 + (rank - 1) % 13


def _name(card: int) -> str:
    return str(stops.CARDS[card])


class PeelBelow(ClaimPolicy):
    """A card space pays whoever plays the card just below its card in the same suit (the QC
    for the KC space; the king for an ace's space). Playing the space's own card pays
    nothing. Claims are instant, during the play."""

    def watch(self, variant: Variant, params: Any, triggers: Triggers,
              every: list[Handler]) -> None:
        for space in variant.layout:
            if space.kind == "card" and space.card is not None:
                below = card_below(space.card)
                triggers.setdefault(below, []).append(
                    _below_handler(space.id, int(space.card)))


def _below_handler(space: str, layout_card: int) -> Handler:
    note = f"played {_name(card_below(layout_card))}, the card below {_name(layout_card)}"

    def on_below(deal: Deal, seat: int, card: int) -> None:
        deal.claim(seat, space, note)

    return on_below


def check_peel_below(variant: Variant, params: Any) -> list[str]:
    """Load-time problems: spaces this policy could never pay."""
    deck = set(variant.deck)
    out: list[str] = []
    for space in variant.layout:
        if space.kind == "card" and space.card is not None:
            below = card_below(space.card)
            if below not in deck:
                out.append(f"space {space.id!r} pays the card below {_name(space.card)}, but "
                           f"{_name(below)} is removed from the pack, so it could never pay")
        elif space.kind in ("combo", "suit_run"):
            out.append(f"{POLICY_NAME} pays card spaces only; space {space.id!r} of kind "
                       f"{space.kind} would never pay")
    return out


def _peel_text(params: Any) -> str:
    return ("A card space pays whoever plays the card just below its card in the same suit, "
            "during the play (for the king of clubs, the queen of clubs; for an ace, the "
            "king); playing the layout card itself pays nothing.")


def register(registry: Registry) -> None:
    """Entry-point style hook: add ``pay_collection: peel_below`` to ``registry``."""
    registry.register_policy("pay_collection", POLICY_NAME, text=_peel_text,
                             check=check_peel_below, plugin=PLUGIN_NAME)(PeelBelow())


def plugin_registry() -> Registry:
    """A copy of the default registry with this module's policies; the default is untouched."""
    registry = stops.default_registry().copy()
    register(registry)
    return registry


# -- the demo ------------------------------------------------------------------------------
def play_one(variant: Variant, seed: int, seats: int = 4) -> stops.Deal:
    """Play one seeded deal, choosing uniformly among the legal actions (seeded too)."""
    table = stops.Table(variant, seats=seats, chips=30, seed=seed, dealer=0)
    deal = table.new_deal()
    rng = random.Random(seed)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


def show(deal: stops.Deal, extra_kinds: tuple[str, ...] = ()) -> None:
    kinds = ("claimed", *extra_kinds)
    shown = [e for e in deal.events if e.kind in kinds]
    for e in shown:
        print("   ", e.describe())
    if not any(e.kind == "claimed" for e in shown):
        print("    (no layout space was claimed this deal)")
    print(f"    outcome: {deal.outcome}, winner: {deal.winner}, returns: {deal.returns()}, "
          f"left on the layout: {deal.layout}")


def main() -> None:
    registry = plugin_registry()
    peel = stops.load_variant(PEEL_FILE, registry=registry)
    print(f"{peel.title}  [{peel.policy('pay_collection').name}]")
    print("   ", _peel_text(None))
    show(play_one(peel, seed=3))

    old = stops.load_variant(NEWMARKET_1885_FILE)     # plain YAML: the default registry
    print(f"\n{old.title}  [{len(old.deck)}-card pack]")
    deal = play_one(old, seed=3)
    seven = stops.parse_card("7D")
    stops_at_7d = [e for e in deal.events if e.kind == "stop" and e.card == seven]
    for e in stops_at_7d:
        print("   ", e.describe())
    if not stops_at_7d:
        print("    (the 7D was not played before the deal ended)")
    show(deal)


if __name__ == "__main__":
    main()

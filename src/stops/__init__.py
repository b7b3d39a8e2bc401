"""stops: the Stops family of card games (Michigan, Boodle, Newmarket, Three-in-One and the
pot-and-kitty game) played from rules written as data.

>>> import stops
>>> variant = stops.load_variant("boodle")
>>> table = stops.Table(variant, seats=4, chips=50, seed=7)
>>> deal = table.new_deal()
>>> while not deal.is_terminal:
...     deal.apply(deal.legal_actions()[0])
...     # doctest: +ELLIPSIS
[...]
"""

# Everything below is imported on first use (PEP 562), so that ``stops --version`` and a
# program that needs one module do not load every game: ``stops.Table`` imports the engine
# then, and the registry installs the built-in phases and policies the first time it is
# asked for (``stops.rules.registry.default_registry``). Type checkers see plain imports.
from typing import TYPE_CHECKING

from stops._version import __version__

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.cards import CARDS, Card, card, parse_card, parse_cards
    from stops.engine.deal import Deal
    from stops.engine.errors import (
        DealInProgress,
        Explanation,
        IllegalAction,
        RecordError,
        SessionOver,
        SignatureNotChecked,
        StopsError,
        VariantError,
    )
    from stops.engine.events import Event
    from stops.engine.legal import LegalActions
    from stops.engine.observation import Observation
    from stops.engine.table import Table, TableError
    from stops.engine.vocabulary import EventType, Verb
    from stops.io.records import replay
    from stops.rules.registry import (
        Registry,
        default_registry,
        register_phase,
        register_policy,
    )
    from stops.rules.variant import Variant, list_variants, load_variant

    COMPILED: bool
    """Whether this install runs the compiled hot path (a ``STOPS_COMPILE=1`` build; see
    ``docs/performance.md``). Both builds play identical games."""

_HOMES = {
    "stops.engine.actions": ("Action",),
    "stops.engine.cards": ("CARDS", "Card", "card", "parse_card", "parse_cards"),
    "stops.engine.deal": ("Deal",),
    "stops.engine.errors": ("DealInProgress", "Explanation", "IllegalAction", "RecordError",
                            "SessionOver", "SignatureNotChecked", "StopsError",
                            "VariantError"),
    "stops.engine.events": ("Event",),
    "stops.engine.legal": ("LegalActions",),
    "stops.engine.observation": ("Observation",),
    "stops.engine.table": ("Table", "TableError"),
    "stops.engine.vocabulary": ("EventType", "Verb"),
    "stops.io.records": ("replay",),
    "stops.rules.registry": ("Registry", "default_registry", "register_phase",
                             "register_policy"),
    "stops.rules.variant": ("Variant", "list_variants", "load_variant"),
}
_HOME = {name: module for module, names in _HOMES.items() for name in names}


def _compiled() -> bool:
    """Whether the hot path is compiled: the deal module is an extension, not a ``.py``
    file. Found without importing it (``stops --version`` says the build)."""
    from importlib.util import find_spec

    spec = find_spec("stops.engine.deal")
    return not (spec is not None and (spec.origin or ".py").endswith(".py"))


def __getattr__(name: str) -> object:
    if name == "COMPILED":
        value: object = _compiled()
    elif name in _HOME:
        from importlib import import_module

        value = getattr(import_module(_HOME[name]), name)
    else:
        raise AttributeError(f"module 'stops' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

__all__ = [
    "CARDS",
    "COMPILED",
    "Action",
    "Card",
    "Deal",
    "DealInProgress",
    "Event",
    "EventType",
    "Explanation",
    "IllegalAction",
    "LegalActions",
    "Observation",
    "RecordError",
    "Registry",
    "SessionOver",
    "SignatureNotChecked",
    "StopsError",
    "Table",
    "TableError",
    "Variant",
    "VariantError",
    "Verb",
    "__version__",
    "card",
    "default_registry",
    "list_variants",
    "load_variant",
    "parse_card",
    "parse_cards",
    "register_phase",
    "register_policy",
    "replay",
]

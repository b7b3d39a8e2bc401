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

from stops import builtins as _builtins  # noqa: F401  (installs the built-in phases and policies)
from stops._version import __version__
from stops.engine import deal as _deal_module
from stops.engine.actions import Action
from stops.engine.cards import CARDS, Card, card, parse_card, parse_cards
from stops.engine.deal import Deal
from stops.engine.errors import (
    DealInProgress,
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
from stops.io.records import replay
from stops.rules.registry import Registry, default_registry, register_phase, register_policy
from stops.rules.variant import Variant, list_variants, load_variant

COMPILED: bool = not (getattr(_deal_module, "__file__", None) or ".py").endswith(".py")
"""Whether this install runs the compiled hot path (a ``STOPS_COMPILE=1`` build; see
``docs/performance.md``). Both builds play identical games."""

__all__ = [
    "CARDS",
    "COMPILED",
    "Action",
    "Card",
    "Deal",
    "DealInProgress",
    "Event",
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

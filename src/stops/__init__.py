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

from . import deal as _deal_module
from .actions import Action
from .cards import CARDS, Card, card, parse_card, parse_cards
from .deal import Deal
from .errors import (
    DealInProgress,
    IllegalAction,
    RecordError,
    SessionOver,
    StopsError,
    VariantError,
)
from .events import Event
from .legal import LegalActions
from .observation import Observation
from .record import replay
from .registry import Registry, default_registry, register_phase, register_policy
from .table import Table, TableError
from .variant import Variant, list_variants, load_variant

__version__ = "0.1.0"

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

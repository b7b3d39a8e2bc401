"""The built-in phases and policies: installs every one into a registry.

Each phase and policy module registers its own names, with their parameters, text and checks
(its ``register(registry)`` function); this module only lists the modules, and installs them
into the default registry when ``stops`` is imported. ``docs/reference.md`` is generated from
(and tested against) the result.
"""

from __future__ import annotations

from stops.games import comet, nain_jaune, pink_nines, poch, pope_joan, royal_rummy, spinado
from stops.phases.catalogue import MODULES as PHASES
from stops.policies import claims, endings, leads, points, session, stakes, succession
from stops.rules.contracts import SLOTS
from stops.rules.model import PolicyRef, Rules
from stops.rules.registry import Registry, default_registry

MODULES = (stakes, claims, succession, leads, endings, points, session, *PHASES,
           pope_joan, spinado, nain_jaune, comet, poch, royal_rummy,
           pink_nines)
"""Every module that registers built-in names, in registration order."""


def install(reg: Registry) -> None:
    """Add every built-in slot, policy and phase to ``reg``."""
    import attrs

    defaults = {f.name: f.default.use for f in attrs.fields(Rules)
                if f.metadata.get("slot") and isinstance(f.default, PolicyRef)}
    for slot in SLOTS:
        reg.add_slot(slot.name, slot.doc, slot.signature, defaults[slot.name], slot.brings)
    for module in MODULES:
        module.register(reg)


install(default_registry())

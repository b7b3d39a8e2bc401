"""How the engine turns a variant's name into a variant.

The engine is handed variants; it does not read variant files (that is the rules layer's job,
:mod:`stops.rules.variant`). So that ``Table("boodle", ...)`` and ``Table.from_dict(saved)``
can still name a variant, the rules layer installs its loader here when it is imported
(dependency inversion: the engine never imports the layer above it). ``import stops`` loads
nothing until used, so the first name to resolve imports that layer by its module name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from stops.engine.errors import StopsError

Loader = Callable[[str, Mapping[str, Any] | None, Any], Any]
"""``(name_or_path, options, registry) -> Variant``."""

_loader: list[Loader] = []
_untrusted: list[Loader] = []
_RULES = "stops.rules.variant"
"""The module that installs the loaders (named, not imported: it is a layer above)."""


def _ensure() -> None:
    if not _loader or not _untrusted:
        from importlib import import_module

        import_module(_RULES)


def install_loader(loader: Loader, untrusted: Loader | None = None) -> None:
    """Called once by :mod:`stops.rules.variant`. ``untrusted`` resolves the variant a
    save names: a built-in name or the variant itself, never a file."""
    _loader[:] = [loader]
    if untrusted is not None:
        _untrusted[:] = [untrusted]


def resolve_untrusted(ref: Any, options: Mapping[str, Any] | None = None,
                      registry: Any = None) -> Any:
    """The variant a save or record names (a built-in name or a mapping; no paths)."""
    _ensure()
    if not _untrusted:  # pragma: no cover - the rules layer installs one when imported
        raise StopsError("no variant loader is installed; import stops first")
    return _untrusted[0](ref, options, registry)


def resolve_variant(ref: str, options: Mapping[str, Any] | None = None,
                    registry: Any = None) -> Any:
    """The variant named ``ref`` (a built-in name or a file path), with ``options``."""
    _ensure()
    if not _loader:  # pragma: no cover - the rules layer installs one when imported
        raise StopsError("no variant loader is installed; import stops first")
    return _loader[0](ref, options, registry)

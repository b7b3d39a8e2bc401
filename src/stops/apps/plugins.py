"""Plug-ins for the command line: ``--plugins MODULE_OR_FILE`` registers policies first.

A variant file never imports code. A person who wants a house rule that YAML cannot say
writes a Python module with a ``register(registry)`` function (see ``docs/house-rules.md``
and ``examples/newmarket_plugins.py``) and names it on the command line, explicitly:

* ``--plugins path/to/rules.py`` — a Python file;
* ``--plugins package.module`` — an importable module;
* ``--plugins dist:NAME`` — the ``stops.plugins`` entry points of the installed distribution
  ``NAME`` (the allow-list matches the distribution's name, so installing a package never
  changes a game by itself, and an entry point cannot enable itself by its own name).

Each ``register(registry)`` is called on a copy of the default registry, which every command
then loads variants with. The rules text, checks and refusal reasons of a plug-in policy come
from its own registration.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import sys
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import attrs

from stops.engine.errors import StopsError
from stops.rules.registry import Registry, RegistryError, default_registry


class PluginError(StopsError):
    """A plug-in that cannot be found, imported or registered."""


def _module(spec: str) -> ModuleType:
    path = Path(spec)
    if spec.endswith(".py"):
        if not path.is_file():
            raise PluginError(f"--plugins {spec}: no such Python file")
        name = "stops_plugin_" + hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        if name in sys.modules:
            return sys.modules[name]
        loader = importlib.util.spec_from_file_location(name, path)
        if loader is None or loader.loader is None:  # pragma: no cover - a .py file loads
            raise PluginError(f"--plugins {spec}: cannot be imported")
        module = importlib.util.module_from_spec(loader)
        sys.modules[name] = module
        try:
            loader.loader.exec_module(module)
        except Exception as e:
            del sys.modules[name]
            raise PluginError(f"--plugins {spec}: importing it failed: {e}") from None
        return module
    try:
        return importlib.import_module(spec)
    except ImportError as e:
        raise PluginError(f"--plugins {spec}: no such module ({e}); give a .py file, a "
                          "module name, or dist:DISTRIBUTION") from None
    except Exception as e:  # the module's own code failed as it was imported
        raise PluginError(f"--plugins {spec}: importing it failed: {type(e).__name__}: "
                          f"{e}") from None


@attrs.frozen
class PluginSource:
    """A ``--plugins`` spec as it travels to a simulation's workers: a Python file goes as
    its ``source`` text, read here by the caller, so a worker (another process, or a cluster
    node with another working directory) needs no file and reads none; a module or a
    ``dist:`` spec goes by name (``source`` is ``None``) and must be importable there, as
    ``stops`` itself must."""

    spec: str
    source: str | None = None

    @property
    def module_name(self) -> str:
        """The module the source runs as: named by its text, so two different files (or an
        edited file on a long-lived worker) never share a module."""
        digest = hashlib.sha256((self.spec + "\0" + (self.source or "")).encode())
        return "stops_plugin_src_" + digest.hexdigest()[:16]


def plugin_sources(specs: Iterable[str]) -> tuple[PluginSource, ...]:
    """The plug-ins ``specs`` name, ready to send to workers: each ``.py`` file read now
    (where the caller named it, relative to the caller's working directory)."""
    out = []
    for spec in specs:
        if spec.endswith(".py") and not spec.startswith("dist:"):
            path = Path(spec)
            if not path.is_file():
                raise PluginError(f"--plugins {spec}: no such Python file")
            try:
                out.append(PluginSource(spec, path.read_text(encoding="utf-8")))
            except (OSError, UnicodeDecodeError) as e:
                raise PluginError(f"--plugins {spec}: cannot be read: {e}") from None
        else:
            out.append(PluginSource(spec))
    return tuple(out)


def _module_from_source(plugin: PluginSource) -> ModuleType:
    """Run a plug-in's source text as a module (once per process): the code the caller
    chose to run with ``--plugins``, sent with the work instead of read from a file."""
    name = plugin.module_name
    if name in sys.modules:
        return sys.modules[name]
    module = ModuleType(name)
    module.__file__ = plugin.spec
    sys.modules[name] = module
    try:
        exec(compile(plugin.source or "", plugin.spec, "exec"), module.__dict__)
    except Exception as e:
        del sys.modules[name]
        raise PluginError(f"--plugins {plugin.spec}: importing it failed: {e}") from None
    return module


def load_plugins(specs: Iterable[str | PluginSource], base: Registry | None = None
                 ) -> Registry:
    """A copy of ``base`` (default: the default registry) with every plug-in registered.
    A :class:`PluginSource` with its text is run from that text, never from a file."""
    reg = (base or default_registry()).copy()
    for item in specs:
        if isinstance(item, PluginSource) and item.source is not None:
            _register(reg, item.spec, _module_from_source(item))
            continue
        spec = item.spec if isinstance(item, PluginSource) else item
        if spec.startswith("dist:"):
            dist = spec[5:].strip()
            if not dist:
                raise PluginError("--plugins dist:NAME needs a distribution name")
            try:
                loaded = reg.load_entry_points(allow=[dist])
            except RegistryError as e:
                raise PluginError(f"--plugins {spec}: {e}") from None
            except Exception as e:  # an entry point's own code failed
                raise PluginError(f"--plugins {spec}: loading its entry points failed: "
                                  f"{type(e).__name__}: {e}") from None
            if not loaded:
                raise PluginError(f"--plugins {spec}: the distribution {dist!r} is not "
                                  "installed or offers no stops.plugins entry point")
            continue
        _register(reg, spec, _module(spec))
    return reg


def _register(reg: Registry, spec: str, module: ModuleType) -> None:
    register = getattr(module, "register", None)
    if not callable(register):
        raise PluginError(f"--plugins {spec}: the module has no register(registry) "
                          "function")
    try:
        register(reg)
    except RegistryError as e:
        raise PluginError(f"--plugins {spec}: {e}") from None
    except Exception as e:  # the plug-in's own code failed: say so, in one line
        raise PluginError(f"--plugins {spec}: its register(registry) failed: "
                          f"{type(e).__name__}: {e}") from None


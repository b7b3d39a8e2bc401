"""The one mypyc hint the compiled build needs, importable without mypy_extensions.

Never compiled itself: a pure-Python install gets a no-op decorator.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:
    try:
        from mypy_extensions import mypyc_attr
    except ImportError:  # pragma: no cover - the usual case outside a build
        def mypyc_attr(*args, **kwargs):
            return lambda cls: cls

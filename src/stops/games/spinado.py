"""placeholder"""
from __future__ import annotations
from typing import TYPE_CHECKING
if TYPE_CHECKING:
    from stops.rules.registry import Registry


def register(reg: Registry) -> None:
    return None

"""The built-in phase modules, in the order they register (:mod:`stops.builtins` installs
them with the policies and the games).

The list lives here, among the phases, so that the module that installs everything names
modules, not the mechanics of any one game.
"""

from __future__ import annotations

from stops.phases import (
    dealing,
    final_poker,
    held_bonus,
    play,
    poker,
    rotation,
    settle,
    spare,
    stake,
    turn_up,
)

MODULES = (stake, dealing, spare, settle, poker, final_poker, play, rotation, turn_up,
           held_bonus)
"""Every built-in phase module (with the policies a phase owns), in registration order."""

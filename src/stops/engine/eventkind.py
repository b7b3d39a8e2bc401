"""The engine's own kinds of :class:`~stops.engine.events.Event`, as one enum.

Consumers switch on ``EventKind`` members, never on spelled-out strings, so renaming or
finding every use of a kind is a symbol search. The enum is a ``StrEnum``: an event's JSON and
record form (``"kind": "claimed"``) is unchanged, and comparing with a plain string still
works for programs written against earlier versions.

The phases log kinds of their own (a phase's betting, its exchanges): each registers them
with what their fields mean (:mod:`stops.engine.vocabulary`) and holds them as plain string
constants in its module (``SHOWN: Final = "shown"``), which ``e.kind`` is compared with just
the same. The meaning and fields of each kind are listed in ``docs/reference.md``.
"""

from __future__ import annotations

from enum import StrEnum, unique


@unique
class EventKind(StrEnum):
    """What happened. The value is the name used in JSON, records and logs."""

    DEAL_STARTED = "deal_started"
    STAKED = "staked"
    DEALT = "dealt"
    SPARE_DEALT = "spare_dealt"
    TURNED_UP = "turned_up"
    PASSED = "passed"
    CLAIMED = "claimed"
    RETIRED = "retired"
    LED = "led"
    PLAYED = "played"
    STOP = "stop"
    LEAD_PASSED = "lead_passed"
    PASSED_OVER = "passed_over"
    BONUS = "bonus"
    EXCUSED = "excused"
    WENT_OUT = "went_out"
    BLOCKED = "blocked"
    PAID = "paid"
    DEAL_ENDED = "deal_ended"
    ELIMINATED = "eliminated"
    FINAL_SHARE = "final_share"

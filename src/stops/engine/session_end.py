"""What the table did when its session ended after a deal.

A session's end is the table's business (the deal only finishes), but a program that holds
only the deal, such as ``stops replay`` telling a session record, needs it too: the closing
share-out of the chips left on the layout, with each hand dealt for it (Tripoley's last poker
hand), and the chips each seat ends the session with. The table leaves it on the deal as
:attr:`stops.Deal.session_end`.
"""

from __future__ import annotations

from typing import NamedTuple

from stops.engine.events import Event


class SessionEnd(NamedTuple):
    """The end of a session, as the table played it after its last deal."""

    dealer: int
    """The seat that would deal next: it deals a closing share-out's hands."""
    events: tuple[Event, ...]
    """What the table did, in order: seats out of the session, the chips on the layout
    shared out (``claimed`` events) and any hand dealt for it (``final_share`` events)."""
    stacks: tuple[int, ...]
    """Each seat's chips at the end of the session, the share-out included."""


__all__ = ["SessionEnd"]

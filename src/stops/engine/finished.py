"""What a table keeps of each finished deal: the fields its record is built from.

A module of its own so that it is compiled (``hatch_build.COMPILED``) while the records'
module, with its converter and replay, is not: a table makes one of these at the end of every
deal, and made by interpreted Python it cost about 3 % of a compiled deal of random play.
``stops.engine.recording`` exports it too (tables pickled before it moved name it there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Final

if TYPE_CHECKING:
    from stops.engine.deal import Deal


FIELDS: Final = ("actions", "active", "deal_index", "dealer", "dealt_hands", "dealt_spare",
                 "exempt", "final_hands", "last_dealt", "ledger", "n", "seed", "skip_stakes",
                 "start_layout", "start_retired", "start_stacks", "variant")
"""A kept deal's fields, in the order of its pickled state (a compiled class has no
``__slots__`` to read them from)."""


class FinishedDeal:
    """What :func:`~stops.engine.recording.deal_record` reads of a finished deal, and nothing more.

    A table keeps one of these per finished deal (``keep_records``) instead of the record
    itself: the record dict (a string per card and a dict per action) is built only when
    someone reads ``table.records``. The fields are the deal's own, shared rather than
    copied: a finished deal never changes them. So a kept deal costs a few hundred bytes
    instead of a record's several kilobytes, and ending a deal builds nothing.
    """

    __slots__ = FIELDS

    is_terminal: ClassVar[bool] = True

    def __init__(self, deal: Deal | None = None) -> None:
        """What ``deal`` (finished) will be recorded from; with no deal, an empty one that
        only unpickling makes (and fills: :meth:`__setstate__`)."""
        if deal is not None:
            self.variant = deal.variant
            self.n = deal.n
            self.dealer = deal.dealer
            self.start_stacks = deal.start_stacks
            self.start_layout = deal.start_layout
            self.start_retired = deal.start_retired
            self.dealt_hands = deal.dealt_hands
            self.dealt_spare = deal.dealt_spare
            self.actions = deal.actions
            self.deal_index = deal.deal_index
            self.seed = deal.seed
            self.skip_stakes = deal.skip_stakes
            self.active = deal.active
            self.exempt = deal.exempt
            self.last_dealt = deal.last_dealt
            self.ledger = deal.ledger
        self.final_hands: dict[str, Any] | None = None
        """Set by the table when the session ended after this deal with a share-out by
        hands dealt to each seat (the record's ``final_hands``)."""

    def __getstate__(self) -> tuple[Any, ...]:
        """The fields, in :data:`FIELDS`' order: the same state in both builds (a compiled
        class is made again by calling it with no argument, then filled)."""
        return (self.actions, self.active, self.deal_index, self.dealer, self.dealt_hands,
                self.dealt_spare, self.exempt, self.final_hands, self.last_dealt, self.ledger,
                self.n, self.seed, self.skip_stakes, self.start_layout, self.start_retired,
                self.start_stacks, self.variant)

    def __setstate__(self, state: Any) -> None:
        """Fill from :meth:`__getstate__`'s tuple, or from the ``(None, slots)`` pair that a
        table pickled before this class had its own state holds."""
        if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
            state = tuple(state[1].get(name) for name in FIELDS)
        (self.actions, self.active, self.deal_index, self.dealer, self.dealt_hands,
         self.dealt_spare, self.exempt, self.final_hands, self.last_dealt, self.ledger,
         self.n, self.seed, self.skip_stakes, self.start_layout, self.start_retired,
         self.start_stacks, self.variant) = state

    def record(self) -> dict[str, Any]:
        """The deal's record, exactly as ``deal.record()`` gave it when the deal ended (and
        the final share-out's cards, if the session ended after it with one)."""
        from stops.engine.recording import deal_record  # the records' module imports this one

        return deal_record(self, self.final_hands)  # type: ignore[arg-type]


__all__ = ["FIELDS", "FinishedDeal"]

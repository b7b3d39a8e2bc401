"""The one ledger through which every chip moves.

Chips live in two kinds of account: a seat's stack (an ``int`` seat index) and a layout space
(its ``str`` id). :meth:`Ledger.move` is the only way chips change place, so the sum of all
accounts never changes; the tests assert exactly that after every step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

Account = int | str
MAX_CHIPS: Final = 10**15
"""The most chips any one stack or layout pile may hold, either way, as it enters the library
(a table's chips, a record, a save): a thousand million million, far beyond any game. It
keeps every number printable and every sum and range of amounts machine-sized: 52 seats and
256 spaces at the limit hold under 2**63 chips."""
MAX_DECISION_CHIPS: Final = 1000 * MAX_CHIPS
"""The most chips a decision (a stake, or any amount a phase asks for) may name: more than
the whole table can hold, so no legal decision is ever refused for its size."""


def chips_ok(x: object, low: int = -MAX_CHIPS) -> bool:
    """Is ``x`` a whole number of chips from ``low`` to :data:`MAX_CHIPS`?"""
    return isinstance(x, int) and not isinstance(x, bool) and low <= x <= MAX_CHIPS
"""A seat index (a stack) or a layout space id."""


class Ledger:
    """Stacks by seat and chips by layout space."""

    __slots__ = ("contributed", "layout", "stacks")

    def __init__(self, stacks: Iterable[int], layout: Mapping[str, int], *,
                 track: bool = False) -> None:
        self.stacks: list[int] = list(stacks)
        self.layout: dict[str, int] = dict(layout)
        self.contributed: dict[str, list[int]] | None = {} if track else None
        """With ``track``: chips each seat has put on each space (``space -> [by seat]``),
        for rules that give chips back in proportion to what was put in."""

    def copy(self) -> Ledger:
        """An independent copy (the stacks, the layout, the contributions each copied): a
        deal copy's ledger, made with no keyword to bind (``clone_for``'s every imagined
        deal makes one)."""
        new = Ledger(self.stacks, self.layout)
        contributed = self.contributed
        if contributed is not None:
            new.contributed = {k: list(v) for k, v in contributed.items()}
        return new

    def __reduce__(self) -> tuple[object, ...]:
        # the compiled build unpickles a native class by calling it with no arguments
        return (_ledger, (self.stacks, self.layout, self.contributed))

    def contribute(self, seat: int, space: str, chips: int) -> None:
        """Note that ``seat`` put ``chips`` on ``space`` (when tracking)."""
        c = self.contributed
        if c is not None:
            row = c.get(space)
            if row is None:
                row = c[space] = [0] * len(self.stacks)
            row[seat] = row[seat] + chips

    def balance(self, account: Account) -> int:
        if isinstance(account, str):
            return self.layout.get(account, 0)
        return self.stacks[account]

    def move(self, src: Account, dst: Account, chips: int) -> None:
        """Move ``chips`` (>= 0) from ``src`` to ``dst``. Stacks may go negative (debt)."""
        if chips < 0:
            raise ValueError(f"cannot move a negative number of chips ({chips})")
        # each balance read once and written back (no augmented assignment to an item: the
        # compiled build does that with generic number calls)
        if isinstance(src, str):
            have = self.layout.get(src, 0)
            if have < chips:
                raise ValueError(f"space {src} holds {have}, not {chips}")
            self.layout[src] = have - chips
        else:
            stacks = self.stacks
            stacks[src] = stacks[src] - chips
            if self.contributed is not None and isinstance(dst, str):
                self.contribute(src, dst, chips)
        if isinstance(dst, str):
            self.layout[dst] = self.layout.get(dst, 0) + chips
        else:
            stacks = self.stacks
            stacks[dst] = stacks[dst] + chips

    def total(self) -> int:
        """All chips in play: conserved by every move."""
        return sum(self.stacks) + sum(self.layout.values())


def _ledger(stacks: list[int], layout: dict[str, int],
            contributed: dict[str, list[int]] | None) -> Ledger:
    """A ledger rebuilt from a pickle (see :meth:`Ledger.__reduce__`)."""
    out = Ledger(stacks, layout, track=contributed is not None)
    out.contributed = contributed
    return out

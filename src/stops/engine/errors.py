"""The exceptions a user of ``stops`` can meet, each specific enough to act on, and
:class:`Explanation`, what ``deal.explain`` answers for a legal decision (the other side of
an :class:`IllegalAction`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from stops.engine.actions import Action


class StopsError(Exception):
    """Base of every error raised on purpose by ``stops``."""


class IllegalAction(StopsError):
    """A decision the rules do not allow. The deal is left exactly as it was.

    ``code`` is machine-readable (``"not_your_turn"``, ``"not_lowest_in_suit"`` ...);
    ``rule`` names the rule that forbids it, in words. ``legal`` is always ``False`` (an
    :class:`Explanation`, ``deal.explain``'s answer for a legal decision, has it ``True``).
    """

    legal: ClassVar[bool] = False

    def __init__(self, code: str, message: str, *, rule: str = "") -> None:
        self.code = code
        self.rule = rule
        self.message = message
        super().__init__(f"[{code}] {message}" + (f" (rule: {rule})" if rule else ""))


@dataclass(frozen=True)
class Explanation:
    """What a legal decision does: ``deal.explain(action)``'s answer when the rules allow it.

    It reads like an :class:`IllegalAction` (``code``, ``message``, ``rule``), so a user
    interface shows either the same way, and tells the two apart by ``legal``:

    * ``legal`` is ``True`` (``False`` on an :class:`IllegalAction`);
    * ``code`` is the decision's verb (``"lead"``, ``"stake"``, ``"pass"`` ...);
    * ``message`` says what the decision does, in the variant's words (``"lead 5♦: starts
      a sequence in diamonds"``, ``"stake 2 chips on AH: your stake goes on that space of the
      layout"``);
    * ``rule`` is the rule behind the choice on offer (what ``?`` shows in ``stops play``);
    * ``action`` is the decision explained, with any field the player may omit filled in.
    """

    code: str
    message: str
    action: Action
    rule: str = ""
    legal: ClassVar[bool] = True

    def __str__(self) -> str:
        return self.message


class VariantError(StopsError, ValueError):
    """A variant file (or option override) that cannot be loaded.

    Each problem names the file, the key path inside it and what was expected there.
    """

    def __init__(self, problems: Sequence[tuple[str, str, str]]) -> None:
        self.problems = list(problems)
        lines = [f"{f}: {path or '<top>'}: {msg}" for f, path, msg in self.problems]
        super().__init__("\n".join(lines))

    @classmethod
    def one(cls, file: str, path: str, message: str) -> VariantError:
        return cls([(file, path, message)])

    @property
    def file(self) -> str:
        return self.problems[0][0] if self.problems else ""

    @property
    def path(self) -> str:
        return self.problems[0][1] if self.problems else ""


class RecordError(StopsError, ValueError):
    """A deal record that cannot be read or replayed.

    ``index`` is the position of the offending action in the record's ``actions`` list
    (``None`` when the problem is not one action), ``seat`` the seat it names.
    """

    def __init__(
        self, message: str, *, index: int | None = None, seat: int | None = None,
        code: str = "bad_record",
    ) -> None:
        self.index = index
        self.seat = seat
        self.code = code
        where = ""
        if index is not None:
            where = f"action {index}" + (f" (seat {seat})" if seat is not None else "") + ": "
        super().__init__(where + message)


class SessionOver(StopsError):
    """``new_deal`` was asked for after the session's end rule has been met."""


class DealInProgress(StopsError):
    """``new_deal`` was asked for while the previous deal had not finished."""


class SignatureNotChecked(UserWarning):
    """A signed save was restored without its key, so nothing vouches for it.

    ``from_dict(data)`` (no ``key``) on data carrying a ``signature`` warns with this
    category: the signature is not checked, so the save is trusted no more than an unsigned
    one (its deal is dealt again from the seed; a stacked deal is refused). Pass the key, or
    turn the warning into an error with ``warnings.simplefilter("error",
    SignatureNotChecked)``."""

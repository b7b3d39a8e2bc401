"""One seat's observation as a flat vector of float32, for the learning environments.

:class:`VectorEncoder` writes the vector the PettingZoo environment gives an agent
(:mod:`stops.interop.pettingzoo` documents its segments) straight from the parts of the deal
that :meth:`stops.Deal.observe` shows the seat, and nothing else: its own hand, the spare
hand only where ``spare_known`` names the seat, the cards played, the sequence read back from
the events the seat sees, the counts, chips and spaces everyone sees, and the phases'
features folded over the seat's events. It builds no :class:`~stops.engine.observation.Observation`
and uses no numpy (the compiled build compiles this module; the environment hands the new
``array('f')`` it returns to numpy without a copy).

What does not change from one observation to the next is kept, not rebuilt: the 13 values of
a suit's cards per rank mask, the played cards of the deal (extended as plays are added),
each seat's phase features (folded over the events it has seen since it was last encoded),
and each seat's last vector in the deal with the value at each index, so that only the values
that differ are written (an item write into an ``array('f')`` is the dearest part of a value)
and a step costs the same early and late in a deal.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, Protocol, cast

from stops.engine.cards import Card
from stops.engine.eventkind import EventKind
from stops.engine.events import Event
from stops.interop.codec import CHIP_BOUND

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.phases.aids import PhaseAids
    from stops.rules.variant import Variant

K_LED: Final = EventKind.LED
K_PLAYED: Final = EventKind.PLAYED
_LAID: Final = frozenset({K_LED, K_PLAYED})
"""The kinds of event that lay a card: one set look-up an event, not two compares."""

_SUIT_ROWS: Final[dict[int, array[float]]] = {}
"""A suit's 13 values (1.0 where a rank of the mask is held) per 13-bit rank mask, made
when first needed from its two halves (there are 8,192 masks: most of a run's first
thousands of steps would otherwise build a row value by value)."""

_LOW: Final[list[array[float]]] = [array("f", [float(m >> r & 1) for r in range(7)])
                                   for m in range(1 << 7)]
"""The values of the ranks 0-6 per 7-bit mask."""
_HIGH: Final[list[array[float]]] = [array("f", [float(m >> r & 1) for r in range(6)])
                                    for m in range(1 << 6)]
"""The values of the ranks 7-12 per 6-bit mask."""


class _Floats(Protocol):
    """Where a vector's single values are written: a ``memoryview`` of its ``array('f')``
    (format ``f``). An item write into the array itself parses the float again
    (``PyArg_Parse``), the view's converts it directly: about a third less a value, in
    both builds (and the array's own buffer, so the values are the same)."""

    def __setitem__(self, i: int, x: float, /) -> None: ...


def _floats(v: array[float]) -> _Floats:
    """A view of ``v`` (an ``array('f')``: its memoryview has format ``f``) to write single
    values through. While it lives, ``v`` can still be written, slices of the same length
    included, but never resized."""
    return cast(_Floats, memoryview(v))


def last_laid(events: list[Event], seat: int) -> int:
    """The card (as an int) that ends the sequence :func:`stops.engine.observation.sequence_of`
    reads from the events of ``events`` that ``seat`` sees, or -1 if that sequence is empty.
    Only its last card is wanted, so the scan stops at the first lead or play from the end
    (one or two events), not at the lead that began the sequence (a sequence can be most of
    a deal long); and only a lead or a play is asked whether the seat sees it
    (``Event.visible`` written out: a method of a named tuple is a Python-level call in the
    compiled build). A card is an ``int``: taken as one, not converted by a call.
    ``events`` is a list (the deal's log, or the seat's events listed): an item of it is a
    native read in the compiled build, not a generic one."""
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        k = e.kind
        if k in _LAID:
            vt = e.visible_to
            if vt is not None and seat not in vt:
                continue
            card = e.card
            if e.seat is not None and card is not None:
                c: int = card
                return c
            if k == K_LED:
                return -1
    return -1


def _move(v: _Floats, single: list[int], segment: int, i: int) -> None:
    """Move the 1.0 of a one-hot segment with one (``single[segment]``: its index, -1 for
    none) to ``i`` (-1: none)."""
    was = single[segment]
    if was >= 0:
        v[was] = 0.0
    if i >= 0:
        v[i] = 1.0
    single[segment] = i


def _move_all(v: _Floats, was: tuple[int, ...], now: tuple[int, ...]) -> None:
    """Move the 1.0s of a segment with several (the spare hand's known cards, the cards
    picked so far) from the indices ``was`` to ``now``."""
    for i in was:
        v[i] = 0.0
    for i in now:
        v[i] = 1.0


def _suit_row(m: int) -> array[float]:
    row = _SUIT_ROWS.get(m)
    if row is None:
        row = _SUIT_ROWS[m] = _LOW[m & 0x7F] + _HIGH[m >> 7]
    return row


class _Seen:
    """What one seat's features were folded over: the deal's log, the scan of it read
    (``VectorEncoder._scan``; ``None``: the seat's own events were read), how many of
    the events read, the last of them, and the values."""

    __slots__ = ("events", "last", "scan", "upto", "values")

    def __init__(self, events: list[Event], scan: list[Event] | None, sizes: list[int]) -> None:
        self.events = events
        self.scan = scan
        self.upto = 0
        self.last: Event | None = None
        self.values: list[list[float]] = [[0.0] * k for k in sizes]


_NONE: Final[tuple[int, ...]] = ()


class _Kept:
    """One seat's last vector in one deal, and what it holds: ``now`` the value at each
    index of the segments written a value at a time (counts, chips, spaces, features,
    deals left: ``now[i - base]`` is the value at ``i``, from the ``hand_sizes`` segment
    on, the first of them, so that a copy of it copies no card), ``masks`` the hand's suit
    masks written, ``plays`` and ``played`` the deal's plays list and how many of them the
    played segment shows, ``single`` the index of the 1.0 of each one-hot segment that has
    one (the last card, phase, seat, dealer, seat to act; -1: none), ``spare``,
    ``picked`` and ``retired`` the indices set to 1.0 in the segments that may have several,
    and ``counts``, ``stacks``, ``layout``, ``held`` and ``features`` what those segments
    were written from (``None``: not yet; for ``counts`` also: they changed at the last
    look, so the next looks at each value without comparing the lists first)."""

    __slots__ = ("counts", "deal", "features", "held", "layout", "masks", "now", "picked",
                 "played", "plays", "put", "retired", "single", "spare", "stacks", "upto",
                 "vec")

    def __init__(self, deal: Deal, zero: array[float], size: int, other: _Kept | None,
                 vec: array[float], put: _Floats) -> None:
        """A vector of ``deal`` all 0 (``zero``, ``size`` values from the ``hand_sizes``
        segment on), or, given ``other`` (another seat's last vector in the same deal), a
        copy of it and of what it was written from: most of a vector is what every seat
        sees, and what differs (the hand, the seat, what only some seats see) is then
        written as any change is. What is changed in place is copied; the rest is
        replaced, never changed, and shared. (A copy is made straight, not over a vector
        of zeros made first.) The vector is written into ``vec``, the seat's own array
        (``VectorEncoder._vecs``: every caller got a copy of what it held), whose view
        ``put`` its single values are written through (see ``_Floats``)."""
        self.deal = deal
        self.vec: array[float] = vec
        self.put: _Floats = put
        vec[:] = zero if other is None else other.vec  # the same length: no resize
        if other is None:
            self.now: list[float] = [0.0] * size
            self.masks: list[int] = [0, 0, 0, 0]
            self.single: list[int] = [-1, -1, -1, -1, -1]
            self.plays: list[tuple[int, Card]] | None = None
            self.played = 0
            self.spare: tuple[int, ...] = _NONE
            self.picked: tuple[int, ...] = _NONE
            self.retired: tuple[int, ...] = _NONE
            self.held: set[str] | None = None
            self.counts: list[int] | None = None
            self.stacks: list[int] | None = None
            self.layout: dict[str, int] | None = None
            self.features: _Seen | None = None
            """The fold last written out, and (``upto``) how far it had read then."""
            self.upto = -1
        else:
            self.now = other.now[:]
            self.masks = other.masks[:]
            self.single = other.single[:]
            self.plays = other.plays
            self.played = other.played
            self.spare = other.spare
            self.picked = other.picked
            self.retired = other.retired
            self.held = other.held
            self.counts = other.counts
            self.stacks = other.stacks
            self.layout = other.layout
            self.features = other.features
            self.upto = other.upto


class VectorEncoder:
    """Writes one seat's observation vector (see the module docstring).

    ``starts`` gives each segment's first index (the names of
    ``StopsAECEnv.observation_layout``), ``size`` the vector's length, ``phases`` the phase
    names of the ``phase`` segment (``"over"`` last), ``aids`` the phases' aids that declare
    features and ``slots[i]`` where each value of ``aids[i]`` goes: its index in the vector
    and whether it counts chips (clipped to ``bound``).
    """

    def __init__(self, players: int, size: int, starts: dict[str, int],
                 phases: tuple[str, ...], space_ids: tuple[str, ...],
                 aids: Sequence[PhaseAids],
                 features: Sequence[Sequence[tuple[str, int, int, bool]]],
                 bound: float) -> None:
        self.n = players
        self.size = size
        self.phases = phases
        self.phase_at: dict[str, int] = {}
        for i, p in enumerate(phases):
            self.phase_at.setdefault(p, i)
        self.space_ids = space_ids
        self.aids = list(aids)
        self.folding = all(a.folds_events for a in aids)
        kinds: set[str] = set()
        any_kind = False
        for a in aids:
            read = a.fold_kinds
            if read is None:
                any_kind = True
            else:
                kinds |= read
        self.fold_kinds: frozenset[str] | None = None if any_kind else frozenset(kinds)
        """The event kinds any phase's ``fold`` reads (``None``: any may): the folds are
        called only when a seat's new events bring one (see ``PhaseAids.fold_kinds``)."""
        self.named: list[dict[str, tuple[int, bool]]] = [
            {name: (start, chips) for name, start, _size, chips in segs} for segs in features]
        """Per phase: each feature's first index, and whether it counts chips."""
        self.slots: list[list[tuple[int, bool]]] = [
            [(start + j, chips) for _name, start, size, chips in segs for j in range(size)]
            for segs in features]
        """Per phase: where each of its values (see ``PhaseAids.fold``) goes."""
        self.sizes: list[int] = [len(s) for s in self.slots]
        """Per phase: how many values it folds (a seat's first look in a deal folds anew)."""
        self.bound = bound
        self.zero: array[float] = array("f", bytes(4 * size))
        self.base = starts["hand_sizes"]
        """The first index a ``_Kept`` keeps the value of (see ``_Kept.now``)."""
        self.hand = starts["hand"]
        self.played = starts["played"]
        self.spare_known = starts["spare_known"]
        self.last_card = starts["last_card"]
        self.picked = starts["picked"]
        self.hand_sizes = starts["hand_sizes"]
        self.spare_size = starts["spare_size"]
        self.stacks = starts["stacks"]
        self.layout = starts["layout"]
        self.retired = starts["retired"]
        self.phase = starts["phase"]
        self.seat = starts["seat"]
        self.dealer = starts["dealer"]
        self.to_act = starts["to_act"]
        self.deals_left = starts["deals_left"]
        self.phase_in_flow: list[int] = [self.phase + self.phase_at[p] for p in phases[:-1]]
        """The index of the 1.0 of the ``phase`` segment per position in the flow (a deal's
        ``phase_idx``; ``phases`` is the flow, then ``"over"``): no phase name read from
        the deal's variant and looked up per call."""
        self.phase_over = self.phase + self.phase_at["over"]
        """The index of the 1.0 of the ``phase`` segment once no seat is to act."""
        self._plays: list[tuple[int, Card]] | None = None
        self._played_upto = 0
        self._played: array[float] = array("f", bytes(4 * 52))
        self._played_put = _floats(self._played)
        self._seen: dict[int, _Seen] = {}
        self._kept: dict[int, _Kept] = {}
        self._vecs: dict[int, tuple[array[float], _Floats]] = {}
        """Each seat's array, which its ``_Kept`` writes, and its view: one per seat for
        good, written over at each new deal (a ``memoryview`` a look costs more than the
        writes it saves). Only one ``_Kept`` of a seat is held at a time (``_kept``), and
        every caller is given a copy."""
        self._recent: _Kept | None = None
        """The last seat's vector: a seat's first vector in a deal starts from it."""
        self._scan: list[Event] = []
        """The events of ``fold_kinds`` in the log ``_scan_log``, in order, from its first
        ``_scan_upto`` events (the last of which is ``_scan_last``): found once for every
        seat, each seat's fold then asks only these whether it sees them."""
        self._scan_log: list[Event] | None = None
        self._scan_upto = 0
        self._scan_last: Event | None = None

    def forget(self) -> None:
        """Drop every vector and fold kept (a new episode: its deals are new). What was
        kept holds the old deal, the last reference to it once the environment has moved
        on: dropped here, the old deal is freed by the reset, not by the next step's
        observation."""
        self._kept = {}
        self._seen = {}
        self._recent = None
        self._scan = []
        self._scan_log = None
        self._scan_upto = 0
        self._scan_last = None
        self._plays = None
        self._played_upto = 0

    def clip(self, x: float) -> float:
        b = self.bound
        return b if x > b else -b if x < -b else x

    def encode(self, deal: Deal, seat: int, picked: Sequence[int],
               deals_left: float, copy: bool = True) -> array[float]:
        """The vector of ``seat`` in ``deal`` now (``picked``: the cards it has picked so far
        for a choice of several; ``deals_left``: the episode's deals still to start), a new
        array the caller owns; with ``copy`` false, the seat's own array itself, the same
        object at every look of that seat and written over at its next one (for a caller
        that copies it at once into an array of its own, e.g. through a numpy view made
        once over it: one copy a look rather than two).

        Each seat's last vector in this deal is kept, with the values written at each index
        (``_Kept``): a value is written only where it differs. Between two looks of a seat
        a few cards move and the seat to act changes, and an item write into an
        ``array('f')`` costs more than the rest of its value's work."""
        kept = self._kept.get(seat)
        if kept is None or kept.deal is not deal:
            recent = self._recent  # a seat's first look at a deal: another seat's vector
            vecs = self._vecs.get(seat)
            if vecs is None:
                vec = self.zero[:]
                vecs = self._vecs[seat] = (vec, _floats(vec))
            kept = self._kept[seat] = _Kept(deal, self.zero, self.size - self.base,
                                            recent if recent is not None
                                            and recent.deal is deal else None,
                                            vecs[0], vecs[1])
        self._recent = kept
        vec = kept.vec  # its slices are written to it, its single values through ``v``
        v = kept.put
        now = kept.now
        at = self.hand
        masks = deal.masks[seat]
        held = kept.masks
        for suit in range(4):
            m = masks[suit]
            was = held[suit]
            if m != was:
                held[suit] = m
                o = at + 13 * suit
                d = m ^ was
                if d & (d - 1) == 0:  # one card left or came (a play): its value alone
                    v[o + d.bit_length() - 1] = 1.0 if m & d else 0.0
                else:
                    vec[o:o + 13] = _SUIT_ROWS.get(m) or _suit_row(m)  # no call once made
        plays = deal.plays
        if plays:
            if plays is not kept.plays or len(plays) != kept.played:
                # the played cards, shown once for every seat: the deal's plays since the
                # last look of any seat marked in one row (written out: a frame less pure)
                row = self._played_put
                if plays is not self._plays or len(plays) < self._played_upto:
                    self._plays = plays
                    self._played_upto = 0
                    self._played = self.zero[:52]
                    self._played_put = row = _floats(self._played)
                for i in range(self._played_upto, len(plays)):
                    c: int = plays[i][1]  # a card is an int: no call to convert it
                    row[c] = 1.0
                self._played_upto = len(plays)
                at = self.played
                vec[at:at + 52] = self._played
                kept.plays = plays
                kept.played = len(plays)
        elif kept.played:
            at = self.played
            vec[at:at + 52] = self.zero[at:at + 52]
            kept.plays = None
            kept.played = 0
        # the one-hot segments, each written only where it changed since the seat's last
        # vector: a 1.0 moved is a 0.0 and a 1.0 written
        to_act = deal.to_act
        if seat in deal.spare_known and deal.spare:
            at = self.spare_known
            spare = tuple(sorted(at + c for c in deal.spare))
        else:
            spare = _NONE
        if spare is not kept.spare and spare != kept.spare:  # (): the one empty tuple
            _move_all(v, kept.spare, spare)
            kept.spare = spare
        if to_act is not None and to_act == seat and picked:  # (an int compared natively)
            at = self.picked
            chosen = tuple(at + p for p in picked)
        else:
            chosen = _NONE
        if chosen is not kept.picked and chosen != kept.picked:
            _move_all(v, kept.picked, chosen)
            kept.picked = chosen
        # the seat's events as the deal keeps them, only where a phase's fold may read any
        # kind; otherwise the deal's log is read, each event the encoder needs asked whether
        # the seat sees it (most events are of no use here: asking each costs more)
        events = deal.seen_by(seat) if self.fold_kinds is None else None
        last = -1
        if plays:
            last = last_laid(deal.events if events is None else list(events), seat)
            if last >= 0:
                last += self.last_card
        single = kept.single
        was = single[0]
        if last != was:  # _move written out: the last card moves at nearly every look
            if was >= 0:
                v[was] = 0.0
            if last >= 0:
                v[last] = 1.0
            single[0] = last
        i = self.phase_over if to_act is None else self.phase_in_flow[deal.phase_idx]
        if i != single[1]:
            _move(v, single, 1, i)
        i = self.seat + seat
        if i != single[2]:
            _move(v, single, 2, i)
        i = self.dealer + deal.dealer
        if i != single[3]:
            _move(v, single, 3, i)
        i = -1 if to_act is None else self.to_act + to_act
        if i != single[4]:
            _move(v, single, 4, i)
        # the counts, chips and spaces, each segment looked at only if what it shows changed
        n = self.n
        base = self.base
        counts = deal.counts
        b = self.bound  # ``clip`` written out: a call per value is most of these loops
        # the hand sizes: where they changed at the seat's last look they are looked at
        # value by value straight away (Boodle: every seat plays between two looks of one),
        # otherwise compared as a list first (Three-in-One's betting moves no card)
        shown = kept.counts
        if shown is None or counts != shown:
            at = self.hand_sizes
            k = at - base
            moved = False
            for i in range(n):
                x = float(counts[i])
                if now[k + i] != x:
                    now[k + i] = x
                    v[at + i] = x
                    moved = True
            kept.counts = None if moved else counts[:]
        stacks = deal.ledger.stacks
        if stacks != kept.stacks:
            # a count of chips is clipped to [-b, b] and written where it is not there
            # already (written out, not a call per value: most of the pure build's cost)
            at = self.stacks
            k = at - base
            for i in range(n):
                x = float(stacks[i])
                x = b if x > b else -b if x < -b else x
                if now[k + i] != x:
                    now[k + i] = x
                    v[at + i] = x
            kept.stacks = stacks[:]
        x = float(len(deal.spare))
        at = self.spare_size
        if now[at - base] != x:
            now[at - base] = x
            v[at] = x
        ids = self.space_ids
        if ids:
            layout = deal.ledger.layout
            if layout != kept.layout:
                at = self.layout
                k = at - base
                for i, sid in enumerate(ids):
                    x = float(layout.get(sid, 0))
                    x = b if x > b else -b if x < -b else x
                    if now[k + i] != x:
                        now[k + i] = x
                        v[at + i] = x
                kept.layout = dict(layout)
            retired = deal.retired
            if retired != kept.held:
                for i in kept.retired:
                    v[i] = 0.0
                at = self.retired
                gone = tuple(at + i for i, sid in enumerate(ids) if sid in retired)
                for i in gone:
                    v[i] = 1.0
                kept.retired = gone
                kept.held = set(retired)
        if self.aids:
            if self.folding:
                self._fill_features(v, now, kept, deal, seat, events)
            else:
                self._fill_views(v, now, deal, seat)
        at = self.deals_left
        if now[at - base] != deals_left:
            now[at - base] = deals_left
            v[at] = deals_left
        return vec[:] if copy else vec

    def _fill_features(self, v: _Floats, now: list[float], kept: _Kept, deal: Deal,
                       seat: int, events: tuple[Event, ...] | None) -> None:
        """The phases' features of ``seat``, folded over what it has seen since it was last
        encoded, and written out where the seat's vector does not show them yet.
        ``events``: the seat's events, where some phase's fold may read any kind; ``None``:
        the folds read only ``fold_kinds``, and get only the events of those kinds the seat
        sees, in order: the deal's log is scanned for those kinds once for every seat
        (``_scan``), and each seat asks only them whether it sees them."""
        seen = self._seen.get(seat)
        log = deal.events
        read: Sequence[Event]
        scan: list[Event] | None = None
        if events is None:
            # the events of ``fold_kinds`` in the log, in order (``_scan``), brought up to
            # date with the events logged since any seat's last look; a new list if the log
            # is another one or was not extended (a copy of the deal, another deal).
            # Written out here, its one caller: a frame less a look, pure
            upto = self._scan_upto
            if (log is not self._scan_log or upto > len(log)
                    or (upto and log[upto - 1] is not self._scan_last)):
                self._scan = []
                self._scan_log = log
                upto = 0
            if upto < len(log):
                kinds = self.fold_kinds
                assert kinds is not None
                found = self._scan
                for i in range(upto, len(log)):
                    e = log[i]
                    if e.kind in kinds:
                        found.append(e)
                self._scan_upto = len(log)
                self._scan_last = log[-1]
            scan = read = self._scan
            fresh = (seen is None or seen.events is not log or seen.scan is not scan
                     or seen.upto > len(scan))
        else:
            read = events
            fresh = (seen is None or seen.events is not log or seen.upto > len(read)
                     or (seen.upto > 0 and read[seen.upto - 1] is not seen.last))
        if fresh or seen is None:
            seen = self._seen[seat] = _Seen(log, scan, self.sizes)
        upto = seen.upto
        if upto < len(read):
            if events is not None:
                for k, aids in enumerate(self.aids):
                    aids.fold(read, upto, seen.values[k])
            else:
                new: list[Event] = []
                for i in range(upto, len(read)):
                    e = read[i]
                    if e.visible(seat):
                        new.append(e)
                if new:
                    for k, aids in enumerate(self.aids):
                        aids.fold(new, 0, seen.values[k])
            seen.upto = len(read)
            seen.last = read[-1]
        elif kept.features is seen and kept.upto == upto:
            return  # nothing folded since this vector showed these values
        kept.features = seen
        kept.upto = seen.upto
        b = self.bound
        base = self.base
        for k, slots in enumerate(self.slots):
            values = seen.values[k]
            for j, (i, chips) in enumerate(slots):
                x = values[j] or 0.0  # a -0.0 is shown as 0.0 (it always was: not written)
                if chips:
                    x = b if x > b else -b if x < -b else x
                if now[i - base] != x:
                    now[i - base] = x
                    v[i] = x

    def _fill_views(self, v: _Floats, now: list[float], deal: Deal, seat: int) -> None:
        """Features of a phase that needs the whole observation: each phase's ``fill`` (on
        values all 0 first: ``fill`` writes only what is not)."""
        base = self.base
        for slots in self.slots:
            for i, _chips in slots:
                if now[i - base]:
                    now[i - base] = 0.0
                    v[i] = 0.0
        view = deal.observe(seat)
        for k, aids in enumerate(self.aids):
            named = self.named[k]

            def put(name: str, offset: int, value: float,
                    named: dict[str, tuple[int, bool]] = named) -> None:
                i, chips = named[name]
                x = self.clip(value) if chips else value
                now[i + offset - base] = x
                v[i + offset] = x

            aids.fill(view, put)


class ObservationLayout:
    """The segments of a variant's observation vector at ``players`` seats: each one's name,
    size and bounds, in order (``slices``, ``lows``, ``highs``, ``size``), and the
    :class:`VectorEncoder` that writes it. After the segments every game has (cards, stacks,
    layout, phase, seats) come the features the phases of the flow declare, in flow order
    (:meth:`stops.phases.aids.PhaseAids.features`), then ``deals_left`` (0 to
    ``deals_per_episode``). Chip counts are clipped to ``[-CHIP_BOUND, CHIP_BOUND]``."""

    def __init__(self, variant: Variant, players: int, deals_per_episode: int = 1) -> None:
        n, s = players, len(variant.space_ids)
        b = float(CHIP_BOUND)
        self.variant = variant
        self.players = n
        self.phases: tuple[str, ...] = (*variant.flow, "over")
        segments: list[tuple[str, int, float, float]] = [
            ("hand", 52, 0.0, 1.0),
            ("played", 52, 0.0, 1.0),
            ("spare_known", 52, 0.0, 1.0),
            ("last_card", 52, 0.0, 1.0),
            ("picked", 52, 0.0, 1.0),
            ("hand_sizes", n, 0.0, 52.0),
            ("spare_size", 1, 0.0, 52.0),
            ("stacks", n, -b, b),
            ("layout", s, -b, b),
            ("retired", s, 0.0, 1.0),
            ("phase", len(self.phases), 0.0, 1.0),
            ("seat", n, 0.0, 1.0),
            ("dealer", n, 0.0, 1.0),
            ("to_act", n, 0.0, 1.0),
        ]
        # then the features the phases of the flow declare, in flow order (who folded and
        # what each seat has bet, the highest bid for the spare hand ...)
        self.feature_aids: list[PhaseAids] = []
        for phase in variant.phases:
            aids: PhaseAids = phase.aids()
            features = aids.features(variant, n)
            if features:
                self.feature_aids.append(aids)
            for f in features:
                if any(f.name == seg[0] for seg in segments):
                    raise ValueError(f"two segments of the observation are named {f.name!r} "
                                     f"(the {phase.name} phase declares one)")
                segments.append((f.name, f.size, -b if f.chips else f.low,
                                 b if f.chips else f.high))
        segments.append(("deals_left", 1, 0.0, float(deals_per_episode)))
        self.slices: dict[str, slice] = {}
        self.lows: list[float] = []
        self.highs: list[float] = []
        for name, size, low, high in segments:
            self.slices[name] = slice(len(self.lows), len(self.lows) + size)
            self.lows += [low] * size
            self.highs += [high] * size
        self.size = len(self.lows)
        self.starts: dict[str, int] = {k: sl.start for k, sl in self.slices.items()}

    def encoder(self) -> VectorEncoder:
        """A new encoder of this layout (it keeps what it has folded, per deal and seat)."""
        v, n = self.variant, self.players
        return VectorEncoder(
            n, self.size, self.starts, self.phases, v.space_ids, self.feature_aids,
            [[(f.name, self.starts[f.name], f.size, f.chips) for f in aids.features(v, n)]
             for aids in self.feature_aids],
            float(CHIP_BOUND))

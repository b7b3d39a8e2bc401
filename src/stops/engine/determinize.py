"""``deal.clone_for(seat, rng)``: a copy of a deal as one seat might imagine it.

Information-set search (ISMCTS and its kin) samples a *determinization*: a full deal that
agrees with everything one seat has seen, with the cards it cannot see dealt again at random.
What stays fixed:

- the seat's own hand, every card played, and every card removed from the pack;
- the spare hand, if this seat knows it (its own old hand after a swap);
- cards shown to this seat and still held (a showdown, a pay card claimed by holding it);
- cards that a stop proved to be in the spare hand (``the next card is in the spare hand``),
  and a card turned up from it;
- the opening card(s) the seat to act must lead, and that the seat to act can lead at all
  (or, in play by turns, make the decision it has: hold a card of the needed rank);
- how many cards every hand and the spare hold.

Everything else held by another seat or the spare is shuffled among them. Poker selections
not yet shown are chosen again from the new hands. Events this seat may not see are kept
with their cards removed, so the copy cannot leak the real hands; its ``record()`` describes
the imagined deal only loosely and is not meant to be replayed. Inferences drawn from a
*passed* lead (the seat had nothing it might lead) are not enforced, nor are sealed bids
resampled; the copy is detached from the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stops.engine.cards import CARDS
from stops.engine.errors import StopsError

if TYPE_CHECKING:
    from stops.engine.deal import Deal

SPARE = -1
MAX_TRIES = 200


def _draw(rng: Any, n: int) -> int:
    if hasattr(rng, "below"):
        return int(rng.below(n))
    return int(rng.randrange(n))


def shuffle_with(rng: Any, items: list[int]) -> None:
    """Shuffle ``items`` in place with ``rng`` (a ``stops`` Rng or a ``random.Random``)."""
    for i in range(len(items) - 1, 0, -1):
        j = _draw(rng, i + 1)
        items[i], items[j] = items[j], items[i]


def clone_for(deal: Deal, seat: int, rng: Any) -> Deal:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.n:
        raise StopsError(f"clone_for: no seat {seat!r} at a table of {deal.n}")
    if not (hasattr(rng, "below") or hasattr(rng, "randrange")):
        raise StopsError("clone_for: rng must be a random.Random or a stops Rng")
    owner = deal.owner
    if not deal.dealt_hands:
        return deal.clone()  # nothing dealt yet: nothing is hidden
    fixed: dict[int, int] = {}
    for c in range(52):
        if owner[c] == seat:
            fixed[c] = seat
    if seat in deal.spare_known:
        for c in deal.spare:
            fixed[c] = SPARE
    for e in deal.events:
        if not e.visible(seat):
            continue
        if e.kind in ("showdown", "claimed") and e.seat is not None:
            for c in e.cards:
                if owner[c] == e.seat:
                    fixed[c] = e.seat
        elif e.kind == "stop" and e.card is not None and "spare" in e.note:
            c = int(e.card)
            # the next card up in the suit (with the ace low, the two follows the ace)
            nxt = c - 12 if deal.ace_low and c % 13 == 12 else c + 1
            if nxt < 52 and owner[nxt] == SPARE:
                fixed[nxt] = SPARE
        elif e.kind == "turned_up" and e.card is not None and owner[e.card] == SPARE:
            fixed[int(e.card)] = SPARE  # a turned-up card lies face up on the spare
    phase = deal.variant.phases[deal.phase_idx] if deal.to_act is not None else None
    in_play = phase is not None and getattr(phase, "name", "") == "play"
    lead = deal.scratch.get("lead") if in_play else None
    if lead is not None and deal.scratch.get("opening"):
        for c in lead[1]:
            fixed[c] = lead[0]
    hidden = [c for c in range(52) if c not in fixed and (owner[c] >= 0 or owner[c] == SPARE)]
    slots: list[int] = []  # one entry per hidden card: where it goes
    for s in range(deal.n):
        if s != seat:
            held = sum(1 for c in range(52) if owner[c] == s)
            slots += [s] * (held - sum(1 for c, w in fixed.items() if w == s))
    slots += [SPARE] * (len(deal.spare) - sum(1 for w in fixed.values() if w == SPARE))
    for _ in range(MAX_TRIES):
        shuffle_with(rng, hidden)
        new = deal.clone()
        _place(new, {**fixed, **dict(zip(hidden, slots, strict=True))}, seat)
        if lead is not None and lead[0] != seat and not new.scratch.get("opening"):
            s, _opts, constraint = lead
            opts = phase._after_impl(new, s, constraint, phase._after_params)  # type: ignore[union-attr]
            if not opts:
                continue  # in this world the seat to act could not lead: not consistent
            new.scratch["lead"] = (s, list(opts), constraint)
        if in_play and deal.to_act != seat and not len(new.legal_actions()):
            continue  # in this world the seat to act could not make the decision it has
        for phase in new._phases:  # private state a phase keeps about the hidden cards
            phase.after_redeal(new, seat, rng)
        return new
    raise StopsError(f"clone_for: found no deal consistent with seat {seat}'s view in "
                     f"{MAX_TRIES} tries")


def _place(new: Deal, where: dict[int, int], seat: int) -> None:
    """Put every card in ``where`` with its holder, rebuilding masks, counts and the spare."""
    n = new.n
    new.masks = [[0, 0, 0, 0] for _ in range(n)]
    new.counts = [0] * n
    new.spare = set()
    for c in range(52):
        w = where.get(c)
        if w is None:
            continue
        if w == SPARE:
            new.owner[c] = SPARE
            new.spare.add(c)
        else:
            new.give(w, c)
    played: list[list[int]] = [[] for _ in range(n)]
    for c in range(52):
        if new.played_by[c] >= 0:
            played[new.played_by[c]].append(c)
    dealt = list(new.dealt_hands)
    for s in range(n):
        if s != seat and s < len(dealt):
            dealt[s] = tuple(CARDS[c] for c in sorted([*new.hand(s), *played[s]]))
    new.dealt_hands = tuple(tuple(h) for h in dealt)
    new.dealt_spare = tuple(CARDS[c] for c in sorted(new.spare))
    new.events = [e if e.visible(seat) or (not e.cards and e.card is None)
                  else e._replace(cards=(), card=None) for e in new.events]
    new.emit = new.events.append
    new._legal = None

"""A fixed numbering of every decision of a variant, for learners with a discrete action
space: the PettingZoo environment and the OpenSpiel games number their actions with it.

No learning framework is imported here, so each adapter's extra brings only its own packages.
"""

from __future__ import annotations

import operator
from typing import Any, Final

import attrs

from stops.engine.actions import RANK_NAMES, Action, lead, simple, with_chips
from stops.engine.cards import CARDS, Card
from stops.phases.rotation import RotationParams
from stops.rules.contracts import COMPANION, TURN_ORDER, WILD_CARD
from stops.rules.variant import Variant

__all__ = ["AMOUNT_CAP", "CHIP_BOUND", "ActionCodec"]

AMOUNT_CAP: Final = 100
"""Largest amount of a decision whose phase sets no bound (an offer for the spare hand) the
action space can express: `VERB 1` .. `VERB 100`."""
CHIP_BOUND: Final = 1_000_000
"""Chip counts in the observation are clipped to ``[-CHIP_BOUND, CHIP_BOUND]``."""
_KNOWN_MAX: Final = 50_000
"""How many actions :meth:`ActionCodec.legal_indices` keeps the index of before it starts
again (the engine's actions are interned, but a long run of offers need not be)."""
_OWN_FAMILIES: Final = frozenset({"stake", "lead", "play", "follow"})
"""The engine's verbs that have families of their own below (a lead is a card index, plays and
follows come only in variants that have them); every other verb gets indices by its fields."""


def _stake_cap(variant: Variant) -> int:
    """The largest stake a seat may be asked to choose: the biggest whole-number parameter of
    the stake rule (``free: chips``, ``choose_one_card: card_chips`` ...) times the unit."""
    params = variant.policy("stake_rule").params
    amounts = [1]
    if params is not None and attrs.has(type(params)):
        amounts += [v for v in attrs.asdict(params).values()
                    if isinstance(v, int) and not isinstance(v, bool) and v > 0]
    return max(amounts) * max(1, variant.rules.stake_unit)


class ActionCodec:
    """A fixed numbering of every decision of a variant, for discrete-action learners.

    ``encode(action) -> int`` and ``decode(seat, index) -> Action`` are pure: index ``c`` in
    0..51 decodes to ``lead c``. (The environment reads a card index as "pick this card" while
    the seat is choosing several cards at once; such a decision (a ``select``) has no single
    index, see :meth:`encode_select`.)

    The indices follow ``variant.verbs()``, in the order of the variant's flow: card indices,
    then the field-less verbs (``simple_verbs``, from ``simple_base``), then a family of
    amounts per verb with ``chips`` (``chips_base[verb]``, ``chips_cap[verb]``), then 52 per
    phase verb with one ``card`` (``card_base[verb]``), then the stakes and the engine's
    play, follow and group families. A verb with another mix of fields has no index.
    """

    def __init__(self, variant: Variant, players: int, *, amount_cap: int = AMOUNT_CAP,
                 stake_cap: int | None = None) -> None:
        self.variant = variant
        self.players = players
        self.amount_cap = amount_cap
        self.stake_cap = stake_cap if stake_cap is not None else _stake_cap(variant)
        self.space_ids: tuple[str, ...] = variant.space_ids
        verbs = [v for v in variant.verbs() if v.name not in _OWN_FAMILIES]
        self.simple_verbs: tuple[str, ...] = tuple(v.name for v in verbs if not v.fields)
        self.cards_verbs: tuple[str, ...] = tuple(v.name for v in verbs
                                                  if v.fields == ("cards",))
        """Verbs that choose several cards at once: made of card picks (:meth:`encode_select`)."""
        labels = [f"card {CARDS[c]}" for c in range(52)]
        self.simple_base = len(labels)
        labels += list(self.simple_verbs)
        self.chips_base: dict[str, int] = {}
        self.chips_cap: dict[str, int] = {}
        for v in verbs:
            if v.fields == ("chips",):
                bound = v.most(variant) if v.most is not None else None
                # an amount only the stacks bound: as high as ``amount_cap`` can express
                cap = amount_cap if bound is None else max(1, bound)
                self.chips_base[v.name] = len(labels)
                self.chips_cap[v.name] = cap
                labels += [f"{v.name} {k}" for k in range(1, cap + 1)]
        self.card_base: dict[str, int] = {}
        for v in verbs:
            if v.fields == ("card",):
                self.card_base[v.name] = len(labels)
                labels += [f"{v.name} {CARDS[c]}" for c in range(52)]
        self._chips_at = sorted((b, v) for v, b in self.chips_base.items())
        self._card_at = sorted((b, v) for v, b in self.card_base.items())
        self.stake_base = len(labels)
        labels += [f"stake {s} {k}" for s in self.space_ids for k in range(1, self.stake_cap + 1)]
        # the families of the play in turn and of a companion card: only for variants that
        # have them, so the first games keep their action space
        turns = variant.policy(TURN_ORDER)
        self.in_turn: bool = turns.spec.in_turn
        comp = variant.policy(COMPANION)
        self.companion: int = comp.impl.card(comp.params)
        self.flag: str = comp.impl.flag(comp.params) if self.companion >= 0 else ""
        wild = variant.policy(WILD_CARD)
        self.wild: int = wild.impl.card(wild.params)
        self.wilds: frozenset[int] = frozenset(int(c) for c in wild.impl.cards(wild.params))
        """Every wild card (Pink Nines has two, either one standing for the same group)."""
        self.groups = self.in_turn and (
            (isinstance(turns.params, RotationParams) and turns.params.cards_per_turn != "one")
            or bool(self.wilds))
        self.play_base = len(labels)
        if self.in_turn and not self.groups:
            labels += [f"play {CARDS[c]}" for c in range(52)]
        self.follow_base = len(labels)
        if self.companion >= 0:
            labels += [f"follow {CARDS[c]}" for c in range(52)]
            labels += [f"follow {CARDS[c]} with {self.flag}" for c in range(52)]
            labels += [f"lead {CARDS[c]} with {self.flag}" for c in range(52)]
        self.group_base = len(labels)
        if self.groups:
            for verb in ("lead", "play"):
                for r in range(13):
                    for k in range(1, 5):
                        labels.append(f"{verb} {k} x {RANK_NAMES[r]}")
                        labels.append(f"{verb} {k} x {RANK_NAMES[r]} + wild")
                labels += [f"{verb} wild as {RANK_NAMES[r]}" for r in range(13)]
        # a phase's verb with a space and an amount (Royal Rummy's ``wager``): ``VERB space
        # k`` for every layout space; last, so that no other game's numbering moves
        self.spaced_base = len(labels)
        self.spaced_at: dict[str, tuple[int, int]] = {}
        for v in verbs:
            if set(v.fields) == {"space", "chips"}:
                bound = v.most(variant) if v.most is not None else None
                cap = amount_cap if bound is None else max(1, bound)
                self.spaced_at[v.name] = (len(labels), cap)
                labels += [f"{v.name} {s} {k}" for s in self.space_ids
                           for k in range(1, cap + 1)]
        self.labels: tuple[str, ...] = tuple(labels)
        self.n_actions = len(labels)
        self._simple = {v: self.simple_base + i for i, v in enumerate(self.simple_verbs)}
        self._space = {s: i for i, s in enumerate(self.space_ids)}
        self._known: dict[Action, tuple[int, bool]] = {}
        """Per action seen by :meth:`legal_indices`: its index (-1: none) and whether it is
        exactly what :meth:`decode` gives for that index."""

    def __len__(self) -> int:
        return self.n_actions

    def encode(self, action: Action) -> int:
        """The index of ``action``; :class:`ValueError` if it has none (a ``select``, or an
        amount above the caps)."""
        got = self.try_encode(action)
        if got is None:
            hint = (f" (a {action.action} is several card picks: encode_select)"
                    if action.action in self.cards_verbs else "")
            raise ValueError(f"{action} has no index in this action space{hint}")
        return got

    def try_encode(self, action: Action) -> int | None:
        verb = action.action
        if verb in ("lead", "play") and (action.cards is not None or action.as_rank is not None
                                         or (verb == "play" and self.groups)):
            return self._encode_group(action)
        if action.flags:
            if action.flags != (self.flag,) or action.card is None or verb not in (
                    "lead", "follow"):
                return None
            return self.follow_base + (104 if verb == "lead" else 52) + int(action.card)
        if verb == "lead":
            return None if action.card is None else int(action.card)
        if verb == "play":
            if action.card is None or not self.in_turn or self.groups:
                return None
            return self.play_base + int(action.card)
        if verb == "follow":
            return None if action.card is None or self.companion < 0 else (
                self.follow_base + int(action.card))
        if verb in self._simple:
            return self._simple[verb]
        base = self.card_base.get(verb)
        if base is not None:
            return None if action.card is None else base + int(action.card)
        k = action.chips
        if k is None or k < 1:
            return None
        base = self.chips_base.get(verb)
        if base is not None:
            return base + k - 1 if k <= self.chips_cap[verb] else None
        spaced = self.spaced_at.get(verb)
        if spaced is not None:
            first, cap = spaced
            if action.space not in self._space or k > cap:
                return None
            return first + self._space[action.space] * cap + k - 1
        if verb == "stake" and action.space in self._space and k <= self.stake_cap:
            return self.stake_base + self._space[action.space] * self.stake_cap + k - 1
        return None

    def legal_indices(self, legal: Any, where: dict[int, int] | None) -> list[int]:
        """The indices of the decisions in ``legal`` that have one (``try_encode``), and in
        ``where`` (when given) each index's position in ``legal`` where the action there is
        exactly what :meth:`decode` gives for it (no fields the index does not carry), so
        that the host can play it by position.

        Each action's index is worked out once and kept (``_known``): an environment asks
        about the same few actions at every step (the engine's own are interned), and a
        look-up is a fraction of ``try_encode``. The actions are read from a tuple (the
        engine's usual legal set, ``FixedActions``, is one; any other is made one): a
        tuple's items are read natively in the compiled build, an unknown iterable's through
        the generic iterator protocol."""
        known = self._known
        on: list[int] = []
        actions: tuple[Action, ...] = legal if isinstance(legal, tuple) else tuple(legal)
        for pos, a in enumerate(actions):
            got = known.get(a)
            if got is None:
                if len(known) >= _KNOWN_MAX:
                    known.clear()
                i = self.try_encode(a)
                got = known[a] = (-1, False) if i is None else (
                    i, not a.flags and a.as_rank is None and a.cards is None)
            i, plain = got
            if i >= 0:
                on.append(i)
                if plain and where is not None and i not in where:
                    where[i] = pos
        return on

    def cards_verb(self, verbs: tuple[str, ...]) -> str | None:
        """The first of ``verbs`` (the verbs on offer) that chooses several cards at once
        (see ``cards_verbs``), if any: while one is on offer a card index is a pick."""
        for verb in verbs:
            if verb in self.cards_verbs:
                return verb
        return None

    @staticmethod
    def mask_bytes(size: int, on: list[int]) -> bytearray:
        """``size`` bytes, 1 at each index in ``on`` and 0 elsewhere: an action mask that
        numpy reads without a copy (``np.frombuffer(..., np.int8)``)."""
        out = bytearray(size)
        for i in on:
            out[i] = 1
        return out

    def encode_select(self, action: Action) -> list[int]:
        """A choice of several cards (a ``select``) as the card picks that make it, in card
        order."""
        if action.action not in self.cards_verbs or action.cards is None:
            raise ValueError(f"{action} is not a choice of several cards "
                             f"({', '.join(self.cards_verbs) or 'this variant has none'})")
        return [int(c) for c in action.cards]

    def decode(self, seat: int, index: int, legal: Any = None) -> Action:
        """The action ``index`` stands for, made by ``seat`` (a card index is a lead). A
        group index (several cards of one rank) needs ``legal``, the decisions on offer."""
        i = operator.index(index)
        if not 0 <= i < self.n_actions:
            raise ValueError(f"action index {index} is outside 0..{self.n_actions - 1}")
        if i < self.simple_base:
            return lead(seat, i)
        if i < self.simple_base + len(self.simple_verbs):
            return simple(seat, self.simple_verbs[i - self.simple_base])
        if i < self.stake_base:
            for base, verb in reversed(self._card_at):
                if i >= base:
                    return Action(seat, verb, card=Card(i - base))
            for base, verb in reversed(self._chips_at):
                if i >= base:
                    return with_chips(seat, verb, i - base + 1)
        if i < self.play_base:
            space, k = divmod(i - self.stake_base, self.stake_cap)
            return with_chips(seat, "stake", k + 1, self.space_ids[space])
        if i < self.follow_base:
            return Action(seat, "play", card=Card(i - self.play_base))
        if i < self.group_base:
            family, c = divmod(i - self.follow_base, 52)
            verb = "lead" if family == 2 else "follow"
            return Action(seat, verb, card=Card(c), flags=(self.flag,) if family else ())
        if i >= self.spaced_base:
            for verb, (first, cap) in sorted(self.spaced_at.items(),
                                             key=lambda kv: -kv[1][0]):
                if i >= first:
                    space, k = divmod(i - first, cap)
                    return with_chips(seat, verb, k + 1, self.space_ids[space])
        return self._decode_group(seat, i, legal)

    # -- several cards of one rank (a group), perhaps with the wild card ------------------
    # A group index says what matters in a game that builds by rank: the verb, the rank, how
    # many natural cards and whether the wild card goes too (or the wild card alone and the
    # rank it is named as). Which suits go is not part of it: ``decode`` takes the first
    # legal decision with that shape.
    _PER_VERB: Final = 13 * 4 * 2 + 13

    def _group_key(self, action: Action) -> tuple[str, int, int, bool] | None:
        cards = [int(c) for c in action.cards or (
            (action.card,) if action.card is not None else ())]
        wild = any(c in self.wilds for c in cards)
        natural = [c for c in cards if c not in self.wilds]
        ranks = {c % 13 for c in natural}
        if len(ranks) > 1 or len(natural) > 4:
            return None
        if natural:
            return action.action, ranks.pop(), len(natural), wild
        if not wild or action.as_rank is None or action.as_rank not in RANK_NAMES:
            return None
        return action.action, RANK_NAMES.index(action.as_rank), 0, True

    def _group_index(self, verb: str, rank: int, count: int, wild: bool) -> int:
        base = self.group_base + (self._PER_VERB if verb == "play" else 0)
        if count == 0:
            return base + 13 * 8 + rank
        return base + rank * 8 + (count - 1) * 2 + int(wild)

    def _encode_group(self, action: Action) -> int | None:
        if not self.groups:
            return None
        key = self._group_key(action)
        return None if key is None else self._group_index(*key)

    def _decode_group(self, seat: int, index: int, legal: Any) -> Action:
        if legal is None:
            raise ValueError(f"action {index} ({self.labels[index]}) stands for several cards "
                             "of one rank: decode it with the legal decisions "
                             "(decode(seat, index, legal))")
        for a in legal:
            if a.seat == seat and a.action in ("lead", "play") and self.try_encode(a) == index:
                return a  # type: ignore[no-any-return]
        raise ValueError(f"no legal decision matches action {index} ({self.labels[index]})")

"""The stakes phase: everyone's stakes go on the layout before the deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stops._mypyc import mypyc_attr
from stops.engine.actions import Action, with_chips
from stops.engine.errors import IllegalAction
from stops.engine.events import Event, staked_event
from stops.engine.legal import Amounts, LegalActions, LegalSet
from stops.engine.vocabulary import STAKE
from stops.phases.base import Phase
from stops.policies.stakes import SEATS_ONLY, covering

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


class _Stakes:
    """A deal's stake plans, and their fixed stakes summed per space and per seat, with the
    events they make in order (each seat's stakes from the dealer's left)."""

    __slots__ = ("events", "plans", "seats", "spaces")

    def __init__(self, plans: tuple[tuple[int, Any], ...]) -> None:
        self.plans = plans
        spaces: dict[str, int] = {}
        seats: list[tuple[int, int]] = []
        events: list[Event] = []
        for seat, plan in plans:
            total = 0
            for space, chips in plan.fixed:
                spaces[space] = spaces.get(space, 0) + chips
                total += chips
                events.append(staked_event(seat, chips, space))
            if plan.fixed:
                seats.append((seat, total))
        self.spaces: tuple[tuple[str, int], ...] = tuple(spaces.items())
        self.seats: tuple[tuple[int, int], ...] = tuple(seats)
        self.events: tuple[Event, ...] = tuple(events)


class StakeQueue:
    """The stake decisions still due in this deal (the stake phase's state): each
    ``(seat, spaces, chips, free, cover)``, from the dealer's left (``cover``: the stake
    rule's ``cover_all`` limits where it may go)."""

    __slots__ = ("due",)

    def __init__(self) -> None:
        self.due: list[tuple[int, tuple[str, ...], int, bool, bool]] = []

    def copy(self) -> StakeQueue:
        new = StakeQueue()
        new.due = list(self.due)  # the entries are immutable
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, StakeQueue) and self.due == other.due

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"StakeQueue({self.due!r})"


@mypyc_attr(allow_interpreted_subclasses=True)
class StakePhase(Phase):
    """Places every seat's fixed stakes, then asks for stake choices in turn from the
    dealer's left. A player keeps the turn until their free allowance is placed."""

    name = "stake"
    title = "Stakes"
    state_types = (StakeQueue,)

    def describe(self) -> str:
        r = self.rules
        t = self.policy_text("stake_rule") or "Nobody stakes anything before a deal."
        if r.stake_frequency == "once_per_match":
            t += " Stakes are placed only before the first deal of the session."
        if r.retire_claimed:
            t += " Spaces already won and removed take no stakes."
        return t

    def __init__(self, variant: object) -> None:
        super().__init__(variant)  # type: ignore[arg-type]
        self.policy = self.variant.policy("stake_rule")
        self._rule: Any = self.policy.impl  # read once: called for every seat of every deal
        self._params: Any = self.policy.params
        self._by_seats: bool = self._rule in SEATS_ONLY
        """The rule's plans depend only on the dealer, the seats and the live spaces, so
        a deal's plans are worked out once per such situation (:meth:`_plans`)."""
        self._plan_cache: dict[tuple[object, ...], _Stakes] = {}
        self._debt: bool = self.variant.rules.chip_shortfall == "debt"

    def _plans(self, deal: Deal) -> _Stakes:
        """Each seat's stake plan, from the dealer's left (with its fixed stakes summed)."""
        if not self._by_seats:
            return _Stakes(tuple([(seat, self._rule(deal, seat, self._params))
                                  for seat in deal.order(deal.dealer)]))
        key = (deal.dealer, deal.active, frozenset(deal.retired) if deal.retired else None)
        got = self._plan_cache.get(key)
        if got is None:
            got = _Stakes(tuple([(seat, self._rule(deal, seat, self._params))
                                 for seat in deal.order(deal.dealer)]))
            if len(self._plan_cache) < 10_000:
                self._plan_cache[key] = got
        return got

    def enter(self, deal: Deal) -> bool:
        r = deal.rules
        if deal.skip_stakes or (r.stake_frequency == "once_per_match" and deal.deal_index > 0):
            return False
        queue = deal.reset_state(StakeQueue).due
        stakes = self._plans(deal)
        ledger = deal.ledger
        if self._debt and ledger.contributed is None:
            # nobody can fall short: every fixed stake at once, as the seats' stakes would
            layout = ledger.layout
            for space, chips in stakes.spaces:
                layout[space] = layout.get(space, 0) + chips
            for seat, chips in stakes.seats:
                stacks = ledger.stacks
                stacks[seat] = stacks[seat] - chips
            deal.events.extend(stakes.events)
            fixed_done = True
        else:
            fixed_done = False
        for seat, plan in stakes.plans:
            if plan.fixed and not fixed_done:
                deal.stake_many(seat, plan.fixed)
            if plan.choose_one and plan.choose_amount > 0:
                for _ in range(plan.choose_times):
                    queue.append((seat, plan.choose_one, plan.choose_amount, False,
                                  plan.cover_all))
            if plan.free_chips > 0 and plan.free_spaces:
                queue.append((seat, plan.free_spaces, plan.free_chips, True, False))
        return self._next(deal)

    def _next(self, deal: Deal) -> bool:
        queue = deal.states[StakeQueue].due  # its own, made on entering: no call
        if not queue:
            return False
        deal.to_act = queue[0][0]
        return True

    def normalize(self, deal: Deal, action: Action) -> Action:
        st = deal.peek_state(StakeQueue)
        queue = st.due if st is not None else None
        if (action.action == "stake" and action.chips is None and queue
                and not queue[0][3] and action.space is not None):
            return with_chips(action.seat, "stake", queue[0][2], action.space)
        return action

    def legal(self, deal: Deal) -> LegalSet:
        queue = deal.state(StakeQueue).due
        seat, spaces, chips, is_free, cover = queue[0]
        if is_free:
            return LegalActions(*(Amounts(seat, "stake", range(1, chips + 1), s) for s in spaces))
        if cover:
            spaces = self._covering(deal, queue)
        return LegalActions.of(tuple(with_chips(seat, "stake", chips, s) for s in spaces))

    @staticmethod
    def _covering(deal: Deal, queue: list[Any]) -> tuple[str, ...]:
        """The spaces the next stake may go on under ``cover_all`` (the stake rule's
        :func:`~stops.policies.stakes.covering`), counting the stakes still to come after
        it, every seat's."""
        to_come = 0
        for entry in queue[1:]:
            if entry[4]:
                to_come += 1
        return covering(queue[0][1], deal.ledger.layout, to_come)

    def apply(self, deal: Deal, action: Action) -> bool:
        queue = deal.state(StakeQueue).due
        seat, spaces, chips, is_free, _cover = queue[0]
        assert action.space is not None and action.chips is not None
        deal.stake(seat, action.space, action.chips)
        left = chips - action.chips
        if is_free and left > 0:
            queue[0] = (seat, spaces, left, True, False)
        else:
            queue.pop(0)
        return self._next(deal)

    def explain(self, deal: Deal, action: Action) -> IllegalAction | None:
        queue = deal.state(StakeQueue).due
        _seat, spaces, chips, is_free, cover = queue[0]
        if action.space not in spaces:
            live = ", ".join(spaces)
            return IllegalAction("bad_space", f"cannot stake on {action.space!r}; the spaces "
                                 f"open to this stake are {live}",
                                 rule="stakes go only on live layout spaces the rule allows")
        if is_free:
            return IllegalAction("bad_amount", f"stake between 1 and {chips} chips (the rest "
                                 "of your allowance)", rule="free placement of chips")
        if cover and action.chips == chips:
            open_ = self._covering(deal, queue)
            if action.space not in open_:
                return IllegalAction(
                    "must_cover", f"{action.space} already holds chips, and too few stakes "
                    "are still to be placed after this one to cover every empty card space: "
                    f"stake on {' or '.join(open_)}",
                    rule="every card space must be covered (cover_all)")
        return IllegalAction("bad_amount", f"this stake is exactly {chips} chip(s)",
                             rule="the stake rule fixes the amount")


def register(reg: Registry) -> None:
    reg.register_phase("stake", pays=_pays_nothing, slots=("stake_rule",),
                       verbs=(STAKE,))(StakePhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()

"""The numpy-free core of the PettingZoo environment's step (:mod:`stops.interop.pettingzoo`).

Everything an AEC step does that needs neither numpy nor gymnasium lives here: the episode's
table and deal, the deals started, the acting seat's mask (as bytes, rewritten in place),
where each legal index sits among ``legal_actions()``, the card picks of a choice of several
cards, playing an index, starting the next deal, and each seat's change of chips. The
compiled build compiles this module (the environment's own module imports numpy, so it
stays pure Python): a step's bookkeeping was interpreted Python in both builds, and in the
compiled one it cost about three times the engine's own step. The environment is left a
thin shell that turns these values into numpy arrays and PettingZoo's dicts.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
from math import comb
from typing import Any

from stops.engine.actions import with_cards
from stops.engine.deal import Deal
from stops.engine.legal import FixedActions, LegalSet
from stops.engine.table import Table
from stops.interop.codec import ActionCodec
from stops.interop.encoding import VectorEncoder
from stops.rules.variant import Variant


class EnvCore:
    """One episode's state and step, for :class:`stops.interop.pettingzoo.StopsAECEnv`.

    ``seat`` is the seat to act (-1 when none: the episode is over), ``buf`` its mask (1 at
    each legal index, rewritten in place at every step: the environment keeps one numpy
    array over it) and ``on`` the bytes the legality check reads (``buf``, or all 0 when no
    seat acts)."""

    def __init__(self, variant: Variant, players: int, chips: int, deals_per_episode: int,
                 dealer: int | None, codec: ActionCodec, encoder: VectorEncoder) -> None:
        self.variant = variant
        self.n = players
        self.chips = chips
        self.deals_per_episode = deals_per_episode
        self.dealer = dealer
        self.codec = codec
        self.encoder = encoder
        self.size = codec.n_actions
        self.table: Table | None = None
        self.deal: Deal | None = None
        self.deals_started = 0
        self.episode_over = False
        self.picked: list[int] = []
        self.seat = -1
        self.buf = bytearray(self.size)
        self.off = bytes(self.size)
        self.on: bytes | bytearray = self.off
        self.ones: list[int] = []
        """The indices of the 1s in ``buf`` (its last mask written)."""
        self.where: dict[int, int] = {}
        """Action index -> its position in ``legal_actions()`` (from the last mask)."""
        self.choosing: str | None = None
        """The verb of the choice of several cards on offer to the seat to act (see
        :meth:`choosing_now`), found with its mask: :meth:`play` does not ask the deal
        again."""
        self.last_stacks: tuple[int, ...] = ()
        self.rewards_zero = True
        """Whether the rewards of the last step were all 0.0: a step that moves no chip then
        hands back no rewards (the environment keeps its dict of zeros)."""
        self.names: list[str] = []
        """Each seat's agent (the environment's ``possible_agents``; see :meth:`attach`)."""
        self.seat_of: dict[str, int] = {}
        self.rewards: dict[str, Any] | None = None
        """The rewards of the last :meth:`step` (a new dict), ``None`` if they were all 0.0
        again (the environment keeps the dict it has)."""
        # numpy's side, handed over by the environment (:meth:`attach`): this module
        # imports no numpy, but calls these from compiled code, not from an interpreted shell
        self.copy_mask: Callable[[], Any] | None = None
        self.idle: Any = None
        self.frombuffer: Callable[[array[float], Any], Any] | None = None
        self.dtype: Any = None
        self.views: dict[int, tuple[array[float], Callable[[], Any]]] = {}
        """Per seat, the encoder's own array of that seat and the ``copy`` of a numpy view
        made once over it (see :meth:`observe`)."""
        self.int_types: frozenset[type] = frozenset()
        """The integer types besides ``int`` the usual step takes as an index as it is (numpy's:
        what a learner's sampler or ``argmax`` hands back; see :meth:`attach`)."""

    def attach(self, names: list[str], copy_mask: Callable[[], Any], idle: Any,
               frombuffer: Callable[[array[float], Any], Any], dtype: Any,
               int_types: frozenset[type] = frozenset()) -> None:
        """The environment's agents, seat by seat, and what it makes its arrays with: a new
        copy of the acting seat's mask (``copy_mask()``), the shared all-0 mask of every
        other seat (``idle``), a numpy view over a vector the encoder wrote
        (``frombuffer(vector, dtype)``: :meth:`observe` copies it), and the integer types
        an index may come as besides ``int`` (``int_types``: numpy's)."""
        self.names = list(names)
        self.int_types = int_types
        self.seat_of = {a: i for i, a in enumerate(names)}
        self.copy_mask = copy_mask
        self.idle = idle
        self.frombuffer = frombuffer
        self.dtype = dtype

    # -- the episode ----------------------------------------------------------------------
    def reset(self, table_seed: int) -> None:
        """A new table on ``table_seed``, its first deal with a decision, the first mask."""
        self.deal = None
        self.encoder.forget()
        table = self.table = Table(self.variant, seats=self.n, chips=self.chips,
                                   seed=table_seed, dealer=self.dealer)
        self.last_stacks = tuple(table.stacks)
        self.rewards_zero = True
        self.deal = None
        self.deals_started = 0
        self.episode_over = False
        self.picked = []
        self.advance()
        self.after_move()

    def advance(self) -> None:
        """Start deals until some seat has a decision, or the episode is over."""
        table = self.table
        assert table is not None
        deal = self.deal
        while deal is None or deal.to_act is None:
            if table.is_over or self.deals_started >= self.deals_per_episode:
                self.episode_over = True
                return
            deal = self.deal = table.new_deal()
            self.deals_started += 1

    def stacks_now(self) -> tuple[int, ...]:
        """Every seat's stack: once a deal is over the table's stacks include any
        end-of-session share-out."""
        deal, table = self.deal, self.table
        assert deal is not None and table is not None
        return tuple(table.stacks) if deal.to_act is None else tuple(deal.ledger.stacks)

    def after_move(self) -> None:
        """The seat to act, its mask and what the step needs to play an index of it."""
        where: dict[int, int] = {}
        self.where = where
        deal = self.deal
        if self.episode_over or deal is None or deal.to_act is None:
            self.seat = -1
            self.on = self.off
            self.choosing = None
            return
        seat = deal.to_act
        self.seat = seat
        codec = self.codec
        on: list[int] = []
        if not codec.cards_verbs:
            # the usual case of mask_on written out (two frames less a step pure): no
            # choice of several cards, a legal set short enough to read action by action
            legal = deal.legal_actions()
            if len(legal) <= 2 * codec.n_actions:
                on = codec.legal_indices(legal, where)
            self.choosing = None
        if not on:
            on, self.choosing = self.mask_on(deal, seat, where)
        # the mask rewritten in place: the old 1s cleared, the new ones set
        buf = self.buf
        for i in self.ones:
            buf[i] = 0
        for i in on:
            buf[i] = 1
        self.ones = on
        self.on = buf

    def play(self, seat: int, index: int) -> list[float] | None:
        """Play ``index`` (legal: the caller read ``on``) for ``seat``, the seat to act; start
        the next deal if it ended the deal, and find the next mask. Each seat's change of
        chips caused by the step, or ``None`` when no chip moved and the last step's
        rewards were all 0.0 already."""
        deal = self.deal
        assert deal is not None
        choosing = self.choosing
        if choosing is not None and index < 52:
            self.picked.append(index)
            if len(self.picked) == self.select_size():
                picked, self.picked = self.picked, []
                deal.apply(with_cards(seat, choosing, picked))
        else:
            where = self.where.get(index)
            if where is not None:
                # the mask saw where it is among legal_actions(), an action that is just
                # what decode(index) gives, and the deal has not moved since
                deal.apply_index(where)
            else:
                deal.apply(self.codec.decode(seat, index, deal.legal_actions()))
        if deal.to_act is None:
            self.advance()
        table, deal = self.table, self.deal  # the next deal, if that one ended
        assert table is not None and deal is not None
        # ``stacks_now`` written out (a frame less in the pure build)
        now = tuple(table.stacks) if deal.to_act is None else tuple(deal.ledger.stacks)
        last = self.last_stacks
        out: list[float] | None = None
        if now != last or not self.rewards_zero:
            # each seat's change as a float, in a loop of this frame (a comprehension is a
            # frame of its own, pure; a map of ``operator.sub`` two generic calls a seat,
            # compiled)
            out = []
            for i in range(self.n):
                out.append(float(now[i] - last[i]))
            self.rewards_zero = now == last
            self.last_stacks = now
        self.after_move()
        return out

    def episode_end(self, state: dict[str, Any]) -> None:
        """Every agent of ``state`` (the environment's attributes, see :class:`AECLoop`)
        done, the first selected and given the shared all-0 mask in a new ``infos``: the
        environment's state once the episode is over."""
        agents: list[str] = state["agents"]
        state["terminations"] = dict.fromkeys(agents, True)
        state["agent_selection"] = agents[0]
        idle = self.idle
        state["infos"] = {a: {"action_mask": idle} for a in agents}

    # -- the AEC step and last, for the environment -----------------------------------------
    def step(self, agent: str, action: object, terminations: dict[str, Any],
             truncations: dict[str, Any], cumulative: dict[str, Any],
             infos: dict[str, Any]) -> bool:
        """The environment's ``step`` for the usual case: ``agent`` (its ``agent_selection``)
        is the seat to act, not done, and ``action`` a legal index (an ``int``, or one of
        ``int_types``). Plays it,
        sets the acting agent's cumulative reward to 0 and adds this step's rewards
        (:attr:`rewards`, a new dict, or ``None`` if all 0.0 again) to every agent's, and
        gives the agent that acted the shared all-0 mask and the agent to act (``names[seat]``
        unless the episode is over) a copy of its new mask in ``infos``. ``False``, with
        nothing done, in every other case: the environment's own ``step`` then checks and
        raises or plays as ever. Each value is the one the interpreted step wrote, in the
        same order; here the step pays no interpreted frames (the compiled build)."""
        seat = self.seat
        index: int
        if type(action) is int:
            index = action
        elif type(action) in self.int_types:
            # a numpy integer (``action_space(agent).sample(mask)``, an ``argmax``): the
            # same index; it cost the interpreted way round, about twice the step
            index = int(action)  # type: ignore[call-overload]
        else:
            return False
        if seat < 0 or agent != self.names[seat] or terminations[agent] or truncations[agent]:
            return False
        if not 0 <= index < self.size or not self.on[index]:
            return False
        cumulative[agent] = 0.0
        changes = self.play(seat, index)
        if changes is None:
            self.rewards = None
        else:
            rewards: dict[str, Any] = {}
            for i, a in enumerate(self.names):  # each agent's reward, then its sum, in order
                r = changes[i]
                rewards[a] = r
                cumulative[a] = cumulative[a] + r
            self.rewards = rewards
        if self.seat < 0:
            return True  # the episode is over: the environment marks every agent done
        chosen = self.names[self.seat]
        if chosen != agent:
            infos[agent] = {"action_mask": self.idle}
        assert self.copy_mask is not None
        infos[chosen] = {"action_mask": self.copy_mask()}
        return True

    def last(self, agent: str, observe: bool, cumulative: dict[str, Any],
             terminations: dict[str, Any], truncations: dict[str, Any],
             infos: dict[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        """PettingZoo's ``last`` of ``agent`` (the environment's ``agent_selection``)."""
        return (self.observe(agent) if observe else None, cumulative[agent],
                terminations[agent], truncations[agent], infos[agent])

    def observe(self, agent: str) -> dict[str, Any]:
        """PettingZoo's observation of ``agent``: what :meth:`stops.Deal.observe` shows its
        seat, as the encoder writes it (into the seat's own array, copied into a new numpy
        array the caller owns), and its mask (a copy if it is to act). The encoder is
        called here, not through :meth:`encode`: a frame less a step in the pure build."""
        seat = self.seat_of[agent]
        deal = self.deal
        assert self.copy_mask is not None and self.frombuffer is not None and deal is not None
        mask = self.copy_mask() if seat == self.seat else self.idle
        vector = self.encoder.encode(deal, seat, self.picked,
                                     float(self.deals_per_episode - self.deals_started), False)
        # the seat's own array (the same object at each of its looks), copied once, by a
        # numpy view made over it at its first look: an array copied and then wrapped was
        # two calls, one of them a copy, and about a thousand instructions more a step
        got = self.views.get(seat)
        if got is None or got[0] is not vector:
            got = self.views[seat] = (vector, self.frombuffer(vector, self.dtype).copy)
        return {"observation": got[1](), "action_mask": mask}

    # -- actions --------------------------------------------------------------------------
    def choosing_now(self) -> str | None:
        """The verb of the choice of several cards on offer now (a ``select``), if any: a
        card index is then a pick."""
        deal = self.deal
        if deal is None:
            return None
        return self.choosing_in(deal.legal_actions())

    def choosing_in(self, legal: LegalSet) -> str | None:
        """The verb of the choice of several cards on offer in ``legal``, if any (the
        codec's ``cards_verb`` of its verbs). A tuple of fixed actions is read action by
        action: the first whose verb chooses several cards has the first such verb on offer
        (its ``verbs`` property, of a Python class, costs a generator and a dict a call in
        the compiled build)."""
        codec = self.codec
        kinds = codec.cards_verbs
        if not kinds:
            return None
        if isinstance(legal, FixedActions):
            for a in legal:
                if a.action in kinds:
                    return a.action
            return None
        return codec.cards_verb(legal.verbs)

    def select_size(self) -> int:
        """How many cards the choice of several cards on offer takes."""
        assert self.deal is not None
        first = self.deal.legal_actions()[0]
        return len(first.cards or ())

    def mask_on(self, deal: Deal, seat: int,
                where: dict[int, int] | None) -> tuple[list[int], str | None]:
        """The indices ``seat``, the seat to act, may play, and the verb of the choice of
        several cards on offer (see :meth:`choosing_now`), if any. ``where`` (when given)
        gets each index's position in ``legal_actions()`` (see ``ActionCodec.legal_indices``)."""
        legal = deal.legal_actions()
        codec = self.codec
        on: list[int] = []
        choosing = self.choosing_in(legal) if codec.cards_verbs else None
        if choosing is not None:
            on.extend(self.pickable(deal, seat, legal))
        elif len(legal) <= 2 * codec.n_actions:
            on = codec.legal_indices(legal, where)
        else:  # a long family (a bid up to a big stack): ask about each index instead
            on.extend(i for i in range(codec.n_actions)
                      if i < codec.play_base and codec.decode(seat, i) in legal)
        if not on:
            raise RuntimeError(f"no legal decision of seat {seat} has an index in the action "
                               f"space ({legal!r}); raise the codec's caps")
        return on, choosing

    def pickable(self, deal: Deal, seat: int, legal: Sequence[Any]) -> set[int]:
        """Cards that keep the picks so far completable to a legal ``select``. A card is
        an ``int`` (hashed and compared as one): taken as it is, not converted by an
        ``int()`` call (a generic call in the compiled build, five a legal choice)."""
        picked = set(self.picked)
        hand: list[int] = list(deal.hand(seat))
        k = len(legal[0].cards or ())
        if len(legal) == comb(len(hand), k):  # free choice: any cards of the hand
            return set(hand) - picked
        out: set[int] = set()
        for a in legal:
            cards: set[int] = set(a.cards or ())
            if picked <= cards:
                out |= cards - picked
        return out


class AECLoop:
    """PettingZoo's ``step`` and ``last`` of the wrapped environment once it is reset: the
    AEC loop every learner runs, called straight from the wrapper (its instance attributes
    ``step`` and ``last``, see ``stops.interop.pettingzoo._OrderEnforcing``), with no
    interpreted frame of the wrapper or of the environment between the caller and the core
    (three frames a step: about 3k instructions of a compiled step).

    ``state`` is the environment's own attribute dict (``vars(env)``): the episode's
    ``agents``, ``agent_selection``, ``terminations``, ``truncations``, ``rewards``,
    ``_cumulative_rewards`` and ``infos`` are read and written there, as the environment's
    and PettingZoo's own code read and write them (a dict item, not a generic attribute of
    a Python object). ``env_step`` is the environment's ``step`` (every case but the usual
    one: a done agent, an action to convert or refuse), ``render`` its ``render`` in the
    ``"human"`` mode (``None`` otherwise) and ``warn_done`` PettingZoo's warning of a step
    after every agent is done; the episode's end is :meth:`EnvCore.episode_end`.
    ``updated`` is the wrapper's ``_has_updated`` (set at every step, read by
    ``agent_iter``): kept here, the loop holds nothing that holds it (the environment never
    refers to it), so dropping the wrapper frees the environment at once, cycle-free."""

    def __init__(self, core: EnvCore, state: dict[str, Any], env_step: Callable[[Any], None],
                 render: Callable[[], Any] | None, warn_done: Callable[[], None]) -> None:
        self.core = core
        self.state = state
        self.env_step = env_step
        self.render = render
        self.warn_done = warn_done
        self.updated = False

    def step(self, action: object) -> None:
        """The wrapper's ``step`` (its checks: some agent not removed yet) and the
        environment's (the usual case played by :meth:`EnvCore.step`, the rest by
        ``env_step``), in the same order, with the same values."""
        state = self.state
        self.updated = True
        if not state["agents"]:
            self.warn_done()
            return
        core = self.core
        if not core.step(state["agent_selection"], action, state["terminations"],
                         state["truncations"], state["_cumulative_rewards"], state["infos"]):
            self.env_step(action)
            return
        rewards = core.rewards
        if rewards is not None:
            state["rewards"] = rewards
        seat = core.seat
        if seat >= 0:
            state["agent_selection"] = core.names[seat]
        else:
            core.episode_end(state)
        if self.render is not None:
            self.render()

    def last(self, observe: bool = True) -> tuple[Any, Any, Any, Any, Any]:
        """PettingZoo's ``last``: the observation of the agent selected (``None`` if not
        ``observe``), its cumulative reward, termination, truncation and info."""
        state = self.state
        agent: str = state["agent_selection"]
        # each dict typed: an item of it is a native look-up, not a generic one
        cumulative: dict[str, Any] = state["_cumulative_rewards"]
        terminations: dict[str, Any] = state["terminations"]
        truncations: dict[str, Any] = state["truncations"]
        infos: dict[str, Any] = state["infos"]
        return (self.core.observe(agent) if observe else None, cumulative[agent],
                terminations[agent], truncations[agent], infos[agent])

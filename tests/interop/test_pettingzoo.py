"""The PettingZoo adapter (extra ``stops-cards[pettingzoo]``): PettingZoo's own conformance tests,
masked random play, chip conservation and determinism. Skipped without the extra."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, seed_test

import stops
from stops.interop.encoding import ObservationLayout
from stops.interop.pettingzoo import StopsAECEnv, env

ROTATION = str(Path(__file__).parents[1] / "data" / "rotation.yaml")
GAMES = ["boodle", "three-in-one", "pot-and-kitty", "newmarket", "pope-joan", "spinado",
         "nain-jaune", "comet", "tripoley", "newmarket-peel", "poch",
         "play-or-pay", "royal-rummy", "rummoli", "pink-nines"]
VARIANTS = [g for g in GAMES if g in stops.list_variants()] + [ROTATION]
"""Every built-in game (not the named variations), and a test variant played in turn."""
# Dict observations (observation + action_mask) are how PettingZoo's classic games do masks;
# api_test only exempts its own classic games from these two advisory warnings by name.
DICT_OBS_WARNINGS = [
    "ignore:Observation is not a NumPy array",
    "ignore:Observation space for each agent probably should be",
]


def play(e: Any, seed: int, rng_seed: int) -> tuple[dict[str, float], list[int]]:
    """One episode with masked random actions; the cumulative rewards and the actions."""
    e.reset(seed=seed)
    rng = np.random.default_rng(rng_seed)
    total = dict.fromkeys(e.possible_agents, 0.0)
    actions: list[int] = []
    for agent in e.agent_iter(100_000):
        obs, reward, terminated, truncated, info = e.last()
        total[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        mask = obs["action_mask"]
        assert mask.dtype == np.int8 and mask.any()
        assert np.array_equal(mask, info["action_mask"])
        action = int(rng.choice(np.flatnonzero(mask)))
        actions.append(action)
        e.step(action)
    assert not e.agents, "the episode must end"
    return total, actions


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test(variant: str) -> None:
    api_test(env(variant=variant, players=4), num_cycles=300)


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_seed_test(variant: str) -> None:
    seed_test(lambda: env(variant=variant, players=4), num_cycles=300)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("deals", [1, 3])
def test_masked_random_play_is_legal_ends_and_conserves_chips(variant: str, deals: int) -> None:
    for seed in range(4):
        e = env(variant=variant, players=4, chips=50, deals_per_episode=deals)
        total, _ = play(e, seed, seed)  # an illegal index would raise IllegalAction
        raw = e.unwrapped
        assert raw.table is not None
        assert raw.deals_started <= deals
        stacks, layout = raw.table.stacks, raw.table.layout
        for seat, agent in enumerate(raw.possible_agents):
            assert total[agent] == stacks[seat] - 50
        assert sum(total.values()) == -sum(layout.values())  # nothing created or lost
        assert sum(stacks) + sum(layout.values()) == 4 * 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_seed_same_actions_same_episode(variant: str) -> None:
    a, b = StopsAECEnv(variant=variant), StopsAECEnv(variant=variant)
    ra, acts = play(a, 11, 3)
    rb, _ = play(b, 11, 3)
    assert ra == rb
    assert a.table is not None and b.table is not None
    assert a.table.records == b.table.records
    # replaying the same action indices on a fresh env gives the same deal record
    c = StopsAECEnv(variant=variant)
    c.reset(seed=11)
    for i in acts:
        c.step(i)
    assert c.table is not None and c.table.records == a.table.records


def test_codec_round_trip_and_illegal_index() -> None:
    e = StopsAECEnv(variant="three-in-one", players=4)
    e.reset(seed=3)
    seen = 0
    rng = np.random.default_rng(0)
    while not e.episode_over:
        deal = e.deal
        assert deal is not None and deal.current_seat is not None
        seat = deal.current_seat
        legal = deal.legal_actions()
        if "select" not in legal.verbs:
            for act in list(legal)[:50]:
                i = e.codec.try_encode(act)
                if i is not None:
                    assert e.decode(seat, i) == act
                    seen += 1
        mask = e.action_mask(seat)
        bad = int(np.flatnonzero(mask == 0)[0])
        before = (deal.stacks, len(deal.events))
        with pytest.raises(stops.IllegalAction):
            e.step(bad)
        assert (deal.stacks, len(deal.events)) == before
        e.step(int(rng.choice(np.flatnonzero(mask))))
    assert seen > 20


def test_poker_select_is_five_card_picks() -> None:
    e = StopsAECEnv(variant="three-in-one", players=4)
    e.reset(seed=5)
    rng = np.random.default_rng(1)
    deal = e.deal
    assert deal is not None
    while deal.phase != "poker":
        e.step(int(rng.choice(np.flatnonzero(e.action_mask(deal.current_seat)))))
    seat = deal.current_seat
    assert seat is not None
    hand = {int(c) for c in deal.hand(seat)}
    picks: list[int] = []
    for _ in range(5):
        mask = e.action_mask(seat)
        allowed = set(np.flatnonzero(mask).tolist())
        assert allowed == hand - set(picks)  # free selection: any card not yet picked
        obs = e.observe(f"player_{seat}")["observation"]
        assert obs[e.observation_layout["picked"]].sum() == len(picks)
        picks.append(min(allowed))
        e.step(picks[-1])
    chosen = [ev for ev in deal.events if ev.kind == "selected" and ev.seat == seat
              and ev.cards]
    assert [int(c) for c in chosen[0].cards] == sorted(picks)
    assert deal.current_seat != seat or deal.phase != "poker"


def test_observation_comes_from_the_seat_view() -> None:
    e = StopsAECEnv(variant="boodle", players=4)
    e.reset(seed=2)
    deal = e.deal
    assert deal is not None
    lay = e.observation_layout
    for seat in range(4):
        obs = e.observe(f"player_{seat}")
        vec = obs["observation"]
        assert e.observation_space(f"player_{seat}").contains(obs)
        hand = np.flatnonzero(vec[lay["hand"]]).tolist()
        assert hand == sorted(int(c) for c in deal.hand(seat))
        assert vec[lay["seat"]][seat] == 1
        assert vec[lay["stacks"]].tolist() == list(deal.stacks)
        assert obs["action_mask"].any() == (seat == deal.current_seat)
        spare = vec[lay["spare_known"]]
        assert not spare.any()  # nobody has seen boodle's spare hand


def test_render_and_errors() -> None:
    e = env(variant="pot-and-kitty", players=3, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "pot-and-kitty" in text and "stacks" in text
    e.close()
    with pytest.raises(ValueError):
        StopsAECEnv(variant="boodle", players=2)
    with pytest.raises(ValueError):
        StopsAECEnv(variant="boodle", render_mode="rgb_array")


def test_importing_stops_does_not_import_pettingzoo() -> None:
    code = ("import sys, stops, stops.interop; "
            "bad = {'pettingzoo', 'gymnasium', 'numpy'} & set(sys.modules); "
            "assert not bad, bad")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_decision_offered_has_an_index_that_decodes_to_its_shape(variant: str) -> None:
    """Every legal decision of every game encodes; its index decodes to a legal decision
    with the same index (a group index stands for any cards of its shape)."""
    for seed in range(3):
        e = StopsAECEnv(variant=variant, players=4, deals_per_episode=2)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while not e.episode_over:
            deal = e.deal
            assert deal is not None and deal.current_seat is not None
            seat = deal.current_seat
            legal = deal.legal_actions()
            if "select" not in legal.verbs:
                for act in list(legal)[:60]:
                    i = e.codec.try_encode(act)
                    assert i is not None, f"{act} has no index"
                    back = e.decode(seat, i)
                    assert back in legal and e.codec.try_encode(back) == i
            e.step(int(rng.choice(np.flatnonzero(e.action_mask(seat)))))


@pytest.mark.filterwarnings(*DICT_OBS_WARNINGS)
def test_royal_rummy_side_bet_through_the_codec() -> None:
    """The ace side-bet's decisions (``wager {space, chips}``, ``cover``) have numbers: every
    legal one round-trips through the codec, and the environment passes the API test."""
    opts = {"ace_bet": True}
    e = StopsAECEnv("royal-rummy", players=4, options=opts)
    codec = e.codec
    table = stops.Table(stops.load_variant("royal-rummy", options=opts), seats=4, seed=2)
    deal = table.new_deal()
    legal = deal.legal_actions()
    wagers = [a for a in legal if a.action == "wager"]
    assert {a.space for a in wagers} == {"ace-C", "ace-D", "ace-H", "ace-S"}
    for a in legal:
        assert codec.decode(a.seat, codec.encode(a), legal) == a
    deal.apply(next(a for a in wagers if a.space == "ace-H" and a.chips == 2))
    legal = deal.legal_actions()
    assert sorted(a.action for a in legal) == ["cover", "pass"]
    for a in legal:
        assert codec.decode(a.seat, codec.encode(a), legal) == a
    api_test(env(variant="royal-rummy", players=4, options=opts), num_cycles=200)


@pytest.mark.parametrize("variant", ["three-in-one", "boodle-spare-auction", "tripoley"])
def test_features_kept_event_by_event_are_what_fill_gives(variant: str) -> None:
    """The environment keeps the phases' features (who folded, the chips in the pot, the
    highest bid) with ``PhaseAids.fold``, one new event at a time; ``fill`` reads them from a
    whole observation. Two environments on the same seed, one made to call ``fill`` (as for a
    plug-in phase that does not fold), give every seat the same vector at every step, and the
    features are not all 0 (the test can fail). A third, made to fold every event the seat
    sees (as for a fold that names no ``fold_kinds``), gives the same vectors too: the folds
    of the built-in phases, given only the events of the kinds they name, miss nothing."""
    a = StopsAECEnv(variant=variant, players=4)
    b = StopsAECEnv(variant=variant, players=4)
    b._encoder.folding = False
    c = StopsAECEnv(variant=variant, players=4)
    assert a._encoder.fold_kinds
    c._encoder.fold_kinds = None
    rng = np.random.default_rng(7)
    lay = a.observation_layout
    names = [f.name for aids in a._feature_aids for f in aids.features(a.variant, 4)]
    assert names
    seen_nonzero = False
    for seed in range(3):
        a.reset(seed=seed)
        b.reset(seed=seed)
        c.reset(seed=seed)
        while not a.episode_over:
            for agent in a.agents:
                va = a.observe(agent)["observation"]
                assert np.array_equal(va, b.observe(agent)["observation"])
                assert np.array_equal(va, c.observe(agent)["observation"])
                seen_nonzero |= any(va[lay[n]].any() for n in names)
            action = int(rng.choice(np.flatnonzero(a._mask)))
            a.step(action)
            b.step(action)
            c.step(action)
    assert seen_nonzero


@pytest.mark.parametrize("variant", ["boodle", "three-in-one"])
def test_kept_vectors_are_what_a_fresh_encoder_writes(variant: str) -> None:
    """The encoder keeps each seat's last vector in a deal and writes only what differs. Asked
    for some seats, not all, at each step, now and then for a copy of the deal (another
    deal: the seat's kept vector starts again) and then the deal again, it gives what an
    encoder that has kept nothing writes; a vector it returned, changed by its holder,
    changes nothing it keeps. The positions move (the test can fail: a value not rewritten
    where it changed would differ)."""
    e = StopsAECEnv(variant=variant, players=4)
    layout = ObservationLayout(e.variant, 4)
    kept = layout.encoder()
    rng = np.random.default_rng(3)
    distinct: set[bytes] = set()
    held: list[tuple[Any, bytes]] = []
    for seed in range(2):
        table = stops.Table(e.variant, seats=4, seed=seed, chips=40)
        for _ in range(2):
            deal = table.new_deal()
            while not deal.is_terminal:
                for seat in range(4):
                    if rng.random() < 0.6:
                        got = kept.encode(deal, seat, (), 1.0)
                        want = layout.encoder().encode(deal, seat, (), 1.0)
                        assert got == want
                        distinct.add(got.tobytes())
                        got[0] = 7.0  # the holder's copy: nothing kept changes
                        if len(held) < 200:  # and nothing written later changes it
                            held.append((got, got.tobytes()))
                if rng.random() < 0.2:
                    copy = deal.clone()
                    seat = int(rng.integers(4))
                    assert (kept.encode(copy, seat, (), 0.0)
                            == layout.encoder().encode(copy, seat, (), 0.0))
                legal = deal.legal_actions()
                deal.apply(legal[int(rng.integers(len(legal)))])
            for seat in range(4):
                assert kept.encode(deal, seat, (), 0.0) == layout.encoder().encode(
                    deal, seat, (), 0.0)
    assert len(distinct) > 50
    assert all(v.tobytes() == b for v, b in held)  # the vectors are rewritten deal by deal


def test_masks_given_out_are_copies_of_the_mask_kept_in_place() -> None:
    """The environment rewrites the acting seat's mask in place at every step; the masks it
    gives (``last``'s observation and info) are copies. Set to all 1 by their holder, they
    change neither what the step refuses nor the next masks, and a mask given earlier keeps
    its values after the step."""
    e = StopsAECEnv(variant="boodle", players=4)
    e.reset(seed=5)
    for _ in range(30):
        obs, _r, _t, _tr, info = e.last()
        before = info["action_mask"].copy()
        legal = set(np.flatnonzero(before).tolist())
        illegal = next(i for i in range(len(before)) if i not in legal)
        obs["action_mask"][:] = 1
        info["action_mask"][:] = 1
        with pytest.raises(stops.IllegalAction):
            e.step(illegal)
        assert np.array_equal(e.observe(e.agent_selection)["action_mask"], before)
        e.step(min(legal))
        assert np.array_equal(info["action_mask"], np.ones_like(before))  # the holder's
        if e.episode_over:
            break
        assert np.array_equal(e.last()[4]["action_mask"],
                              e.action_mask(e._seat_of[e.agent_selection]))


@pytest.mark.parametrize("variant", ["boodle", "three-in-one"])
def test_core_step_is_the_interpreted_step(variant: str) -> None:
    """A legal ``int`` (or numpy integer) is played by the compiled core's step
    (``EnvCore.step``), any other index type by the environment's own checks: the same
    actions as another type with ``__index__`` give the same rewards, infos, observations
    and agents, step by step; a reward dict handed out is never changed by a later step of
    the episode (the dead steps at its end clear and drop the agents' rewards in place, as
    PettingZoo's own ``_was_dead_step`` does)."""
    fast, slow = env(variant=variant, players=4), env(variant=variant, players=4)
    fast.reset(seed=3)
    slow.reset(seed=3)
    rng = np.random.default_rng(3)
    held: list[tuple[dict[str, float], dict[str, float]]] = []
    for _ in range(400):
        if not fast.agents:
            break
        a_obs, a_rew, a_term, a_trunc, a_info = fast.last()
        b_obs, b_rew, b_term, b_trunc, b_info = slow.last()
        assert fast.agent_selection == slow.agent_selection
        assert (a_rew, a_term, a_trunc) == (b_rew, b_term, b_trunc)
        assert np.array_equal(a_obs["observation"], b_obs["observation"])
        assert np.array_equal(a_obs["action_mask"], b_obs["action_mask"])
        assert np.array_equal(a_info["action_mask"], b_info["action_mask"])
        assert fast.rewards == slow.rewards
        if not (a_term or a_trunc):
            held.append((fast.rewards, dict(fast.rewards)))
        if a_term or a_trunc:
            assert all(r == copy for r, copy in held)
            held = []
            fast.step(None)
            slow.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(a_obs["action_mask"])))
        fast.step(action)
        slow.step(_Index(action))
    assert all(r == copy for r, copy in held)


class _Index:
    """An index that is neither an ``int`` nor a numpy integer: the core's usual step leaves
    it to the environment's own checks, which convert it with ``operator.index``."""

    def __init__(self, i: int) -> None:
        self.i = i

    def __index__(self) -> int:
        return self.i


def test_last_before_reset_raises_and_after_reset_reads_the_env() -> None:
    """The wrapper's ``last`` checks for a reset until the first one, then is the
    environment's own ``last``."""
    e = env(variant="boodle", players=4)
    with pytest.raises(AttributeError, match="before reset"):
        e.last()
    e.reset(seed=1)
    assert e.last()[0]["observation"].shape == (e.unwrapped.observation_size,)
    obs = e.last()[0]["observation"]
    before = obs.copy()
    e.step(int(np.flatnonzero(e.last()[4]["action_mask"])[0]))
    assert np.array_equal(obs, before)  # an observation held never changes


def test_wrapper_steps_through_the_loop_with_no_frame_of_the_environment(
        caplog: pytest.LogCaptureFixture) -> None:
    """Once reset, the wrapper's ``step`` and ``last`` are the ``AECLoop``'s: a step and a
    ``last`` run no Python function of the environment's module (the wrapper's or the
    environment's ``step``, ``last``); the values are those of the environment's own
    ``step`` and ``last`` (the test of the core against the interpreted step covers every
    value); ``agent_iter`` still sees each step; a step after the episode warns as
    PettingZoo's wrapper does; and dropping the wrapper frees the environment with the
    cyclic collector off (the loop holds the environment, nothing holds the loop back)."""
    import gc
    import weakref

    from stops.interop import pettingzoo

    e = env(variant="boodle", players=4)
    e.reset(seed=5)
    seen: list[str] = []

    def profile(frame: Any, event: str, _arg: object) -> None:
        if event == "call" and frame.f_code.co_filename == pettingzoo.__file__:
            seen.append(frame.f_code.co_name)

    for k in range(4):
        action = int(np.flatnonzero(e.last()[4]["action_mask"])[0])
        if k == 3:  # a numpy integer (a sampler's, an argmax's) is the usual step too
            action = np.int64(action)
        sys.setprofile(profile)
        try:
            e.step(action)
            e.last()
        finally:
            sys.setprofile(None)
    assert seen == []
    for agent in e.agent_iter(10_000):  # asserts a step between two agents
        _obs, _rew, term, trunc, info = e.last()
        assert agent == e.agent_selection
        e.step(None if term or trunc else int(np.flatnonzero(info["action_mask"])[-1]))
    assert not e.agents
    e.step(None)
    assert "step() called after all agents are terminated" in caplog.text
    gc.disable()
    try:
        held = weakref.ref(e.unwrapped)
        del e
        assert held() is None
    finally:
        gc.enable()


def test_suit_rows_are_each_masks_values() -> None:
    """A suit's 13 values per rank mask, made from its two halves, for every mask."""
    from array import array

    from stops.interop.encoding import _suit_row

    for m in range(1 << 13):
        assert _suit_row(m) == array("f", [1.0 if m >> r & 1 else 0.0 for r in range(13)])


def _each_decision(e: Any, seeds: Iterable[int], rng: np.random.Generator) -> Iterator[Any]:
    """Every decision of random play in the episodes of ``seeds``: the info of the agent
    to act, yielded before its random legal index is stepped (a done agent stepped with
    ``None``)."""
    for seed in seeds:
        e.reset(seed=seed)
        while e.agents:
            _obs, _r, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            yield info
            e.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))


def test_the_mask_rewritten_in_place_is_a_new_mask() -> None:
    """The environment's mask buffer is rewritten in place after each step (only the last
    1s cleared): the same bytes as a new ``mask_bytes`` of the legal indices worked out
    afresh, at every decision of Boodle and of Three-in-One (a poker hand chosen card by
    card, the betting)."""
    from stops.interop.codec import ActionCodec

    for variant in ("boodle", "three-in-one"):
        e = env(variant=variant, players=4)
        core = e.unwrapped._core
        for _info in _each_decision(e, range(2), np.random.default_rng(3)):
            fresh = core.mask_on(core.deal, core.seat, {})[0]
            assert bytes(core.buf) == bytes(ActionCodec.mask_bytes(len(core.buf), fresh))


def test_choosing_in_reads_fixed_actions_as_their_verbs() -> None:
    """``EnvCore.choosing_in`` reads a tuple of fixed actions action by action: the same
    verb as the codec's ``cards_verb`` of its ``verbs``, at every decision of Three-in-One
    (a poker hand chosen card by card, the spare hand, the betting)."""
    e = env(variant="three-in-one", players=4)
    core = e.unwrapped._core
    seen: set[str | None] = set()
    for _info in _each_decision(e, range(3), np.random.default_rng(5)):
        legal = e.unwrapped.deal.legal_actions()
        want = e.unwrapped.codec.cards_verb(legal.verbs)
        assert core.choosing_in(legal) == want
        seen.add(want)
    assert None in seen and len(seen) > 1

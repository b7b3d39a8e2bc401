"""The tiers of the test suite: the quick tier, the campaigns and the compiled pass.

* **The quick tier** is ``python -m pytest`` (README's test command): everything but the
  campaigns, in well under two minutes.
* **Campaigns** are the long fuzz and property runs over random examples, marked ``campaign``
  (``pyproject.toml``'s ``addopts`` leaves them out; ``python -m pytest -m campaign`` runs
  them), and a few long runs of other kinds marked ``pytest.mark.campaign`` directly, each
  saying why (a 450-deal session replayed, fresh processes racing threads, every five-card
  hand ranked). A campaign's number of examples comes from the hypothesis profile in force, not from
  a fixed number in its decorator: each names its *full* budget, the count it runs under a
  profile of ``max_examples=100`` (``default``, in ``tests/conftest.py``), and a profile scales
  every campaign at once::

      python -m pytest -m campaign                                # the full budgets
      python -m pytest -m campaign --hypothesis-profile=ci        # CI's budget (.ci/run)
      python -m pytest -m campaign --hypothesis-profile=explore   # 10x, fresh random examples

  The full budgets differ because the examples' costs do: a mutated variant file takes a few
  milliseconds, a whole deal probed with illegal actions at every step a few hundred.
* **The compiled pass** (``.ci/run``, against the ``STOPS_COMPILE=1`` wheel) runs only the
  tests of the modules ``hatch_build.py`` compiles: :data:`COMPILED_TESTS` names them, module
  by module, and ``tests/conftest.py`` marks every test it names ``compiled``. The loader,
  the schema, the docs and the command line are pure Python in both builds, so their tests
  run once, in the quick tier.

Tests import this module as ``tiers``: ``tests`` has no ``__init__.py``, so pytest puts
``tests/`` on ``sys.path`` when it imports ``tests/conftest.py``, before any test file (as
for ``tests/support.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, settings

#: The ``max_examples`` under which every campaign runs its full budget.
FULL = 100

T = TypeVar("T", bound=Callable[..., Any])


def examples(full: int) -> int:
    """The number of examples a campaign of ``full`` runs under the profile in force (at
    least one, so a small profile still runs every campaign)."""
    return max(1, full * settings.default.max_examples // FULL)


def campaign(full: int, suppress: Iterable[HealthCheck] = tuple(HealthCheck)
             ) -> Callable[[T], T]:
    """Marks a hypothesis test (put it above ``@given``) as a campaign of ``full`` examples.

    No deadline: an example is a whole deal or file, slow by design. ``suppress`` names the
    health checks the test does not want (all of them unless it says)."""

    def mark(test: T) -> T:
        budget = settings(max_examples=examples(full), deadline=None,
                          suppress_health_check=list(suppress))
        marked: T = pytest.mark.campaign(budget(test))
        return marked

    return mark


# -- the compiled pass ----------------------------------------------------------------------
#
# Entries are paths under tests/, or one test of a file as "file.py::test_name" (test_fuzz.py
# fuzzes the loader, which is not compiled, beside records and actions, which are). Keep the
# map right:
# - a module added to hatch_build.py's COMPILED needs an entry here (test_build.py fails
#   until it has one), naming the test files that run it;
# - a new test file of play (a game's hand-derived deals, a property of deals) goes into the
#   entries of the modules it runs, or the compiled build never runs it;
# - `PYTHONPATH=src:tests python -m pytest -m compiled -p trace_compiled` checks every
#   claim: it fails naming each entry that never calls into its module (pure build, slow).

#: Hand-derived deals whose phases are the classic ones: stakes, the deal, play in sequence,
#: settlement with the leads, claims and endings policies.
CLASSIC = ("games/test_boodle.py", "games/test_three_in_one.py", "games/test_pot_and_kitty.py",
           "games/test_variations.py", "games/test_options_000_001.py",
           "games/test_options_003.py", "policies/test_shared_mechanisms.py",
           "policies/test_play_policies.py", "games/test_newmarket.py",
           "games/test_newmarket_tripoley_options.py", "games/test_tripoley.py",
           "games/test_pope_joan.py", "games/test_spinado.py",
           "games/test_pope_joan_spinado_more.py", "games/test_tripoley_box.py",
           "games/test_newmarket_peel.py", "games/test_variations_g8.py",
           "games/test_royal_rummy.py", "games/test_rummoli.py")
#: Hand-derived deals of the games that play in rotation (no stakes phase of their own).
ROTATION = ("games/test_comet.py", "games/test_nain_jaune.py", "games/test_poch.py",
            "policies/test_points_and_sessions.py", "games/test_play_or_pay.py",
            "games/test_pink_nines.py")
#: Whole deals from seeds, saves and records, and the compiled classes themselves: copies,
#: pickles, forged input, illegal actions, the invariants of random play.
WHOLE = ("test_build.py", "engine/test_properties.py", "engine/test_clone.py",
         "engine/test_saving.py", "test_hardening.py", "engine/test_record_stakes.py",
         "test_conformance.py", "bots/test_bots.py", "engine/test_elimination.py",
         "engine/test_speed_paths.py", "engine/test_record_sizes.py", "test_hardening2.py",
         "phases/test_deal_shape.py", "engine/test_embedding.py", "engine/test_deal_state.py",
         "test_fuzz.py::test_mutated_records_only_raise_record_errors",
         "test_fuzz.py::test_random_action_dicts_only_raise_illegal_action",
         "engine/test_decision_paths.py")
#: Deals with the spare hand (Boodle's family) or a poker stage (Three-in-One's).
SPARE = ("games/test_boodle.py", "games/test_options_000_001.py", "games/test_pot_and_kitty.py",
         "games/test_variations.py", "test_build.py", "phases/test_poker_legal_sets.py",
         "phases/test_poker_betting_steps.py")
POKER = ("games/test_three_in_one.py", "games/test_tripoley.py", "games/test_tripoley_box.py",
         "games/test_variations.py", "test_build.py", "games/test_rummoli.py",
         "phases/test_poker_legal_sets.py", "phases/test_poker_betting_steps.py")

#: For each module of ``hatch_build.COMPILED``, the tests that run it.
COMPILED_TESTS: dict[str, tuple[str, ...]] = {
    "stops/engine/deal.py": (*CLASSIC, *ROTATION, *WHOLE, "engine/test_phase_steps.py",
                             "engine/test_setup_tables.py"),
    "stops/engine/actions.py": (*CLASSIC, *ROTATION, *WHOLE, "engine/test_vocabulary.py",
                                "engine/test_clone_for_picks.py"),
    "stops/engine/legal.py": (*CLASSIC, *ROTATION, *WHOLE, "phases/test_poker_legal_sets.py",
                              "phases/test_poker_betting_steps.py"),
    "stops/engine/events.py": (*CLASSIC, *ROTATION, *WHOLE, "engine/test_vocabulary.py"),
    "stops/engine/table.py": CLASSIC + ROTATION + WHOLE,
    "stops/engine/finished.py": ("engine/test_speed_paths.py", "engine/test_saving.py",
                                 "test_hardening.py", "engine/test_embedding.py"),
    "stops/engine/chips.py": CLASSIC + ROTATION + WHOLE,
    "stops/engine/rng.py": ("engine/test_speed_paths.py", "engine/test_decision_paths.py",
                            "engine/test_properties.py",
                            "engine/test_clone.py", "engine/test_saving.py",
                            "bots/test_bots.py", "test_conformance.py"),
    "stops/phases/base.py": (*CLASSIC, *ROTATION, "apps/test_plugins.py",
                             "engine/test_vocabulary.py", "engine/test_phase_steps.py"),
    "stops/phases/dealing.py": CLASSIC + ROTATION,
    "stops/phases/stake.py": CLASSIC,
    "stops/phases/play.py": (*CLASSIC, *ROTATION, "engine/test_decision_paths.py",
                             "phases/test_hand_only.py"),
    "stops/phases/settle.py": (*CLASSIC, *ROTATION, "policies/test_claims_reader.py"),
    "stops/phases/spare.py": (*SPARE, "engine/test_setup_tables.py"),
    "stops/phases/poker.py": (*POKER, "engine/test_clone_for_picks.py",
                              "phases/test_still_best.py", "engine/test_hand_checks.py"),
    "stops/phases/handrank.py": ("phases/test_handrank.py", "phases/test_poker_legal_sets.py",
                                 "phases/test_still_best.py",
                                 "games/test_three_in_one.py",
                                 "games/test_tripoley.py", "games/test_variations.py"),
    "stops/phases/rotation.py": (*ROTATION, "policies/test_play_policies.py",
                                 "games/test_variations_g8.py"),
    "stops/policies/leads.py": (*CLASSIC, *ROTATION, "engine/test_decision_paths.py"),
    "stops/policies/claims.py": (*CLASSIC, *ROTATION, "policies/test_claims_reader.py"),
    "stops/policies/endings.py": CLASSIC,
    "stops/policies/points.py": (*ROTATION, "games/test_three_in_one.py",
                                 "games/test_tripoley.py"),
    "stops/policies/session.py": (*ROTATION, "engine/test_elimination.py", "test_hardening.py",
                                  "games/test_boodle.py"),
    "stops/apps/playout.py": ("apps/test_simulate.py", "engine/test_speed_paths.py",
                              "engine/test_decision_paths.py"),
    "stops/games/comet.py": ("games/test_comet.py", "games/test_variations_g8.py"),
    "stops/games/nain_jaune.py": ("games/test_nain_jaune.py", "games/test_variations_g8.py"),
    "stops/games/poch.py": ("games/test_poch.py",),
    "stops/phases/held_runs.py": ("games/test_poch.py", "engine/test_clone_for_sample.py"),
    "stops/engine/observation.py": ("test_conformance.py", "bots/test_bots.py",
                                    "engine/test_speed_paths.py", "engine/test_saving.py",
                                    "phases/test_phase_aids.py", "interop/test_pettingzoo.py"),
    "stops/interop/encoding.py": ("interop/test_pettingzoo.py",),
    "stops/interop/codec.py": ("interop/test_pettingzoo.py", "interop/test_openspiel.py"),
    "stops/interop/envcore.py": ("interop/test_pettingzoo.py",),
    "stops/engine/determinize.py": ("engine/test_clone.py", "engine/test_determinize.py",
                                    "engine/test_clone_for_calls.py",
                                    "engine/test_reading.py", "engine/test_clone_for_sample.py",
                                    "engine/test_clone_for_oracle.py",
                                    "engine/test_deal_hidden_law.py",
                                    "engine/test_hand_checks.py",
                                    "policies/test_claims_reader.py",
                                    "engine/test_view_build.py", "engine/test_view_kept.py",
                                    "games/test_poch.py",
                                    "games/test_royal_rummy.py", "phases/test_held_bonus.py"),
    "stops/bots/judgement.py": ("bots/test_judgement.py", "bots/test_bots.py"),
    "stops/bots/heuristic.py": ("bots/test_bots.py", "bots/test_judgement.py",
                                "bots/test_lead_value.py", "phases/test_phase_aids.py"),
    "stops/phases/aids.py": ("phases/test_phase_aids.py", "phases/test_aids_picks.py",
                             "bots/test_reader_plays.py", "apps/test_plugins.py"),
    "stops/phases/spare_aids.py": ("phases/test_phase_aids.py", "phases/test_aids_picks.py",
                                   "bots/test_bots.py"),
    "stops/phases/poker_aids.py": ("phases/test_phase_aids.py", "phases/test_aids_picks.py",
                                   "bots/test_bots.py"),
}


#: Every entry of :data:`COMPILED_TESTS`: what the compiled pass runs.
COMPILED_PASS = frozenset(e for entries in COMPILED_TESTS.values() for e in entries)


def in_compiled_pass(path: str, name: str) -> bool:
    """Whether the test ``name`` (no parameters) of the file ``path`` (under ``tests/``) is
    in the compiled pass."""
    return path in COMPILED_PASS or f"{path}::{name}" in COMPILED_PASS

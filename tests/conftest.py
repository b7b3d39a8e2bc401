"""Hypothesis profiles for the property tests, and the ``compiled`` marker.

``default`` (what ``python -m pytest`` runs) is *derandomized*: every run tries the same
examples, so a suite that passed once passes again on a clean machine, and a failure is
reproduced by running the suite again. Its ``max_examples`` is hypothesis' own 100, which is
also the unit of the campaigns' budgets (``tests/tiers.py``): under ``default`` each campaign
runs its full budget. The other profiles scale the campaigns:

- ``ci``: CI's campaign run (``.ci/run``), derandomized; the knob that keeps CI's time in
  hand (100: the full budgets).
- ``compiled``: the campaigns in CI's compiled pass, a quarter of each budget, derandomized.
  The rules' logic is the pure build's, whose campaigns ran in full; here they look for what
  compiling changes (native classes copied, pickled, restored from forged input).
- ``explore`` draws fresh random examples each run, ten times each campaign's budget (1,000
  for a test that does not set its own number), to hunt for new counterexamples::

      python -m pytest -m campaign --hypothesis-profile=explore tests/test_fuzz.py

A counterexample ``explore`` finds becomes a fixed test (or an ``@example``) before it is
fixed, so the default profile keeps it.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import settings

from tiers import in_compiled_pass

# The tests start many fresh interpreters (the examples, the command line, a parallel run's
# workers), and each imports the package. Where the environment forbids writing bytecode
# (PYTHONDONTWRITEBYTECODE, as on this project's CI machines), each of them compiled every
# module from source again: about 0.3 s a process. This process writes the bytecode once
# (into the usual, ignored __pycache__ folders) as it imports the package, before any test
# module does; the others only read it.
sys.dont_write_bytecode = False

settings.register_profile("default", derandomize=True, database=None)
settings.register_profile("ci", derandomize=True, database=None, max_examples=100)
settings.register_profile("compiled", derandomize=True, database=None, max_examples=25)
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile("default")

TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before -m deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Marks ``compiled`` every test that ``tiers.COMPILED_TESTS`` names."""
    for item in items:
        where = item.path.resolve()
        if not where.is_relative_to(TESTS):
            continue
        path = where.relative_to(TESTS).as_posix()
        if in_compiled_pass(path, getattr(item, "originalname", item.name)):
            item.add_marker(pytest.mark.compiled)

"""Hypothesis profiles for the property tests.

``default`` (what ``python -m pytest`` and CI run) is *derandomized*: every run tries the same
examples, so a suite that passed once passes again on a clean machine, and a failure is
reproduced by running the suite again. ``explore`` draws fresh random examples each run (1,000
for a test that does not set its own number) to hunt for new counterexamples::

    python -m pytest --hypothesis-profile=explore tests/test_fuzz.py tests/test_properties.py

A counterexample ``explore`` finds becomes a fixed test (or an ``@example``) before it is
fixed, so the default profile keeps it.
"""
from __future__ import annotations

from hypothesis import settings

settings.register_profile("default", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False, max_examples=1000)
settings.load_profile("default")

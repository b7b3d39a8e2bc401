"""Checks the claims of ``tiers.COMPILED_TESTS``: every entry calls into its module.

A pytest plug-in, off unless asked for, for whoever edits the map::

    PYTHONPATH=src:tests python -m pytest -m compiled -p trace_compiled

It runs the compiled pass on the pure build with a profiler on every call (several times
slower), notes which compiled modules each test calls into, and fails the run naming each
entry that never calls into a module the map says it runs. (The compiled build cannot be
traced: its functions are C.) Not a test file, so pytest never collects it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Generator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

import stops
from tiers import COMPILED_PASS, COMPILED_TESTS

TESTS = Path(__file__).resolve().parent
SRC = Path(stops.__file__).resolve().parent.parent
FILES = {str(SRC / module): module for module in COMPILED_TESTS}
called: set[tuple[str, str]] = set()   # (entry, module)
ran: set[str] = set()                  # entries with at least one test run
current: list[str] = []


def _profile(frame: FrameType, event: str, arg: Any) -> None:
    if event == "call":
        module = FILES.get(frame.f_code.co_filename)
        if module is not None:
            for entry in current:
                called.add((entry, module))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Generator[None, None, None]:
    path = item.path.resolve().relative_to(TESTS).as_posix()
    name = getattr(item, "originalname", item.name)
    current[:] = [path, f"{path}::{name}"]
    ran.update(current)
    sys.setprofile(_profile)
    threading.setprofile(_profile)
    try:
        yield
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        current.clear()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    wrong = [f"{entry} never calls {module}"
             for module, entries in COMPILED_TESTS.items() for entry in entries
             if entry in ran and (entry, module) not in called]
    unrun = sorted(COMPILED_PASS - ran)
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    lines = wrong + [f"{entry} ran no test (deselected, skipped or missing?)" for entry in unrun]
    if reporter is not None:
        reporter.write_sep("-", f"trace_compiled: {len(lines)} problem(s) in "
                                f"tiers.COMPILED_TESTS")
        for line in lines:
            reporter.write_line(f"  {line}")
    if lines and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED

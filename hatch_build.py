"""Build hook: the optional compiled build of stops' hot path (``STOPS_COMPILE=1``).

A plain ``pip install`` or ``pip wheel`` gives a pure-Python package that runs anywhere. With
``STOPS_COMPILE=1`` in the environment the wheel also carries the modules listed in
``COMPILED``, compiled by mypyc (a C compiler and the Python headers are needed). The ``.py``
files stay in the wheel beside the extensions; Python imports the extension first.

The compile happens in a temporary copy of ``src/``, never in the checkout, so no stale
extension can shadow an edited source file. Editable installs are never compiled.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The hot path: the deal state machine, its phases, chips, the shuffle and the claim
#: handlers that run per card. Everything else is pure Python in every build.
COMPILED = [
    "stops/engine/deal.py",
    "stops/engine/chips.py",
    "stops/engine/rng.py",
    "stops/phases/base.py",
    "stops/phases/dealing.py",
    "stops/phases/stake.py",
    "stops/phases/spare.py",
    "stops/phases/poker.py",
    "stops/phases/play.py",
    "stops/phases/settle.py",
    "stops/policies/claims.py",
    "stops/policies/leads.py",
    "stops/engine/legal.py",
    "stops/engine/events.py",
    "stops/engine/table.py",
    "stops/engine/finished.py",
    "stops/apps/playout.py",
    "stops/engine/actions.py",
    "stops/phases/handrank.py",
    "stops/policies/endings.py",
    "stops/policies/points.py",
    "stops/policies/session.py",
    "stops/phases/rotation.py",
    "stops/games/comet.py",
    "stops/games/nain_jaune.py",
    "stops/games/poch.py",
    "stops/phases/held_runs.py",
    "stops/engine/observation.py",
    "stops/interop/encoding.py",
    "stops/interop/codec.py",
    "stops/interop/envcore.py",
    "stops/engine/determinize.py",
    "stops/bots/judgement.py",
    "stops/bots/heuristic.py",
    "stops/phases/aids.py",
    "stops/phases/spare_aids.py",
    "stops/phases/poker_aids.py",
]

#: What mypy needs to type-check the compiled modules (and what they import).
BUILD_REQUIRES = [
    "mypy>=1.8",
    "setuptools>=61",
    "attrs>=23.1",
    "cattrs>=23.2",
    "pyyaml>=6.0",
    "typing-extensions>=4.7",
    "types-PyYAML",
]


#: Added to the C compiler's flags (GCC and Clang, not Windows): mypyc puts every compiled
#: module's functions in one C file but leaves them exported, so without it each call from
#: one compiled function to another binds through the PLT and is never inlined (a shared
#: library's exported symbols may be interposed). Random play ran about 5 % faster with it
#: (``benchmarks/ratio.py``, docs/performance.md, "The C compiler's flags"); the
#: instructions are the same, the calls direct.
EXTRA_CFLAGS = "-fno-semantic-interposition"


def compile_env(environ: dict[str, str], platform: str = sys.platform) -> dict[str, str]:
    """The environment mypyc runs in: ``environ`` with the optimisation level (``-O3``
    unless ``MYPYC_OPT_LEVEL`` says) and :data:`EXTRA_CFLAGS` after the caller's own
    ``CFLAGS`` (``STOPS_NO_EXTRA_CFLAGS=1`` leaves them out, e.g. for another compiler)."""
    env = dict(environ, MYPYC_OPT_LEVEL=environ.get("MYPYC_OPT_LEVEL", "3"))
    if platform != "win32" and not environ.get("STOPS_NO_EXTRA_CFLAGS", "").strip():
        env["CFLAGS"] = " ".join(filter(None, (environ.get("CFLAGS", "").strip(),
                                               EXTRA_CFLAGS)))
    return env


def _wanted() -> bool:
    return os.environ.get("STOPS_COMPILE", "").strip().lower() in {"1", "true", "yes", "on"}


class CompileHook(BuildHookInterface):  # type: ignore[type-arg]
    """Compiles :data:`COMPILED` with mypyc when ``STOPS_COMPILE=1``."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        return list(BUILD_REQUIRES) if _wanted() else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable" or not _wanted():
            return
        root = Path(self.root)
        # the extensions must outlive initialize(): the wheel is written after it returns
        self._keep = Path(tempfile.mkdtemp(prefix="stops-mypyc-out-"))
        with tempfile.TemporaryDirectory(prefix="stops-mypyc-") as tmp:
            work = Path(tmp) / "src"
            shutil.copytree(root / "src" / "stops", work / "stops",
                            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"))
            env = compile_env(dict(os.environ))
            done = subprocess.run(
                [sys.executable, "-m", "mypyc", *COMPILED], cwd=work, env=env,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
            if done.returncode:
                raise RuntimeError(f"STOPS_COMPILE=1: mypyc failed:\n{done.stdout}")
            suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
            keep = self._keep
            found = 0
            for ext in work.rglob(f"*{suffix}"):
                rel = ext.relative_to(work)
                if rel.parts[0] == "build":  # mypyc's intermediate copies
                    continue
                dest = keep / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ext, dest)
                build_data["force_include"][str(dest)] = rel.as_posix()
                found += 1
            if found < len(COMPILED) + 1:  # one per module, plus mypyc's shared library
                raise RuntimeError(f"STOPS_COMPILE=1: expected {len(COMPILED)} extensions, "
                                   f"mypyc produced {found}:\n{done.stdout}")
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        keep = getattr(self, "_keep", None)
        if keep is not None:
            shutil.rmtree(keep, ignore_errors=True)

"""Issue 22, hardening round two: what an input can cost, threads and processes, clean errors.

Each test failed (or hung) on the code before its fix. A test that would hang on that code
runs under :func:`deadline`, so it fails instead of hanging.
"""

from __future__ import annotations

import contextlib
import gc
import json
import signal
import sys
import threading
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import stops
from stops.apps.cli import main
from stops.engine.errors import RecordError, VariantError
from stops.io import records
from stops.rules.checks import check_file
from stops.rules.loader import MAX_ALIASES, collecting


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail (not hang) when the block runs longer than ``seconds``."""

    def expired(*_: Any) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def finished(name: str = "boodle", seats: int = 4, seed: int = 3) -> stops.Deal:
    deal = stops.Table(name, seats=seats, seed=seed).new_deal()
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])
    return deal


# -- 1. YAML aliases cost time linear in the text -----------------------------------------

def alias_chain(levels: int, width: int, indent: str = "") -> str:
    """``levels`` anchored lists, each holding the one before ``width`` times: width **
    levels values once the aliases are expanded, from ~30 bytes a level."""
    out = [f"{indent}a0: &a0 [{', '.join(['x'] * width)}]"]
    out += [f"{indent}a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]"
            for i in range(1, levels)]
    return "\n".join(out) + "\n"


# within the alias limit: 31 levels of two (62 aliases, 2 ** 31 values, 32 deep expanded) and
# 21 levels of three (60 aliases, 3 ** 21 values, 22 deep): refused at once, for nesting or
# for size; the old scan followed every alias, 2 ** 31 or 3 ** 21 visits
CHAINS = [(MAX_ALIASES // 2 - 1, 2), (MAX_ALIASES // 3, 3)]
REFUSED = "aliases stand for more than|nested more than"


@pytest.mark.parametrize(("levels", "width"), CHAINS)
def test_alias_chain_in_a_variant_file_is_refused_at_once(tmp_path: Path, levels: int,
                                                          width: int) -> None:
    f = tmp_path / "chain.yaml"
    f.write_text("name: chain\nextends: boodle\npresets:\n  p:\n    rules:\n"
                 + alias_chain(levels, width, "      "))
    assert len(f.read_bytes()) < 1600
    with deadline(2):
        with pytest.raises(VariantError, match=REFUSED):
            stops.load_variant(str(f))
        assert main(["check", str(f)]) == 1


@pytest.mark.parametrize(("levels", "width"), CHAINS)
def test_alias_chain_in_a_record_is_refused_at_once(tmp_path: Path, levels: int,
                                                    width: int) -> None:
    rec = records.dumps(finished().record())
    text = rec + "meta:\n" + alias_chain(levels, width, "  ")
    with deadline(2):
        with pytest.raises(RecordError, match=REFUSED):
            records.loads(text)
        f = tmp_path / "r.yaml"
        f.write_text(text)
        assert main(["replay", str(f)]) == 1


def test_aliases_that_stay_small_still_load(tmp_path: Path) -> None:
    # sharing is what aliases are for: 20 presets naming one layout, merge keys included
    f = tmp_path / "shared.yaml"
    f.write_text(
        "name: shared\nextends: boodle\n"
        "layout: &spaces\n"
        "  - {id: AH, kind: card, card: AH}\n  - {id: KC, kind: card, card: KC}\n"
        "rules: &r {bet_limit: 3}\n"
        "presets:\n"
        + "".join(f"  p{i}: {{layout: *spaces, rules: {{<<: *r, first_leader: dealers_left}}}}\n"
                  for i in range(20)))
    v = stops.load_variant(str(f))
    assert v.space_ids == ("AH", "KC")
    assert stops.load_variant(str(f), {"p3": True}).space_ids == ("AH", "KC")


def test_an_alias_inside_what_it_names_is_refused() -> None:
    with pytest.raises(RecordError, match="contains it"):
        records.loads("format: stops.deal/1\nmeta: &m [1, *m]\n")


def test_aliases_cannot_nest_past_the_limit() -> None:
    # each level nests 8 lists and names the level before: 5 levels are 40 deep expanded
    text = "a0: &a0 1\n" + "".join(
        f"a{i}: &a{i} {'[' * 8}*a{i - 1}{']' * 8}\n" for i in range(1, 6))
    with pytest.raises(RecordError, match="nested more than 32"):
        records.loads(text)


# -- 3. nothing of a load outlives it ------------------------------------------------------

@pytest.mark.campaign  # loads traced by tracemalloc: a long run
def test_a_load_retains_nothing(tmp_path: Path) -> None:
    body = "".join(f"  - {{k: {i}, v: x}}\n" for i in range(4_000)) + "  - *x\n"
    text = "format: stops.deal/1\nanchor: &x 1\nmeta:\n" + body
    records.loads(text, label="warm-up")
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for k in range(3):
            records.loads(text, label=f"r{k}")
        gc.collect()   # garbage is not retention
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 100_000, kept   # the old loader kept ~400 KB of key lines per label


def test_check_still_gives_lines(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text("name: v\nextends: boodle\nrules:\n  after_stop: any_suit\n"
                 "  after_stop: nope\n  bet_limt: 3\n")
    lines = check_file(str(f))
    assert any(line.startswith(f"{f}:4: rules.after_stop: duplicate key") for line in lines)
    assert any(line.startswith(f"{f}:6: rules.bet_limt") for line in lines)


# -- 4. a YAML record at the size limit reads in seconds -----------------------------------

def big_yaml_record(size: int) -> str:
    """A session-shaped YAML record of about ``size`` bytes, with an anchor (which sent the
    whole record to the pure-Python loader)."""
    one = records.dumps(finished(seats=8).record())
    item = "".join(("- " if i == 0 else "  ") + line + "\n"
                   for i, line in enumerate(one.splitlines()))
    head = "format: stops.session/1\nvariant: boodle\nmeta: &m {by: test}\nalso: *m\ndeals:\n"
    return head + item * (size // len(item))


def test_a_yaml_record_reads_at_megabytes_a_second() -> None:
    text = big_yaml_record(512 * 1024)
    start = time.process_time()
    data = records.loads(text)
    spent = time.process_time() - start
    assert data["also"] == {"by": "test"} and len(data["deals"]) > 100
    # CPU seconds, not wall time: load elsewhere on the machine does not count
    assert spent < 2.0, spent    # the pure-Python loader: 5 to 10 s


@pytest.mark.campaign
def test_a_yaml_record_at_the_size_limit_reads_in_seconds() -> None:
    text = big_yaml_record(records.MAX_RECORD_BYTES - 20_000)
    start = time.process_time()
    records.loads(text)
    assert time.process_time() - start < 12   # ~3 s on an idle machine; was ~45 s


def test_without_libyaml_big_yaml_records_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from stops.rules import loader

    monkeypatch.setattr(loader, "FAST_YAML", False)
    with pytest.raises(RecordError, match="libyaml"):
        records.loads(big_yaml_record(records.MAX_SLOW_YAML_BYTES + 10_000))
    small = records.dumps(finished().record())
    assert records.loads(small)["variant"] == "boodle"   # the pure-Python loader still reads
    assert records.loads(small + "x: &a 1\ny: *a\n")["y"] == 1


# -- 9. collecting problems is per call ---------------------------------------------------

def test_collecting_in_one_thread_does_not_change_another(tmp_path: Path) -> None:
    bad = tmp_path / "dup.yaml"
    bad.write_text("name: dup\nextends: boodle\ntitle: a\ntitle: b\n")
    got: list[BaseException | None] = []

    def other() -> None:
        try:
            stops.load_variant(str(bad))
        except VariantError as e:
            got.append(e)
        else:
            got.append(None)

    with collecting() as notes:
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert isinstance(got[0], VariantError)   # the old code stepped over it, and loaded
    assert notes.problems == []               # ... and reported it here


# -- 2. an embedded variant costs one build ---------------------------------------------------

def wide_variant(spaces: int = 256) -> dict[str, Any]:
    """Boodle with pools up to ``spaces`` layout spaces, as a record embeds it."""
    from stops.rules.untrusted import resolved_mapping

    data = resolved_mapping(stops.load_variant("boodle"))
    data["layout"] += [{"id": f"pool{i}", "kind": "pool"}
                       for i in range(spaces - len(data["layout"]))]
    return data


def wide_record(presets: dict[str, Any]) -> dict[str, Any]:
    from stops.rules.variant import variant_from_mapping

    v = variant_from_mapping(wide_variant(), label="wide")
    deal = stops.Table(v, seats=4, seed=2).new_deal()
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])
    rec: dict[str, Any] = json.loads(json.dumps(deal.record()))
    assert isinstance(rec["variant"], dict) and len(rec["variant"]["layout"]) == 256
    rec["variant"]["presets"] = presets
    return rec


def test_a_record_builds_its_variant_once_not_each_preset(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # 64 presets (the limit), each a whole 256-space variant to build: the old replay built
    # and checked every one (a second or two here; hours with costlier presets)
    from stops.rules.variant import Variant

    rec = wide_record({f"p{i}": {"rules": {"bet_limit": i + 1}} for i in range(64)})
    built = []
    init = Variant.__init__

    def counted(self: Variant, *args: Any, **kwargs: Any) -> None:
        built.append(1)
        init(self, *args, **kwargs)

    monkeypatch.setattr(Variant, "__init__", counted)
    with deadline(1.5):
        deal = stops.replay(rec)
    assert deal.is_terminal and len(deal.variant.layout) == 256
    assert len(built) == 1
    # a preset the options switch on is applied (and so checked)
    rec["options"] = {"p4": True}
    built.clear()
    assert stops.replay(rec).variant.flat["bet_limit"] == 5
    assert len(built) == 1   # the options are applied in the one build
    rec["variant"]["presets"]["p4"] = {"rules": {"bet_limit": "lots"}}
    with pytest.raises(RecordError, match="bet_limit"):
        stops.replay(rec)


def test_an_embedded_variant_at_the_value_limit() -> None:
    from stops.rules.untrusted import MAX_EMBEDDED_VALUES

    # each preset's layout: 1 list + 256 spaces of 2 keys (a mapping, 2 keys, 2 values)
    per = 1 + 256 * 5
    count = (MAX_EMBEDDED_VALUES - 4000) // (per + 2)
    layout = [{"id": f"s{i}", "kind": "pool"} for i in range(256)]
    rec = wide_record({f"p{i}": {"layout": layout} for i in range(count)})
    start = time.monotonic()
    assert stops.replay(rec).is_terminal
    assert time.monotonic() - start < 2
    rec["variant"]["presets"]["one_more"] = {"layout": layout, "x": [0] * 5000}
    with pytest.raises(RecordError, match="more than 50,000 values"):
        stops.replay(rec)


def test_a_session_is_played_under_one_variant() -> None:
    table = stops.Table("boodle", seats=4, seed=1, deals=3, keep_records=True)
    while not table.is_over:
        d = table.new_deal()
        while not d.is_terminal:
            d.apply(d.legal_actions()[0])
    session = json.loads(json.dumps(table.record()))
    assert len(records.replay_session(session)) == 3
    from stops.rules.untrusted import resolved_mapping

    for k, rec in enumerate(session["deals"]):
        rec["variant"] = {**resolved_mapping(table.variant), "title": f"Boodle {k}"}
    with deadline(2), pytest.raises(RecordError, match="deal 1: a session is played under one"):
        records.replay_session(session)
    same = resolved_mapping(table.variant)
    for rec in session["deals"]:
        rec["variant"] = same
    assert len(records.replay_session(session)) == 3


# -- 13. data nested past the limit, as Python objects -------------------------------------

def nested(depth: int) -> Any:
    x: Any = "deep"
    for _ in range(depth):
        x = [x]
    return x


@pytest.mark.parametrize("depth", [33, 5000])
def test_deeply_nested_embedded_variants_are_record_errors(depth: int) -> None:
    from stops.rules.untrusted import resolved_mapping
    from stops.rules.variant import variant_from_mapping

    rec = finished().record()
    rec["variant"] = {**resolved_mapping(stops.load_variant("boodle")),
                      "description": nested(depth)}
    with pytest.raises(RecordError, match="nested more than 32"):
        stops.replay(rec)
    with pytest.raises(RecordError, match="nested more than 32"):
        records.replay_session({"deals": [rec]})
    with pytest.raises(VariantError, match="nested more than 32"):
        variant_from_mapping(rec["variant"])
    rec["variant"] = "boodle"
    rec["options"] = {"bet_limit": nested(depth)}
    with pytest.raises(RecordError, match="nested more than 32"):
        stops.replay(rec)
    table = stops.Table("boodle", seats=4, seed=5)
    table.new_deal()
    save = table.to_dict()
    save["variant"] = {**resolved_mapping(table.variant), "description": nested(depth)}
    with pytest.raises(RecordError, match="nested more than 32"):
        stops.Table.from_dict(save)


RECORD_FIELDS = ["format", "variant", "options", "players", "dealer", "stacks", "layout",
                 "retired", "hands", "spare", "turn_up", "exempt", "actions", "seed", "out",
                 "result", "meta", "hands[0][0]", "actions[0]", "actions[0].card",
                 "actions[0].seat", "actions[0].action"]


@pytest.mark.parametrize("field", RECORD_FIELDS)
def test_deep_data_anywhere_in_a_record_is_a_record_error(field: str) -> None:
    # the old code: a RecursionError from the repr in the message about the bad field
    rec = finished().record()
    deep = nested(5000)
    if field == "hands[0][0]":
        rec["hands"][0][0] = deep
    elif field == "actions[0]":
        rec["actions"][0] = deep
    elif field.startswith("actions[0]."):
        rec["actions"][0] = {**rec["actions"][0], field.split(".")[1]: deep}
    elif field == "options":
        rec["options"] = {"bet_limit": deep}
    else:
        rec[field] = deep
    for call in (lambda: stops.replay(rec), lambda: records.replay_session({"deals": [rec]}),
                 lambda: stops.Deal.from_dict(rec)):
        with contextlib.suppress(RecordError):
            call()   # "meta" is never read: it may replay


def test_deep_data_anywhere_in_a_save_is_a_record_error() -> None:
    table = stops.Table("boodle", seats=4, seed=3)
    table.new_deal()
    save = table.to_dict()
    for field in save:
        with pytest.raises(RecordError):
            stops.Table.from_dict({**save, field: nested(5000)})


def test_a_variant_that_contains_itself_is_refused() -> None:
    from stops.rules.variant import variant_from_mapping

    data: dict[str, Any] = {"name": "loop", "extends": "boodle"}
    data["presets"] = {"p": data}
    with pytest.raises(VariantError, match="nested more than 32"):
        variant_from_mapping(data)


# -- 5. simulate streams its chunks and caps its workers ---------------------------------------

class _Enough(Exception):
    pass


def test_a_huge_run_starts_at_once_in_little_memory() -> None:
    from stops.apps.simulate import simulate

    def stop(done: int, total: int) -> None:
        assert total == 10**8
        raise _Enough

    tracemalloc.start()
    try:
        with deadline(20), pytest.raises(_Enough):
            # 400,000 chunks: the old code built every chunk's arguments first
            simulate("boodle", 4, deals=10**8, progress=stop)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000, peak   # the old code: ~60 MB here (~600 GB for 10**12 deals)


def test_workers_are_capped_at_the_chunks_and_the_cores(
        capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from stops.apps.simulate import WORKERS_PER_CORE, worker_count

    cores = os.cpu_count() or 1
    assert worker_count(3, 10) == (3, None)
    assert worker_count(100_000, 2)[0] == 2
    assert worker_count(100_000, 10**9)[0] == WORKERS_PER_CORE * cores
    assert "per core" in str(worker_count(100_000, 10**9)[1])
    with deadline(60):
        assert main(["simulate", "boodle", "-n", "300", "--workers", "100000", "--json",
                     "--no-progress"]) == 0
    out = capsys.readouterr()
    assert "stops: using 2 worker processes, not 100000" in out.err
    assert json.loads(out.out)["deals"] == 300


# -- 12. a dead worker, and Ctrl-C, stop the run cleanly ----------------------------------------

KILLER = '''
import multiprocessing, os, signal

from stops.policies.claims import ClaimPolicy


class Killer(ClaimPolicy):
    """Pays nothing; in a worker process of a simulation, dies at the first card."""

    def watch(self, variant, params, triggers, every):
        def on_card(deal, seat, card):
            if multiprocessing.parent_process() is not None:
                os.kill(os.getpid(), signal.SIGKILL)
        for card in range(52):
            triggers.setdefault(card, []).append(on_card)


def register(registry):
    registry.register_policy("pay_collection", "killer", text=lambda p: "Nobody is paid.",
                             plugin="killer")(Killer())
'''


def test_a_worker_that_dies_ends_the_run_with_one_line(tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    plugin = tmp_path / "killer.py"
    plugin.write_text(KILLER)
    variant = tmp_path / "killer.yaml"
    variant.write_text("name: killer\nextends: boodle\nrules:\n  pay_collection: killer\n")
    env = {**os.environ, "PYTHONPATH": str(Path(stops.__file__).parent.parent)}
    # in a process of its own: a broken pool leaves nothing behind in the test process
    done = subprocess.run([sys.executable, "-m", "stops", "simulate", str(variant), "--plugins",
                           str(plugin), "--workers", "2", "--sessions", "40", "--no-progress",
                           "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 1
    assert done.stderr.strip().startswith("stops: a worker process died")
    assert len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["killer.py", "killer.yaml"]


def _ctrl_c_as_at_a_terminal() -> None:
    """In the child, before it runs Python: Ctrl-C as a terminal delivers it. A test run
    started in the background of a shell ignores SIGINT, its children inherit that, and
    Python then leaves it ignored (the test waited 30 s for a run that never heard it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.campaign  # a parallel run of worker processes started and stopped
def test_ctrl_c_stops_a_parallel_run_at_once() -> None:
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONPATH": str(Path(stops.__file__).parent.parent)}
    proc = subprocess.Popen([sys.executable, "-m", "stops", "simulate", "boodle", "--sessions",
                             "1000000", "--workers", "2", "--no-progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    try:
        time.sleep(2.5)   # started, and its workers busy
        os.killpg(proc.pid, signal.SIGINT)   # Ctrl-C at a terminal: the whole group
        out, err = proc.communicate(timeout=30)   # the old code ran every queued session
    finally:
        if proc.poll() is None:   # pragma: no cover - only on failure
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip() == "stops: interrupted"
    assert out == ""


# -- 14. chips are bounded at load ----------------------------------------------------------

def test_a_4301_digit_stack_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = finished().record()
    rec["stacks"][0] = rec["result"]["stacks"][0] = 123456789
    f = tmp_path / "huge.json"
    f.write_text(json.dumps(rec).replace("123456789", "9" * 4301))
    for extra in ([], ["--json"]):
        assert main(["replay", str(f), *extra]) == 1
        err = capsys.readouterr().err
        assert err.startswith("stops: replay failed:") and "too large" in err
        assert len(err.splitlines()) == 1
    g = tmp_path / "big.json"   # readable, but past the limit
    g.write_text(json.dumps(rec).replace("123456789", "9" * 4000))
    assert main(["replay", str(g), "--json"]) == 1
    assert "at most 1,000,000,000,000,000" in capsys.readouterr().err
    rec["stacks"][0] = 10**4301
    with pytest.raises(RecordError, match="at most"):
        stops.replay(rec)


def tripoley_midway(chips: int) -> stops.Table:
    table = stops.Table("tripoley", seats=4, chips=chips, seed=1)
    deal = table.new_deal()
    while deal.phase != "poker":   # the betting round: a range of bids up to a stack
        deal.apply(deal.legal_actions()[0])
    return table


def test_huge_stacks_in_a_tripoley_save_and_record() -> None:
    from stops.engine.chips import MAX_CHIPS

    # at the limit every stack still gives a countable range of bets
    table = tripoley_midway(MAX_CHIPS)
    deal = table.deal
    assert deal is not None
    assert deal.legal_count() == len(deal.legal_actions()) > MAX_CHIPS // 2
    again = stops.Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.deal is not None and again.deal.legal_count() == deal.legal_count()
    # past it: the old code raised OverflowError from legal_count
    save = json.loads(json.dumps(table.to_dict()))
    for key in ("stacks", "start_stacks"):
        save[key] = [x + 2**64 for x in save[key]]
    with pytest.raises(RecordError, match="beyond"):
        stops.Table.from_dict(save)
    rec = deal.record()
    rec["stacks"] = [2**64] * 4
    with pytest.raises(RecordError, match="at most"):
        stops.replay(rec, partial=True)
    with pytest.raises(stops.TableError, match="at most"):
        stops.Table("tripoley", seats=4, chips=MAX_CHIPS + 1)
    with pytest.raises(stops.IllegalAction):
        deal.apply({"seat": deal.current_seat, "action": "bet", "chips": 10**5000})


# -- 16. the library's errors, not Python's -------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda: stops.Table("boodle", seats=4, chips=1.5),  # type: ignore[arg-type]
    lambda: stops.Table("boodle", seats=4, chips="50"),
    lambda: stops.Table("boodle", seats=10**5000),
    lambda: stops.Table("boodle", seats=4, seed=10**5000),
    lambda: stops.Table("boodle", seats=4).new_deal().hand(4),
    lambda: stops.Table("boodle", seats=4).new_deal().hand(-1),
    lambda: stops.Table("boodle", seats=4).new_deal().hand("0"),
    lambda: stops.Table("boodle", seats=4).new_deal().hand(None),
    lambda: stops.Table("boodle", seats=4).new_deal().observe(10**5000),
    lambda: stops.Action(10**5000, "keep"),
    lambda: stops.Action(0, "bid", chips=10**5000),
])
def test_bad_arguments_raise_stops_errors(call: Any) -> None:
    with pytest.raises(stops.StopsError):
        call()


@pytest.mark.parametrize("kwargs", [
    {"players": 99}, {"players": "4"}, {"deals": 0}, {"deals": "3"}, {"deals": 2.5},
    {"seed": 1.5}, {"seed": 10**5000}, {"chips": 1.5}, {"chips": 10**20},
    {"bots": ["genius"]}, {"bots": []}, {"workers": 0}, {"workers": "2"},
    {"sessions": 0}, {"progress": 5}, {"options": [1]}, {"plugins": "x.py"},
])
def test_bad_simulate_arguments_raise_stops_errors(kwargs: dict[str, Any]) -> None:
    from stops.apps.simulate import simulate

    args = {"players": 4, "deals": 3, **kwargs}
    with deadline(10), pytest.raises(stops.StopsError):
        simulate("boodle", **args)


def test_a_record_format_is_checked() -> None:
    rec = finished().record()
    assert stops.replay(rec).is_terminal
    for bad in ("stops.deal/2", "stops.session/1", 7):
        with pytest.raises(RecordError, match=r"'format' must be stops\.deal/1"):
            stops.replay({**rec, "format": bad})
    with pytest.raises(RecordError, match=r"'format' must be stops\.session/1"):
        records.replay_session({"format": "stops.deal/1", "deals": [rec]})
    del rec["format"]
    assert stops.replay(rec).is_terminal   # a hand-written record may leave it out


# -- 15. every failure of the command line is one line ---------------------------------------

def _fifo(tmp: Path) -> str:
    import os

    path = tmp / "pipe.yaml"
    os.mkfifo(path)
    return str(path)


def _full_disk(monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)


class _FullStdout:
    def write(self, text: str) -> int:
        import errno

        raise OSError(errno.ENOSPC, "No space left on device")

    def flush(self) -> None:
        pass


def _huge_record(tmp: Path) -> str:
    rec = finished().record()
    rec["stacks"][0] = 123456789
    path = tmp / "huge.json"
    path.write_text(json.dumps(rec).replace("123456789", "9" * 5000))
    return str(path)


def _plugin(tmp: Path, body: str) -> str:
    path = tmp / "plugin.py"
    path.write_text(body)
    return str(path)


def _interrupt(monkeypatch: pytest.MonkeyPatch) -> None:
    from stops.apps import simulate

    def interrupted(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(simulate, "run_chunk", interrupted)


# (arguments, with {tmp} and {fifo} filled in; what to set up; what the one line says)
FAILURES: list[tuple[list[str], Any, str]] = [
    (["schema", "-O", "{tmp}"], None, "not a regular file"),
    (["schema", "-O", "{tmp}/no/such/dir/schema.json"], None, "no such directory"),
    (["schema", "-O", "{fifo}"], None, "not a regular file"),
    (["schema", "-O", "{tmp}/schema.json"], _full_disk, "No space left"),
    (["schema"], "stdout", "cannot write the output"),
    (["check", "{fifo}"], None, "not a regular file"),
    (["replay", "{fifo}"], None, "not a regular file"),
    (["rules", "{fifo}"], None, "not a regular file"),
    (["simulate", "{fifo}"], None, "not a regular file"),
    (["rules", "boodle", "-o", "bet_limit=" + "[" * 5000], None, "bet_limit"),
    (["rules", "boodle", "-o", "bet_limit=" + "9" * 5000], None, "bet_limit"),
    (["rules", "boodle", "--plugins", "raise"], None, "register(registry) failed"),
    (["rules", "boodle", "--plugins", "import"], None, "importing it failed"),
    (["simulate", "boodle", "--chips", "9" * 40], None, "chips"),
    (["simulate", "boodle", "-p", "9" * 40], None, "players"),
    (["simulate", "boodle", "--seed", "9" * 1200], None, "seed"),
    (["play", "boodle", "--chips", "9" * 40], None, "chips"),
    (["play", "boodle", "--seat", "9" * 40], None, "--seat"),
    (["replay", "huge"], None, "too large"),
    (["replay", "huge", "--json"], None, "too large"),
    (["simulate", "boodle", "-n", "600", "--no-progress"], _interrupt, "interrupted"),
]


@pytest.mark.parametrize(("argv", "setup", "says"), FAILURES,
                         ids=[" ".join(a)[:50] for a, _, _ in FAILURES])
def test_command_line_failures_are_one_line(
        argv: list[str], setup: Any, says: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import sys

    fifo = _fifo(tmp_path) if any("{fifo}" in a for a in argv) else ""
    args = [a.format(tmp=tmp_path, fifo=fifo) for a in argv]
    if args[0] == "replay":
        args[1] = _huge_record(tmp_path) if args[1] == "huge" else args[1]
    if "--plugins" in args:
        i = args.index("--plugins") + 1
        args[i] = _plugin(tmp_path, "def register(registry):\n    raise ValueError('no')\n"
                          if args[i] == "raise" else "raise RuntimeError('broken')\n")
    if callable(setup):
        setup(monkeypatch)
    elif setup == "stdout":
        monkeypatch.setattr(sys, "stdout", _FullStdout())
    with deadline(30):
        code = main(args)
    out, err = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in out + err
    if args[0] == "check":   # stops check reports problems as its output, one a line
        err = out
        assert err.startswith(f"{fifo}: <top>: ")
    else:
        # one line; an invalid variant's problems follow its "stops: invalid variant:" line
        lines = [line for line in err.splitlines() if line.strip()]
        assert lines[0].startswith("stops:"), err
        assert len(lines) == 1 or lines[0] == "stops: invalid variant:", err
    assert says in err
    # (a plug-in file's bytecode cache is Python's own, written where bytecode may be)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in (
        "pipe.yaml", "plugin.py", "huge.json", "__pycache__")]
    assert leftovers == []   # no half-written (or temporary) output file


# -- 10. the rotation phase's table of plays is shared safely -------------------------------

PLAYS_THREADS = """
import sys, threading
sys.setswitchinterval(1e-6)
from stops.engine import actions
go = threading.Barrier(8)
seen = [[] for _ in range(8)]
def run(k):
    go.wait()
    for seat in range(52):
        seen[k].append((id(actions.plays_of(seat)), id(actions.leads_of(seat))))
ts = [threading.Thread(target=run, args=(k,)) for k in range(8)]
[t.start() for t in ts]
[t.join() for t in ts]
bad = [(s, a.seat) for table in (actions._PLAYS_BY_SEAT, actions._LEADS_BY_SEAT)
       for s, row in enumerate(table) for a in (row or ()) if a.seat != s]
bad += [k for k in range(8) if seen[k] != seen[0]]   # every thread got the same rows
print(len(bad), sum(row is not None for row in actions._PLAYS_BY_SEAT))
"""


def test_threads_meeting_new_seats_get_their_own_plays() -> None:
    import subprocess
    import sys

    for _ in range(2):   # fresh processes: no row built yet (rows are built on first use)
        out = subprocess.run([sys.executable, "-c", PLAYS_THREADS], capture_output=True,
                             text=True, timeout=120, check=True)
        assert out.stdout.split() == ["0", "52"], out.stdout + out.stderr


# -- 11. a deal pickles in every phase, in both builds ---------------------------------------

WAITS = {   # the phases a deal of each waits in for a decision (besides play), all pickled
    "boodle-free-stakes": {"stake"}, "boodle-spare-auction": {"spare_hand"},
    "pot-and-kitty": {"stake", "spare_hand"}, "pot-and-kitty-four-kings": {"stake", "spare_hand"},
    "three-in-one": {"poker", "spare_hand"}, "three-in-one-on-play": {"poker", "spare_hand"},
    "tripoley": {"poker"}, "tripoley-colours": {"poker", "spare_hand"},
    "tripoley-home-table": {"poker", "spare_hand"},
}


@pytest.mark.parametrize("name", stops.list_variants())
def test_a_deal_pickles_in_every_phase(name: str) -> None:
    import pickle

    from stops.engine.rng import Rng

    v = stops.load_variant(name)
    lo, hi = v.players
    seen: dict[str, int] = {}
    for seed in range(8):
        table = stops.Table(v, seats=min(lo + 1, hi), seed=seed)
        deal = table.new_deal()
        rng = Rng(seed)
        while True:
            phase = deal.phase
            if seen.get(phase, 0) < 2 or deal.is_terminal:
                seen[phase] = seen.get(phase, 0) + 1
                twin = pickle.loads(pickle.dumps(deal))
                assert (twin.phase, twin.events, twin.stacks) == (phase, deal.events,
                                                                   deal.stacks)
                assert list(twin.legal_actions()) == list(deal.legal_actions())
                again = pickle.loads(pickle.dumps(table))
                assert again.deal is not None and again.deal.events == deal.events
                if not deal.is_terminal:   # the copy goes on exactly as the deal does
                    a = deal.legal_actions()[rng.below(deal.legal_count())]
                    assert twin.apply(a) == deal.apply(a)
                    assert twin.legal_actions() == deal.legal_actions()
                    continue
            if deal.is_terminal:
                break
            deal.apply_index(rng.below(deal.legal_count()))
    assert {"play", "over"} <= set(seen)
    assert WAITS.get(name, set()) <= set(seen)


def _worker_signals() -> tuple[bool, bool]:
    import signal

    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    return blocked, signal.getsignal(signal.SIGINT) == signal.SIG_IGN


@pytest.mark.skipif(sys.platform == "win32", reason="signal masks are POSIX")
def test_a_worker_starts_with_ctrl_c_held_and_then_ignores_it() -> None:
    # A worker interrupted before its initializer ran died holding the pool's queue lock and
    # the pool never shut down (Ctrl-C under load hung `stops simulate --workers 2`). Workers
    # now start with Ctrl-C blocked, and the initializer ignores it before unblocking it; the
    # simulating process gets its mask back as soon as the worker is started.
    import signal
    from concurrent.futures import ProcessPoolExecutor

    from stops.apps.simulate import _ignore_interrupts, _interrupts_held

    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with ProcessPoolExecutor(max_workers=1, initializer=_ignore_interrupts) as pool:
        with _interrupts_held():
            assert signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
            job = pool.submit(_worker_signals)
        assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before
        assert job.result(timeout=60) == (False, True)

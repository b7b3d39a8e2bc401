"""The ``stops`` command line.

Every command catches the library's own errors and prints them as one clear message with a
non-zero exit; a traceback means a bug in ``stops``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stops.engine.errors import RecordError, StopsError, VariantError
from stops.engine.text import printable


def _say(*parts: object, end: str = "\n", file: Any = None) -> None:
    """``print``, with control characters from variant files and records stripped."""
    out = file if file is not None else sys.stdout
    out.write(printable(" ".join(str(p) for p in parts) + end))


def _registry(args: argparse.Namespace) -> Any:
    """The registry a command loads variants with: the default, plus any ``--plugins``."""
    specs = getattr(args, "plugins", None) or []
    if not specs:
        return None
    from stops.apps.plugins import load_plugins

    return load_plugins(specs)


def _load(ref: str, options: list[str] | None = None, registry: Any = None) -> Any:
    from stops.rules.variant import load_variant

    return load_variant(ref, options=_parse_options(options), registry=registry)


def _parse_options(items: list[str] | None) -> dict[str, Any] | None:
    if not items:
        return None
    from stops.rules.loader import parse_yaml_text

    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise VariantError.one("<--option>", item[:60], "expected RULE=VALUE, e.g. "
                                   "after_stop=must_change_suit")
        k, _, v = item.partition("=")
        try:
            # read as YAML under the variant files' limits (nesting, aliases, size)
            out[k.strip()] = parse_yaml_text(v, "<--option>")
        except VariantError:
            out[k.strip()] = v   # not YAML within the limits: the text itself
    return out


def cmd_variants(args: argparse.Namespace) -> int:
    from stops.rules.variant import list_variants, load_variant

    variants = [load_variant(name) for name in list_variants()]
    if args.json:
        _say(json.dumps([{"name": v.name, "title": v.title,
                          "players": {"min": v.players[0], "max": v.players[1]}}
                         for v in variants], indent=2))
        return 0
    for v in variants:
        lo, hi = v.players
        count = f"{lo} players" if lo == hi else f"{lo}-{hi} players"
        _say(f"{v.name:28} {count:12} {v.title}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from stops.rules.prose import WIDTH, rules_text

    v = _load(args.variant, args.option, _registry(args))
    if args.json:
        _say(json.dumps({"name": v.name, "title": v.title,
                         "players": {"min": v.players[0], "max": v.players[1]},
                         "options": v.options,
                         "text": _paragraphs(rules_text(v))}, indent=2, default=str))
        return 0
    width = WIDTH  # not a terminal (a pipe, a file): 80 columns
    if sys.stdout.isatty():
        import shutil

        width = max(shutil.get_terminal_size((WIDTH, 24)).columns, 20)
    _say(rules_text(v, width=width), end="")
    return 0


def _paragraphs(text: str) -> list[str]:
    """The rules text's paragraphs (the title's underline is for terminals only)."""
    lines = text.splitlines()
    return [x for x in lines if x.strip() and set(x) != {"="}]


def cmd_check(args: argparse.Namespace) -> int:
    from stops.rules.checks import check_file, check_report, hint_lines

    registry = _registry(args)
    options = _parse_options(args.option)
    if args.json:
        report = check_report(args.file, registry=registry, options=options)
        _say(json.dumps(report, indent=2))
        return 0 if report["ok"] else 1
    problems = check_file(args.file, registry=registry, options=options)
    if not problems:
        _say("ok")
        for line in hint_lines(args.file, registry=registry, options=options):
            _say(f"hint: {line}")
        return 0
    for line in problems:
        _say(line)
    return 1


def _progress_bar(label: str, enabled: bool = True) -> Any:
    """A progress bar on standard error, only when it is a terminal (and not turned off).

    With the optional extra ``progress`` (tqdm) installed, tqdm draws it; otherwise a plain
    bar that shows the deals done, the rate and the time left.
    """
    if not enabled or not sys.stderr.isatty():
        return None
    import importlib

    try:
        tqdm: Any = importlib.import_module("tqdm").tqdm
    except ImportError:
        tqdm = None
    if tqdm is not None:
        bar: Any = None

        def show_tqdm(done: int, total: int) -> None:
            nonlocal bar
            if bar is None:
                bar = tqdm(total=total, desc=label, unit="deal", file=sys.stderr,
                           dynamic_ncols=True)
            bar.update(done - bar.n)
            if done >= total:
                bar.close()

        return show_tqdm
    import time

    start = time.monotonic()

    def show(done: int, total: int) -> None:
        width = 24
        filled = width * done // max(total, 1)
        spent = max(time.monotonic() - start, 1e-9)
        rate = done / spent
        left = (total - done) / rate if rate > 0 else 0.0
        sys.stderr.write(f"\r{label} [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
                         f"  {rate:,.0f}/s  {_clock(left)} left ")
        if done >= total:
            sys.stderr.write(f"\r{label}: {total} in {_clock(spent)}, {rate:,.0f}/s"
                             + " " * 30 + "\n")
        sys.stderr.flush()

    return show


def _clock(seconds: float) -> str:
    m, s = divmod(int(seconds + 0.5), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


#: Seconds ``--scheduler`` waits for the dask scheduler before it gives up: long enough for a
#: cluster across a network; the tests shorten it to try an address that is never there.
SCHEDULER_TIMEOUT = 20.0


def _cluster_executor(address: str) -> Any:
    """An Executor running on the dask distributed cluster whose scheduler is ``address``."""
    import importlib

    try:
        Client: Any = importlib.import_module("distributed").Client
    except ImportError:
        raise StopsError('--scheduler needs dask distributed: pip install '
                         '"stops-cards[dask]" (from a checkout: pip install ".[dask]")'
                         ) from None
    try:
        client = Client(address, timeout=SCHEDULER_TIMEOUT)
    except Exception as e:  # dask raises OSError, TimeoutError, ValueError ... by case
        raise StopsError(f"cannot reach the dask scheduler at {address}: {e}") from None
    return client


def _seats(given: int | None, lo: int, hi: int) -> int:
    """``--players`` as given, or else 4 brought into the variant's range (Epsom is for two
    only, so its table has two seats unless told otherwise)."""
    return given if given is not None else min(max(4, lo), hi)


def _count(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo} to {hi}"


def cmd_simulate(args: argparse.Namespace) -> int:
    from stops.apps.simulate import compare, simulate

    registry = _registry(args)
    v = _load(args.variant, args.option, registry)
    lo, hi = v.players
    args.players = _seats(args.players, lo, hi)
    if not lo <= args.players <= hi:
        raise StopsError(f"{v.name} is for {_count(lo, hi)} players, not {args.players}")
    _check_chips(args.chips)
    if args.deals < 1:
        raise StopsError("--deals must be at least 1")
    if args.sessions is not None and args.sessions < 1:
        raise StopsError("--sessions must be at least 1")
    if args.workers < 1:
        raise StopsError("--workers must be at least 1")
    if args.scheduler is None and args.workers > 1:
        from stops.apps.simulate import CHUNK, worker_count

        total = args.sessions if args.sessions is not None else args.deals
        _, note = worker_count(args.workers, -(-total // (1 if args.sessions else CHUNK)))
        if note:
            _say(f"stops: {note}", file=sys.stderr)
    bots = _bot_specs(args.bots)
    other = None
    if args.compare:
        other = _load(args.compare, args.option, registry)
        lo2, hi2 = other.players
        if not lo2 <= args.players <= hi2:
            raise StopsError(f"{other.name} is for {_count(lo2, hi2)} players, not "
                             f"{args.players}")
    if args.plot:
        from stops.apps.plot import _pyplot

        _pyplot()   # fail now, not after the run, if matplotlib is missing
    common: dict[str, Any] = dict(players=args.players, deals=args.deals, seed=args.seed,
                                  chips=args.chips, bots=bots, workers=args.workers,
                                  sessions=args.sessions, plugins=tuple(args.plugins or ()))
    client = None
    if args.scheduler:
        client = _cluster_executor(args.scheduler)
        common["executor"] = client.get_executor()
    try:
        if other is not None:
            cmp = compare(v, other, progress=_progress_bar(f"{v.name} and {other.name}",
                                                           args.progress), **common)
            reports = [cmp.a, cmp.b]
        else:
            cmp = None
            reports = [simulate(v, progress=_progress_bar(v.name, args.progress), **common)]
    finally:
        if client is not None:
            client.close()
    rep = reports[0]
    if args.plot:
        from stops.apps.plot import plot_reports

        try:
            where = plot_reports(reports, args.plot, cmp.pairs if cmp is not None else None)
        except (OSError, ValueError, RuntimeError) as e:
            raise StopsError(f"cannot write the picture {args.plot}: {e}") from None
        print(f"picture written to {where}", file=sys.stderr)
    if cmp is not None:
        _say(json.dumps(cmp.to_dict(), indent=2) if args.json else cmp.text())
        return 0
    if args.json:
        _say(json.dumps(rep.to_dict(), indent=2))
    else:
        _say(rep.text())
    return 0


def _check_chips(chips: int | None) -> None:
    """``--chips``: everyone's stack at the start, so at least 1 (why, in the message)."""
    from stops.engine.table import start_stack_problem

    why = start_stack_problem(chips) if chips is not None else None
    if why is not None:
        raise StopsError(f"--chips: {why}")


def cmd_schema(args: argparse.Namespace) -> int:
    from stops.io.schema import schema_text

    text = schema_text()
    if args.output:
        from stops.apps.files import write_atomic

        write_atomic(args.output, text.encode("utf-8"))
    else:
        _say(text, end="")
    return 0


def cmd_diff(args: argparse.Namespace) -> int:
    from stops.rules.diff import diff_lines, diff_text

    registry = _registry(args)
    a, b = _load(args.a, None, registry), _load(args.b, args.option, registry)
    lines = diff_lines(a, b)
    if args.json:
        _say(json.dumps({"a": a.name, "b": b.name, "options": b.options, "same": not lines,
                         "differences": lines}, indent=2, default=str))
    else:
        _say(diff_text(a, b), end="")
    return 1 if lines else 0   # as diff(1) does: 0 the same, 1 different


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record: told as ``stops play`` tells a deal (from one seat's view with
    ``--seat``), the raw event log with ``--events``, the result as JSON with ``--json``."""
    from stops.io import records as record

    registry = _registry(args)
    rec = record.load(args.file)
    if args.option:
        rec = _with_options(rec, _parse_options(args.option) or {})
    here = Path(args.file).resolve().parent
    if "deals" in rec and "hands" not in rec:
        deals = record.replay_session(rec, base_dir=here, allow_paths=True,
                                      registry=registry)
    else:
        deals = [record.replay(rec, base_dir=here, allow_paths=True, registry=registry,
                               partial=args.partial)]
    players = deals[0].n
    if args.seat is not None and not 0 <= args.seat < players:
        raise StopsError(f"--seat must be 0..{players - 1}: the record has {players} players")
    if args.json:
        results = [record.result_json(d) for d in deals]
        _say(json.dumps(results if "deals" in rec and "hands" not in rec else results[0],
                        indent=2))
    elif args.events:
        for k, d in enumerate(deals):
            if len(deals) > 1:
                _say(f"Deal {k}")
            _say(record.account(d))
    else:
        from stops.apps.terminal import Style, _write, replay_text

        st = Style.for_stream(sys.stdout)
        _write(sys.stdout, st, (printable(line) for line in
                                replay_text(deals, args.seat, st,
                                            first=deals[0].deal_index + 1)))
    return 0


def _with_options(rec: Any, options: dict[str, Any]) -> Any:
    """A record replayed with ``-o``: its options (and each of a session's deals') and
    these, these winning."""
    if not isinstance(rec, dict):
        return rec
    out = dict(rec)
    if "variant" in out or "options" in out:
        out["options"] = {**(out.get("options") or {}), **options}
    deals = out.get("deals")
    if isinstance(deals, list):
        out["deals"] = [_with_options(d, options) if isinstance(d, dict) and "variant" in d
                        else d for d in deals]
    return out


def _bot_specs(text: str) -> list[str]:
    """``--bots``: bot specs separated by commas, each checked (an unknown bot lists the
    bots; a bad parameter is named), before anything is played."""
    from stops.bots import check_bots

    try:
        return check_bots(text.split(","))
    except ValueError as e:
        raise StopsError(f"--bots: {e}") from None


def cmd_play(args: argparse.Namespace) -> int:
    from stops.apps.terminal import play_terminal

    v = _load(args.variant, args.option, _registry(args))
    lo, hi = v.players
    args.players = _seats(args.players, lo, hi)
    if not lo <= args.players <= hi:
        raise StopsError(f"{v.name} is for {_count(lo, hi)} players, not {args.players}")
    if not 0 <= args.seat < args.players:
        raise StopsError(f"--seat must be 0..{args.players - 1}, not {args.seat}")
    _check_chips(args.chips)
    _bot_specs(args.bots)
    return play_terminal(v, players=args.players,
                         seat=args.seat, seed=args.seed, chips=args.chips,
                         deals=args.deals, bots=args.bots, record=args.record)


def version_text() -> str:
    """``stops --version``: the version, the distribution, the build and the Python."""
    import platform

    import stops

    build = "compiled" if stops.COMPILED else "pure Python"
    return (f"stops {stops.__version__} (distribution stops-cards, {build} build, "
            f"Python {platform.python_version()})")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="stops", description="Play and study the Stops family "
                                "of card games from rules written as data.")
    p.add_argument("--version", action="version", version=version_text())
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def opt(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--option", "-o", action="append", metavar="RULE=VALUE",
                        help="override a rule, e.g. -o after_stop=must_change_suit")
        plugins(sp)

    def plugins(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--plugins", action="append", metavar="MODULE_OR_FILE",
                        help="register the policies of a plug-in first: a .py file, a module "
                        "name, or dist:DISTRIBUTION (its stops.plugins entry points); "
                        "repeatable")

    sp = sub.add_parser("variants", help="list the built-in variants")
    sp.add_argument("--json", action="store_true",
                    help="print a JSON list of {name, title, players: {min, max}}")
    sp.set_defaults(fn=cmd_variants)

    sp = sub.add_parser("rules", help="print the rules of a variant in plain English")
    sp.add_argument("variant", help="built-in name or variant file")
    sp.add_argument("--json", action="store_true", help="print one JSON object: name, "
                    "title, players, options and text (the rules, a list of paragraphs)")
    opt(sp)
    sp.set_defaults(fn=cmd_rules)

    sp = sub.add_parser("check", help="validate a variant file (exit 1 with the problems)")
    sp.add_argument("file")
    sp.add_argument("--json", action="store_true", help="print one JSON object: file, ok, "
                    "problems and hints (each {file, line, path, message})")
    opt(sp)
    sp.set_defaults(fn=cmd_check)

    sp = sub.add_parser("simulate", help="play many deals with bots and report")
    sp.add_argument("variant", help="built-in name or variant file")
    sp.add_argument("--players", "-p", type=int, default=None,
                    help="seats at the table (default 4, or the nearest the game allows)")
    sp.add_argument("--deals", "-n", type=int, default=1000)
    sp.add_argument("--seed", "-s", type=int, default=0)
    sp.add_argument("--chips", type=int, default=None,
                    help="starting stack per seat (default: the variant's own starting "
                    "chips, as in stops play and stops rules)")
    sp.add_argument("--sessions", type=int, default=None,
                    help="play this many whole sessions instead of --deals deals")
    sp.add_argument("--bots", default="random",
                    help="bot per seat, cycled: e.g. 'ismcts,heuristic' (random, heuristic, "
                    "ismcts); parameters follow the name after colons, e.g. "
                    "'ismcts:iterations=400:exploration=0.5' (docs/bots.md)")
    sp.add_argument("--workers", type=int, default=1,
                    help="parallel processes (results are identical for any number)")
    sp.add_argument("--compare", metavar="VARIANT2",
                    help="also simulate VARIANT2 on the same seeds and show both side by "
                    "side, with the paired difference per deal (per session with "
                    "--sessions) and its 95%% interval")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--plot", metavar="FILE.png",
                    help="also draw per-seat chip distributions and claim rates (needs the "
                    "'plot' extra: matplotlib)")
    sp.add_argument("--scheduler", metavar="ADDRESS",
                    help="run the chunks on a dask distributed cluster, e.g. "
                    "tcp://10.0.0.5:8786 (needs the 'dask' extra); results are identical")
    sp.add_argument("--no-progress", dest="progress", action="store_false",
                    help="no progress bar (it is shown only on a terminal anyway)")
    opt(sp)
    sp.set_defaults(fn=cmd_simulate)

    sp = sub.add_parser("play", help="play one seat in the terminal against bots")
    sp.add_argument("variant", help="built-in name or variant file")
    sp.add_argument("--players", "-p", type=int, default=None,
                    help="seats at the table (default 4, or the nearest the game allows)")
    sp.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    sp.add_argument("--seed", "-s", type=int, default=None)
    sp.add_argument("--chips", type=int, default=None,
                    help="starting stack per seat (default: the variant's own)")
    sp.add_argument("--deals", type=int, default=None, help="stop after this many deals")
    sp.add_argument("--bots", default="heuristic",
                    help="the other seats' bots, cycled: e.g. 'ismcts,heuristic' (random, "
                    "heuristic, ismcts; parameters after colons: 'ismcts:seconds=2')")
    sp.add_argument("--record", metavar="FILE",
                    help="write the session's record to FILE after every deal (.json for "
                    "JSON, else YAML), for stops replay; r during play saves the deal as it "
                    "stands")
    opt(sp)
    sp.set_defaults(fn=cmd_play)

    sp = sub.add_parser(
        "schema", help="print the JSON Schema of variant files",
        description="Print the JSON Schema of variant files, for editors to complete keys and "
        "flag mistakes as you type.",
        epilog="Editor set-up: write the schema to a file (stops schema -O "
        "stops-variant.schema.json), then either put '# yaml-language-server: "
        "$schema=./stops-variant.schema.json' on the first line of each variant file, or map "
        "it to your files once with VS Code's yaml.schemas setting. See docs/house-rules.md, "
        "\"Check it, read it, try it\". Write it again after upgrading stops.")
    sp.add_argument("--output", "-O", help="write it to this file instead")
    sp.set_defaults(fn=cmd_schema)

    sp = sub.add_parser("diff", help="list the rule differences between two variants (exit "
                        "1 when they differ)")
    sp.add_argument("a", help="built-in name or variant file")
    sp.add_argument("b", help="built-in name or variant file; -o options apply to it, so "
                    "'stops diff boodle boodle -o RULE=VALUE' shows what the option changes")
    sp.add_argument("--json", action="store_true", help="print one JSON object: a, b, "
                    "options, same and differences (one text each)")
    opt(sp)
    sp.set_defaults(fn=cmd_diff)

    sp = sub.add_parser("replay", help="replay a deal record (YAML or JSON) and tell it as "
                        "stops play does")
    sp.add_argument("file")
    sp.add_argument("--json", action="store_true", help="print the result as JSON")
    sp.add_argument("--events", action="store_true", help="print the raw event log")
    sp.add_argument("--seat", type=int, default=None,
                    help="tell it as that seat saw it (\"you\"); default: every hand shown")
    sp.add_argument("--partial", action="store_true",
                    help="the record may stop mid-deal (a deal saved with r in stops play)")
    plugins(sp)
    sp.add_argument("--option", "-o", action="append", metavar="RULE=VALUE",
                    help="replay under the record's options and this one (it wins)")
    sp.set_defaults(fn=cmd_replay)
    return p


def _safe_output() -> None:
    """A character the terminal's encoding cannot show becomes '?', never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")


def _problem_text(e: VariantError) -> str:
    """A variant's problems one a line, ``file: key.path: message``; a problem with the whole
    file (or with the name given) has no key path, and says so by naming none."""
    return "\n".join(f"{f}: {p}: {m}" if p else f"{f}: {m}" for f, p, m in e.problems)


def main(argv: Sequence[str] | None = None) -> int:
    _safe_output()
    try:
        args = build_parser().parse_args(argv)
        code: int = args.fn(args)
        sys.stdout.flush()   # a full disk or a closed pipe shows here, not at exit
        return code
    except VariantError as e:
        _say("stops: invalid variant:\n" + _problem_text(e), file=sys.stderr)
        return 1
    except RecordError as e:
        _say(f"stops: replay failed: {e}", file=sys.stderr)
        return 1
    except StopsError as e:
        _say(f"stops: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        _say("stops: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_stdout()
        return 0
    except OSError as e:   # standard output on a full disk, say
        _quiet_stdout()
        _say(f"stops: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 1


def _quiet_stdout() -> None:
    """Standard output can take no more (a closed pipe, a full disk): send what is left of
    it nowhere, so that Python's own flush at exit does not print a traceback."""
    import os

    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())

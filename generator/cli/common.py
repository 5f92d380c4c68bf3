"""What every command shares: exit codes and a console that cannot be driven by escape
sequences hidden in a stranger's file."""

from __future__ import annotations

import contextlib
import functools
import gc
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.core.collector import lasting
from generator.core.errors import InputError, Location, Problem
from generator.core.report import EXIT_INPUT, EXIT_OK, EXIT_RULES  # noqa: F401 - the commands' exit codes
from generator.rules.limits import parse_points

if TYPE_CHECKING:
    from rich.console import Console

    from generator.core.report import Report
    from generator.pack.model import Pack


def current_pack() -> Path:
    """The pack of a command given none: the current folder, when it is a pack (holds a
    game.yaml). Anywhere else, one line on stderr saying how to get one, and exit 2."""
    if not Path("game.yaml").is_file():
        click.echo("pnp: no game pack here (no game.yaml in this folder): name a pack folder, or copy an example "
                   "game to start from with `pnp example`", err=True)
        sys.exit(EXIT_INPUT)
    return Path(".")


def points_option(ctx, param, value):
    """click callback of `--points N` / `--points none` (no limit)."""
    try:
        return parse_points(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


# control characters a build or pack may carry in its text (an ESC could drive the terminal), and
# the bidirectional overrides and isolates (U+202A-202E, U+2066-2069: a name could turn the rest
# of the line around as it is shown); right-to-left text itself needs none of them
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def make_console(stderr: bool = False) -> Console:
    # emoji=False: a name or card text written `:skull:` (a pack's icon markup) is printed as
    # written, not as rich's emoji (and rich's emoji table is never loaded)
    return _safe_console_class()(stderr=stderr, highlight=False, soft_wrap=True, emoji=False)


@functools.cache
def _safe_console_class():
    # deferred: rich takes about 20 ms to load, and `pnp --version` or a quiet run needs none
    from rich.console import Console

    class SafeConsole(Console):
        """A console that shows control characters in names and messages as visible escapes
        (`\\x1b`), so text from a stranger's file cannot move the cursor or retitle the terminal."""

        def print(self, *objects, **kwargs):
            return super().print(*(escape_controls(o) if isinstance(o, str) else o for o in objects), **kwargs)

    return SafeConsole


def escape_controls(text: str) -> str:
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


# `-o -`: standard output, for the commands whose output is one file
STDOUT = "-"


def is_stdout(path) -> bool:
    return path is not None and str(path) == STDOUT


def write_stdout(data: bytes | str) -> None:
    """The bytes of a single-file output on standard output, exactly (no newline added)."""
    sys.stdout.flush()  # text already written goes first
    stream = sys.stdout.buffer
    stream.write(data.encode("utf-8") if isinstance(data, str) else data)
    stream.flush()


def kit_folder_option(command):
    """`-o/--out DIR` of the commands that write a kit's folder of files (`build`, `watch`): one
    option, so `-o -` and `-o ''` are refused alike, before any work (there is no one file to
    stream; an empty name would have been the current folder)."""
    return click.option("-o", "--out", "out_dir", type=click.Path(file_okay=False),
                        callback=_kit_folder, help="Output folder (default: output/<pack id>).")(command)


def _kit_folder(ctx, param, value):
    if value is None:
        return None
    if is_stdout(value):
        refuse_stdout(ctx.info_name or "build", "a folder of files (PDFs, images, a save)")
    if value == "":  # read as a path, "" is the current folder: not what anyone types on purpose
        raise InputError([Problem("cli.empty-folder", "-o names no folder (an empty name)", Location("-o"),
                                  found=repr(value), expected="a folder", fix="give -o a folder to write into, "
                                  "or leave it out for output/<pack id>")])
    return Path(value)


def refuse_stdout(command: str, writes: str, fix: str = "give -o a folder to write into") -> None:
    """`-o -` where the output is not one file: an input error (exit 2), said in one line."""
    raise InputError([Problem("cli.stdout", f"`pnp {command} -o -` cannot write to standard output: it writes "
                              f"{writes}", Location("-o"), found="-", expected="a folder", fix=fix)])


def refused_verdict(pack: Pack, checked: tuple[list[Report], list[Problem]]) -> None:
    """`pnp build` and `pnp watch` refuse a pack with validate's whole verdict (build.py:
    check_before_building): given what its first checks found, validate_pack draws every face,
    map page and rulebook block in memory and raises InputError with every finding. Loaded here,
    only when a pack is refused, so a build that goes ahead loads no map or rulebook layout for
    its checks."""
    from generator.validate.packs import validate_pack  # deferred: it loads every renderer, for a refused pack only
    validate_pack(pack, checked=checked)


# the young generation's size while a build or a pack's validation runs (Python's default: 700 allocations)
BUILD_GC_THRESHOLD = 50_000


@contextlib.contextmanager
def modules_loading():
    """Load modules without the collector, and freeze what they made (core/collector.py: lasting).
    What an import makes (modules, classes, functions, pydantic's models and validators, click, rich)
    lives as long as the process and holds few cycles (~500 garbage objects of the 77,000 a cards
    build's imports make), yet at Python's threshold the collector ran ~100 times over it while it
    loaded (~13 ms CPU of a cards build's imports), and its full passes walked it again while the
    command ran (loading boss_fight for `pnp validate BUILD`: 42 ms, 30 ms frozen). In-process,
    main() unfreezes."""
    with lasting():
        yield


@contextlib.contextmanager
def few_collections():
    """What the command imported (ReportLab, the renderers, the models) lives as long as the process,
    like what the command's own module imported (cli/__init__.py: gc.freeze): it is frozen too, so
    the collector's full passes do not walk it again. And the pack, its faces and the drawn pages
    are long-lived objects with few cycles among them: at Python's default threshold the collector
    ran some 330 times on the 912-card pack (~0.1 s CPU, of 1.2 s), at 50,000 a few times (~0.02 s),
    for 1 MB more at the peak. `pnp build` and `pnp validate PACK` (whose workers, forked inside, keep
    the threshold) draw under it. The threshold is put back afterwards (main() unfreezes when run
    in-process)."""
    before = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(BUILD_GC_THRESHOLD, *before[1:])
    try:
        yield
    finally:
        # frozen first: at the old threshold, the young objects left (up to 50,000) would be
        # collected at once, ~15 ms for nothing as the command ends (the pnp process freezes them
        # at its end anyway: cli/__init__.py; in-process, main() unfreezes them)
        gc.freeze()
        gc.set_threshold(*before)

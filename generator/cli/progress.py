"""Progress of long work on the terminal (rich's Progress, on stderr), and which stream a
line of output belongs on.

Shown only when stderr is a terminal and `--quiet` is not given; `PNP_PROGRESS=always`
shows it anyway (for a CI log or a test), `PNP_PROGRESS=never` never. One row per part
(each output file): the cards drawn of the part's total (or how many so far, when the part
cannot know its total: maps, rulebook), and the time it has taken. The engine reports
through generator.core.progress; nothing here is imported by it.
"""

from __future__ import annotations

import contextlib
import os
import sys

import click

from generator.core import progress

ENV = "PNP_PROGRESS"
DIAGNOSTIC = ("warning:", "note:", "error:")


def echo_line(line: str) -> None:
    """A line of a command's output: warnings and notes to stderr, results to stdout."""
    click.echo(line, err=line.startswith(DIAGNOSTIC))


def wanted(quiet: bool) -> bool:
    setting = os.environ.get(ENV, "").strip().lower()
    if quiet or setting in ("never", "0", "no", "off"):
        return False
    if setting in ("always", "1", "yes", "on"):
        return True
    return sys.stderr.isatty()


@contextlib.contextmanager
def progress_display(quiet: bool = False):
    """Show the engine's progress for the block (or do nothing, see `wanted`)."""
    if not wanted(quiet):
        yield
        return
    # deferred: rich loads only when progress is shown on a terminal
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    # part names come from build file names: shown as written (no `:skull:` emoji, no `[bold]` markup)
    console = Console(stderr=True, force_terminal=True if os.environ.get(ENV) else None, highlight=False,
                      emoji=False)
    columns = (TextColumn("{task.description:<24}", markup=False), BarColumn(bar_width=30),
               TextColumn("{task.fields[cards]}"), TimeElapsedColumn())
    # stdout is redirected through the display only when it shares the terminal with it
    bar = Progress(*columns, console=console, transient=True, redirect_stdout=sys.stdout.isatty())
    tasks: dict = {}

    def listener(event) -> None:
        kind, name = event[0], event[1]
        if kind == "begin":
            total = event[2]
            tasks[name] = [bar.add_task(name, total=total, cards=_cards(0, total)), 0, total]
        elif name in tasks:
            task = tasks[name]
            if kind == "tick":
                task[1] += event[2]
                bar.update(task[0], completed=task[1] if task[2] is not None else None,
                           cards=_cards(task[1], task[2]))
            elif kind == "end":
                bar.update(task[0], total=task[2] or max(task[1], 1), completed=task[2] or max(task[1], 1))
                bar.stop_task(task[0])

    with bar, progress.listening(listener):
        yield


def _cards(done: int, total: int | None) -> str:
    if total is not None:
        return f"{done}/{total} cards"
    return f"{done} cards" if done else ""

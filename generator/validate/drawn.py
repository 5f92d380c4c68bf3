"""What `pnp validate` finds by drawing a pack: every face, map page and rulebook block in the
pack's own language (preflight/render_check.py), then in each of its translations
(translations.py). The languages are independent of one another, so with `parallel` each is
drawn in a worker process of its own (core/workers.py, forked: the loaded pack, its parsed
files and presets are the workers' without being read again), two at a time as `pnp build`
runs its parts, while this process runs `meanwhile` (validate's checks that draw nothing); the
results come back in the order of the languages, so the verdict is the same as drawn one after
the other. A pack with nothing to draw but its own language is drawn here: split in two workers
(its faces, its maps and rulebook) it took more CPU than the split won (battle_bosses 0.75 ->
0.85 s CPU, 0.77 -> 0.84 s wall: each worker loads the fonts, icons and layouts again), and so
did one job per language and part for Boss Fight (2.89 -> 3.15 s CPU), whose two languages are
near balanced already."""

from __future__ import annotations

from collections.abc import Callable

from generator.core.errors import Problem
from generator.core.report import Violation
from generator.core.workers import PROCESSES, worker_pool
from generator.pack.model import Pack
from generator.preflight.render_check import render_problems
from generator.validate.checks import read_shared_files
from generator.validate.translations import translation_problems

Found = tuple[list[Problem], list[Violation]]


def _drawn(job: tuple[Pack, str | None]) -> Found:
    pack, lang = job
    return render_problems(pack) if lang is None else translation_problems(pack, lang)


def drawn_problems(pack: Pack, langs: list[str], parallel: bool = False,
                   meanwhile: Callable[[], object] | None = None) -> list[Found]:
    """(errors, warnings) of the pack as it is, then of the pack in each of `langs`; `meanwhile`
    is run first (or, in parallel, while the workers draw)."""
    jobs: list[tuple[Pack, str | None]] = [(pack, None), *((pack, lang) for lang in langs)]
    waiting = [meanwhile] if meanwhile is not None else []

    def idle() -> None:  # the pool's first wait: this process's own work while the workers draw
        while waiting:
            waiting.pop()()
    if not parallel or len(jobs) == 1:
        idle()
        return [_drawn(job) for job in jobs]
    read_shared_files(pack)  # parsed once, before the fork: the workers and `meanwhile` share them
    found: dict[int, Found] = {}
    with worker_pool(min(PROCESSES, len(jobs))) as pool:
        for index, result in pool.as_completed(_drawn, jobs, idle=idle):
            found[index] = result
    idle()  # (every job done before the pool first waited)
    return [found[index] for index in range(len(jobs))]

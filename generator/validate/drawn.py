"""What `pnp validate` finds by drawing a pack: every face, map page and rulebook block in the
pack's own language (preflight/render_check.py), then in each of its translations
(translations.py). The languages are independent of one another, so with `parallel` each is
drawn in a worker process of its own (core/workers.py, forked: the loaded pack, its parsed
files and presets are the workers' without being read again), two at a time as `pnp build`
runs its parts; the results come back in the order of the languages, so the verdict is the
same as drawn one after the other."""

from __future__ import annotations

from generator.core.errors import Problem
from generator.core.report import Violation
from generator.core.workers import PROCESSES, worker_pool
from generator.pack.model import Pack
from generator.preflight.render_check import render_problems
from generator.validate.translations import translation_problems

Found = tuple[list[Problem], list[Violation]]


def _drawn(job: tuple[Pack, str | None]) -> Found:
    pack, lang = job
    return render_problems(pack) if lang is None else translation_problems(pack, lang)


def drawn_problems(pack: Pack, langs: list[str], parallel: bool = False) -> list[Found]:
    """(errors, warnings) of the pack as it is, then of the pack in each of `langs`."""
    jobs: list[tuple[Pack, str | None]] = [(pack, None), *((pack, lang) for lang in langs)]
    if not parallel or len(jobs) == 1:
        return [_drawn(job) for job in jobs]
    with worker_pool(min(PROCESSES, len(jobs))) as pool:
        return pool.map(_drawn, jobs)

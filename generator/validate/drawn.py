"""What `pnp validate` finds by drawing a pack: every face, map page and rulebook block in the
pack's own language (preflight/render_check.py), then in each of its translations
(translations.py). With `parallel` the drawing runs in worker processes (core/workers.py,
forked: the loaded pack, its parsed files and presets are the workers' without being read
again), two at a time as `pnp build` runs its parts, while this process runs `meanwhile`
(validate's checks that draw nothing): each language in a worker of its own, or, for a pack
with no translation to draw, its faces in one worker and its maps and rulebook in the other.
(A language's parts drawn in one process share what they load and lay out, the fonts, glyphs
and text plans: a job per language and part cost Boss Fight a quarter of a second more CPU,
3.15 s against 2.89, for a balance its two languages nearly have already.) The verdict is put
together in the order of the languages, the same as drawn one after the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from generator.core.errors import Problem
from generator.core.report import Violation
from generator.core.workers import PROCESSES, worker_pool
from generator.pack.model import Pack
from generator.preflight.render_check import drawn_part, render_problems
from generator.validate.checks import read_shared_files
from generator.validate.translations import translation_problems

Found = tuple[list[Problem], list[Violation]]
Answer = tuple[bool, Any]  # (True, what drawn_part gave) or (False, the exception it raised)
Job = TypeVar("Job")
Result = TypeVar("Result")


def _language(job: tuple[Pack, str | None]) -> Found:
    pack, lang = job
    return render_problems(pack) if lang is None else translation_problems(pack, lang)


def _parts(job: tuple[Pack, tuple[str, ...]]) -> dict[str, Answer]:
    pack, names = job
    answers: dict[str, Answer] = {}
    for name in names:
        try:
            answers[name] = True, drawn_part(pack, name)
        except Exception as exc:  # raised where the verdict reads this part: it may not (the maps after faces' errors)
            answers[name] = False, exc
    return answers


def drawn_problems(pack: Pack, langs: list[str], parallel: bool = False,
                   meanwhile: Callable[[], object] | None = None) -> list[Found]:
    """(errors, warnings) of the pack as it is, then of the pack in each of `langs`; `meanwhile`
    is run first (or, with `parallel`, while the workers draw)."""
    if not parallel:
        if meanwhile is not None:
            meanwhile()
        return [_language((pack, lang)) for lang in [None, *langs]]
    read_shared_files(pack)
    if langs:
        return _in_workers(_language, [(pack, lang) for lang in [None, *langs]], meanwhile)
    faces, rest = _in_workers(_parts, [(pack, ("faces",)), (pack, ("maps", "rulebook"))], meanwhile)
    answers = {**faces, **rest}

    def part(name: str) -> Any:
        drawn, value = answers[name]
        if not drawn:
            raise value
        return value
    return [render_problems(pack, part)]


def _in_workers(fn: Callable[[Job], Result], jobs: list[Job], meanwhile: Callable[[], object] | None) -> list[Result]:
    """fn(job) of each job in the workers, in the jobs' order; `meanwhile` run here once they have begun."""
    waiting = [meanwhile] if meanwhile is not None else []

    def idle() -> None:  # the pool's first wait: this process's own work while the workers draw
        while waiting:
            waiting.pop()()
    results: dict[int, Result] = {}
    with worker_pool(min(PROCESSES, len(jobs))) as pool:
        for index, result in pool.as_completed(fn, jobs, idle=idle):
            results[index] = result
    idle()  # (every job done before the pool first waited)
    return [results[index] for index in range(len(jobs))]

"""What `pnp validate` finds by drawing a pack: every face, map page and rulebook block in the
pack's own language (preflight/render_check.py), then in each of its translations
(translations.py). With `parallel` the drawing is split into jobs, one per language and part
(render_check.PARTS: faces, maps, rulebook), run two at a time in worker processes
(core/workers.py, forked: the loaded pack, its parsed files and presets are the workers'
without being read again), so the two cores end together; this process meanwhile runs
`meanwhile` (validate's checks that draw nothing) and loads each translation, whose jobs follow.
Every part is drawn whether or not the verdict reads it (the faces' errors leave the maps
unread, as drawn one after the other); the verdict is put together here in the order of the
languages, the same as drawn one after the other."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.core.errors import Problem
from generator.core.report import Violation
from generator.core.workers import PROCESSES, worker_pool
from generator.pack.model import Pack
from generator.preflight.render_check import drawn_part, render_problems
from generator.validate.translations import in_language, load_translation, translation_problems

Found = tuple[list[Problem], list[Violation]]
Answer = tuple[bool, Any]  # (drawn, what drawn_part gave) or (False, the exception it raised)


def _job(job: tuple[Pack, str]) -> Answer:
    pack, part = job
    try:
        return True, drawn_part(pack, part)
    except Exception as exc:  # raised where the verdict reads this part; a part it does not read may fail
        return False, exc


def drawn_problems(pack: Pack, langs: list[str], parallel: bool = False,
                   meanwhile: Callable[[], object] | None = None) -> list[Found]:
    """(errors, warnings) of the pack as it is, then of the pack in each of `langs`; `meanwhile`
    is run first (or, with `parallel`, while the workers draw)."""
    if not parallel:
        if meanwhile is not None:
            meanwhile()
        return [render_problems(pack), *(translation_problems(pack, lang) for lang in langs)]
    # longest first: each language's maps and faces, its rulebook last
    jobs: list[tuple[Pack, str]] = [(pack, "maps"), (pack, "faces")]
    translated: dict[str, Pack | Found] = {}  # each language's pack, or what stopped it loading
    answers: dict[int, Answer] = {}
    begun: list[bool] = []

    def idle() -> None:  # the first time the pool waits: what this process does while they draw
        if begun:
            return
        begun.append(True)
        if meanwhile is not None:
            meanwhile()
        for lang in langs:
            translated[lang] = t = load_translation(pack, lang)
            if isinstance(t, Pack):
                jobs.extend([(t, "faces"), (t, "maps"), (t, "rulebook")])
        jobs.append((pack, "rulebook"))

    with worker_pool(PROCESSES) as pool:
        for index, answer in pool.as_completed(_job, jobs, idle=idle):
            answers[index] = answer
    where = {(id(job_pack), part): index for index, (job_pack, part) in enumerate(jobs)}

    def drawn(of: Pack) -> Callable[[str], Any]:
        def part(name: str) -> Any:
            ok, value = answers[where[id(of), name]]
            if not ok:
                raise value
            return value
        return part

    found = [render_problems(pack, drawn(pack))]
    for lang in langs:
        t = translated[lang]
        found.append(in_language(lang, render_problems(t, drawn(t))) if isinstance(t, Pack) else t)
    return found

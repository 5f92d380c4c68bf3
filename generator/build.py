"""`pnp build`: load the pack, then write each requested output atomically.

The home kit is four independent parts (cards, pieces, maps, rulebook); a whole-kit build
runs them in two worker processes, since the machines have two cores and ReportLab is
single-threaded. Each part's bytes do not depend on which process made it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from dataclasses import replace
from collections.abc import Callable
from pathlib import Path

from generator.core import progress, staging
from generator.core.errors import InputError, Location, Problem
from generator.core.report import Report, Violation
from generator.core.workers import PROCESSES as WORKERS, past_stopping, progress_queue, stop_on_signals, worker_pool
from generator.export.credits import credits_output
from generator.export.options import BuildOptions
from generator.export.profile_table import PROFILES
from generator.export.profiles import ProfileJob, writer
from generator.kit import build_faces, output_dir, pack_faces, preload_drawing
from generator.pack.load import load_pack
from generator.pack.model import Build, Pack
from generator.pack.translations.fallback import check_strict, fallback_warnings
from generator.preflight.layout import LayoutChecks, contrast_findings, layout_findings
from generator.preflight.verdict import judged
from generator.render.cards.audit import stray_layouts
from generator.rules.context import unknown_cards
from generator.rules.engine import validate_build
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.redraw import SheetMemory  # pnp watch keeps one across builds
from generator.share.decklist_files import load_build_file
from generator.validate.checks import pack_checks, read_shared_files


PART_ORDER = ("cards", "pieces", "maps", "rulebook")  # a part at a time, in this order; the worker pool takes
# a profile's parts in its table order (longest first)


# what a writer's numbers are, where a plain "N things" would not say it
_SAID = {"size": "text at {v:g} pt", "per_page": "{v} a page", "width_px": "{v} px wide", "height_px": "{v} px high"}
_ONE = {"hexes": "hex", "indexes": "index"}  # singulars not made by dropping the s


def describe(key: str, value: float) -> str:
    """One number of a `wrote …` line in words: `1 page`, `38 pages`, `text at 8.75 pt`."""
    if key in _SAID:
        return _SAID[key].format(v=value)
    word = key.replace("_", " ")
    if value == 1 and word.endswith("s"):
        word = _ONE.get(word, word[:-1])
    return f"{value} {word}"


def _timed(path, fn, *args, **kw) -> str:
    """Make one output (a progress part named after it: its cards are those of a faces list
    among the arguments) and the `wrote …` line telling what it holds and how long it took."""
    start = time.perf_counter()
    faces = next((a for a in args if isinstance(a, list) and a and isinstance(a[0], CardFace)), None)
    with progress.part(Path(path).name, sum(not f.back for f in faces) if faces else None):
        info = fn(*args, **kw) or {}
    detail = ", ".join(describe(k, v) for k, v in info.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
    return f"wrote {path} ({detail}{', ' if detail else ''}{time.perf_counter() - start:.2f} s)"


def _part_lines(part: str, pack: Pack, build: Build | None, stem: str | None, out: Path, opt: BuildOptions,
                memory=None, stopped: list[Problem] | None = None):
    """One part of the options' profile (export/profiles/): yields its lines, each as soon as
    its file is made. The `cards` part's faces are built once here and shared by the layout
    checks and the writer. What the drawn checks find is judged as `pnp validate` judges it
    (preflight/render_check.py: judged): warnings become lines, errors go to `stopped` and the
    build keeps none of its files (run_build); the maps part judges the contrast of its text as it
    draws it (render/base/paints.py)."""
    stopped = [] if stopped is None else stopped
    job = ProfileJob(pack, build, stem, out, opt, part, _timed, memory=memory)
    checks = None
    if part == "cards":
        job.shared = CardShared.of(pack)  # the parent prepared one for a kit's cards worker (kit.preload_drawing)
        job.faces = build_faces(pack, build, job.shared) if build else pack_faces(pack, job.shared)
        if not job.faces:  # a pack of rules alone: no card sheets (a PDF of no pages is no PDF)
            yield f"note: no card sheets: {pack.spec.name} has no cards"
            return
        # the layout checks of the same faces listen to their drawing: each side is checked as the
        # outputs draw it the first time, and judged once the outputs are written
        checks = LayoutChecks(pack, job.shared, build, job.faces)
    yield from writer(opt.profile, part).write(job)
    if checks is not None:
        errors, warnings = judged(checks.findings(), pack)
        stopped.extend(errors)  # the build keeps none of its files (run_build)
        yield from map(warning_line, warnings)
    if job.low_contrast:  # the maps' text below the contrast it needs, judged as validate judges it
        errors, warnings = judged(contrast_findings(job.low_contrast), pack)
        stopped.extend(errors)
        yield from map(warning_line, warnings)
    if part == "cards" and job.shared is not None:
        yield from sorted(job.shared.notes) + layout_warnings(pack)


def warning_line(v: Violation) -> str:
    """A finding of the verdict that does not stop a build, as `pnp build` prints it (stderr):
    a warning, or a rule error of a build that is not legal (printed all the same)."""
    said = "warning:" if v.severity == "warning" else "warning: not legal, printed all the same: error"
    return f"{said} {v.rule}: {v.location}: {v.message}" + (f" ({v.fix})" if v.fix else "")


def layout_warnings(pack: Pack) -> list[str]:
    """Layouts named after no card type: printed, as `pnp validate` reports them."""
    return [warning_line(v) for v in stray_layouts(pack)]


# validate's whole verdict of a pack its first checks refuse: validate/packs.py's validate_pack, given the
# reports and problems pack_checks found; it raises InputError with every finding. The command line
# passes it (cli/common.py: refused_verdict) and loads it only for a refused pack: it draws every face,
# map page and rulebook block in memory, which a build that goes ahead never needs for its checks.
Verdict = Callable[[Pack, tuple[list[Report], list[Problem]]], object]


def check_before_building(pack: Pack, build: Build | None = None, verdict: Verdict | None = None) -> list[Violation]:
    """`pnp build` refuses what `pnp validate` refuses (exit 2), with the same findings, and
    keeps no file. What validate judges without drawing (validate/checks.py: pack_checks) is
    asked first; when it refuses anything, the pack's whole verdict is validate's own (the
    drawn checks too: `verdict`; without one, what pack_checks found), raised before a file is made. What the drawing finds is judged as it is
    drawn (_part_lines, with validate's `judged`). A rule broken (validate's exit 1) does not
    stop a build, which prints what a player asks for (a build in the making, a pack whose
    preset the rulebook marks as not legal): its violations are returned, to be printed with
    the warnings; except a card the pack does not have, which nothing can print: refused
    (exit 2) in validate's words (rules/context.py: unknown_cards)."""
    if build is not None:
        violations = validate_build(pack, build).sorted_violations()
        # a card the pack does not have is a rule error to validate (exit 1) and cannot be printed:
        # refused with validate's own words, not printed 'all the same' and then stopped by the kit
        unknown = unknown_cards(violations)
        if unknown:
            raise InputError(unknown)
        return violations
    reports, problems = pack_checks(pack)
    if problems:
        if verdict is not None:
            verdict(pack, (reports, problems))  # raises InputError with every finding
        raise InputError(problems)
    # info (the cards still printing the placeholder) is validate's to-do list, not a build's warning
    return [v for r in reports for v in r.sorted_violations() if v.severity != "info"]


def _worker(args) -> tuple[str, list[str], list, list[Problem]]:
    """One part in a worker process: its outputs are staged under the build's token and handed
    back, to be renamed with all the others once every part has succeeded."""
    part, pack, out, opt, token = args
    stopped: list[Problem] = []
    with staging.staged(token) as stage:
        lines = list(_part_lines(part, pack, None, None, out, opt, stopped=stopped))
    return part, lines, stage.pending, stopped


def build_folder(pack_dir: Path, build_file: Path | None = None, options: BuildOptions = BuildOptions(),
                 out_dir: Path | None = None, parallel: bool = True, memory: SheetMemory | None = None,
                 lang: str | None = None, strict: bool = False, verdict: Verdict | None = None):
    """`run_build` for a pack folder and a build file (YAML or a deck list), as the command
    line names them: loads both, then yields run_build's lines (a refused pack: `verdict`, as
    check_before_building says). `memory` (pnp watch) keeps
    what `redraw_cards` needs of the home profile's cards.pdf. `lang`: the kit in that language
    (the pack's translations/<lang>.po); what falls back to the source language is a warning,
    with `strict` an error."""
    with stop_on_signals():  # from the start: a stop while the pack loads is a clean stop too
        pack = load_pack(Path(pack_dir), memory.documents if memory is not None else None, lang=lang)
        if strict:
            check_strict(pack)
        yield from fallback_warnings(pack)
        build = load_build_file(build_file, pack) if build_file else None
        stem = Path(build_file).stem if build_file else None
        if not in_workers(build, options, parallel):
            yield from map(warning_line, check_before_building(pack, build, verdict))
            yield from run_build(pack, build, options, out_dir, stem=stem, parallel=parallel, memory=memory)
            return
        # a whole kit: its parts start in their workers and this process checks the pack meanwhile
        # (one core would otherwise wait for the checks); a refused pack stops the workers and keeps
        # no file (run_build), and is refused in the same words as before anything started
        refused = []

        def checks() -> list[Violation]:
            try:
                return check_before_building(pack, build)
            except InputError:
                refused.append(True)
                raise

        try:
            yield from run_build(pack, build, options, out_dir, stem=stem, parallel=parallel, memory=memory,
                                 checks=checks)
        except InputError:
            if refused and verdict is not None:  # validate's whole verdict, drawn once the workers are gone
                check_before_building(pack, build, verdict)
            raise


def redraw_cards(pack_dir: Path, options: BuildOptions, out_dir: Path | None, memory: SheetMemory,
                 verdict: Verdict | None = None) -> list[str] | None:
    """`pnp watch` after an edit to card files alone: cards.pdf with only the sheets of the
    changed cards redrawn (render/cards/redraw.py), and the layout warnings of those sheets;
    None, with `memory.reason`, when the whole part must be built."""
    pack = load_pack(Path(pack_dir), memory.documents)
    warnings = check_before_building(pack, verdict=verdict)
    shared = CardShared(pack)
    faces = pack_faces(pack, shared)
    # the drawn checks of the faces that changed, judged before cards.pdf is touched
    fresh = memory.new_faces(faces)
    errors, drawn = judged(layout_findings(pack, None, shared, faces=fresh), pack) if fresh else ([], [])
    if errors:
        raise InputError(errors)
    out = output_dir(pack, out_dir) / "cards.pdf"
    try:
        done = memory.redraw(pack, faces, shared, out, sheet=options.paper, duplex=options.duplex,
                             back_offset=options.back_offset or (0.0, 0.0))
    except InputError:
        raise  # the edited card's own error, reported as a whole build would
    except Exception as exc:  # noqa: BLE001 - a fault of the quick path must not end the watch:
        memory.forget(f"the quick redraw failed ({type(exc).__name__}: {exc})")  # the whole build decides
        return None
    if done is None:
        return None
    lines = [warning_line(v) for v in warnings + drawn]
    lines += sorted(shared.notes)  # what the redrawn sheets changed on the way to print
    sheets = ", ".join(map(str, done.sheets)) or "none"
    return lines + [f"redrew sheet {sheets} of cards.pdf ({done.pages_redrawn} of {done.pages} pages redrawn)"]


def in_workers(build: Build | None, options: BuildOptions, parallel: bool) -> bool:
    """Whether run_build makes its parts in worker processes: a whole pack's kit of several parts."""
    row = PROFILES[options.profile]
    return parallel and build is None and len(row.parts) > 1 and options.only == "all"


def run_build(pack: Pack, build: Build | None = None, options: BuildOptions = BuildOptions(),
              out: Path | None = None, *, stem: str | None = None, parallel: bool = True,
              memory: SheetMemory | None = None, checks: Callable[[], list[Violation]] | None = None):
    """Yields one line per file written (and a warning line per layout problem), each part's
    lines as soon as that part is made, for a loaded pack (and build: its outputs are named
    after `stem`). All or nothing: every output is written under a temporary name and all
    are renamed only when every part has succeeded; a failure, or a SIGINT / SIGTERM, stops
    the workers and removes the temporary files (core/staging.py). Progress goes to
    core/progress.py's listener when one is set. `checks` (check_before_building's, given by
    build_folder) run while the workers draw, their warnings the first lines; what they refuse
    is raised before any other error of the build (an unusable output folder)."""
    if checks is not None and not in_workers(build, options, parallel):
        yield from map(warning_line, checks())
        checks = None
    with stop_on_signals():
        out = output_dir(pack, out)
        try:
            try:
                check_output_dir(out)
                staging.sweep_stale(out)  # what a killed build left behind
            except OSError as exc:  # a name too long, a loop of links...
                raise staging.output_error(exc, out) from None
            check_not_empty(pack, build, options.profile, options.only)
        except Exception:
            if checks is not None:
                checks()  # a refused pack is refused first, as when it was checked before the build
            raise
        made = [f for f in [out, *out.parents] if not os.path.lexists(f)]  # a failed build takes back its folders
        opt = options if options.back_offset is not None else replace(options, back_offset=(0.0, 0.0))
        token = staging.new_token()
        pending: list = []
        stopped: list[Problem] = []  # what the drawn checks refuse (pnp validate's errors)
        committed = False
        try:
            try:
                with staging.staged(token) as stage:
                    wrote = False
                    for line in _run_parts(pack, build, stem, out, opt, parallel, token, stage, memory, stopped,
                                           checks):
                        wrote = wrote or line.startswith("wrote ")
                        yield line
                    if wrote and not stopped:  # who made the art and the typefaces, beside the files that print them
                        credits_output(out, pack)
                    pending = stage.pending
                if stopped:  # every part had its say: all their errors, as validate lists them
                    raise InputError(stopped)
                with past_stopping():  # all renamed, or none: a signal now waits, then is moot
                    staging.commit(pending)
                    committed = True
            except BaseException:
                if not committed:
                    staging.discard(pending, out, token)
                    for folder in made:  # innermost first; one that holds anything stays
                        with contextlib.suppress(OSError):
                            folder.rmdir()
                raise
        except OSError as exc:
            raise staging.output_error(exc, out) from None


def check_output_dir(out: Path) -> None:
    """The output folder is made if missing; a file in its place is an error, before any work."""
    for folder in [out, *out.parents]:
        if folder.exists() or folder.is_symlink():
            if not folder.is_dir():
                raise staging.output_error(OSError(errno.ENOTDIR, "Not a directory", str(folder)), out)
            break


def check_not_empty(pack, build, profile: str, only: str) -> None:
    """A build that would print nothing is an error, not an empty (or blank-page) file."""
    if build is not None:
        if not build.characters:  # every character has its base card, so one character prints
            raise InputError([Problem("build.empty", f"the build `{build.name}` has no characters: it would print "
                                      "nothing", build.location, expected="at least one character",
                                      fix="add a character to `characters:` (or build the whole pack without --build)")])
        return
    cards = bool(pack.cards)
    if len(PROFILES[profile].parts) > 1:
        wanted = {"all": cards or pack.map_files or pack.rule_files or pack.spec.pieces is not None,
                  "cards": cards, "maps": pack.map_files, "rulebook": pack.rule_files,
                  "pieces": pack.spec.pieces is not None}.get(only, True)
        what = "cards, maps, rules chapters or pieces" if only == "all" else only
    else:
        wanted, what = cards, "cards"
    if not wanted:
        raise InputError([Problem("build.empty", f"{pack.spec.name} has no {what}: the build would print "
                                  "nothing", Location(pack.game_file), expected=f"at least one of: {what}",
                                  fix="add cards to cards/*.yaml (see docs/formats.md), or build another part")])


def _run_parts(pack, build, stem, out, opt, parallel, token, stage, memory=None, stopped=None, checks=None):
    """Yields each part's lines as that part is made; the errors of its drawn checks go to `stopped`."""
    row = PROFILES[opt.profile]
    parts = row.parts if opt.only == "all" or len(row.parts) == 1 else (opt.only,)
    if in_workers(build, opt, parallel):
        read_shared_files(pack)
        yield from _parallel_parts(pack, parts, out, opt, token, stage, stopped, checks)
    else:
        for part in sorted(parts, key=PART_ORDER.index):
            yield from _part_lines(part, pack, build, stem, out, opt, memory if build is None else None, stopped)


def _prepare(pack: Pack, waiting) -> None:
    """Load in this process, while the first parts draw in their workers, what the workers forked
    later for the parts still `waiting` would each load again: the fonts and the outline text
    of the cards' icons, which the cards and the pieces both draw with (kit.preload_drawing; Boss Fight's
    pieces 0.126 -> 0.110 s CPU, cards 0.573 -> 0.560). What is loaded is what a worker loads, so
    the outputs are the same. What fails here fails again in the worker that needs it, which
    reports it as that part's error."""
    if {"cards", "pieces"} & set(waiting):
        try:
            preload_drawing(pack)
        except Exception:  # noqa: BLE001 - the part's own worker meets it again and says it (see above)
            pass


def _parallel_parts(pack, parts, out, opt, token, stage, stopped=None, checks=None):
    """The parts in the worker pool (the loaded pack travels, pickled), each part's lines
    yielded as it finishes; the workers' progress events reach this process's listener.
    `checks` run here while the workers draw (the pool's first idle call, before any part's
    lines), their warnings yielded first."""
    listener = progress.listener()
    queue = progress_queue() if listener is not None else None
    unchecked = [checks] if checks is not None else []
    said: list[str] = []
    # the parts that wait for a worker (the pool starts the first WORKERS at once), prepared for meanwhile
    unprepared = [list(parts[WORKERS:])]

    def check():
        while unchecked:
            said.extend(map(warning_line, unchecked.pop()()))

    def drain():
        while queue is not None and listener is not None and not queue.empty():
            listener(queue.get())

    def idle():
        check()
        drain()
        while unprepared:
            _prepare(pack, unprepared.pop())

    jobs = [(p, pack, out, opt, token) for p in parts]
    with worker_pool(WORKERS, progress_queue=queue) as pool:  # forked workers: the loaded pack is theirs
        for _index, (_part, lines, pending, refused) in pool.as_completed(
                _worker, jobs, idle=idle if queue or unchecked or unprepared[0] else None):
            check()
            yield from said
            said.clear()
            drain()
            stage.pending.extend(pending)  # the workers' staged outputs join this process's
            if stopped is not None:
                stopped.extend(refused)
            yield from lines
    drain()

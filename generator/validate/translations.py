"""A pack's translations in `pnp validate`: each language loaded and its cards, rulebook and
pieces drawn in memory as `pnp build --lang` would draw them, so a translated text that does not
fit (or fits only below its minimum size) is found with its card, its field and its language;
and what a pack loaded in a language prints in the source language, as warnings."""

from __future__ import annotations

from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.core.extras import install_line
from generator.core.yamlio import display_path
from generator.core.report import Violation
from generator.pack.load import load_pack
from generator.pack.model import Pack
from generator.pack.translations.catalog import FOLDER, languages
from generator.pack.translations.fallback import fallback_warnings
from generator.preflight.render_check import render_problems


def _in(lang: str, problem: Problem) -> Problem:
    if f"({lang})" in problem.message:  # the renderer named the language already
        return problem
    return Problem(problem.code, f"[{lang}] {problem.message}", problem.location, found=problem.found,
                   expected=problem.expected, fix=problem.fix)


def translation_problems(pack: Pack, lang: str) -> tuple[list[Problem], list[Violation]]:
    """(errors, warnings) of the pack in `lang`: a translation that does not load (a broken entry,
    at its line of the PO file), then what its drawing finds. Fallbacks are not counted here:
    `pnp translate --report` and `pnp validate --lang` say them."""
    try:
        # the files it parsed, not again; what falls back not counted (0.09 s of 0.2 for Boss Fight's German)
        translated = load_pack(Path(pack.root), pack.documents, lang=lang, fallbacks=False)
    except InputError as exc:
        return [_in(lang, p) for p in exc.problems], []
    errors, warnings = render_problems(translated)
    said = [Violation(w.rule, w.severity, w.message if f"({lang})" in w.message else f"[{lang}] {w.message}",
                      w.location, fix=w.fix) for w in warnings]
    return [_in(lang, p) for p in errors], said


def fallback_violations(pack: Pack) -> list[Violation]:
    t = pack.translation
    if t is None:
        return []
    return [Violation("translation.fallback", "warning", line.removeprefix("warning: "), Location(t.file))
            for line in fallback_warnings(pack)]


def unchecked_translations(pack: Pack) -> Violation:
    """Without Babel (the `translations` extra) a pack's translations cannot be read: the pack
    is checked in its own language and this says, once, which translations were not."""
    langs = languages(pack.root)
    files = [f"{FOLDER}/{lang}.po" for lang in langs]
    return Violation("translation.unchecked", "warning",
                     f"{' and '.join(files)} not checked: reading a translation needs Babel, the `translations` "
                     "extra, which is not installed", Location(display_path(Path(pack.root) / files[0])),
                     observed=", ".join(langs), fix=f"add the `translations` extra: {install_line('translations')}")

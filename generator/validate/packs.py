"""A pack target of `pnp validate`: what validate/checks.py judges without drawing (the pack's
own data and rules, its play pieces, every preset and map, each checked as its own target would
be), then what `pnp build` would stop on (every face, map page and rulebook block drawn in
memory) and each translation drawn alike."""

from __future__ import annotations

from generator.core.errors import InputError, Problem
from generator.core.report import Report
from generator.pack.model import Pack
from generator.pack.translations.catalog import has_babel, languages
from generator.pack.translations.fallback import strict_problems
from generator.validate.checks import pack_checks
from generator.validate.drawn import drawn_problems
from generator.validate.translations import fallback_violations, unchecked_translations


def validate_pack(pack: Pack, points: int | str | None = None, max_characters: int | None = None,
                  strict: bool = False, checked: tuple[list[Report], list[Problem]] | None = None,
                  parallel: bool = False) -> list[Report]:
    """The pack's verdict: `pack_checks` (or what they already gave, `checked`), then every face,
    map page and rulebook block drawn in memory (what `pnp build` would stop on). In its own
    language also every translation it has, drawn in memory (what does not fit, language by
    language: `pnp build --lang` draws and judges the same); in a translation (`--lang`) what
    falls back to the source language is a warning, with `strict` an error. With `parallel`
    the languages are drawn at once in worker processes, `pack_checks` running here meanwhile
    (drawn.py). Raises InputError with
    every problem found, else returns the reports."""
    checks: list[tuple[list[Report], list[Problem]]] = [checked] if checked is not None else []
    # in its own language each translation's layout checks too: does its text fit?
    langs = languages(pack.root) if pack.translation is None and has_babel() else []
    # pack_checks run while the workers draw (without them: first)
    (errors, warnings), *translated = drawn_problems(
        pack, langs, parallel, None if checks else lambda: checks.append(pack_checks(pack, points, max_characters)))
    reports, problems = checks[0]
    problems = problems + errors
    reports[0].violations.extend(warnings)
    if pack.translation is not None:
        problems.extend(strict_problems(pack) if strict else [])
        reports[0].violations.extend(fallback_violations(pack))
    elif not has_babel() and languages(pack.root):  # the default install: said once, not an error
        reports[0].violations.append(unchecked_translations(pack))
    for found, said in translated:
        problems.extend(found)
        reports[0].violations.extend(said)
    if problems:
        raise InputError(problems)
    return reports

"""Fallback that is said, not silent: the strings of a pack loaded in another language that print
in the source language (no translation yet, or a stale one after the source changed), as one
warning with the count and the first few, or with `--strict` as errors, one per string."""

from __future__ import annotations

from generator.core.errors import InputError, Location, Problem
from generator.core.words import counted
from generator.pack.model import Pack
from generator.pack.translations.table import Source

SHOWN = 5  # strings named in the warning; `pnp translate --report` counts them all


def _named(sources: tuple[Source, ...]) -> str:
    names = [s.reference for s in sources[:SHOWN]]
    return ", ".join(names) + (f" and {len(sources) - SHOWN} more" if len(sources) > SHOWN else "")


def fallback_warnings(pack: Pack) -> list[str]:
    """`warning: …` lines for a build or validate in a translated pack (none in its own language)."""
    t = pack.translation
    if t is None:
        return []
    out = []
    fix = f"translate them in {t.file} (`pnp translate {pack.root} --report` counts them)"
    if t.missing:
        out.append(counted(f"warning: {t.said}: {len(t.missing)} string(s) of {pack.spec.name} not translated yet, "
                           f"printed in the source language ({t.source_language}): {_named(t.missing)}; {fix}"))
    if t.stale:
        out.append(counted(f"warning: {t.said}: {len(t.stale)} string(s) changed since they were translated (fuzzy "
                           f"in {t.file}), printed in the source language ({t.source_language}): "
                           f"{_named(t.stale)}; check each and clear its fuzzy mark"))
    return out


def strict_problems(pack: Pack) -> list[Problem]:
    """`--strict`: each string that would fall back, as an error."""
    t = pack.translation
    if t is None:
        return []
    out = []
    for kind, sources in (("no translation", t.missing), ("a stale (fuzzy) translation", t.stale)):
        for s in sources:
            line = t.lines.get(s.key)  # its entry; none when the file predates the string
            out.append(Problem("translation.fallback", f"`{s.reference}` has {kind} in {t.said}, and --strict "
                               "refuses to print it in the source language", Location(t.file, line or 1),
                               found=s.text[:80], expected="a translated, not fuzzy entry",
                               fix=f"translate its entry in {t.file}" if line else
                               f"run `pnp translate` to add its entry to {t.file}, then translate it"))
    return out


def check_strict(pack: Pack) -> None:
    problems = strict_problems(pack)
    if problems:
        raise InputError(problems)

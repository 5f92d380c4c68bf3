"""The Jinja half of rule chapters and reference templates: what a chapter's template sees
(`template_context`), the sandboxed environment with its Markdown filters, a chapter rendered
with its errors at file:line, the pack's `reference:` expanded, what the reference card needs
(`reference_card_context`, `reference_card_has_lines`) and a chapter's source in the pack's
language. No page layout here: a card build (the reference card) and the web's rulebook pages
load this module without ReportLab's platypus or markdown-it; the Markdown half, turning the
rendered text into rulebook flowables, is rulebook/markdown.py."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Location, Problem, did_you_mean, short_list
from generator.core.yamlio import display_path
from generator.pack.credits import pack_credits
from generator.pack.icon_names import ICON_MARK, pack_icon_names
from generator.pack.kitcopies import printed as kit_printed
from generator.pack.load import pack_document
from generator.pack.translations.apply import translated_chapter_text
from generator.pack.translations.table import words_for
from generator.render.base import templatecache
from generator.render.base.layout import make_environment
from generator.rules.params import parameter

if TYPE_CHECKING:
    from generator.pack.model import Pack


class ChapterDataError(Exception):
    """Raised inside a template by `card()` or `count()` when they are asked for something
    the pack does not have."""

    def __init__(self, message: str, fix: str | None = None):
        super().__init__(message)
        self.fix = fix


# ---- the data chapters can use ----------------------------------------------------------------


def rule_values(pack: Pack) -> dict:
    """Numbers of the pack's construction rules by what they mean: `deck_size`, `copy_limit`."""
    out: dict = {}
    for rule in pack.spec.rules:
        # a parameter the pack left out is the primitive's default, as the validator uses it
        if rule.check == "deck_size":
            out.setdefault("deck_size", parameter(rule, "size"))
        elif rule.check == "copy_limit":
            out.setdefault("copy_limit", parameter(rule, "default"))
    if pack.spec.default_points_limit:
        out["default_points_limit"] = pack.limit_value(pack.spec.default_points_limit)
    return out


def md_escape(text) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def md_table(columns, rows) -> str:
    """A Markdown table from a header and rows (for templates)."""
    lines = ["| " + " | ".join(md_escape(c) for c in columns) + " |",
             "|" + " --- |" * len(columns)]
    lines += ["| " + " | ".join(md_escape(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def md_section(section, level: int = 2) -> str:
    """A reference section (title, intro, numbered steps, table, notes) as Markdown."""
    s = section if isinstance(section, dict) else section.model_dump()
    out = [f"{'#' * level} {s['title']}", ""]
    if s.get("intro"):
        out += [s["intro"], ""]
    for i, step in enumerate(s.get("steps") or [], 1):
        out.append(f"{i}. **{step['name']}.** {step['text']}")
    if s.get("steps"):
        out.append("")
    if s.get("table"):
        out += [md_table(s["table"]["columns"], s["table"]["rows"]), ""]
    for note in s.get("notes") or []:
        out += [f"*{note}*", ""]
    return "\n".join(out) + "\n"


def template_context(pack: Pack) -> dict:
    """What a chapter's Jinja sees. `card(id)` and `count(type, set)` refuse unknown ids, so a
    typo fails the build instead of printing a wrong rule."""
    spec = pack.spec

    def card(card_id):
        found = pack.cards.get(card_id)
        if found is None:
            guess = did_you_mean(str(card_id), pack.cards)
            raise ChapterDataError(f"no card with the id `{card_id}` in {spec.name}",
                                   f"did you mean `{guess}`?" if guess else "run `pnp list` to see the card ids")
        return found

    def count(type_id, set_id=None):
        if type_id not in spec.card_types:
            guess = did_you_mean(str(type_id), spec.card_types)
            raise ChapterDataError(f"no card type `{type_id}`; the types are {short_list(spec.card_types)}",
                                   f"did you mean `{guess}`?" if guess else None)
        if set_id is not None and set_id not in spec.sets:
            guess = did_you_mean(str(set_id), spec.sets)
            raise ChapterDataError(f"no set `{set_id}`; the sets are {short_list(spec.sets)}",
                                   f"did you mean `{guess}`?" if guess else None)
        return len(pack.cards_of(type_id, set_id))

    def footprint(card_ids):
        """The hexes the given cards cover together: the union of their hex fields, all
        anchored at hex (0, 0); an empty union is the one hex (0, 0)."""
        hexes: set[tuple[int, int]] = set()
        for cid in card_ids:
            c = card(cid)
            for fname, fspec in spec.card_types[c.type].fields.items():
                if fspec.type == "hexes":
                    hexes.update((q, r) for q, r in c.fields.get(fname) or [])
        return sorted(hexes or {(0, 0)})

    def printed(type_id, set_id=None):
        """How many copies of these cards the kit prints, and why (generator/pack/kitcopies.py)."""
        count(type_id, set_id)  # refuses an unknown type or set
        return kit_printed(pack.cards_of(type_id, set_id), spec)

    return {
        "printed": printed,
        "game": spec, "pack": spec, "rules": rule_values(pack), "points_limits": dict(spec.points_limits),
        "keywords": dict(spec.keywords), "stats": dict(spec.stats), "sets": dict(spec.sets),
        "card_types": dict(spec.card_types), "sides": dict(spec.sides), "terrain": dict(spec.terrain),
        "card": card, "count": count, "footprint": footprint, "art": pack_credits(pack),
        "cards": list(pack.cards.values()), "md_table": md_table,
        **words_for(pack.translation),  # _('Glossary'): the page's own words in the pack's language
    }


@functools.cache
def environment():
    """The rulebook's Jinja environment, one per process: what it compiles it keeps (compiled)."""
    env = make_environment()
    env.filters["section"] = md_section
    env.filters["md"] = md_escape
    return env


@functools.lru_cache(maxsize=256)
def compiled(env, source: str):
    """`source` compiled in `env`, once per process: the rulebook, the quick reference and the
    reference card expand the same `reference:` texts, and a language's kit its chapters (a
    Template renders any number of times; the sandbox counts each render's work on its own)."""
    return templatecache.from_string(env, source)


def _template_line(exc: BaseException) -> int | None:
    line = getattr(exc, "lineno", None)
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == "<template>":
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


def render_template(env, source: str, context: dict, file: str) -> str:
    """Jinja over one chapter; any failure becomes an InputError naming the file and line."""
    try:
        return compiled(env, source).render(context)
    except Exception as exc:  # TemplateError, SecurityError, ChapterDataError, TypeError in an expression...
        line = _template_line(exc) or 1
        message = str(exc) or type(exc).__name__
        text = source.splitlines()[line - 1].strip() if 0 < line <= len(source.splitlines()) else None
        raise InputError([Problem("rules.template", f"{Path(file).name}: {message}", Location(file, line),
                                  found=text, expected="valid Jinja over the pack's data",
                                  fix=getattr(exc, "fix", None))]) from None


def prose_icon_problems(source: str, file: str, known: set[str]) -> list[Problem]:
    """`:name:` in a chapter or template that names no icon of the pack would print as the
    text `:name:`: one error per mark, at its file:line:column in the source."""
    out = []
    for n, line in enumerate(source.splitlines(), 1):
        for m in ICON_MARK.finditer(line):
            name = m.group(1)
            if name not in known:
                out.append(_unknown_icon(name, known, Location(file, n, m.start() + 1)))
    return out


def reference_icon_problems(pack: Pack) -> list[Problem]:
    """The same for the text of game.yaml's `reference:` (summaries, tables, glossary)."""
    known = pack_icon_names(pack.spec)
    out: list[Problem] = []

    def walk(value, path):
        if isinstance(value, str):
            for name in dict.fromkeys(ICON_MARK.findall(value)):
                if name not in known:
                    try:
                        where = pack_document(pack, Path(pack.root) / "game.yaml").at(("reference",) + path)
                    except InputError:
                        where = Location(pack.game_file)
                    out.append(_unknown_icon(name, known, where))
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(v, path + (k,))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, path + (i,))

    walk(pack.spec.reference.model_dump(), ())
    return out


def _unknown_icon(name: str, known: set[str], where: Location) -> Problem:
    guess = did_you_mean(name, known)
    return Problem("rules.icon", f"`:{name}:` is no icon of this pack, so the rulebook would print it as text",
                   where, found=f":{name}:", expected="a built-in icon or one of game.yaml `icons:`",
                   fix=f"did you mean `:{guess}:`?" if guess else
                   "add the icon to game.yaml `icons:` (see docs/layouts.md#icons), or write the word")


def expand_reference(pack: Pack, env=None, context: dict | None = None) -> dict:
    """The pack's `reference:` as plain dicts with every string run through Jinja (so a
    summary can say `{{ rules.deck_size }}`)."""
    env = env or environment()
    context = context if context is not None else template_context(pack)
    data = pack.spec.reference.model_dump()

    def walk(value, path):
        if isinstance(value, str):
            if "{{" not in value and "{%" not in value:
                return value
            try:
                return compiled(env, value).render(context)
            except Exception as exc:
                try:
                    location = pack_document(pack, Path(pack.root) / "game.yaml").at(("reference",) + path)
                except InputError:
                    location = Location(pack.game_file)
                raise InputError([Problem("rules.template", f"reference text: {exc}", location, found=value,
                                          fix=getattr(exc, "fix", None))]) from None
        if isinstance(value, dict):
            return {k: walk(v, path + (k,)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, path + (i,)) for i, v in enumerate(value)]
        return value

    return walk(data, ())


def reference_card_has_lines(pack: Pack) -> bool:
    """Whether the reference card (templates/cards/reference.yaml) has anything to say: a
    `brief` of the pack's reference sections, an action type or a status effect. Without any,
    the card would be a blank panel, so the kit leaves it out (generator/kit.py)."""
    ref = pack.spec.reference
    kinds = {k.kind for k in pack.spec.keywords.values()}
    return any(s.brief for s in [*ref.turn, *ref.combat]) or bool(kinds & {"action-type", "status"})


def reference_card_context(pack: Pack) -> dict:
    """Extra context for templates/cards/reference.yaml: `reference` (the pack's summaries,
    Jinja already applied). Merge it into the card renderer's context."""
    return {"reference": expand_reference(pack)}


def chapter_source(path: Path, pack: Pack | None = None) -> tuple[str, str]:
    """(display name, text) of a chapter file, in the language `pack` was loaded in when it is
    one of the pack's chapters; unreadable files are input errors."""
    file = display_path(Path(path))
    try:
        text = Path(path).read_text(encoding="utf-8")
        return file, translated_chapter_text(pack, path, text) if pack is not None else text
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([Problem("rules.read", f"cannot read the chapter: {exc}", Location(file),
                                  expected="a UTF-8 Markdown file")]) from None

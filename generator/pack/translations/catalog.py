"""A language's PO file (`translations/<lang>.po`), made, updated and read with Babel.

Updating follows the source: a string whose source text is unchanged keeps its translation; a
changed one keeps the old translation marked fuzzy (stale) with the old source as its previous
msgid (`#| msgid`), found by its reference (the card and field, or the file and line) or, when
the string moved, by the closest old source of the same file; a new one is added empty; a
removed one that was translated is kept as obsolete (`#~`), so nothing a translator wrote is
lost. Every entry carries its references and a note on what it is.

Babel is the `translations` extra (36 MB with its locale data): it is imported only here, in
the functions that need it, and its absence is one error saying how to add it."""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, cast

from generator.core.errors import InputError, Location, Problem
from generator.core.extras import install_line
from generator.core.files import atomic_output
from generator.core.yamlio import display_path
from generator.pack.sheets.table import export_stamp
from generator.pack.translations.markup import lost_markup
from generator.pack.translations.poread import PoFile, quick_po_file
from generator.pack.translations.table import Key, Source, language_name, plural_index

if TYPE_CHECKING:
    from babel.messages.catalog import Catalog, Message

FOLDER = "translations"
SIMILAR = 0.7  # difflib ratio above which a moved, changed string is taken for the old one


def po_file(root: Path, lang: str) -> Path:
    return Path(root) / FOLDER / f"{lang}.po"


def languages(root: Path) -> list[str]:
    """The languages a pack has translations for (its translations/*.po), sorted."""
    folder = Path(root) / FOLDER
    return sorted(p.stem for p in folder.glob("*.po")) if folder.is_dir() else []


def has_babel() -> bool:
    """Whether Babel (the `translations` extra, 36 MB) can be imported here."""
    try:
        import babel  # noqa: F401  # deferred: the `translations` extra
    except ImportError:
        return False
    return True


def readable_languages(root: Path) -> list[str]:
    """The languages of `languages(root)` this install can read: none without Babel (the
    builder then offers none, and serves the pack as written)."""
    return languages(root) if has_babel() else []


def need_babel(what: str = "reading translations") -> None:
    """An InputError saying how to add the `translations` extra, when Babel is missing."""
    if not has_babel():
        raise InputError([Problem("extra.missing", f"{what} needs Babel, the `translations` extra, which is not "
                                  "installed", Location("command line"), expected="Babel installed beside pnp",
                                  fix=f"add the `translations` extra: {install_line('translations')}")])


def own_name(lang: str) -> str:
    """`Deutsch` for `de`: a language as its speakers write it (a language menu shows each so),
    the code itself without Babel or when Babel knows none."""
    try:
        from babel import Locale, UnknownLocaleError  # deferred: the `translations` extra
    except ImportError:
        return lang
    try:
        name = Locale.parse(lang, sep="-").display_name or lang
    except (UnknownLocaleError, ValueError):
        return lang
    return name[:1].upper() + name[1:]


def check_language(lang: str, where: Location) -> None:
    from babel import Locale, UnknownLocaleError  # deferred: the `translations` extra
    try:
        Locale.parse(lang, sep="-")
    except (UnknownLocaleError, ValueError):
        raise InputError([Problem("translation.language", f"`{lang}` is no language Babel knows", where,
                                  found=lang, expected="a language code such as de, fr, pt-BR",
                                  fix="use the ISO 639 code of the language (and a region after a -)")]) from None


def read_catalog(path: Path, lang: str) -> Catalog:
    """The PO file at `path` as Babel's Catalog; InputError at its line when it cannot be read."""
    return read_po_file(path, lang).catalog()


def read_po_file(path: Path, lang: str) -> PoFile:
    """The PO file at `path` as a load reads it (its entries' words, contexts, flags and lines,
    its language and plural rule); InputError at its line when it cannot be read."""
    from babel.messages.pofile import PoFileError, read_po  # deferred: the `translations` extra
    file = display_path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError([Problem("translation.read", f"cannot read {file}: {exc.strerror}", Location(file),
                                  expected="a PO file", fix=f"make it with `pnp translate PACK --lang {lang}`")]) from None
    try:
        # the file's usual shape read at once (pack/translations/poread.py), else by Babel, which
        # also says what is wrong with a broken file
        read = quick_po_file(raw, "utf-8")
        if read is None:
            catalog = read_po(io.BytesIO(raw), abort_invalid=True, charset="utf-8")
            _read_previous(catalog)
            read = PoFile.of(catalog)
        else:
            read = PoFile(read.locale_identifier, read.plural_expr, read.entries, _with_previous(read.catalog),
                          read.digest)
    except PoFileError as exc:
        raise InputError([Problem("translation.syntax", f"{file} is not a valid PO file: {exc.args[0]}",
                                  Location(file, exc.lineno + 1), found=exc.line.strip()[:80] or None,
                                  expected="gettext PO entries (msgctxt, msgid, msgstr)",
                                  fix="open and save it in a PO editor (Poedit), or check it with `msgfmt --check`")]) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise InputError([Problem("translation.syntax", f"{file} cannot be read as UTF-8 PO text: {exc}",
                                  Location(file), expected="a PO file in UTF-8",
                                  fix="save it again as UTF-8 (a PO editor does)")]) from None
    declared = read.locale_identifier
    if declared and declared.replace("_", "-").lower() != lang.lower():
        raise InputError([Problem("translation.language", f"{file} says it is in `{declared}`, but its name says "
                                  f"`{lang}`", Location(file), found=f"Language: {declared}", expected=f"Language: {lang}",
                                  fix=f"rename the file to {declared.replace('_', '-')}.po, or correct its Language header")])
    return read


def _with_previous(make: Callable[[], Catalog]) -> Callable[[], Catalog]:
    def made() -> Catalog:
        catalog = make()
        _read_previous(catalog)
        return catalog
    return made


def usable_strings(catalog: Catalog | PoFile) -> dict[Key, str]:
    """The catalog's translated entries that are not fuzzy (stale): (context, source) -> text."""
    return {(m.context, m.id): m.string for m in catalog
            if m.id and m.string and not m.fuzzy and isinstance(m.id, str) and isinstance(m.string, str)}


def usable_plurals(catalog: Catalog | PoFile) -> dict[Key, tuple[str, ...]]:
    """The catalog's plural entries (msgid_plural) with every form translated and not fuzzy:
    (context, singular) -> the forms, in the order the file's Plural-Forms rule numbers them."""
    return {(m.context, m.id[0]): tuple(m.string) for m in catalog
            if m.id and not isinstance(m.id, str) and not m.fuzzy and isinstance(m.string, (list, tuple))
            and m.string and all(m.string)}


def plural_rule(catalog: Catalog | PoFile, file: str) -> str:
    """The catalog's plural rule (its Plural-Forms header, else its language's), checked: an
    InputError at the file when gettext cannot read it."""
    rule = catalog.plural_expr
    try:
        plural_index(rule, 2)
    except (ValueError, SyntaxError):
        raise InputError([Problem("translation.plural-forms", f"{file}: the Plural-Forms rule `{rule}` is not one "
                                  "gettext can read", Location(file), found=rule,
                                  expected="a C expression of n, as `nplurals=2; plural=(n != 1);`",
                                  fix="copy the language's line from the gettext manual, or let a PO editor set it")]) from None
    return rule


def _stamp() -> dt.datetime:
    return dt.datetime.fromtimestamp(export_stamp(), dt.timezone.utc)


HEADER = ("# {name} translation of {game} (the pnp pack `{pack}`).\n"
          "# Made and updated by `pnp translate {pack} --lang {lang}`; see pnp's docs/translations.md.\n"
          "# Keep each entry's :icons:, {{{{ values }}}}, {{placeholders}} and keywords.")


def grouped(sources: Iterable[Source]) -> dict[Key, list[Source]]:
    """The pack's strings by (context, text), in the order they first appear."""
    out: dict[Key, list[Source]] = {}
    for source in sources:
        out.setdefault(source.key, []).append(source)
    return out


def _file_of(location: tuple[str, int | None]) -> str:
    where = location[0]
    return where.rsplit("/", 1)[0] if where.startswith("card/") else where


def updated_catalog(old: Catalog | None, sources: list[Source], game: str, version: str, pack_id: str,
                    lang: str) -> Catalog:
    """The catalog `pnp translate` writes: the pack's strings now, with what `old` knew."""
    from babel.messages.catalog import Catalog, Message  # deferred: the `translations` extra
    stamp = _stamp()
    new = Catalog(locale=lang.replace("-", "_"), project=game, version=version, fuzzy=False,
                  msgid_bugs_address="", creation_date=old.creation_date if old else stamp,
                  revision_date=old.revision_date if old else stamp,
                  language_team=old.language_team if old and "LL@li.org" not in old.language_team
                  else language_name(lang),
                  last_translator=old.last_translator if old and "EMAIL@ADDRESS" not in old.last_translator
                  else "pnp translate",
                  header_comment=old.header_comment if old and old.header_comment.startswith("# ") and
                  "FIRST AUTHOR" not in old.header_comment
                  else HEADER.format(name=language_name(lang), game=game, pack=pack_id, lang=lang))
    previous: list[Message] = [m for m in old if m.id] if old else []
    by_key = {key_of(m): m for m in previous}
    revived = {key_of(m): m for m in (old.obsolete.values() if old else [])}
    used: set[Key] = set()
    wanted = grouped(sources)
    # what a changed string may have been: an old entry whose source the pack no longer has (one that
    # only moved, a paragraph pushed down by a new one, is still wanted and keeps its own translation)
    gone = [m for m in previous if key_of(m) not in wanted]
    by_location: dict[tuple[str, int | None], Message] = {}
    for m in gone:
        for location in m.locations:
            by_location.setdefault((location[0], location[1]), m)
    for key, group in wanted.items():
        locations = list(dict.fromkeys((s.where, s.line) for s in group))
        notes = list(dict.fromkeys(s.note for s in group if s.note))
        string, flags, comments, previous_id = "", set(), [], []
        before = by_key.get(key) or revived.get(key)
        if before is not None:
            used.add(key)
            string, comments = text_of(before), list(before.user_comments)
            flags = set(before.flags) & {"fuzzy"}
            previous_id = list(before.previous_id) if before.fuzzy else []
        else:
            stale = next((by_location[loc] for loc in locations if loc in by_location
                          and key_of(by_location[loc]) not in used), None) \
                or _similar(key[1], {_file_of(loc) for loc in locations}, [m for m in gone if key_of(m) not in used])
            if stale is not None and stale.string:  # its translation lives on here: not kept as obsolete
                used.add(key_of(stale))
                string, flags, comments = text_of(stale), {"fuzzy"}, list(stale.user_comments)
                previous_id = [stale.previous_id[0] if stale.fuzzy and stale.previous_id else key_of(stale)[1]]
        plural = group[0].plural
        msgid: str | tuple[str, str] = key[1] if plural is None else (key[1], plural)
        text: str | tuple[str, ...] = string
        if plural is not None:
            if before is not None and not isinstance(before.id, str) and before.id[1] == plural:
                text = forms_of(before)  # a plural entry keeps all its forms
            else:  # a new plural entry, or one whose source was singular: its words in each form, to check
                text = (string,) * new.num_plurals
                flags |= {"fuzzy"} if string else set()
        # Babel types a location's line as int; a card's reference has none (written without `:line`)
        new.add(msgid, text, locations=cast("list[tuple[str, int]]", locations), flags=flags,
                auto_comments=notes, user_comments=comments, previous_id=previous_id, context=key[0])
    for m in previous + list(revived.values()):
        if key_of(m) not in used and key_of(m) not in wanted and m.string:
            new.obsolete[(key_of(m)[1], m.context) if m.context else key_of(m)[1]] = Message(  # a fuzzy one stays fuzzy
                m.id, m.string, context=m.context, flags=set(m.flags) & {"fuzzy"},
                user_comments=list(m.user_comments), previous_id=list(m.previous_id))
    return new


def key_of(message: Message) -> Key:
    """A message's (context, source text); a plural message by its singular."""
    text = message.id if isinstance(message.id, str) else message.id[0]
    return (message.context, text)


def forms_of(message: Message) -> tuple[str, ...]:
    """A message's translation as its forms: one for a singular message, each of a plural one's."""
    string = message.string
    return tuple(s or "" for s in string) if isinstance(string, (list, tuple)) else (string or "",)


def text_of(message: Message) -> str:
    """A message's translation (a plural one's first form), empty when it has none."""
    string = message.string
    if isinstance(string, (list, tuple)):
        string = string[0] if string else ""
    return string or ""


def _similar(text: str, files: set[str], previous: list[Message]) -> Message | None:
    """The old entry of the same file whose source is closest to `text`, if close enough."""
    candidates = {m.id: m for m in previous if isinstance(m.id, str) and m.string
                  and any(_file_of(loc) in files for loc in m.locations)}
    import difflib  # deferred: only a near miss needs it (start-up of every command)
    best = difflib.get_close_matches(text, list(candidates), n=1, cutoff=SIMILAR)
    return candidates[best[0]] if best else None


# Babel reads a previous msgid (`#| msgid "..."`) as a translator's comment and writes a long one
# wrapped as prose, which no PO reader can parse (python-babel/babel#206, open since 2015). So the
# previous msgids are taken out of the comments here after reading, and written here with Babel's
# own `normalize`; tests/test_translations.py fails when Babel starts reading them itself.
WIDTH = 76


def _read_previous(catalog: Catalog) -> None:
    from babel.messages.pofile import denormalize  # deferred: the `translations` extra
    for message in catalog:
        lines = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if not lines:
            continue
        message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
        kept: list[str] = []
        for line in lines:
            if line.startswith("msgid "):
                kept = [line[len("msgid "):]]
            elif line.startswith('"') and kept:
                kept.append(line)
            elif kept:
                break  # a previous msgctxt or msgid_plural: not kept
        if kept:
            message.previous_id = [denormalize("\n".join(kept))]


def po_bytes(catalog: Catalog) -> bytes:
    """The PO file's bytes: Babel's writer, with each fuzzy entry's previous msgid put in."""
    from babel.messages.pofile import normalize, write_po  # deferred: the `translations` extra
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=WIDTH, include_previous=False)
    blocks = buffer.getvalue().decode("utf-8").split("\n\n")
    for n, message in enumerate(catalog):  # the header first, then a block per message, in order
        if not (message.id and message.fuzzy and message.previous_id):
            continue
        lines = blocks[n].split("\n")
        at = next(i for i, line in enumerate(lines) if line.startswith(("msgctxt ", "msgid ")))
        lines.insert(at, "#| msgid " + normalize(message.previous_id[0], prefix="#| ", width=WIDTH))
        blocks[n] = "\n".join(lines)
    return "\n\n".join(blocks).encode("utf-8")


def write_catalog(catalog: Catalog, path: Path) -> None:
    """Write the PO file atomically (a reader never sees half of it); the same catalog gives the
    same bytes."""
    data = po_bytes(catalog)
    with atomic_output(path, suffix=".po") as tmp:
        Path(tmp).write_bytes(data)


@dataclass
class Entry:
    """One string of the pack and its state in a language: done, fuzzy (stale), missing, or
    broken (translated, but its markup lost on the way)."""

    key: Key
    sources: list[Source]
    state: str
    translated: str = ""
    line: int | None = None  # of the entry in the PO file, when it has one
    problems: list[str] = field(default_factory=list)


def _as_updated(old: Catalog, wanted: dict[Key, list[Source]]) -> bool:
    """Whether `pnp translate` would keep every wanted string's entry of `old` as it is (its
    words, its forms, its fuzzy mark): each has one, singular where the source is and plural with
    the same plural where the source is (updated_catalog: `before`). Then `old` says each state
    as the updated catalog would, without making it (20 ms for Boss Fight's German)."""
    for (context, text), group in wanted.items():
        message = old.get(text, context)
        plural = group[0].plural
        if message is None or (isinstance(message.id, str) != (plural is None)) or \
                (plural is not None and message.id[1] != plural):
            return False
    return True


def entries(old: Catalog | None, sources: list[Source], keyword_names: list[str], markup: bool = True) -> list[Entry]:
    """Each of the pack's strings with its state in the translation `old` (as the file would
    say after `pnp translate`: a string changed since is fuzzy, not missing). Without `markup`,
    a translated entry is `done` unchecked (a load that counts what falls back has refused a
    file with a broken entry already: TranslationLayer)."""
    lines = {key_of(m): m.lineno for m in old if m.id} if old is not None else {}
    wanted = grouped(sources)
    current: Catalog | None = None
    if old is not None:
        current = old if _as_updated(old, wanted) else updated_catalog(old, sources, "", "", "",
                                                                      str(old.locale_identifier or "en"))
    done: dict[Key, str] = {}
    if current is not None:
        done = {(m.context, m.id): m.string for m in current if m.id and m.string and not m.fuzzy
                and isinstance(m.string, str) and isinstance(m.id, str) and (m.context, m.id) in wanted}
    keywords = {name: done.get((None, name), name) for name in keyword_names if (None, name) in done}
    out = []
    for key, group in wanted.items():
        message = current.get(key[1], key[0]) if current is not None else None
        line = lines.get(key)
        forms = forms_of(message) if message is not None else ("",)
        if message is None or not all(forms):  # a plural entry is done when all its forms are
            out.append(Entry(key, group, "missing", line=line))
        elif message.fuzzy:
            out.append(Entry(key, group, "fuzzy", " | ".join(forms), line))
        else:
            lost = [p for form in forms for p in lost_markup(key[1], form, keywords)] if markup else []
            out.append(Entry(key, group, "broken" if lost else "done", " | ".join(forms), line, list(dict.fromkeys(lost))))
    return out

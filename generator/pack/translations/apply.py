"""A pack in another language, made while the loader reads it: game.yaml and each card file
have their player-visible strings replaced (`TranslationLayer`), presets and maps as the pack
reads them (`translated_pack_file`), rules chapters as the rulebook reads them
(`translated_chapter_text`). A string without a usable translation keeps its source text and is
counted (`Translation.missing`, `.stale`); a translation that lost its markup is an error
naming its entry in the PO file."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from generator.core import kept
from generator.core.errors import InputError, Location, Problem
from generator.core.yamlio import Document, display_path
from generator.pack.cache import Slot
from generator.pack.documents import parsed_document
from generator.pack.model import FileKey, GameSpec
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn
from generator.pack.translations import catalog as po
from generator.pack.translations.chapters import translated_chapter
from generator.pack.translations.inventory import other_sources
from generator.pack.translations.markup import lost_markup
from generator.pack.translations.sources import (D, GAME_PATTERNS, MAP_PATTERNS, PRESET_PATTERNS, Path_,
                                                 card_paths, card_sources, game_sources, pattern_paths,
                                                 translated_document, with_implied_words)
from generator.pack.translations.table import Key, Source, Translation, language_name

if TYPE_CHECKING:
    from generator.pack.model import Pack


class TranslationLayer:
    """One load of a pack in language `lang`: the PO file read, then each file translated as
    the loader reads it; `finish` gives the pack's `Translation`."""

    def __init__(self, root: Path, lang: str, source: GameSpec, game_doc: Document,
                 documents: dict[FileKey | None, Document] | None = None, fallbacks: bool = True):
        po.need_babel(f"`--lang {lang}`")
        self.root, self.lang, self.source = Path(root), lang, source
        self.documents = {} if documents is None else documents  # the run's parsed files, shared
        where = Location(display_path(po.po_file(root, lang)))
        po.check_language(lang, where)
        path = po.po_file(root, lang)
        if not path.is_file():
            raise InputError([Problem("translation.missing", f"{source.name} has no {language_name(lang)} "
                                      f"translation ({display_path(path)} does not exist)", where,
                                      expected=f"translations/{lang}.po in the pack",
                                      fix=f"make it with `pnp translate {display_path(root)} --lang {lang}`")])
        self.file = display_path(path)
        self.po_file = po.read_po_file(path, lang)
        keyword_names = [k.name for k in source.keywords.values()]
        self.strings, self.problems = self._usable(keyword_names)
        problems = self.problems
        self.plural_rule = po.plural_rule(self.po_file, self.file)
        self.plurals = po.usable_plurals(self.po_file)
        for (context, singular), forms in self.plurals.items():  # each form keeps the source's {names}
            lost = [p for form in forms for p in lost_markup(singular, form, {})]
            if lost:
                problems.append(Problem("translation.markup", f"the {lang} translation of `{_short(singular)}` "
                                        f"{'; '.join(dict.fromkeys(lost))}", Location(self.file, self.lines_of(singular, context)),
                                        found=_short(" | ".join(forms), 120), expected="the source's {names} in every form",
                                        fix="put them back in each msgstr[N]"))
        # the pack's strings, for what falls back (`finish`): not gathered for a load that never says it
        self.fallbacks = fallbacks
        self.sources: list[Source] = game_sources(game_doc) if fallbacks else []
        translated = translated_document(game_doc, pattern_paths(game_doc, GAME_PATTERNS), self.lookup)
        with_implied_words(translated.data, lambda text: self.lookup(None, text))
        data = translated.data if isinstance(translated.data, dict) else {}
        try:
            self.spec = GameSpec.model_validate({**data, "language": lang})
        except ValidationError as exc:
            raise InputError([Problem(p.code, f"the {lang} translation of game.yaml: {p.message}", p.location,
                                      found=p.found, expected=p.expected,
                                      fix=f"shorten or mend its entry in {self.file}")
                              for p in problems_from(exc, translated, (), "game.yaml",
                                                     allowed_keys_fn(GameSpec))]) from None

    def _usable(self, keyword_names: list[str]) -> tuple[dict[Key, str], list[Problem]]:
        """The translated, not fuzzy entries whose markup survived; an error for each other."""
        done = po.usable_strings(self.po_file)
        keywords = {name: done[(None, name)] for name in keyword_names if (None, name) in done}
        kept_as = _checked_key(self.po_file.digest, keywords)
        if kept_as is not None and kept.load(kept_as, _CHECKED) is not None:
            return done, []  # every entry kept its markup when this file was last checked (below)
        strings, problems = {}, []
        for m in self.po_file:
            key = (m.context, str(m.id))
            if key not in done:
                continue
            lost = lost_markup(key[1], done[key], keywords)
            if lost:
                refs = " ".join(f"{w}:{n}" if n else w for w, n in m.locations[:2])
                problems.append(Problem("translation.markup", f"the {self.lang} translation of `{_short(key[1])}`"
                                        f"{' (' + refs + ')' if refs else ''} {'; '.join(lost)}",
                                        Location(self.file, m.lineno or 0), found=_short(done[key], 120),
                                        expected="the source's keywords, icons and template values, moved if need be",
                                        fix="put them back in the msgstr (a keyword in its translated words)"))
            else:
                strings[key] = done[key]
        if kept_as is not None and not problems:
            kept.keep(kept_as, _CHECKED, b"1")
        return strings, problems

    def lines_of(self, singular: str, context: str | None) -> int:
        message = self.po_file.get(singular, context)
        return (message.lineno or 0) if message is not None else 0

    def lookup(self, context: str | None, text: str, path: Path_ = ()) -> str:
        return self.strings.get((context, text), text)

    def cards(self, doc: D) -> D:
        """A card file (YAML or spreadsheet) in the language."""
        if self.fallbacks:
            self.sources += card_sources(doc, self.source)
        return translated_document(doc, card_paths(doc, self.source), self.lookup)

    def finish(self, preset_files: list[Path], map_files: list[Path], rule_files: list[Path]) -> Translation:
        """The pack's Translation; InputError when an entry lost its markup. The rest of the pack
        (presets, maps, chapters, layouts) is read here for its strings: what falls back is
        counted over the whole kit; without `fallbacks`, not (missing, stale and lines left empty:
        for a pass that never says them, half of the load's time)."""
        if self.problems:
            raise InputError(self.problems)
        if not self.fallbacks:
            return Translation(self.lang, self.source.language, self.file, self.strings, (), (),
                               None, {}, self.plurals, self.plural_rule)
        sources = self.sources + other_sources(self.root, preset_files, map_files, rule_files,
                                               lambda path: parsed_document(self.documents, path))
        missing, stale, lines = [], [], {}
        # missing and stale only: a file with an entry whose markup was lost stopped above
        for entry in po.entries(self.po_file.catalog(), sources, [k.name for k in self.source.keywords.values()],
                                markup=False):
            if entry.line:
                lines[entry.key] = entry.line
            if entry.state == "missing":
                missing += entry.sources[:1]
            elif entry.state == "fuzzy":
                stale += entry.sources[:1]
        return Translation(self.lang, self.source.language, self.file, self.strings, tuple(missing), tuple(stale),
                           None, lines, self.plurals, self.plural_rule)


# A PO file whose every usable entry kept its markup is noted in the cache folder (core/kept.py),
# so the next load of it takes its usable entries as they are instead of checking each again
# (Boss Fight's 1,845: ~7 ms a load). The note is named by the sha256 of the file's bytes, of the
# keywords as it names them, and of the code that checks (the pack package's modules, by size and
# mtime); a file with a broken entry is checked every time, and says so.
_CHECKED = b"pnp-po-markup-kept-1"


def _checked_key(digest: bytes | None, keywords: dict[str, str]) -> str | None:
    if digest is None:  # read by Babel (a file of an unusual shape): checked every time
        return None
    h = hashlib.sha256(kept.folder_fingerprint(Path(__file__).resolve().parents[1]))  # generator/pack
    h.update(digest + repr(sorted(keywords.items())).encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


TRANSLATED: Slot[dict[str, tuple[Document, Document]]] = Slot("translated_files")  # path -> (source, translated)
# the pack's presets and maps, resolved once (each file it translates is told by its resolved path)
RESOLVED: Slot[tuple[set[Path], set[Path]]] = Slot("translated_kinds")


def translated_pack_file(pack: Pack, path: Path, doc: Document) -> Document:
    """A preset or map file of a translated pack, in its language (other files as they are): a
    copy of `doc` (the parsed file, shared with the pack in its own language), made once."""
    if pack.translation is None:
        return doc
    made = pack.loaded.made(TRANSLATED, dict)
    known = made.get(str(path))
    if known is None or known[0] is not doc:  # not made yet, or the file changed since
        made[str(path)] = known = (doc, _translated_file(pack, path, doc))
    return known[1]


def _translated_file(pack: Pack, path: Path, doc: Document) -> Document:
    translation = pack.translation
    assert translation is not None
    resolved = Path(path).resolve()
    presets, maps = pack.loaded.fresh(RESOLVED, (tuple(pack.preset_files), tuple(pack.map_files)),
                                      lambda: ({Path(p).resolve() for p in pack.preset_files},
                                               {Path(p).resolve() for p in pack.map_files}))
    if resolved in presets:
        patterns = PRESET_PATTERNS
    elif resolved in maps:
        patterns = MAP_PATTERNS
    else:
        return doc
    return translated_document(doc, pattern_paths(doc, patterns), lambda c, t, p: translation.strings.get((c, t), t))


def translated_chapter_text(pack: Pack, path: Path, text: str) -> str:
    """A rules chapter of a translated pack, in its language."""
    translation = pack.translation
    if translation is None:
        return text
    return translated_chapter(text, translation.gettext)

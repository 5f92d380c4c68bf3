"""Which strings of a pack's YAML files a player reads, found by path (game.yaml, presets, maps)
or by the card's field type (card files), and the same walk putting translations in their place.

A path is a tuple of keys; `*` stands for any key of a mapping or any item of a list. Each
pattern carries a note for the translator. Choice values (`card_types.*.fields.*.choices`) are
translated where a layout shows them, `pgettext(field, value)`, never in the data: rules,
draws and icons match the values the designer wrote."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from generator.core.yamlio import Document
from generator.pack.model import GameSpec
from generator.pack.translations.table import Source

Path_ = tuple[Any, ...]
LETTER = re.compile(r"[^\W\d_]")
# what is not words: Jinja values and statements, icons, Markdown marks, numbers
_NOT_WORDS = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|:[a-z0-9-]+:", re.S)


@dataclass(frozen=True)
class Pattern:
    path: Path_
    note: str
    context_at: int | None = None  # the path item that is the msgctxt (a choice's field)
    applied: bool = True  # False: looked up where it is shown (choice values), the data stays


def _p(path: str, note: str, context_at: int | None = None, applied: bool = True) -> Pattern:
    return Pattern(tuple(path.split(".")), note, context_at, applied)


_REFERENCE_SECTION = ("title", "intro", "brief", "steps.*.name", "steps.*.text", "table.columns.*",
                      "table.rows.*.*", "notes.*")

GAME_PATTERNS: tuple[Pattern, ...] = (
    _p("name", "the game's name"),
    _p("summary", "the game in a few sentences (rulebook cover, builder)"),
    _p("credits.*", "a line of the credits"),
    _p("stats.*.name", "a statistic's name"),
    _p("keywords.*.name", "a keyword: styled wherever card text uses it; use the same words in every text"),
    _p("keywords.*.text", "what a keyword means (rulebook, reference card)"),
    _p("sets.*.name", "a set's name"),
    _p("card_types.*.name", "a card type's name"),
    _p("card_types.*.fields.*.label", "a card field's label"),
    _p("card_types.*.fields.*.choices.*", "a value of a card field, as cards show it", context_at=3, applied=False),
    _p("sides.*.name", "a side's name"),
    _p("sides.*.called.one", "what one character of a side is called"),
    _p("sides.*.called.many", "what the characters of a side are called"),
    _p("rules.*.message", "a rule's message in the builder and on rosters; keep the {names}"),
    _p("rules.*.messages.*", "a rule's message in the builder and on rosters; keep the {names}"),
    _p("rules.*.fix", "how to mend a broken rule, in the builder; keep the {names}"),
    _p("terrain.*.name", "a terrain's name (map legends)"),
    _p("terrain.*.text", "a terrain's rule (map legends)"),
    *(_p(f"reference.{part}.*.{key}", "the rulebook's reference pages and the quick reference")
      for part in ("turn", "combat") for key in _REFERENCE_SECTION),
    _p("reference.glossary.*.term", "a glossary term"),
    _p("reference.glossary.*.text", "a glossary entry"),
    _p("pieces.counters.*.label", "a counter's label (at most 40 characters)"),
    _p("pieces.counters.*.text", "a counter's second line (at most 40 characters)"),
    _p("pieces.counters.*.back.label", "a counter's label (at most 40 characters)"),
    _p("pieces.counters.*.back.text", "a counter's second line (at most 40 characters)"),
    _p("pieces.trackers.phases.title", "a tracker's title"),
    _p("pieces.dice.*.label", "a die's label (at most 40 characters)"),
    _p("pieces.dice.*.faces.*", "a face of a die (at most 40 characters)"),
    _p("pieces.board.title", "the blank board's title"),
)
PRESET_PATTERNS: tuple[Pattern, ...] = (
    _p("name", "a ready-made build's name (rulebook, builder)"),
    _p("notes", "a ready-made build's notes"),
    _p("characters.*.name", "a character's name in a ready-made build"),
)
MAP_PATTERNS: tuple[Pattern, ...] = (
    _p("title", "a map's title"),
    _p("notes", "a map's notes (scenario setup)"),
    _p("regions.*.name", "a region of a map"),
)
CARD_COMMON = (("name",), ("text",), ("flavour",))
# the parts of a card field that are words, by field type; every type is listed (a test holds
# this to generator.pack.field_names.FIELD_TYPES), so a new field type is a decision here too
FIELD_WORDS: dict[str, tuple[Path_, ...]] = {
    "text": ((),), "feat": (("name",), ("text",)), "attacks": (("*", "text"),),
    "ability-list": (("*", "name"), ("*", "text"), ("*", "extra")),
    "int": (), "choice": (), "stats": (), "stat": (), "hexes": (), "requirements": (), "card-refs": (),
    "card-ref": (), "bool": (), "pair": (), "counts": (),
}


def has_words(text: str) -> bool:
    """Whether a string holds anything to translate: letters outside Jinja, icons and markup."""
    return bool(LETTER.search(_NOT_WORDS.sub("", text)))


def walk(data: object, pattern: Path_, at: Path_ = ()) -> Iterator[tuple[Path_, str]]:
    """Every string at a path the pattern matches, with its path, in document order."""
    if not pattern:
        if isinstance(data, str):
            yield at, data
        return
    head, rest = pattern[0], pattern[1:]
    if isinstance(data, dict):
        keys = list(data) if head == "*" else [head] if head in data else []
        for key in keys:
            yield from walk(data[key], rest, at + (key,))
    elif isinstance(data, list) and head == "*":
        for i, item in enumerate(data):
            yield from walk(item, rest, at + (i,))


def _sources(doc: Document, patterns: tuple[Pattern, ...], where: str) -> list[Source]:
    out = []
    for pattern in patterns:
        for path, text in walk(doc.data, pattern.path):
            if has_words(text):
                context = str(path[pattern.context_at]) if pattern.context_at is not None else None
                out.append(Source(where, doc.at(path).line, text, context, pattern.note))
    return out


def game_sources(doc: Document) -> list[Source]:
    return _sources(doc, GAME_PATTERNS, "game.yaml") + [
        Source("game.yaml", doc.at(path).line, text, None, note) for path, _key, text, note in implied_words(doc.data)]


# Words game.yaml implies without writing them: a field's heading is its name in words when it has
# no `label` (fieldtypes.label), a side's characters are "character"/"characters" when it has no
# `called`. A translation writes them in: the translated data gets the `label` or `called`.
CALLED = {"one": "character", "many": "characters"}


def implied_words(data: object) -> Iterator[tuple[Path_, str, str, str]]:
    """(path of the mapping, key to write, the implied words, note) of each word game.yaml implies."""
    if not isinstance(data, dict):
        return
    types = data.get("card_types")
    for type_id, type_spec in (types.items() if isinstance(types, dict) else []):
        fields = type_spec.get("fields") if isinstance(type_spec, dict) else None
        for name, fspec in (fields.items() if isinstance(fields, dict) else []):
            if isinstance(fspec, dict) and "label" not in fspec and isinstance(name, str):
                yield (("card_types", type_id, "fields", name), "label", name.replace("_", " ").capitalize(),
                       "a card field's heading (Card List, builder), from its name")
    sides = data.get("sides")
    for side_id, side in (sides.items() if isinstance(sides, dict) else []):
        if isinstance(side, dict) and "called" not in side:
            for key, word in CALLED.items():
                yield (("sides", side_id), f"called.{key}", word, f"what {'one' if key == 'one' else 'several'} "
                       "of a side's characters are called")


def with_implied_words(data: object, lookup: Callable[[str], str]) -> None:
    """Write the implied words' translations into translated game.yaml data (in place)."""
    for path, key, text, _note in list(implied_words(data)):
        new = lookup(text)
        if new == text:
            continue
        target: Any = data
        for part in path:
            target = target[part]
        if key.startswith("called."):
            target.setdefault("called", dict(CALLED))[key.split(".", 1)[1]] = new
        else:
            target[key] = new


def preset_sources(doc: Document, where: str) -> list[Source]:
    return _sources(doc, PRESET_PATTERNS, where)


def map_sources(doc: Document, where: str) -> list[Source]:
    return _sources(doc, MAP_PATTERNS, where)


def card_word_paths(raw: dict[str, Any], spec: GameSpec) -> Iterator[tuple[Path_, str]]:
    """The words of one card as written (a card of an unknown type has only its common ones)."""
    type_id = raw.get("type")
    type_spec = spec.card_types.get(type_id) if isinstance(type_id, str) else None
    patterns: list[Path_] = list(CARD_COMMON)
    if type_spec is not None:
        for name, fspec in type_spec.fields.items():
            if fspec.type == "text" and fspec.pattern:
                continue  # a code the pattern checks (`2d6`, `A1`), not words
            patterns += [(name, *part) for part in FIELD_WORDS.get(fspec.type, ())]
    for pattern in patterns:
        for path, text in walk(raw, pattern):
            if has_words(text):
                yield path, text


def _card_note(raw: dict[str, Any], path: Path_, spec: GameSpec) -> str:
    type_id = raw.get("type")
    type_name = spec.card_types[type_id].name if isinstance(type_id, str) and type_id in spec.card_types else type_id
    field = ".".join(str(p) for p in path)
    name = raw.get("name") if isinstance(raw.get("name"), str) else raw.get("id")
    return f"the {field} of the card {name} ({type_name})"


def _cards(doc: DocLike) -> list[dict[str, Any]]:
    data = doc.data
    cards = data.get("cards") if isinstance(data, dict) else None
    return [c for c in cards if isinstance(c, dict) and isinstance(c.get("id"), str)] if isinstance(cards, list) else []


def card_sources(doc: DocLike, spec: GameSpec) -> list[Source]:
    """A cards file's words, each referenced by the card's id and the field: `card/<id>/<field>`."""
    out = []
    for raw in _cards(doc):
        for path, text in card_word_paths(raw, spec):
            where = "card/" + raw["id"] + "/" + "/".join(str(p) for p in path)
            out.append(Source(where, None, text, None, _card_note(raw, path, spec)))
    return out


Lookup = Callable[[str | None, str, Path_], str]


class DocLike(Protocol):
    file: str
    data: Any


D = TypeVar("D", bound=DocLike)


def _replace(data: Any, path: Path_, value: str) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def translated_document(doc: D, paths: list[tuple[Path_, str, str | None]], lookup: Lookup) -> D:
    """A copy of `doc` (a YAML Document, or a spreadsheet's SheetDocument) with each (path,
    text, context) replaced by what `lookup` gives; the document the loader cached is left as
    it was, and every value keeps its place in the source file."""
    data = _copied(doc.data)
    for path, text, context in paths:
        new = lookup(context, text, path)
        if new != text:
            _replace(data, path, new)
    out = copy.copy(doc)
    out.data = data
    return out


def _copied(value: Any) -> Any:
    """A deep copy of a document's values: what a YAML file or a sheet gives is dicts, lists
    and immutable scalars, none shared, which this copies at a third of copy.deepcopy's cost
    (its memo and dispatch); anything else goes to copy.deepcopy."""
    kind = type(value)
    if kind is dict:
        return {key: _copied(item) for key, item in value.items()}
    if kind is list:
        return [_copied(item) for item in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    return copy.deepcopy(value)


def pattern_paths(doc: Document, patterns: tuple[Pattern, ...]) -> list[tuple[Path_, str, str | None]]:
    """What a translation replaces in a document: the strings of the applied patterns."""
    return [(path, text, None) for pattern in patterns if pattern.applied
            for path, text in walk(doc.data, pattern.path) if has_words(text)]


def card_paths(doc: DocLike, spec: GameSpec) -> list[tuple[Path_, str, str | None]]:
    out: list[tuple[Path_, str, str | None]] = []
    data = doc.data
    cards = data.get("cards") if isinstance(data, dict) else None
    for i, raw in enumerate(cards if isinstance(cards, list) else []):
        if isinstance(raw, dict) and isinstance(raw.get("id"), str):
            out += [(("cards", i) + path, text, None) for path, text in card_word_paths(raw, spec)]
    return out

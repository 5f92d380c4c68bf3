"""Plain-text deck lists, both ways: the text players paste into chats and forums.

A deck list is a build written for people (the format is described in docs/decklist.md):

    # The Ashen Behemoth
    Pack: boss_fight
    Side: boss
    Points limit: 100

    ## The Ashen Behemoth
    Pieces:
    Titan Arm
      + Bone Cleaver
    Abilities:
    Blood Frenzy
    Deck (30):
    3x Lumbering Stride

`parse_decklist` turns the text into a build document (the same dict a build YAML file
holds); `decklist_document` gives it with the line and column of every value, so the
validator's messages point into the text. `format_decklist` writes one from a build.
Section names come from the pack's side declarations, so nothing here knows a game.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from generator.core.errors import InputError, Location, Problem, did_you_mean, short_list
from generator.core.limits import MAX_NOTES, MAX_POINTS, NotANumber, whole_number
from generator.core.yamlio import Document
from generator.pack.buildshape import BuildDoc, base_entries, character_document, document_places
from generator.pack.model import Build, Card, Pack, SideSpec

Head = dict[str, tuple[Any, int, int]]  # a header line's key -> (its value, line, column)
HEADER_KEYS = {"name": "name", "pack": "pack", "side": "side", "points limit": "points_limit",
               "points": "points_limit", "limit": "points_limit", "notes": "notes"}
NO_LIMIT = ("none", "no limit", "unlimited")
_COUNT = re.compile(r"^(?:(\d{1,3})\s*[x×]?|[x×]\s*(\d{1,3}))\s+(\S.*)$", re.IGNORECASE)
_SUFFIX = re.compile(r"^(\S.*?)\s+\(?[x×]\s*(\d{1,3})\)?$", re.IGNORECASE)  # "Basic Attack x3"
_SECTION = re.compile(r"^([^:()]+?)\s*(?:\(\s*\d+\s*\))?\s*:\s*(.*)$")
_BULLET = re.compile(r"^[-*•]\s+")
MAX_LINES = 5000
MAX_LINE_CHARS = 300  # a card line is a count and a name; longer is not a deck list
# a heading or `Notes:` line may hold a quoted value (every character escaped, at worst)
MAX_QUOTED_LINE_CHARS = 12 + 6 * MAX_NOTES
MAX_GUESSES = 25  # did-you-mean is a fuzzy search: offer it for the first few unknown names only


@dataclass
class _Section:
    kind: str  # "base" | "equipment" | "abilities" | "deck"
    label: str


@dataclass
class _Char:
    name: str | None
    line: int
    column: int
    bases: list[list[Any]] = field(default_factory=list)  # [card id, line, col, [(equip id, line, col)]]
    equipment: list[tuple[str, int, int]] = field(default_factory=list)  # [(id, line, col)]
    abilities: list[tuple[str, int, int]] = field(default_factory=list)
    deck: dict[str, list[int]] = field(default_factory=dict)  # id -> [copies, line, col]
    sections: dict[str, tuple[int, int]] = field(default_factory=dict)  # section label -> (line, col) of its heading


# A name or the notes written as they are would not always read back the same: a line is read
# without the spaces at its ends, a line break ends it, a control character cannot be shown.
# Such a value is written as a JSON string instead (`## "  Grim\nTide "`), which reads back
# exactly; so is a value that starts with `"` itself. Everything else is written as it is.
# control characters, line breaks, bidirectional overrides and isolates (a name that turns its line around)
_UNSHOWN = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _quoted(text: object) -> str:
    """`text` as it goes on one line of a deck list: as it is when it reads back so, else quoted."""
    text = str(text)
    if text == text.strip() and not _UNSHOWN.search(text) and not text.startswith('"'):
        return text
    # json escapes the C0 controls, `"` and `\`; the C1 controls, the Unicode line breaks and the
    # bidirectional controls too:
    return _UNSHOWN.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(text, ensure_ascii=False))


def _unquoted(text: str) -> str:
    """A value as written on its line: a JSON string is read as one, anything else as it is."""
    if len(text) >= 2 and text.startswith('"') and text.endswith('"'):
        try:
            value = json.loads(text)
        except ValueError:
            return text
        if isinstance(value, str):
            return value
    return text


def _norm(text: str) -> str:
    return " ".join(str(text).casefold().split())


def _labels(pack: Pack, side: SideSpec) -> dict[str, str]:
    """Section label (normalised) -> kind, for one side: the build keys and the card type names."""
    types = pack.spec.card_types
    out: dict[str, str] = {}

    def add(kind: str, *names: str) -> None:
        for name in names:
            n = _norm(name.replace("_", " ").replace("-", " "))
            out.setdefault(n, kind)
            out.setdefault(n + "s", kind)
            out.setdefault(n + "es", kind)
            if n.endswith("y"):
                out.setdefault(n[:-1] + "ies", kind)

    base = side.base
    add("base", base.key, base.item_key or base.key, types[base.type].name if base.type in types else base.type)
    if side.equipment:
        add("equipment", "equipment", types[side.equipment.type].name if side.equipment.type in types else "equipment")
    if side.abilities:
        add("abilities", "abilities", "ability", *(types[t].name for t in side.abilities.types if t in types))
    if side.deck:
        add("deck", "deck", "action deck", *(types[t].name for t in side.deck.types if t in types))
    return out


def _section_label(side: SideSpec, kind: str) -> str:
    if kind == "base":
        return side.base.key.replace("_", " ").replace("-", " ").capitalize()
    return kind.capitalize()


class _Names:
    """Card lookup by name (any case and spacing) or by id, preferring the types a section takes."""

    def __init__(self, pack: Pack):
        self.pack = pack
        self.by_name: dict[str, list[Card]] = {}
        for card in pack.cards.values():
            self.by_name.setdefault(_norm(card.name), []).append(card)

    def find(self, text: str, types: tuple[str, ...]) -> str | None:
        if text in self.pack.cards:
            return text
        found = self.by_name.get(_norm(text), [])
        preferred = [c for c in found if c.type in types] or found
        return preferred[0].id if preferred else None

    def guess(self, text: str, types: tuple[str, ...]) -> str | None:
        cards = [c for c in self.pack.cards.values() if c.type in types] or list(self.pack.cards.values())
        names = {_norm(c.name): c.name for c in cards}
        guess = did_you_mean(_norm(text), names)
        if guess is None:
            guess_id = did_you_mean(text.lower(), [c.id for c in cards])
            return self.pack.cards[guess_id].name if guess_id else None
        return names[guess]


def _types_of(side: SideSpec, kind: str) -> tuple[str, ...]:
    if kind == "base":
        return (side.base.type,)
    if kind == "equipment":
        return (side.equipment.type,) if side.equipment else ()
    ref = side.abilities if kind == "abilities" else side.deck
    return ref.types if ref else ()


def _read_header(key: str, value: str, line: int, col: int, source: str, pack: Pack, head: Head,
                 problems: list[Problem]) -> None:
    where = Location(source, line, col)
    field_name = HEADER_KEYS[key]
    if field_name in ("name", "notes"):
        value = _unquoted(value)
    if field_name == "side":
        sides = pack.spec.sides
        match = [s for s, spec in sides.items() if _norm(value) in (_norm(s), _norm(spec.name))]
        if not match:
            guess = did_you_mean(value, list(sides) + [s.name for s in sides.values()])
            problems.append(Problem("decklist.side", f"unknown side `{value}`", where, found=value,
                                    expected=f"one of: {', '.join(sorted(sides)) or '(the pack declares no sides)'}",
                                    fix=f"did you mean `{guess}`?" if guess else None))
            return
        value = match[0]
    elif field_name == "points_limit":
        if _norm(value) in NO_LIMIT:  # `points_limit: none`: the players agreed to play without a limit
            head[field_name] = ("none", line, col)
            return
        try:  # the one parser of such numbers (core.limits): `²` or a 5,000-digit number is no limit
            number = whole_number(value, MAX_POINTS)
        except NotANumber:
            limits = pack.spec.points_limits
            named = [k for k in limits if _norm(k) == _norm(value)]
            if not named:
                guess = did_you_mean(value, limits)
                problems.append(Problem("decklist.points", f"`{value}` is not a points limit", where, found=value,
                                        expected=f"a number from 0 to {MAX_POINTS}, `none`, or one of: "
                                        f"{', '.join(sorted(limits))}" if limits
                                        else f"a number from 0 to {MAX_POINTS}, or `none`",
                                        fix=f"did you mean `{guess}`?" if guess else None))
                return
            value = named[0]
        else:
            head[field_name] = (number, line, col)
            return
    elif field_name == "notes" and "notes" in head:
        value = head["notes"][0] + "\n" + value
    head[field_name] = (value, line, col)


def _infer_side(pack: Pack, chars: list[_Char], used_labels: set[str], source: str, fallback: str | None = None) -> str:
    """The side whose sections the list uses (only one fits), else `fallback` (a form's
    choice), else an error asking for a `Side:` line."""
    sides = pack.spec.sides
    if len(sides) == 1:
        return next(iter(sides))
    fitting = [s for s, spec in sides.items() if used_labels and used_labels <= set(_labels(pack, spec))]
    if len(fitting) == 1:
        return fitting[0]
    if fallback is not None:
        return fallback
    raise InputError([Problem("decklist.side", "the deck list does not say which side it builds",
                              Location(source, 1, 1), expected=f"a line `Side: …` with one of: "
                              f"{', '.join(sorted(sides)) or '(the pack declares no sides)'}",
                              fix=f"add `Side: {sorted(sides)[0]}` at the top" if sides else
                              "this pack has no build sides, so it takes no deck lists")])


def decklist_document(text: str, pack: Pack, source: str = "<decklist>", side: str | None = None) -> Document:
    """The build a deck list describes, as a Document: `.data` is the build dict and every path
    into it has the line and column it came from. Unknown names raise InputError (all at once).
    `side`: the side to take when the text has no `Side:` line and its sections fit more than one
    side (a form's choice, say)."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise InputError([Problem("decklist.too-long", f"the deck list has {len(lines)} lines", Location(source),
                                  found=str(len(lines)), expected=f"at most {MAX_LINES} lines")])
    problems: list[Problem] = []
    head: Head = {}
    chars: list[_Char] = []
    # Lines are first split into header values, character headings, sections and card lines;
    # names are matched once the side (and so the section labels) is known.
    entries: list[tuple[int, str | None, int, int, str]] = []  # (char index, section label text | None, line, col, text)
    used_labels: set[str] = set()
    all_labels = {}
    for spec in pack.spec.sides.values():
        all_labels.update(_labels(pack, spec))
    current = None
    for number, raw in enumerate(lines, 1):
        stripped = raw.strip()
        col = len(raw) - len(raw.lstrip()) + 1
        quotable = stripped.startswith("#") or stripped[:6].casefold() == "notes:"
        if len(stripped) > (MAX_QUOTED_LINE_CHARS if quotable else MAX_LINE_CHARS):
            problems.append(Problem("decklist.line-too-long", f"line {number} has {len(stripped)} characters",
                                    Location(source, number, col), found=f"{stripped[:40]}…",
                                    expected=f"at most {MAX_LINE_CHARS} characters: a count and a card name"))
            continue
        if not stripped or stripped.startswith("//"):
            continue
        if stripped.startswith("##"):
            name = _unquoted(stripped[2:].strip())  # `## #1 Fan`: the name keeps its own `#`
            chars.append(_Char(name or None, number, col))
            current = None
            continue
        if stripped.startswith("#"):
            head["name"] = (_unquoted(stripped[1:].strip()), number,
                            col + 1 + len(stripped[1:]) - len(stripped[1:].lstrip()))
            continue
        section = _SECTION.match(stripped)
        if section and not stripped.startswith("+"):
            label = _norm(section.group(1))
            if label in HEADER_KEYS and label not in all_labels:
                if chars:
                    problems.append(Problem("decklist.key", f"`{section.group(1)}:` comes after a character heading",
                                            Location(source, number, col), found=stripped[:60],
                                            expected="header lines (Name, Pack, Side, Points limit, Notes) "
                                            "before the first `##` heading", fix="move the line to the top"))
                else:
                    _read_header(label, section.group(2).strip(), number, col + section.start(2), source, pack,
                                 head, problems)
                continue
            if label in all_labels:
                used_labels.add(label)
                if not chars:
                    chars.append(_Char(None, number, col))
                current = label
                chars[-1].sections.setdefault(label, (number, col))
                rest = section.group(2).strip()
                if rest:
                    entries.append((len(chars) - 1, current, number, col + section.start(2), rest))
                continue
            if not chars or not section.group(2).strip():  # `Key: value` at the top, or `Section:`
                keys = sorted(set(HEADER_KEYS) | set(all_labels))
                guess = did_you_mean(label, keys)
                problems.append(Problem("decklist.key", f"unknown heading `{section.group(1)}`",
                                        Location(source, number, col), found=section.group(1),
                                        expected="Name, Pack, Side, Points limit, Notes, or a section such as "
                                        + ", ".join(sorted({_section_label(s, k) for s in pack.spec.sides.values()
                                                            for k in ("base", "deck")})),
                                        fix=f"did you mean `{guess}`?" if guess else None))
                continue
        if not chars:
            chars.append(_Char(None, number, col))
        bullet = _BULLET.match(stripped)
        cut = bullet.end() if bullet else 0
        entries.append((len(chars) - 1, current, number, col + cut, stripped[cut:]))
    if problems:
        raise InputError(problems)
    if "side" in head:
        side_id = head["side"][0]
    else:  # the sections the list uses say which side; failing that, the side the caller chose
        if side is not None and side not in pack.spec.sides:
            raise InputError([Problem("decklist.side", f"unknown side `{side}`", Location(source), found=str(side),
                                      expected=f"one of: {', '.join(sorted(pack.spec.sides)) or '(none)'}")])
        side_id = _infer_side(pack, chars, used_labels, source, side)
    side_spec = pack.spec.sides[side_id]
    labels = _labels(pack, side_spec)
    names = _Names(pack)
    for ci, heading, number, col, item in entries:
        _add_entry(chars[ci], heading, labels, side_spec, names, number, col, item, source, problems)
    if problems:
        raise InputError(problems)
    return _document(pack, side_id, side_spec, labels, head, chars, source)


def _add_entry(char: _Char, label: str | None, labels: dict[str, str], side: SideSpec, names: _Names, number: int, col: int,
               item: str, source: str, problems: list[Problem]) -> None:
    where = Location(source, number, col)
    attach = item.startswith("+")
    if attach:
        item = item[1:].strip()
        col += 1
    if label is None:
        kind = "deck" if side.deck else "base"
    elif label in labels:
        kind = labels[label]
    else:
        problems.append(Problem("decklist.section", f"the {side.name} side has no section `{label}`", where,
                                found=label, expected=", ".join(sorted({_section_label(side, k) for k in labels.values()})),
                                fix="check the `Side:` line, or rename the section"))
        return
    if attach:
        if kind != "base" or not (side.equipment and side.equipment.attach == "base"):
            problems.append(Problem("decklist.attach", "a `+` line attaches equipment to the card above it, "
                                    f"which only a {side.name} {_section_label(side, 'base').lower()} takes", where,
                                    found=f"+ {item}", expected="a card line without `+`",
                                    fix="remove the `+`, or put the line under the card it is fixed to"))
            return
        if not char.bases:
            problems.append(Problem("decklist.attach", "equipment with `+` before any card to attach it to", where,
                                    found=f"+ {item}", expected=f"a {_section_label(side, 'base')} line first"))
            return
    count, name = 1, item
    if _norm(item) not in names.by_name and item not in names.pack.cards:  # "7 Leagues" may be a name
        m = _COUNT.match(item)
        if m:
            count, name = int(m.group(1) or m.group(2)), m.group(3).strip()
            col += m.start(3)
        elif (suffix := _SUFFIX.match(item)) is not None:
            count, name = int(suffix.group(2)), suffix.group(1).strip()
    types = _types_of(side, "equipment" if attach else kind)
    card_id = names.find(name, types)
    if card_id is None:
        unknown = sum(p.code == "decklist.unknown-card" for p in problems)
        guess = names.guess(name, types) if unknown < MAX_GUESSES else None
        problems.append(Problem("decklist.unknown-card", f"no card named `{name}` in {names.pack.spec.name}",
                                Location(source, number, col), found=name,
                                expected="a card name or id (`pnp list` shows them all)",
                                fix=f"did you mean `{guess}`?" if guess else None))
        return
    if attach:
        char.bases[-1][3].extend([(card_id, number, col)] * count)
    elif kind == "deck":
        entry = char.deck.setdefault(card_id, [0, number, col])
        entry[0] += count
    elif kind == "base":
        for _ in range(count):
            char.bases.append([card_id, number, col, []])
    else:
        getattr(char, kind).extend([(card_id, number, col)] * count)


def _document(pack: Pack, side_id: str, side: SideSpec, labels: dict[str, str], head: Head, chars: list[_Char],
              source: str) -> Document:
    doc = Document(source, None)
    pos, keys = doc.positions, doc.key_positions
    data: BuildDoc = {"pack": head["pack"][0] if "pack" in head else pack.spec.id}
    if "pack" in head:
        pos[("pack",)] = head["pack"][1:]
    title = head.get("name") or ((chars[0].name, chars[0].line, chars[0].column) if chars else None)
    data["name"] = (title[0] if title and title[0] else Path(source).stem or "Deck list")
    if title:
        pos[("name",)] = keys[("name",)] = title[1:]
    data["side"] = side_id
    if "side" in head:
        pos[("side",)] = head["side"][1:]
    if "points_limit" in head:
        data["points_limit"] = head["points_limit"][0]
        pos[("points_limit",)] = keys[("points_limit",)] = head["points_limit"][1:]
    if "notes" in head:
        data["notes"] = head["notes"][0]
    base = side.base
    out_chars = []
    for ci, char in enumerate(chars):
        cpath = ("characters", ci)
        pos[cpath] = (char.line, char.column)
        name = char.name if char.name is not None and not (not base.many and len(char.bases) == 1
                                                           and pack.cards[char.bases[0][0]].name == char.name) else None
        if not base.many and len(char.bases) != 1:
            raise InputError([Problem("decklist.base", f"{char.name or f'character {ci + 1}'} has "
                                      f"{len(char.bases)} {_section_label(side, 'base')} cards; it takes exactly one",
                                      Location(source, char.line, char.column), found=str(len(char.bases)),
                                      expected=f"one `{_section_label(side, 'base')}:` line",
                                      fix=f"add a line `{_section_label(side, 'base')}: <card name>`" if not char.bases
                                      else "start each character with its own `## Name` heading")])
        bases = ([(card_id, [e[0] for e in equipment]) for card_id, _, _, equipment in char.bases] if base.many
                 else char.bases[0][0])
        out = character_document(side, name, bases, [e[0] for e in char.equipment], [a[0] for a in char.abilities],
                                 {card_id: n for card_id, (n, _, _) in char.deck.items()}, empty_base_equipment=True)
        # where each card was written, in the same table order as the document's places
        written = []
        for _card, line, col, equipment in char.bases:
            written.append((line, col))
            written.extend((eline, ecol) for _equip, eline, ecol in equipment)
        written += [(line, col) for _card, line, col in char.equipment + char.abilities]
        written += [(line, col) for _copies, line, col in char.deck.values()]
        for place, at in zip(document_places(side, out), written):
            path = cpath + place.path
            pos[path] = at
            if place.place == "base" and base.many:
                pos[path[:-1]] = at  # the entry `{card: id}` as well as its id
            elif place.place == "deck":
                keys[path] = at
        if side.deck:
            heading = [at for label, at in char.sections.items() if labels.get(label) == "deck"]
            first = min(((v[1], v[2]) for v in char.deck.values()), default=(char.line, char.column))  # (line, col)
            keys[cpath + ("deck",)] = pos[cpath + ("deck",)] = heading[0] if heading else first
        out_chars.append(out)
    data["characters"] = out_chars
    doc.data = data
    return doc


def parse_decklist(text: str, pack: Pack, source: str = "<decklist>", side: str | None = None) -> BuildDoc:
    """The build document (the dict a build YAML file holds) that a deck list describes;
    `side` is taken when the text names none."""
    return cast(BuildDoc, decklist_document(text, pack, source, side).data)  # the build dict _document made


# ---- writing ---------------------------------------------------------------------------------


def build_to_document(build: Build, pack: Pack) -> BuildDoc:
    """A loaded Build back as a build document (character names the pack would give anyway are left out)."""
    side = pack.spec.sides[build.side]
    base = side.base
    doc: BuildDoc = {"pack": build.pack or pack.spec.id, "name": build.name, "side": build.side}
    if getattr(build, "unlimited", False):
        doc["points_limit"] = "none"
    elif build.points_limit is not None:
        doc["points_limit"] = build.points_limit
    if getattr(build, "notes", None):
        doc["notes"] = build.notes
    chars = []
    for ci, char in enumerate(build.characters):
        default = (pack.cards[char.bases[0].card.id].name if not base.many and char.bases
                   and char.bases[0].card.id in pack.cards else f"character {ci + 1}")
        bases = ([(b.card.id, [e.id for e in b.equipment]) for b in char.bases] if base.many
                 else char.bases[0].card.id)
        chars.append(character_document(side, char.name if char.name != default else None, bases,
                                        [e.id for e in char.equipment], [a.id for a in char.abilities],
                                        {d.card.id: d.copies for d in char.deck}))
    doc["characters"] = chars
    return doc


def _card_name(pack: Pack, card_id: str, names: dict[str, list[str]]) -> str:
    """The card's name, or its id where the name would not read back as this card."""
    card = pack.cards.get(card_id)
    if card is None or len(names.get(_norm(card.name), ())) > 1 or _COUNT.match(card.name) or _SUFFIX.match(card.name) \
            or card.name.startswith(("+", "#", "//", "-", "*")) or _SECTION.match(card.name):
        return card_id
    return card.name


def format_decklist(build: Build | BuildDoc, pack: Pack) -> str:
    """The deck list of a build: a Build as loaded, or a build document (dict)."""
    doc = build_to_document(build, pack) if isinstance(build, Build) else build
    side_id = doc.get("side")
    if side_id not in pack.spec.sides:
        raise InputError([Problem("decklist.side", f"the build names the unknown side `{side_id}`",
                                  Location("<build>"), found=str(side_id),
                                  expected=f"one of: {short_list(sorted(pack.spec.sides))}")])
    side = pack.spec.sides[side_id]
    base = side.base
    names: dict[str, list[str]] = {}
    for card in pack.cards.values():
        names.setdefault(_norm(card.name), []).append(card.id)

    def name(card_id: str) -> str:
        return _card_name(pack, card_id, names)

    lines = [f"# {_quoted(doc.get('name', ''))}".rstrip(), f"Pack: {doc.get('pack') or pack.spec.id}",
             f"Side: {side_id}"]
    limit = doc.get("points_limit")
    if limit is not None:
        lines.append(f"Points limit: {limit}")
    notes = str(doc.get("notes") or "")
    if notes:  # a line each while they read back so, else all of them as one quoted value
        plain = notes.split("\n")
        if all(note and _quoted(note) == note for note in plain):
            lines.extend(f"Notes: {note}" for note in plain)
        else:
            lines.append(f"Notes: {_quoted(notes)}")
    for char in doc.get("characters") or []:
        lines.append("")
        bases = char.get(base.key)
        if char.get("name"):
            title = _quoted(char["name"])
        elif not base.many and isinstance(bases, str) and bases in pack.cards:
            title = _quoted(pack.cards[bases].name)
        else:
            title = ""
        lines.append(f"## {title}".rstrip())
        label = _section_label(side, "base")
        if base.many:
            lines.append(f"{label}:")
            for card_id, equipment in base_entries(side, bases):
                lines.append(name(card_id))
                lines.extend(f"  + {name(equip)}" for equip in equipment)
        elif bases is not None:
            lines.append(f"{label}: {name(bases)}")
        for part in ("equipment", "abilities"):
            items = char.get(part) or []
            if items:
                lines.append(f"{part.capitalize()}:")
                lines.extend(name(i) for i in items)
        deck = char.get("deck") or {}
        if deck:
            lines.append(f"Deck ({sum(deck.values())}):")
            lines.extend(f"{n}x {name(card_id)}" for card_id, n in deck.items())
    return "\n".join(lines) + "\n"


def declared_pack(text: str) -> str | None:
    """The `Pack:` header line of a deck list, if it has one (to find the pack it belongs to)."""
    for raw in text.splitlines():
        stripped = raw.strip()
        if stripped.startswith("##"):
            return None
        m = _SECTION.match(stripped)
        if m and _norm(m.group(1)) == "pack":
            return m.group(2).strip() or None
    return None

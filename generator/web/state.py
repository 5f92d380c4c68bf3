"""The build a page is editing, as a build document (the dict a build YAML file holds).

The server keeps no session: the page sends its build document with every change and gets
the changed document back. Everything here works from the pack's side declarations
(`sides:` in game.yaml), so no game is named: a side's base card(s), equipment attached to
a base card or to the character, abilities and an action deck.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from generator.core.errors import InputError, Location, Problem, hint
from generator.core.limits import (MAX_COPIES, MAX_NOTES, MAX_PAGE_NAME, MAX_POINTS, MAX_SHARED_CHARACTERS, NotANumber,
                                   whole_number)
from generator.pack.buildshape import character_document, document_places
from generator.pack.load import build_from_document
from generator.pack.model import Build, Pack
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn, build_models
from generator.rules.decided import decided_deck
from generator.rules.params import parameter
from generator.share.codes import dump_build
from generator.core.yamlio import Document, parse_yaml
from generator.web.words import pgettext

WHERE = "the build in the page"
NO_LIMIT = "none"  # the `points_limit: none` of packs that allow a game without a limit


def _bad(message: str, field: str, found=None, expected=None, fix=None) -> InputError:
    return InputError([Problem("web.build", message, Location(WHERE), found=None if found is None else str(found)[:80],
                               expected=expected, fix=fix or f"check the field `{field}`")])


def _name(value, field: str) -> str:
    """A name as the page holds it while it is edited: longer than a build file takes (the
    validator says so), still bounded (core/limits.py)."""
    if not isinstance(value, str) or len(value) > MAX_PAGE_NAME:
        raise _bad(f"`{field}` must be text of at most {MAX_PAGE_NAME} characters", field, value, "text")
    return value


def side_of(pack: Pack, doc: dict):
    return pack.spec.sides[doc["side"]]


# what the pack's build models refuse but the editor still holds, to show by the validator's
# message: a key not filled in yet, a name too long (the page takes up to MAX_PAGE_NAME)
def _shown_later(error: Mapping[str, Any]) -> bool:
    return error["type"] == "missing" or (error["type"] in ("string_too_long", "string_too_short")
                                          and error["loc"][-1:] == ("name",))


def _shape(data: dict, pack: Pack, side_id: str, strict: bool) -> None:
    """Check the document's keys and types with the pack's own build model of the side (the
    one `pnp validate` loads build files with): a wrong type is a 422 naming the field. In
    the editor (not `strict`) a name too long or empty or a key still to be filled in is let
    through: the page shows it as the validator reports it. The model bounds every list, id and
    the notes (core/limits.py)."""
    model = build_models(pack.spec)[side_id]
    try:
        model.model_validate(data)
    except ValidationError as exc:
        if strict or not all(_shown_later(e) for e in exc.errors()):
            raise InputError(problems_from(exc, Document(WHERE, data), (), "the build", allowed_keys_fn(model))) \
                from None


def clean_document(data, pack: Pack, strict: bool = False) -> dict:
    """A build document sent by a page, checked for shape (keys, types and sizes by the pack's
    build model, `_shape`) before it goes anywhere near YAML, and put in the editor's form
    (every place of the side present, base cards as entries: `character_document`); card ids
    and rules are left to the loader and the validator. `strict` (the API): `name` and
    `characters` must be there, as in a build file."""
    if not isinstance(data, dict):
        raise _bad("the build must be an object", "build", type(data).__name__, "an object with name, side, characters")
    for key in ("name", "characters") if strict else ():
        if key not in data:
            raise InputError([Problem("schema.missing", f"the build has no `{key}`", Location(WHERE),
                                      expected="pack, name, side, characters", fix=f"add `{key}`")])
    side_id = data.get("side")
    if not isinstance(side_id, str) or side_id not in pack.spec.sides:
        raise _bad(f"unknown side `{side_id}`" if isinstance(side_id, str) else "`side` must be the id of a side",
                   "side", side_id, "one of: " + ", ".join(pack.spec.sides))
    _shape(data, pack, side_id, strict)
    side = pack.spec.sides[side_id]
    doc: dict = {"pack": pack.spec.id, "name": _name(data.get("name") or "Unnamed build", "name").strip() or "Unnamed build",
                 "side": side_id}
    if data.get("points_limit") is not None:
        doc["points_limit"] = data["points_limit"]
    if data.get("notes"):
        doc["notes"] = data["notes"]
    if data.get("max_characters") is not None:
        doc["max_characters"] = data["max_characters"]
    chars = data.get("characters") or []
    if len(chars) > MAX_SHARED_CHARACTERS:
        raise _bad("`characters` must be a list", "characters", expected=f"at most {MAX_SHARED_CHARACTERS} characters")
    doc["characters"] = []
    for i, raw in enumerate(chars):
        name = _name(raw["name"], f"characters[{i}].name") if raw.get("name") else None
        entries: list[tuple[str, list[str]]] = []  # a side with many base cards: (card, its equipment) each
        one: str | None = None  # a side with one: that card, if chosen
        equipment: list[str] = []
        abilities: list[str] = []
        deck: dict[str, int] = {}
        for place in document_places(side, raw):  # the one reading of a character's places
            if place.place == "base":
                if side.base.many:
                    entries.append((place.card, []))
                else:
                    one = place.card
            elif place.base is not None:
                entries[place.base][1].append(place.card)
            elif place.place == "deck":
                deck[place.card] = place.copies
            else:
                (equipment if place.place == "equipment" else abilities).append(place.card)
        bases = entries if side.base.many else one
        doc["characters"].append(character_document(side, name, bases, equipment, abilities, deck,
                                                    empty_base_equipment=True))
    return doc


def to_yaml(doc: dict) -> str:
    """The build file text: the same writer `pnp unshare` uses, so `pnp validate` reads it."""
    out = dict(doc)
    out["characters"] = [_for_file(c) for c in doc["characters"]]
    return dump_build(out)


def _for_file(char: dict) -> dict:
    out = {}
    for key, value in char.items():
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = [{k: v for k, v in item.items() if not (k == "equipment" and not v)} for item in value]
        out[key] = value
    return out


def to_build(doc: dict, pack: Pack, file: str = WHERE) -> Build:
    """Load a build document as `pnp validate` loads a file (raises InputError for a broken one).
    The document is handed to the loader as parsed data, not written out as YAML and read
    back: the same values reach the same loader, only without line numbers (a page or a JSON
    body has none worth showing), and a validation costs a fraction of a round trip."""
    return build_from_document(Document(file, doc), pack)


def document_from_yaml(text: str, pack: Pack, file: str) -> dict:
    """A build file's text (an upload) as a build document, checked by the loader first."""
    parsed = parse_yaml(text, file)
    build_from_document(parsed, pack)
    return clean_document(parsed.data, pack)


def new_document(pack: Pack, side_id: str, name: str | None = None) -> dict:
    side = pack.spec.sides[side_id]
    # the name as one phrase of its own (not the "New {side}" button's), so a language whose words
    # agree with the side's gender (German: "Neue Heldengruppe", "Neuer Boss") can say it naturally
    named = name or str(pgettext("the name of a new build", "New {side}")).format(side=side.name)
    doc: dict[str, Any] = {"pack": pack.spec.id, "name": named, "side": side_id, "characters": []}
    if side.base.many:  # a character made of several base cards can start empty
        doc["characters"].append({"name": doc["name"], **empty_character(pack, side_id)})
    return doc


def empty_character(pack: Pack, side_id: str, base_card: str | None = None) -> dict:
    side = pack.spec.sides[side_id]
    char: dict = {}
    if side.base.many:
        char[side.base.key] = [] if base_card is None else [{side.base.item_key or "card": base_card}]
    else:
        char[side.base.key] = base_card
    if side.equipment and side.equipment.attach == "character":
        char["equipment"] = []
    if side.abilities:
        char["abilities"] = []
    if side.deck:
        char["deck"] = {}
    return char


# ---- where a card goes -----------------------------------------------------------------------


def place_of(pack: Pack, side_id: str, type_id: str) -> str | None:
    """Which place of a character of this side takes cards of this type."""
    side = pack.spec.sides[side_id]
    if side.base.type == type_id:
        return "base"
    if side.equipment and side.equipment.type == type_id:
        return "equipment"
    if side.abilities and type_id in side.abilities.types:
        return "abilities"
    if side.deck and type_id in side.deck.types:
        return "deck"
    return None


def side_cards(pack: Pack, side_id: str) -> list:
    """The cards a side may use (its sets, the types it has a place for), in pack order."""
    side = pack.spec.sides[side_id]
    return [c for c in pack.cards.values() if c.set in side.sets and place_of(pack, side_id, c.type)]


def has_room(side, chars: list) -> bool:
    """Whether the side takes one more character."""
    most = side.characters.max if side.characters.max is not None else MAX_SHARED_CHARACTERS
    return len(chars) < min(most, MAX_SHARED_CHARACTERS)


def owner_of(pack: Pack, card) -> str | None:
    """The card id a card belongs to, by the pack's `owner` rule (a boss's own cards), or None."""
    for rule in pack.spec.rules:
        if rule.check == "owner":
            owner_id = card.fields.get(parameter(rule, "field"))
            if isinstance(owner_id, str) and owner_id:
                return owner_id
    return None


def owner_character(pack: Pack, doc: dict, card_id: str) -> int | None:
    """The one character of the build whose base cards include the owner of this card."""
    card = pack.cards.get(card_id or "")
    owner_id = owner_of(pack, card) if card is not None else None
    if owner_id is None:
        return None
    base = side_of(pack, doc).base
    found = [i for i, c in enumerate(doc["characters"])
             if owner_id in _base_ids(c, base)]
    return found[0] if len(found) == 1 else None


def _base_ids(char: dict, base) -> list[str | None]:
    value = char.get(base.key)
    if isinstance(value, list):
        return [e.get(base.item_key or "card") for e in value if isinstance(e, dict)]
    return [value] if isinstance(value, str) else []


def blocked(pack: Pack, doc: dict, target_char: int | None, target_piece: int | None) -> dict[str, str]:
    """For each place of the side, why a card cannot be added there now, in the player's
    words ("add a hero first"), or "" where it can. The page disables those buttons, so no
    click asks for a change the build cannot take."""
    side = side_of(pack, doc)
    base = side.base
    chars = doc["characters"]
    base_name = pack.spec.card_types[base.type].name.lower()
    first = f"add {_a(base_name)} {base_name} first"
    out = {"base": "", "equipment": "", "abilities": "", "deck": ""}
    if not base.many and not has_room(side, chars) and (side.characters.max or 0) > 1:
        out["base"] = (f"the {side.name.lower()} has {len(chars)} {side.character_word(len(chars))}: "
                       f"remove one to add another")
    if not chars:
        out.update(equipment=first, abilities=first, deck=first)
    if side.equipment and side.equipment.attach == "base":
        char = chars[target_char] if target_char is not None and 0 <= target_char < len(chars) else None
        if char is None or not char.get(base.key):
            out["equipment"] = first
    return out


def _a(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


# ---- changes -------------------------------------------------------------------------------


@dataclass
class Op:
    op: str
    char: int | None = None
    card: str | None = None
    piece: int | None = None
    index: int | None = None
    delta: int = 1
    place: str | None = None
    value: str | None = None


OpName = Literal["view", "add", "remove", "deck", "add_char", "remove_char", "rename_char", "set_name", "set_limit",
                 "move_char", "set_notes", "fill_deck"]
OPS: tuple[str, ...] = get_args(OpName)


def _whole(value):
    """The page sends numbers, or the text of a form field: "" is none; true/false are not numbers."""
    if value == "":
        return None
    if isinstance(value, bool):
        raise ValueError("a whole number, not true or false")
    return value


Whole = Annotated[Annotated[int, Field(ge=-100_000, le=100_000)] | None, BeforeValidator(_whole)]
Text = Annotated[str | None, Field(max_length=MAX_PAGE_NAME)]


class OpIn(BaseModel):
    """A change as the page sends it: whole numbers (or their text), short texts; nothing else."""
    model_config = ConfigDict(extra="ignore", coerce_numbers_to_str=True)
    op: OpName
    char: Whole = None
    card: Text = None
    piece: Whole = None
    index: Whole = None
    delta: Whole = None
    place: Text = None
    value: Annotated[str | None, Field(max_length=MAX_NOTES)] = None  # set_notes takes MAX_NOTES, others MAX_PAGE_NAME


def parse_op(data) -> Op:
    if not isinstance(data, dict) or data.get("op") not in OPS:
        found = data.get("op") if isinstance(data, dict) else data
        raise _bad("unknown change", "op", found, ", ".join(OPS))
    try:
        valid = OpIn.model_validate(data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, Document("the change sent by the page", data), (), "the change")) \
            from None
    most = MAX_NOTES if valid.op == "set_notes" else MAX_PAGE_NAME
    if valid.value is not None and len(valid.value) > most:
        raise _bad(f"`value` must be text of at most {most} characters", "value", valid.value, "text")
    value = valid.value
    return Op(valid.op, valid.char, valid.card, valid.piece, valid.index, valid.delta or 1, valid.place, value)


def apply_op(doc: dict, op: Op, pack: Pack, cleaned: bool = False) -> dict:
    """The build document after one change made in the page. `cleaned`: `doc` is already
    clean_document's answer (the editor's route, a fix tried), so it is copied, not checked again."""
    doc = _copied(doc) if cleaned else clean_document(doc, pack)
    side = side_of(pack, doc)
    base = side.base
    chars = doc["characters"]

    def index_of(index: int | None) -> int:
        if index is None or not 0 <= index < len(chars):
            raise _bad("no such character in the build", "char", index, f"0 to {len(chars) - 1}")
        return index

    def char_at(index: int | None) -> dict:
        return chars[index_of(index)]

    if op.op == "set_notes":
        notes = (op.value or "").replace("\r\n", "\n").strip()
        if notes:
            doc["notes"] = notes
        else:
            doc.pop("notes", None)
    elif op.op == "set_name":
        doc["name"] = (op.value or "").strip()[:MAX_PAGE_NAME] or doc["name"]
    elif op.op == "set_limit":
        value = (op.value or "").strip()
        if value == "":
            doc.pop("points_limit", None)
        else:
            try:  # a number, by the one parser of such numbers (core.limits), else a named limit
                doc["points_limit"] = whole_number(value, MAX_POINTS)
            except NotANumber as exc:
                if value not in pack.spec.points_limits and value != NO_LIMIT:
                    raise _bad(f"unknown points limit `{value}`", "points_limit", value,
                               f"{exc.expected}, " + ", ".join(pack.spec.points_limits)
                               + " or empty for the pack default") from None
                doc["points_limit"] = value
    elif op.op == "add_char":
        if len(chars) >= MAX_SHARED_CHARACTERS:
            raise _bad("too many characters", "characters")
        if base.many:
            chars.append(empty_character(pack, doc["side"]))
        else:
            card = _card(pack, op.card, doc["side"], "base")
            chars.append(empty_character(pack, doc["side"], card))
    elif op.op == "remove_char":
        char_at(op.char)
        del chars[op.char]
    elif op.op == "move_char":
        i = index_of(op.char)
        j = i + op.delta
        if 0 <= j < len(chars):
            chars[i], chars[j] = chars[j], chars[i]
    elif op.op == "rename_char":
        char = char_at(op.char)
        name = (op.value or "").strip()[:MAX_PAGE_NAME]
        if name:
            char["name"] = name
        else:
            char.pop("name", None)
    elif op.op == "add":
        _add(doc, op, pack, chars, char_at)
    elif op.op == "remove":
        _remove(op, side, char_at)
    elif op.op == "fill_deck":  # the one legal deck its base card leaves (rules/decided.py)
        char = char_at(op.char)
        base_card = char.get(base.key)
        decided = decided_deck(pack, doc["side"], base_card) if isinstance(base_card, str) else None
        if decided is None:
            raise _bad("this character's deck is not decided by its choice", "op", op.char,
                       fix="add the deck's cards from the list")
        char["deck"] = dict(decided.deck)
    elif op.op == "deck":
        char = char_at(op.char)
        if not side.deck:
            raise _bad(f"a {side.name} character has no deck", "op")
        deck = char.setdefault("deck", {})
        card = op.card or ""
        count = deck.get(card, 0) + op.delta
        if count <= 0:
            deck.pop(card, None)
        else:
            if card not in deck:
                _card(pack, card, doc["side"], "deck")
            deck[card] = min(count, MAX_COPIES)
    if cleaned and op.op in _KEEP_CLEAN:
        return doc
    return clean_document(doc, pack)


# Changes that leave a clean document clean (they take a card or a character out, count a deck
# card up or down, reorder characters): no second pass through clean_document, which is what
# a fix tried several times a click would spend most on. A test holds their answers to the
# checked ones (tests/test_web_fixes.py).
_KEEP_CLEAN = frozenset({"remove", "deck", "remove_char", "move_char"})


def _copied(value):
    """A copy of a clean document (dicts, lists and plain values) that a change can alter."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value


def _card(pack: Pack, card_id, side_id: str, place: str | None) -> str:
    card = pack.cards.get(card_id or "")
    if card is None:
        raise InputError([Problem("card.unknown", f"no card with the id `{card_id}` in {pack.spec.name}",
                                  Location(WHERE), found=str(card_id)[:80], expected="a card id of the pack",
                                  fix=hint(str(card_id), pack.cards))])
    if place is not None and place_of(pack, side_id, card.type) != place:
        raise _bad(f"{card.name} cannot go there", "card", card.id)
    return card.id


def _add(doc, op: Op, pack: Pack, chars, char_at) -> None:
    side = side_of(pack, doc)
    base = side.base
    card_id = _card(pack, op.card, doc["side"], None)
    place = place_of(pack, doc["side"], pack.cards[card_id].type)
    if place is None:
        raise _bad(f"{pack.cards[card_id].name} has no place in a {side.name} build", "card", card_id)
    if place == "base" and not base.many:
        if has_room(side, chars) or not chars:
            chars.append(empty_character(pack, doc["side"], card_id))  # a new character with this base card
            return
        if op.char is None or not 0 <= op.char < len(chars):
            op.char = len(chars) - 1  # the side is full: the card takes the place of the last one's
    if op.char is None and not chars and base.many:
        chars.append(empty_character(pack, doc["side"]))
        op.char = 0
    if op.char is None or not 0 <= op.char < len(chars):
        if not chars:
            base_name = pack.spec.card_types[base.type].name.lower()
            raise _bad(f"add {_a(base_name)} {base_name} first", "char", fix=f"add {_a(base_name)} {base_name} first")
        op.char = len(chars) - 1  # the last character added
    char = char_at(op.char)
    if place == "base":
        if base.many:
            char.setdefault(base.key, []).append({base.item_key or "card": card_id})
        else:
            char[base.key] = card_id
    elif place == "equipment":
        if side.equipment.attach == "base":
            items = char.get(base.key, [])
            if op.piece is None and items:
                op.piece = len(items) - 1  # the piece added last
            if op.piece is None or not 0 <= op.piece < len(items):
                raise _bad("choose the piece to attach the equipment to", "piece", op.piece,
                           "one of the character's base cards", fix="pick a piece under \"Attach to\"")
            items[op.piece].setdefault("equipment", []).append(card_id)
        else:
            char.setdefault("equipment", []).append(card_id)
    elif place == "abilities":
        char.setdefault("abilities", []).append(card_id)
    else:
        deck = char.setdefault("deck", {})
        deck[card_id] = min(deck.get(card_id, 0) + 1, MAX_COPIES)


def _remove(op: Op, side, char_at) -> None:
    char = char_at(op.char)
    base = side.base

    def drop(items, index, what):
        if not isinstance(items, list) or index is None or not 0 <= index < len(items):
            raise _bad(f"no such {what} to remove", "index", index)
        del items[index]

    if op.place == "base" and base.many:
        drop(char.get(base.key), op.index, "base card")
    elif op.place == "equipment" and op.piece is not None and base.many and side.equipment \
            and side.equipment.attach == "base":
        items = char.get(base.key, [])
        if not 0 <= op.piece < len(items):
            raise _bad("no such piece", "piece", op.piece)
        drop(items[op.piece].get("equipment", []), op.index, "equipment")
    elif op.place in ("equipment", "abilities"):
        drop(char.get(op.place), op.index, op.place)
    else:
        raise _bad("unknown place to remove from", "place", op.place, "base, equipment, abilities")

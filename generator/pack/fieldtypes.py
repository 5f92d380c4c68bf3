"""Card field types as a registry: one small class per `type:` a card type's field may have.

Each class says everything the engine does with a value of its type:

- `annotation(spec, game)`: the pydantic annotation of the card model (generator.pack.schemas);
- `sheet_shape(game)`: how the value nests in spreadsheet columns (generator.pack.sheets),
  `sheet_text`: whether the column is kept as text in a written sheet, `sheet_pair`: whether a
  date in the cell was an `x/y` value the spreadsheet misread, `sheet_offered(name, game)`: the
  columns an exported sheet offers even when no card fills them;
- `list_columns(name, game)` and `list_values(pack, name, spec, value)`: its columns and values
  in `pnp list` (generator.pack.cardlist);
- `audit_features(pack, name, spec, value)`: what the points audit fits (generator.rules.audit);
- `rulebook_columns(pack, name, spec, get)`: its columns in the rulebook's Card List
  (generator.render.rulebook.reference);
- `page_text(pack, value)`: its text on the deck builder's card page and in the API.

`FIELD_KINDS` maps each name to its class. The names themselves are in
generator.pack.field_names (the model's `FieldType` reads them there); this module refuses to
import when a name has no class, a class has no name, or a class leaves out a method.

Classes here compose small mixins for what several types share, so a type is a few lines.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from functools import partial
from types import GenericAlias
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

from pydantic import Field, StringConstraints

from generator.pack.field_names import FIELD_TYPES
from generator.pack.fieldkind import BookColumn, FieldKind, missing_answers
from generator.pack.field_values import (ATTACK_KINDS, Attack, CostedAbility, Feat, Requirement, lit,
                                         patterned_text)
from generator.pack import page_words as words
from generator.pack.strict import CardId
from generator.pack.sheets.shape import BOOL, INT, RECORDS, REF, TEXT, Shape

if TYPE_CHECKING:
    from generator.pack.model import Card, FieldSpec, GameSpec, Pack

FIELD_KINDS: dict[str, type[FieldKind]] = {}


def register(cls: type[FieldKind]) -> type[FieldKind]:
    missing = missing_answers(cls)
    if missing or not cls.name:
        raise TypeError(f"field type {cls.__name__} ({cls.name or 'no name'}) leaves out {', '.join(missing) or '`name`'}; "
                        "every field type answers what generator.pack.fieldkind.FieldKind asks")
    if cls.name in FIELD_KINDS:
        raise TypeError(f"field type `{cls.name}` is registered twice")
    FIELD_KINDS[cls.name] = cls
    return cls


def registry_matches(names: Collection[str] = FIELD_TYPES, registered: Mapping[str, object] | None = None) -> None:
    """Raise at import when the registered classes and the declared names drift apart."""
    registered = FIELD_KINDS if registered is None else registered
    if set(names) != set(registered):
        raise RuntimeError(f"field types {sorted(registered)} differ from the names declared in "
                           f"generator.pack.field_names ({sorted(names)}); add the new name there")


# ---- words shared by the list, the rulebook and the pages ----------------------------------


def label(fname: str, fspec: FieldSpec) -> str:
    """A field's column heading: its `label`, or its name in words."""
    return fspec.label or fname.replace("_", " ").capitalize()


def stat_text(pack: Pack, stat_id: str, with_name: bool = True) -> str:
    """A stat as the rulebook writes it: its icon and name (or the icon alone)."""
    spec = pack.spec.stats.get(stat_id)
    if spec is None:
        return str(stat_id)
    icon = f":{spec.icon}: " if spec.icon else ""
    return f"{icon}{spec.name}" if with_name or not icon else icon.strip()


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "0"


def count_text(value: object) -> str:
    return str(value) if value else "–"


def requirement_text(pack: Pack, req: Mapping[str, Any]) -> str:
    """A requirement in `pnp list`: `strength ≥ 5`, `piece_type Head × 2`."""
    if req.get("stat"):
        return f"{req['stat']} ≥ {req.get('min', 1)}"
    count = req.get("min", 1)
    return f"{req['field']} {req['value']}" + (f" × {count}" if count != 1 else "")


def requirement_book_text(pack: Pack, req: Mapping[str, Any]) -> str:
    """A requirement in the rulebook: `:strength: Strength 5+`, `Head ×2`."""
    if req.get("stat"):
        return f"{stat_text(pack, req['stat'])} {req.get('min', 1)}+"
    count = req.get("min", 1)
    value = f"{req.get('value')}"
    if pack.translation is not None and req.get("field"):  # a choice value, in the pack's language
        value = pack.translation.pgettext(str(req["field"]), value)
    return value + (f" ×{count}" if count and count != 1 else "")


def attack_order(kind: str) -> int:
    return ATTACK_KINDS.index(kind) if kind in ATTACK_KINDS else len(ATTACK_KINDS)


# ---- mixins: what several types share ---------------------------------------------------


class _Plain:
    """Written as it is on a page; offered as one column in a sheet; a column of `pnp list`."""

    sheet_pair: ClassVar[bool] = False
    page_text = staticmethod(words.plain)  # generator.pack.page_words: never a Python value

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return [name]

    @staticmethod
    def list_columns(name: str, game: GameSpec) -> list[str]:
        return [name]


class _NoAudit:
    @staticmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: object) -> dict[str, float]:
        return {}


class _NoBook:
    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return []


class _ListsIfSet:
    """`pnp list` shows the value when it has one."""

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: object) -> dict[str, Any]:
        return {name: value} if value else {}


class _ListsIfNotNone:
    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: object) -> dict[str, Any]:
        return {name: value} if value is not None else {}


def _book_str(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], object]) -> list[BookColumn]:
    return [(label(name, spec), lambda c: "" if get(c) is None else str(get(c)))]


def _book_choice(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], object]) -> list[BookColumn]:
    """A choice value as its card says it: the data keeps `Might`, a German Card List says `Kraft`."""
    translation = pack.translation

    def cell(c: Card) -> str:
        value = get(c)
        if value is None:
            return ""
        return translation.pgettext(name, str(value)) if translation is not None else str(value)
    return [(label(name, spec), cell)]


# ---- the types ---------------------------------------------------------------------------


@register
class IntField(_Plain, _ListsIfNotNone, FieldKind):
    name = "int"
    sheet_text = False

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return Annotated[int, Field(ge=spec.min if spec.min is not None else -9999,
                                    le=spec.max if spec.max is not None else 9999)]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return INT

    @staticmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: int | None) -> dict[str, float]:
        if spec.default is None and not spec.required and value is None:
            return {}  # an optional override (deck_limit): not a statistic of the card
        return {name: float(value or 0)}

    rulebook_columns = staticmethod(_book_str)


@register
class TextField(_Plain, _NoAudit, _NoBook, FieldKind):
    name = "text"
    sheet_text = True

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        if spec.pattern:
            return patterned_text(spec.pattern, spec.pattern_help)
        return Annotated[str, Field(max_length=2000)]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return TEXT

    @staticmethod
    def list_columns(name: str, game: GameSpec) -> list[str]:
        return []  # prose: no column of its own (a patterned value still shows, after the known ones)

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: str | None) -> dict[str, Any]:
        # short coded text (`B2`, `3x3`) is a statistic; free text is prose, left out
        return {name: value} if spec.pattern and value else {}


@register
class ChoiceField(_Plain, _ListsIfNotNone, _NoAudit, FieldKind):
    name = "choice"
    sheet_text = False

    @staticmethod
    def sheet_choices(spec: FieldSpec) -> list[str] | None:
        return list(spec.choices) if spec.choices else None

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return lit(spec.choices or [])

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return TEXT

    rulebook_columns = staticmethod(_book_choice)

    @staticmethod
    def page_text(pack: Pack, value: Any) -> str:
        """The value as the card says it: through the translation, by the choice field that offers it."""
        text = words.plain(pack, value)
        if pack.translation is None or not isinstance(value, str):
            return text
        field = next((name for t in pack.spec.card_types.values() for name, f in t.fields.items()
                      if f.type == "choice" and value in (f.choices or [])), None)
        return pack.translation.pgettext(field, value) if field else text


@register
class StatsField(FieldKind):
    """A value per stat of the pack: `stats` (the card's own) or a bonus such as `bonus`."""

    name = "stats"
    sheet_text = False
    sheet_pair = False
    holds_stats = True

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return GenericAlias(dict, (lit(sorted(game.stats)), Annotated[int, Field(ge=-99, le=999)]))  # dict[stat, int]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(keys=tuple(game.stats), mapping=True, child=INT)

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return [f"{name}.{stat}" for stat in game.stats] if len(game.stats) <= 8 else []

    @staticmethod
    def list_columns(name: str, game: GameSpec) -> list[str]:
        return list(game.stats) if name == "stats" else [f"{name}_{s}" for s in game.stats]

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: dict[str, int] | None) -> dict[str, Any]:
        value = value or {}
        if name == "stats":
            return {stat: value.get(stat, 0) for stat in pack.spec.stats}
        return {f"{name}_{stat}": value[stat] for stat in pack.spec.stats if stat in value}

    @staticmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: dict[str, int] | None) -> dict[str, float]:
        combat = {s for s, sspec in pack.spec.stats.items() if sspec.combat}
        value = value or {}
        prefix = "" if name == "stats" else f"{name} "
        out = {f"{prefix}{stat}": float(value.get(stat, 0)) for stat in pack.spec.stats if stat not in combat}
        if combat:
            out[f"{prefix}combat stats"] = float(sum(value.get(s, 0) for s in combat))
        return out

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        def stat_cell(sid: str) -> Callable[[Card], str]:  # one stat's column
            return lambda c: count_text((get(c) or {}).get(sid, 0))
        if name == "stats":
            return [(f":{sspec.icon}:" if sspec.icon else sspec.name, stat_cell(sid))
                    for sid, sspec in pack.spec.stats.items()]
        return [(label(name, spec), lambda c: " ".join(
            f"{signed(v)} {stat_text(pack, s, False)}" for s, v in (get(c) or {}).items()))]

    page_text = staticmethod(words.plain)


@register
class StatField(_Plain, _ListsIfNotNone, _NoAudit, FieldKind):
    """The id of one of the pack's stats."""

    name = "stat"
    sheet_text = False
    page_text = staticmethod(words.stat)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return lit(sorted(game.stats))

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return TEXT

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec), lambda c: stat_text(pack, get(c)) if get(c) else "")]


@register
class HexesField(_Plain, FieldKind):
    """A footprint: hex (or tile) offsets `[q, r]`."""

    name = "hexes"
    sheet_text = True
    page_text = staticmethod(words.hexes)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return Annotated[list[Annotated[list[Annotated[int, Field(ge=-50, le=50)]],
                                        Field(min_length=2, max_length=2)]], Field(max_length=200)]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape("hexes")

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: list[list[int]] | None) -> dict[str, Any]:
        return {name: len(value or [])}

    @staticmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: list[list[int]] | None) -> dict[str, float]:
        return {f"{name} (hexes)": float(len(value or []))}

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec) + " :hex:", lambda c: str(len(get(c) or [])) if get(c) else "–")]


@register
class AttacksField(FieldKind):
    """Up to one attack of each kind (`basic`, `heavy`, `special`): damage, range, text."""

    name = "attacks"
    sheet_text = False
    sheet_pair = False

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return GenericAlias(dict, (lit(ATTACK_KINDS), Attack))  # dict[kind, Attack]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(keys=ATTACK_KINDS, mapping=True, child=Shape(record=RECORDS["attacks"]))

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return []

    @staticmethod
    def list_columns(name: str, game: GameSpec) -> list[str]:
        return [f"{kind}_{part}" for kind in ATTACK_KINDS for part in ("damage", "range")]

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: dict[str, dict[str, Any]] | None) -> dict[str, Any]:
        out = {}
        for kind, attack in sorted((value or {}).items(), key=lambda kv: attack_order(kv[0])):
            out[f"{kind}_damage"] = attack.get("damage")
            out[f"{kind}_range"] = attack.get("range")
        return out

    @staticmethod
    def audit_features(pack: Pack, name: str, spec: FieldSpec, value: dict[str, dict[str, Any]] | None) -> dict[str, float]:
        value = value or {}
        return {"attack damage": float(sum(a.get("damage", 0) for a in value.values())),
                "attack range": float(max((a.get("range", 0) for a in value.values()), default=0))}

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        def cell(c: Card, kind: str) -> str:  # one kind's column, with the kind bound by partial
            a = (get(c) or {}).get(kind)
            return f":damage:{a['damage']} :range:{a['range']}" if a else ""
        t = pack.translation  # the layouts' word for the kind (`pgettext('attack', 'Basic')`)
        return [(t.pgettext("attack", kind.capitalize()) if t is not None else kind.capitalize(), partial(cell, kind=kind))
                for kind in ATTACK_KINDS]

    page_text = staticmethod(words.attacks)


@register
class RequirementsField(_Plain, _NoAudit, FieldKind):
    """What a card needs: `{stat, min}` or `{field, value, min}` entries."""

    name = "requirements"
    sheet_text = False
    page_text = staticmethod(words.requirements)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return list[Requirement]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(numbered=True, child=Shape(record=RECORDS["requirements"]))

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return []

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: list[dict[str, Any]] | None) -> dict[str, Any]:
        return {name: "; ".join(requirement_text(pack, r) for r in value)} if value else {}

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec), lambda c: ", ".join(requirement_book_text(pack, r) for r in get(c) or []))]


@register
class FeatField(_Plain, _NoAudit, FieldKind):
    """A named ability with its text."""

    name = "feat"
    sheet_text = False
    page_text = staticmethod(words.feat)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return Feat

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(record=RECORDS["feat"])

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return [f"{name}.name", f"{name}.text"]

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: dict[str, str] | None) -> dict[str, Any]:
        return {name: value.get("name")} if value else {}

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec), lambda c: (get(c) or {}).get("name", ""))]


@register
class CardRefsField(_Plain, _NoAudit, FieldKind):
    """Card ids (or names, resolved by the loader)."""

    name = "card-refs"
    sheet_text = True
    page_text = staticmethod(words.card_refs)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return list[CardId]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape("refs")

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: list[str] | None) -> dict[str, Any]:
        return {name: " ".join(value)} if value else {}

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec), lambda c: ", ".join(
            pack.cards[i].name if i in pack.cards else i for i in get(c) or []))]


@register
class CardRefField(_Plain, _NoAudit, _NoBook, FieldKind):
    """One card id (or name)."""

    name = "card-ref"
    sheet_text = True
    page_text = staticmethod(words.card_ref)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return CardId

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return REF

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: str | None) -> dict[str, Any]:
        return {}  # not a statistic of the card


@register
class BoolField(_Plain, _ListsIfNotNone, _NoAudit, FieldKind):
    name = "bool"
    sheet_text = False

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return bool

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return BOOL

    @staticmethod
    def rulebook_columns(pack: Pack, name: str, spec: FieldSpec, get: Callable[[Card], Any]) -> list[BookColumn]:
        return [(label(name, spec), lambda c: "" if get(c) is None else ("yes" if get(c) else "no"))]


@register
class PairField(_Plain, _ListsIfSet, _NoAudit, _NoBook, FieldKind):
    """Two whole numbers written x/y, e.g. attack/defence "3/2"; a modifier "+4/0", "-2/-1"."""

    name = "pair"
    sheet_text = True
    sheet_pair = True

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return Annotated[str, StringConstraints(pattern=r"^[+-]?[0-9]{1,4}/[+-]?[0-9]{1,4}$")]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return TEXT


@register
class CountsField(_Plain, _NoAudit, _NoBook, FieldKind):
    """A number per key: a deck's make-up "Easy 7, Medium 7, Hard 4, Last Stand 3"."""

    name = "counts"
    sheet_text = False

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return dict[Annotated[str, StringConstraints(min_length=1, max_length=40)], Annotated[int, Field(ge=0, le=999)]]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(mapping=True, child=INT)

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return []

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: dict[str, int] | None) -> dict[str, Any]:
        return {name: ", ".join(f"{key} {n}" for key, n in value.items())} if value else {}


@register
class AbilityListField(_Plain, _NoAudit, _NoBook, FieldKind):
    """Abilities used by paying a cost: name, cost, text and an extra cost in words."""

    name = "ability-list"
    sheet_text = False
    page_text = staticmethod(words.abilities)

    @staticmethod
    def annotation(spec: FieldSpec, game: GameSpec) -> Any:  # a type made at run time
        return Annotated[list[CostedAbility], Field(max_length=12)]

    @staticmethod
    def sheet_shape(game: GameSpec) -> Shape:
        return Shape(numbered=True, child=Shape(record=RECORDS["ability-list"]))

    @staticmethod
    def sheet_offered(name: str, game: GameSpec) -> list[str]:
        return []

    @staticmethod
    def list_values(pack: Pack, name: str, spec: FieldSpec, value: list[dict[str, Any]] | None) -> dict[str, Any]:
        return {}  # abilities are prose


registry_matches()

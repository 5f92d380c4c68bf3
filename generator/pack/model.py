"""Typed models of a game pack (game.yaml), its cards and builds.

The pack file itself has a fixed shape (pydantic models below). Cards and builds
take their shape from the pack: `card_models` and `build_models` make pydantic
models from a pack's declared card types and sides, so unknown keys, wrong types
and missing fields are caught the same way, and JSON Schemas come for free.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple

from pydantic import Field, StringConstraints, field_validator

from generator.core.errors import Location
from generator.pack.art import Art, ArtStyle, PackIcon
from generator.pack.cache import PackCache
from generator.core.yamlio import Document, PathT
from generator.pack.field_names import FieldType
from generator.pack.translations.table import Translation
# re-exported (`X as X`: mypy's explicit form): pack.model is where callers look for every model of the pack
from generator.pack.pieces_spec import (
    BoardSpec as BoardSpec, CounterCount as CounterCount, CounterFace as CounterFace, CounterSpec as CounterSpec,
    DieSpec as DieSpec, FigureSpec as FigureSpec, Label as Label, PhaseTrackerSpec as PhaseTrackerSpec,
    PiecesSpec as PiecesSpec, PieceShape as PieceShape, RoundTrackerSpec as RoundTrackerSpec,
    StandeeSpec as StandeeSpec, StatTrackerSpec as StatTrackerSpec, TrackersSpec as TrackersSpec)
from generator.pack.strict import (
    ID_MAX_LENGTH as ID_MAX_LENGTH, ID_PATTERN as ID_PATTERN, NAME_MAX_LENGTH as NAME_MAX_LENGTH,
    BackPattern as BackPattern, CardId as CardId, Color as Color, Name as Name, Strict as Strict,
    TerrainPattern as TerrainPattern)

CARD_SIZES_MM = {
    "poker": (63.5, 88.9),
    "bridge": (57.15, 88.9),
    "mini-american": (41.0, 63.0),
    "mini-european": (44.0, 67.0),
    "tarot": (69.85, 120.65),
    "square": (70.0, 70.0),
}


class CardSize(Strict):
    width: float = Field(gt=10, le=400)
    height: float = Field(gt=10, le=400)


class StatSpec(Strict):
    name: Name
    icon: str | None = None
    combat: bool = False


class KeywordSpec(Strict):
    name: Name
    kind: Literal["status", "action-type", "term"]
    icon: str | None = None
    text: str = ""


class SetSpec(Strict):
    name: Name
    side: str
    color: Color = "#444444"
    symbol: str | None = None


class FieldSpec(Strict):
    type: FieldType  # one name per class of the field-type registry (generator.pack.fieldtypes)
    required: bool = False
    default: object = None
    min: int | None = None
    max: int | None = None
    choices: list[str] | None = None
    label: str | None = None
    # the icon drawn beside the field's value where a build's totals are shown (the roster
    # sheet's stats row, for a field named in game.yaml `totals:`); a `hexes` field defaults to `hex`
    icon: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+$", max_length=40)] | None = None
    # `text` fields: a regular expression the whole value must match (e.g. "^[FBLR][1-9]$"),
    # and how to say what it wants in an error ("a direction and a number of tiles, e.g. B2")
    pattern: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None
    pattern_help: Annotated[str, StringConstraints(max_length=200)] | None = None

    @field_validator("pattern")
    @classmethod
    def _compiles(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                re.compile(value)
            except re.error as exc:
                raise ValueError(f"`pattern` is not a regular expression: {exc}") from None
        return value


class CardTypeSpec(Strict):
    name: Name
    fields: dict[str, FieldSpec] = {}
    # copies the print kit makes of each card of the type (a card's own `copies:` wins): a number,
    # or `table`: enough for the largest table to build any legal decks (generator/pack/kitcopies.py)
    kit_copies: Annotated[int, Field(ge=0, le=99)] | Literal["table"] = 1
    size: str | CardSize | None = None
    # rounded corners of the die cut, mm (cut files); None: 3 mm
    corner_radius: float | None = Field(default=None, ge=0, le=20)
    # `shared`: one back for every card of the type and set; `each`: every card has its own
    # back, drawn by the type's back layout (`back-<type>`) from the card's own fields
    backs: Literal["shared", "each"] = "shared"


class CountRange(Strict):
    min: int = Field(default=0, ge=0)
    max: int | None = Field(default=None, ge=0)
    # how many characters of the side sit at the largest table (Battle Bosses' arena: six bosses,
    # one per build): the print kit makes play pieces and `kit_copies: table` cards for that
    # many; default `max`. A printing choice, never a rule
    kit: int | None = Field(default=None, ge=1, le=50)


class BaseSpec(Strict):
    type: str
    key: str
    item_key: str | None = None
    min: int = Field(default=1, ge=0)
    max: int | None = Field(default=None, ge=1)

    @property
    def many(self) -> bool:
        return self.max is None or self.max > 1


class EquipmentSpec(Strict):
    type: str
    attach: Literal["base", "character"] = "character"


class TypeRef(Strict):
    """The card type(s) a place of a build takes: `type: action`, or several,
    `type: [effect, upgrade]` (a deck mixing two kinds of cards)."""

    type: str | list[str]

    @property
    def types(self) -> tuple[str, ...]:
        return (self.type,) if isinstance(self.type, str) else tuple(self.type)


class DrawSpec(Strict):
    """A character's opening draw from its deck, for the builder's draw odds: `opening` cards
    drawn from the deck's cards of the types `of` (all of them when empty), grouped by the
    choice field `by` (default: each card's first choice field, else its card type)."""

    opening: int = Field(ge=1, le=60)
    of: list[str] = []
    by: str | None = None


class DeckSpec(TypeRef):
    """A side's deck: its card type(s), its opening draw, and `cost`, an int field of its
    cards the builder charts the deck by (its cost curve)."""

    draw: DrawSpec | None = None
    cost: str | None = None


class CharacterWords(Strict):
    """What a side calls its characters in messages and on pages: `{one: hero, many: heroes}`,
    `{one: deck, many: decks}`. Without it they are characters."""

    one: Name
    many: Name


class SideSpec(Strict):
    name: Name
    sets: list[str]
    characters: CountRange = CountRange(min=1)
    called: CharacterWords | None = None
    base: BaseSpec
    equipment: EquipmentSpec | None = None
    abilities: TypeRef | None = None
    deck: DeckSpec | None = None

    def character_word(self, count: int = 1) -> str:
        """`hero` / `heroes` as the side calls its characters; `character` / `characters`."""
        words = self.called or CharacterWords(one="character", many="characters")
        return words.one if count == 1 else words.many


class CountSpec(Strict):
    # where to count: the character's base cards, equipment, abilities or deck
    within: Literal["base", "equipment", "abilities", "deck"] = Field(default="base", alias="in")
    type: str | None = None
    field: str | None = None
    value: object = None
    card: str | None = None  # only this card (its id)
    set: str | None = None  # pack_count: only cards of this set


class RuleSpec(Strict):
    id: Annotated[str, StringConstraints(pattern=r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")]
    check: str
    severity: Literal["error", "warning"] = "error"
    side: str | None = None
    size: int | None = Field(default=None, ge=0)
    default: int | None = Field(default=None, ge=0)
    override_field: str | None = None
    capacity_field: str | None = None
    usage_field: str | None = None
    field: str | None = None
    count: CountSpec | None = None
    # count: the rule asks only of characters holding a card `when` matches ("a deck of Attack
    # cards needs equipment"); `{when}` in its message is how many they hold
    when: CountSpec | None = None
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)
    exactly: int | None = Field(default=None, ge=0)
    messages: dict[str, str] = {}
    message: str | None = None
    fix: str | None = None
    stat: str | None = None  # stat_minimum: the stat checked
    places: list[Literal["base", "equipment", "abilities"]] = []  # unique_cards: where copies are counted
    # count / unique_cards: per character (the default), or over the whole build: "the party's
    # four heroes are four different heroes", "the decks hold a Final Boss somewhere"
    scope: Literal["character", "build"] = "character"
    # pack-level composition checks (check: composition): cards of `member_type` that name an
    # `owner_type` card in `group_field` must match the owner's `counts_field` per `split_field`
    owner_type: str | None = None
    member_type: str | None = None
    group_field: str | None = None
    split_field: str | None = None
    counts_field: str | None = None
    # map rules (generator.maps.pack_rules): zone_beside's start zone and terrain
    zone: str | None = Field(default=None, description="zone_beside: the start zone whose every hex must touch `terrain`")
    terrain: str | None = Field(default=None, description="zone_beside: the terrain each hex of `zone` must touch")
    # card-data checks (check: card_check): every card of type `each` must make `expect` true,
    # an expression of generator.pack.expr ("base_hp <= max_hp")
    each: str | None = Field(default=None, description="card_check: the card type every card of which is checked")
    expect: Annotated[str, StringConstraints(min_length=1, max_length=400)] | None = Field(
        default=None, description=(
            "card_check: what each card must make true, e.g. `base_hp <= max_hp`, `arena_health < stats.health`, "
            "`count(boss-card where boss == this.id and tier == \"Last Stand\") >= 1`. Comparisons (< <= > >= == !=), "
            "+ and - (with spaces), and / or / not, brackets, numbers, \"text\", true / false / none, field names "
            "(dotted into a mapping: stats.health), count(TYPE where FILTER) and sum(TYPE.FIELD where FILTER); inside "
            "a filter a name is the counted card's field and this.NAME the checked card's. A value left out makes "
            "the check not apply to that card. See docs/validation.md, Card-data checks."))




class TerrainSpec(Strict):
    """A kind of map terrain. `pattern` is its texture: in colour maps drawn in a darker shade
    of `color` (default: the pattern's usual colour, render/maps/palette.py) on a fill of it,
    in the ink saver as a low-ink grey pattern on the paper; `icon` (a built-in icon) marks a
    feature on every cell of it in colour maps; `text` is the rule printed in the map legend."""

    name: Name
    pattern: TerrainPattern = "dots"
    color: Color | None = None
    icon: CardId | None = None
    text: str = ""
    walkable: bool = True
    blocks_sight: bool = False


class ReferenceStep(Strict):
    """One numbered step of a summary: a short name and what happens."""

    name: Name
    text: str


class ReferenceTable(Strict):
    """A small table for the reference pages; cells may use inline markup and :icons:."""

    columns: list[str] = Field(min_length=1, max_length=8)
    rows: list[list[str]] = Field(min_length=1, max_length=40)


class ReferenceSection(Strict):
    """A block of the reference pages and the quick reference: an intro, numbered steps,
    a table and notes, in that order. `brief` is the one- or two-line version printed on
    the card-sized reference card."""

    id: CardId
    title: Name
    intro: str = ""
    steps: list[ReferenceStep] = []
    table: ReferenceTable | None = None
    notes: list[str] = []
    brief: str = ""


class GlossaryEntry(Strict):
    term: Name
    text: str


class ReferenceSpec(Strict):
    """Summaries a pack prints beside its rules (rulebook reference pages, quick reference,
    reference card). `turn` summarises the round and the turn, `combat` how an attack is
    resolved; the glossary adds terms to the pack's keywords."""

    turn: list[ReferenceSection] = []
    combat: list[ReferenceSection] = []
    glossary: list[GlossaryEntry] = []
    card: bool = True  # print the reference card with the cards (see docs/layouts.md)


# ---- play pieces: generator/pack/pieces_spec.py (imported above) --------------------------


class MoveProfile(Strict):
    """A unit's movement: steps per turn and the most levels it can climb in one step."""

    move: int = Field(ge=1, le=99)
    jump: int = Field(ge=0, le=99)


class MovementSpec(Strict):
    """How figures move over a square grid with heights (maps with `grid: square`), used by
    the `map.reachability` check: a figure steps to an orthogonal neighbour whose top is at
    most its Jump higher (any drop is allowed unless `max_drop` says otherwise), and may
    leap straight across up to `leap` tiles of open air, each counting as a step of its Move.

    The check uses the weakest figure: `profile` if given, else the smallest `move_field`
    and the smallest `jump_field` among the cards of `card_type`."""

    card_type: str | None = None
    move_field: str = "move"
    jump_field: str = "jump"
    profile: MoveProfile | None = None
    leap: int = Field(default=0, ge=0, le=5)
    max_drop: int | None = Field(default=None, ge=0, le=99)
    fall_damage: int = Field(default=1, ge=0, le=99)  # per level dropped beyond the figure's Jump
    level_mm: float = Field(default=30.0, gt=0, le=200)  # how tall one level of height is


FontStyle = Literal["regular", "bold", "italic", "bold-italic", "display"]
Language = Annotated[str, StringConstraints(pattern=r"^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$", max_length=35)]


class GameSpec(Strict):
    id: CardId | Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$", max_length=ID_MAX_LENGTH)]
    name: Name
    version: str
    # the language the pack is written in (a BCP 47 tag such as `en`, `de`, `pt-BR`): translations
    # (translations/<lang>.po) are made from it, and text is hyphenated by it (pack/translations)
    language: Language = "en"
    summary: str = ""
    credits: list[str] = []
    card_size: str | CardSize = "poker"
    # the game's emblem, an icon (built-in or of `icons:`), and the pattern of its card backs: the
    # shipped back layout (templates/cards/back.yaml) draws both over each set's colour
    emblem: CardId | None = None
    back_pattern: BackPattern = "hexes"
    stats: dict[str, StatSpec]
    keywords: dict[str, KeywordSpec] = {}
    sets: dict[str, SetSpec]
    card_types: dict[str, CardTypeSpec]
    sides: dict[str, SideSpec] = {}
    points_limits: dict[str, int] = {}
    default_points_limit: str | None = None
    rules: list[RuleSpec] = []
    # base-card fields a build's statistics summary totals per character (a whole-number field
    # is summed, a `hexes` field counts distinct hexes), e.g. [slots, feat_cost, size]
    totals: list[Annotated[str, StringConstraints(min_length=1, max_length=64)]] = []
    terrain: dict[CardId, TerrainSpec] = {}
    # permissive / strict: centre to centre with either / both tie-breaks clear;
    # corners: some corner of one hex sees some corner of the other (hexgrid.corner_line_of_sight)
    line_of_sight: Literal["permissive", "strict", "corners"] = "permissive"
    # required: figures start in the maps' zones; optional: zones are a scenario setup the
    # players may choose, the rules' setup (anywhere, apart) is the default
    start_zones: Literal["required", "optional"] = "required"
    movement: MovementSpec | None = None
    pieces: PiecesSpec | None = None
    reference: ReferenceSpec = ReferenceSpec()
    # the pack's fonts, by style: a typeface pnp ships by name (`display: cinzel`, pack/typefaces.py) or a
    # TrueType file inside the pack (`fonts/Body.ttf`); `display` sets titles and headings
    fonts: dict[FontStyle, Annotated[str, StringConstraints(min_length=1, max_length=255)]] = {}
    # the pack's own icons: name -> an SVG file inside the pack, or {icon: NAME} of the bundled set
    # (game-icons.net), used as `:name:` and in layouts
    icons: dict[CardId, Annotated[str, StringConstraints(min_length=1, max_length=255)] | PackIcon] = {}
    # the looks of icon art by name (pack/art.py): a card's `style:`, else the style named after its
    # type, its set or `default`
    art_styles: dict[CardId, ArtStyle] = {}


# ---- plain values the rest of the program works with ---------------------------------

FileKey = tuple[str, int, int]  # a file's path, modification time (ns) and size: what the run's caches know it by
BackKey = tuple[str, str] | tuple[str, str, str]  # (set, card type), or (set, card type, card) with `backs: each`


@dataclass(frozen=True, eq=False)
class Card:
    """A card of a pack. Type-specific fields are in `fields` and readable as attributes."""

    id: str
    name: str
    type: str
    set: str
    points: int
    text: str
    flavour: str
    copies: int
    art: Art | None  # an icon of the bundled set or an image file (pack/art.py); None: the placeholder
    # Each value is what its field type (pack/fieldtypes.py) made of the card file's entry: an int, a text, a
    # stats mapping, a list of cells... which one is decided by the pack's game.yaml when it is loaded, not by
    # the code, so the value type is Any: the code that reads a field knows the type it declared
    fields: dict[str, Any]
    location: Location
    order: int = 0
    # where each field the card file writes stands (file:line:column, or sheet cell)
    field_locations: dict[str, Location] = field(default_factory=dict, repr=False)

    def __getattr__(self, name: str) -> Any:  # a field's value (see `fields`)
        # Jinja layouts read `card.stats`, `card.piece_type`: fall back to the typed fields.
        fields = self.__dict__.get("fields", {})
        if name in fields:
            return fields[name]
        raise AttributeError(name)

    def get(self, name: str, default: object = None) -> Any:  # a field's value (see `fields`)
        return self.fields.get(name, default)


# Ref, BaseEntry and DeckEntry are named tuples, not frozen dataclasses: a build makes one
# per card it names at every load, and the web builder loads the build at every click.
class Ref(NamedTuple):
    """A card id named in a build, with where it was written."""

    id: str
    path: PathT
    location: Location


class BaseEntry(NamedTuple):
    card: Ref
    equipment: tuple[Ref, ...] = ()


class DeckEntry(NamedTuple):
    card: Ref
    copies: int


@dataclass(frozen=True)
class Character:
    name: str
    path: tuple[str, int]  # ("characters", its index in the build)
    location: Location
    bases: tuple[BaseEntry, ...]
    equipment: tuple[Ref, ...]
    abilities: tuple[Ref, ...]
    deck: tuple[DeckEntry, ...]
    deck_location: Location


@dataclass(frozen=True)
class Build:
    file: str
    pack: str | None
    name: str
    side: str
    points_limit: int | None
    points_limit_location: Location
    characters: tuple[Character, ...]
    location: Location
    unlimited: bool = False  # `points_limit: none`: the players agreed to play without a limit
    max_characters: int | None = None  # a table's own cap on the characters of this build
    max_characters_location: Location | None = None
    notes: str = ""  # the players' own plain text, printed on the roster


@dataclass
class Pack:
    root: Path  # the pack folder
    spec: GameSpec
    cards: dict[str, Card]
    game_file: str
    preset_files: list[Path] = field(default_factory=list)
    map_files: list[Path] = field(default_factory=list)
    rule_files: list[Path] = field(default_factory=list)
    # Parsed once per run and carried to worker processes with the pack: the YAML documents of
    # its files by file_key (game.yaml, card files, presets, maps, layouts: pack/documents.py),
    # shared with the pack loaded in another language and never changed in place, and the
    # values made from them (its presets and its maps), filled by the loaders on first use.
    documents: dict[FileKey | None, Document] = field(default_factory=dict, repr=False, compare=False)
    loaded: PackCache = field(default_factory=PackCache, repr=False, compare=False)  # pack/cache.py
    # the language the pack was loaded in, when not its own (pack/translations): its strings, and
    # the strings that print in the source language for want of a translation
    translation: Translation | None = field(default=None, repr=False, compare=False)

    @property
    def id(self) -> str:
        return self.spec.id

    def card_size_mm(self, type_id: str | None = None) -> tuple[float, float]:
        size = self.spec.card_size
        type_spec = self.spec.card_types.get(type_id) if type_id else None
        if type_spec is not None and type_spec.size is not None:
            size = type_spec.size
        if isinstance(size, CardSize):
            return (size.width, size.height)
        return CARD_SIZES_MM[size]

    def back_key(self, set_id: str, type_id: str, card: Card | None = None) -> BackKey:
        """What a face's back is the same for: its set and card type, and with `backs: each`
        also the card (every output draws, names and groups backs by this one key)."""
        type_spec = self.spec.card_types.get(type_id)
        if card is not None and type_spec is not None and type_spec.backs == "each":
            return (set_id, type_id, card.id)
        return (set_id, type_id)

    def cards_of(self, type_id: str | None = None, set_id: str | None = None) -> list[Card]:
        return [c for c in self.cards.values()
                if (type_id is None or c.type == type_id) and (set_id is None or c.set == set_id)]

    def limit_value(self, name_or_number: str | int | None) -> int | None:
        if name_or_number is None:
            return None
        if isinstance(name_or_number, int):
            return name_or_number
        return self.spec.points_limits.get(name_or_number)


def kebab(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")

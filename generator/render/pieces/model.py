"""Play pieces: counter sheets, standees, bases, trackers and a blank board, from what a
pack declares under `pieces:` in game.yaml (docs/pieces.md).

Entry points:

- `build_pieces_pdf(pack, out_path, paper, build=None)` writes pieces.pdf: the whole kit,
  or with a build only that build's figures, bases and trackers (at its actual stats);
- `footprint_of(pack, build, character)` is the rule for a figure's base: the union of its
  base cards' hexes (the field the pieces config names), all anchored at axial (0, 0);
  an empty union is one hex.

Nothing here names a game or a card type: characters come from the pack's `sides:`, the
footprint field and every label from `pieces:`. Drawing lives in the pieces_* modules.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.core.errors import InputError, Problem, did_you_mean, short_list
from generator.core.paths import resolve_inside
from generator.grids import hexgrid
from generator.grids.hexgrid import Hex
from generator.maps.load import load_pack_maps
from generator.maps.model import HexMap
from generator.pack.cardlist import card_order
from generator.pack.load import load_presets, pack_document
from generator.pack.model import PiecesSpec, kebab
from generator.render.base.icons import known_icons
from generator.rules.context import Context, resolve_build

if TYPE_CHECKING:
    from generator.pack.art import Art
    from generator.pack.model import Build, Card, Character, Pack

DEFAULT_HEX_MM = 25.4  # 1 inch flat to flat, when neither the pieces nor any map says otherwise


# ---- characters ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A character that needs pieces: a standee, a base, trackers, tokens with its name."""

    key: str  # unique in one PDF, kebab-case
    name: str
    side: str
    cards: tuple[Card, ...]  # its base cards
    stats: dict  # its starting statistics (bonuses included)
    footprint: tuple[Hex, ...]
    color: str
    symbol: str | None
    art: str | Art | None = None  # a card's art, or a path from the pieces config
    art_owner: object = None
    source: str = ""  # "card", "preset" or "build"


def pieces_spec(pack: Pack) -> PiecesSpec:
    return pack.spec.pieces or PiecesSpec()


def footprint_field(pack: Pack, side_id: str) -> list[str]:
    """The base cards' field(s) whose hexes make a character's base: the one the pieces
    config names for this side, else any `hexes` field of the side's base card type."""
    side = pack.spec.sides.get(side_id)
    if side is None:
        return []
    figure = pieces_spec(pack).figures.get(side_id)
    if figure is not None and figure.footprint:
        return [figure.footprint]
    card_type = pack.spec.card_types.get(side.base.type)
    return [n for n, f in (card_type.fields.items() if card_type else []) if f.type == "hexes"]


def footprint_of(pack: Pack, build: Build, character: Character) -> list[tuple[int, int]]:
    """The axial hexes of a character's base: the union of its base cards' hexes, each
    card's list anchored at (0, 0). An empty union (or a side without hexes) is one hex."""
    names = footprint_field(pack, build.side)
    hexes: set[Hex] = set()
    for entry in character.bases:
        card = pack.cards.get(entry.card.id)
        if card is None:
            continue
        for name in names:
            for pair in card.fields.get(name) or []:
                hexes.add(Hex(int(pair[0]), int(pair[1])))
    return [(h[0], h[1]) for h in sorted(hexes or {hexgrid.ORIGIN})]


def largest_footprint(pack: Pack, side_id: str) -> int:
    """How many hexes the largest base of a side can cover: every base card it could take,
    each anchored at (0, 0), so the union of all their hexes (at least one)."""
    names = footprint_field(pack, side_id)
    side = pack.spec.sides.get(side_id)
    hexes: set[tuple[int, int]] = set()
    for card in pack.cards_of(side.base.type) if side is not None else []:
        for name in names:
            hexes.update((int(q), int(r)) for q, r in card.fields.get(name) or [])
    return max(1, len(hexes))


def _side_look(pack: Pack, side_id: str) -> tuple[str, str | None]:
    """Colour and symbol of a side: those of the first set that belongs to it."""
    for s in pack.spec.sets.values():
        if s.side == side_id:
            return s.color, s.symbol
    return "#444444", None


def character_stats(pack: Pack, build: Build, character: Character) -> dict[str, int]:
    """The character's statistics as the rules total them (bases, equipment, abilities), from the
    validator's own card resolution; unknown cards are the validator's to report."""
    return Context(pack, build, None, resolve_build(pack, build, [])).full_stats(character)


def _card_stats(pack: Pack, card: Card) -> dict[str, int]:
    ctype = pack.spec.card_types.get(card.type)
    totals = {s: 0 for s in pack.spec.stats}
    for name, f in (ctype.fields.items() if ctype else []):
        if f.type == "stats":
            for stat, value in (card.fields.get(name) or {}).items():
                totals[stat] = totals.get(stat, 0) + value
    return totals


def build_figures(pack: Pack, build: Build, source: str = "build", used: set | None = None) -> list[Figure]:
    color, symbol = _side_look(pack, build.side)
    used = set() if used is None else used
    out = []
    for character in build.characters:
        cards = tuple(pack.cards[e.card.id] for e in character.bases if e.card.id in pack.cards)
        single = cards[0] if len(cards) == 1 else None
        out.append(Figure(
            key=_unique(kebab(character.name) or "character", used), name=character.name, side=build.side,
            cards=cards, stats=character_stats(pack, build, character),
            footprint=tuple(Hex(*h) for h in footprint_of(pack, build, character)), color=color, symbol=symbol,
            art=single.art if single is not None else None, art_owner=single, source=source))
    return out


def _unique(key: str, used: set) -> str:
    out, n = key, 2
    while out in used:
        out, n = f"{key}-{n}", n + 1
    used.add(out)
    return out


def kit_mode(pack: Pack, side_id: str) -> str:
    """Whole-kit figures of a side: one per base card when a character is a single card,
    else one per preset build (a boss assembled from many cards)."""
    figure = pieces_spec(pack).figures.get(side_id)
    if figure is not None and figure.kit:
        return figure.kit
    side = pack.spec.sides[side_id]
    return "cards" if side.base.max == 1 else "presets"


def kit_figures(pack: Pack) -> list[Figure]:
    """Every character the whole kit prints pieces for, side by side in game.yaml order."""
    out: list[Figure] = []
    used: set = set()
    presets = None
    for side_id, side in pack.spec.sides.items():
        color, symbol = _side_look(pack, side_id)
        if kit_mode(pack, side_id) == "cards":
            for card in card_order(pack):
                if card.type == side.base.type and card.set in side.sets:
                    # a figure made from one card wears that card's set (a side may have several)
                    own = pack.spec.sets.get(card.set)
                    look = (own.color, own.symbol or symbol) if own is not None else (color, symbol)
                    out.append(Figure(_unique(card.id, used), card.name, side_id, (card,), _card_stats(pack, card),
                                      (hexgrid.ORIGIN,), *look, card.art, card, "card"))
        else:
            presets = load_presets(pack) if presets is None else presets
            for build in presets:
                if build.side == side_id:
                    out.extend(build_figures(pack, build, "preset", used))
    return out


def most_characters(pack: Pack) -> int:
    """The most characters one game can field: every side's maximum (or largest preset)."""
    total = 0
    presets = None
    for side_id, side in pack.spec.sides.items():
        count = side.characters.kit if side.characters.kit is not None else side.characters.max
        if count is not None:
            total += count
        else:
            presets = load_presets(pack) if presets is None else presets
            total += max([len(b.characters) for b in presets if b.side == side_id] or [side.characters.min or 1])
    return total


# ---- geometry the pieces share with the maps -------------------------------------------------


def hex_geometry(pack: Pack) -> tuple[float, hexgrid.Orientation]:
    """(flat-to-flat mm, orientation) of the pieces: the pieces config, else the maps'."""
    spec = pieces_spec(pack)
    sizes, orientations = _map_geometry(pack)
    size = spec.hex_size or (sizes[0] if sizes else DEFAULT_HEX_MM)
    orientation = spec.orientation or (orientations[0] if orientations else "pointy")
    return float(size), orientation


def _map_geometry(pack: Pack) -> tuple[list[float], list[hexgrid.Orientation]]:
    if not pack.map_files:
        return [], []
    maps = [m for m in load_pack_maps(pack) if isinstance(m, HexMap)]  # square maps have no hex to match
    return sorted({m.hex_size for m in maps}), sorted({m.orientation for m in maps})


# ---- checks ------------------------------------------------------------------------------------


def check_pieces(pack: Pack) -> list[Problem]:
    """Every reference in `pieces:` checked against the rest of the pack, with the line
    of game.yaml to fix. Returns the problems (empty when the config is sound)."""
    spec = pack.spec.pieces
    if spec is None:
        return []
    doc = pack_document(pack, Path(pack.root) / "game.yaml")
    problems: list[Problem] = []
    root = ("pieces",)

    def need(value, known, path, what, fix=None):
        if value is None or value in known:
            return
        guess = did_you_mean(value, known)
        problems.append(Problem("pieces.reference", f"{what} `{value}` is not defined", doc.at(root + path),
                                found=str(value), expected=f"one of: {short_list(sorted(known))}",
                                fix=f"did you mean `{guess}`?" if guess else fix))

    icons = set(known_icons())
    sides = pack.spec.sides
    terrain = pack.spec.terrain
    seen: dict[str, int] = {}

    def face(f, path):
        need(f.icon, icons, path + ("icon",), "icon")
        if f.art:
            try:
                resolve_inside(Path(pack.root), f.art, doc.at(root + path + ("art",)), "art")
            except InputError as exc:
                problems.extend(exc.problems)

    for i, counter in enumerate(spec.counters):
        path = ("counters", i)
        if counter.id in seen:
            problems.append(Problem("pieces.duplicate", f"two counters have the id `{counter.id}`",
                                    doc.at(root + path + ("id",)), found=counter.id,
                                    fix=f"rename one (the first is counters[{seen[counter.id]}])"))
        seen.setdefault(counter.id, i)
        face(counter, path)
        if counter.back is not None and counter.back != "same":
            face(counter.back, path + ("back",))
        need(counter.card, pack.cards, path + ("card",), "card")
        need(counter.keyword, pack.spec.keywords, path + ("keyword",), "keyword")
        need(counter.terrain, terrain, path + ("terrain",), "terrain")
        need(counter.for_each, sides, path + ("for_each",), "side")
        if not isinstance(counter.count, int):
            need(counter.count.per_footprint, sides, path + ("count", "per_footprint"), "side")
        if not isinstance(counter.count, int) and counter.count.per_map is not None:
            need(counter.count.per_map, {"obstacles", *terrain}, path + ("count", "per_map"),
                 "map feature", "use `obstacles` or a terrain id")
        if counter.for_each is not None and not isinstance(counter.count, int):
            problems.append(Problem("pieces.count", f"counter `{counter.id}` is printed once per character "
                                    "(for_each), so its count must be a number", doc.at(root + path + ("count",)),
                                    found="a count rule", expected="a number of copies per character"))
    for side_id, figure in spec.figures.items():
        need(side_id, sides, ("figures",), "side")
        if figure.footprint and side_id in sides:
            ctype = pack.spec.card_types.get(sides[side_id].base.type)
            fields = {n for n, f in (ctype.fields.items() if ctype else []) if f.type == "hexes"}
            if figure.footprint not in fields:
                problems.append(Problem(
                    "pieces.footprint", f"`{figure.footprint}` is not a hexes field of the "
                    f"{sides[side_id].base.type} cards, the base cards of side {side_id}",
                    doc.at(root + ("figures", side_id, "footprint")), found=figure.footprint,
                    expected=f"one of: {short_list(sorted(fields))}" if fields else "a field of type hexes",
                    fix="name the field whose [q, r] lists give each card's size"))
    for stat in spec.trackers.stats:
        need(stat, pack.spec.stats, ("trackers", "stats"), "stat")
    for i, named in enumerate(spec.trackers.named):
        need(named.stat, pack.spec.stats, ("trackers", "named", i, "stat"), "stat")
    if spec.trackers.round is not None:
        need(spec.trackers.round.initiative, pack.spec.stats, ("trackers", "round", "initiative"), "stat")
    if spec.trackers.phases is not None:
        sections = {s.id for s in pack.spec.reference.turn if s.steps}
        need(spec.trackers.phases.section, sections, ("trackers", "phases", "section"),
             "turn section with steps", "name a `reference.turn` section that lists `steps`")
    if spec.hex_size is not None:
        try:
            sizes, _ = _map_geometry(pack)
        except InputError:
            sizes = []  # unreadable maps are reported by map validation
        other = [s for s in sizes if abs(s - spec.hex_size) > 1e-9]
        if other:
            problems.append(Problem("pieces.hex-size", f"the pieces' hexes ({spec.hex_size:g} mm) differ from the "
                                    f"maps' ({', '.join(f'{s:g}' for s in other)} mm)",
                                    doc.at(root + ("hex_size",)), found=f"{spec.hex_size:g}",
                                    expected=f"{other[0]:g}, the maps' hex size",
                                    fix="use the maps' size, so tokens and bases fit the printed maps"))
    return problems

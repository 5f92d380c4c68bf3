"""Read a game pack and builds from YAML into the typed values of `generator.model`."""

from __future__ import annotations

from collections.abc import Callable, Collection
from pathlib import Path
from typing import cast

from pydantic import BaseModel, TypeAdapter, ValidationError

from generator.core.bounded import BoundedCache
from generator.core.errors import InputError, Location, Problem, ProblemList, did_you_mean, short_list
from generator.core.paths import resolve_inside
from generator.core.yamlio import Addressed, Document, PathT, display_path, load_yaml_file
from generator.pack import expr
from generator.pack.art import art_of, card_art_problems, pack_icon_problems
from generator.pack.assets import FontError, read_ttf
from generator.pack.buildshape import CharacterDoc, document_places
from generator.pack.cache import Slot
from generator.pack.documents import file_key, forget_changed, parsed_document
from generator.pack.icon_names import BUILTIN_ICONS, ICON_MARK, pack_icon_names
from generator.pack.kitcopies import default_copies, kit_copies_problems
from generator.pack.model import (CARD_SIZES_MM, BaseEntry, BaseSpec, Build, Card, Character, DeckEntry, FileKey,
                                  GameSpec, Pack, Ref, SideSpec)
from generator.pack.pydantic_errors import problems_from
from generator.pack.rule_names import KNOWN_CHECKS
from generator.pack.schemas import (BuildRecord, CardRecord, allowed_keys_fn, build_models, card_models,
                                    field_annotation)
from generator.pack.sheets.fetch import sheet_sources
from generator.pack.sheets.source import load_sheet_documents
from generator.pack.translations.apply import TranslationLayer, translated_pack_file
from generator.pack.typefaces import TYPEFACES, is_typeface_name


def find_pack_root(path: Path) -> Path | None:
    """The pack folder holding `path` (a folder with game.yaml), searching upwards."""
    path = path.resolve()
    for candidate in [path, *path.parents]:
        if (candidate / "game.yaml").is_file():
            return candidate
    return None


def load_game_spec(root: Path, documents: dict[FileKey | None, Document] | None = None) -> tuple[GameSpec, Document]:
    doc = parsed_document(documents, root / "game.yaml") if documents is not None else load_yaml_file(root / "game.yaml")
    if not isinstance(doc.data, dict):
        raise InputError([Problem("schema.type", "game.yaml must be a mapping", doc.at(()),
                                  expected="keys such as id, name, sets, card_types")])
    try:
        spec = GameSpec.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "game.yaml", allowed_keys_fn(GameSpec))) from None
    _check_spec(spec, doc)
    _check_fonts(spec, doc, root)
    icon_problems = pack_icon_problems(spec.icons, doc)
    if icon_problems:
        raise InputError(icon_problems)
    return spec, doc


def pack_font_paths(spec: GameSpec, root: Path, doc: Document | None = None) -> dict[str, Path]:
    """The pack's fonts (style -> path): a typeface in the box by its name (`cinzel`), else a file
    inside the pack; InputError for a name that is no built-in typeface, or a file that leads
    outside the pack, is missing, or is not a readable TrueType file."""
    out: dict[str, Path] = {}
    problems: list[Problem] = []
    for style, relative in spec.fonts.items():
        where = doc.at(("fonts", style)) if doc is not None else Location(display_path(root / "game.yaml"))
        if relative in TYPEFACES:  # shipped with pnp, unmodified: nothing to check
            out[style] = TYPEFACES[relative].path
            continue
        if is_typeface_name(relative):
            guess = did_you_mean(relative, TYPEFACES)
            problems.append(Problem("font.unknown", f"the {style} font `{relative}` is no typeface pnp ships",
                                    where, found=relative,
                                    expected=f"one of: {', '.join(TYPEFACES)}, or a .ttf file inside the pack",
                                    fix=f"did you mean `{guess}`?" if guess else
                                    "name a built-in typeface (docs/formats.md, Fonts) or a file such as fonts/Title.ttf"))
            continue
        try:
            path = resolve_inside(root, relative, where, "font")
            read_ttf(path)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        except (FontError, OSError) as exc:
            problems.append(Problem("font.corrupt", f"the {style} font `{relative}` cannot be used: {exc}", where,
                                    found=relative, expected="a TrueType (.ttf) font file",
                                    fix="re-export the font as TrueType, or remove it to use the built-in font"))
            continue
        out[style] = path
    if problems:
        raise InputError(problems)
    return out


def _check_fonts(spec: GameSpec, doc: Document, root: Path) -> None:
    if spec.fonts:
        pack_font_paths(spec, Path(root), doc)


def _check_spec(spec: GameSpec, doc: Document) -> None:
    """Cross-references inside game.yaml: sides, sets, types and rules must name things that exist."""
    out = ProblemList()

    def need(value: str | None, known: Collection[str], path: PathT, what: str) -> None:
        if value is not None and value not in known:
            guess = did_you_mean(value, known)
            out.add(Problem("pack.reference", f"{what} `{value}` is not defined", doc.at(path),
                            found=str(value), expected=f"one of: {short_list(sorted(known))}",
                            fix=f"did you mean `{guess}`?" if guess else None))

    sides = set(spec.sides) | {"any"}
    for set_id, s in spec.sets.items():
        need(s.side, sides, ("sets", set_id, "side"), "side")
    for side_id, side in spec.sides.items():
        for i, set_id in enumerate(side.sets):
            need(set_id, spec.sets, ("sides", side_id, "sets", i), "set")
        need(side.base.type, spec.card_types, ("sides", side_id, "base", "type"), "card type")
        for part in ("equipment", "abilities", "deck"):
            ref = getattr(side, part)
            if ref is None:
                continue
            if isinstance(ref.type, str):
                need(ref.type, spec.card_types, ("sides", side_id, part, "type"), "card type")
            else:
                for j, type_id in enumerate(ref.type):
                    need(type_id, spec.card_types, ("sides", side_id, part, "type", j), "card type")
        _check_deck(spec, side_id, side, need)
    for i, rule in enumerate(spec.rules):
        need(rule.check, KNOWN_CHECKS, ("rules", i, "check"), "rule check")
        need(rule.side, spec.sides, ("rules", i, "side"), "side")
    _check_card_checks(spec, doc, out)
    need(spec.emblem, pack_icon_names(spec), ("emblem",), "icon")
    for terrain_id, terrain in spec.terrain.items():  # a map's feature icon: one the map painter draws
        need(terrain.icon, BUILTIN_ICONS, ("terrain", terrain_id, "icon"), "built-in icon")
    for i, rule in enumerate(spec.rules):  # map rules: zone_beside names a start zone and a terrain
        if rule.check == "zone_beside":
            for key, known, what in (("zone", spec.sides, "start zone (a side)"),
                                     ("terrain", spec.terrain, "terrain")):
                if getattr(rule, key) is None:
                    out.add(Problem("schema.missing", f"rule `{rule.id}` (zone_beside) needs `{key}`",
                                    doc.at(("rules", i)), expected="zone: SIDE and terrain: TERRAIN",
                                    fix="e.g. zone: boss, terrain: base"))
                else:
                    need(getattr(rule, key), known, ("rules", i, key), what)
    for problem in kit_copies_problems(spec, doc.at):
        out.add(problem)
    fields = {name for type_spec in spec.card_types.values() for name in type_spec.fields}
    for i, name in enumerate(spec.totals):
        need(name, fields, ("totals", i), "card field")
    if spec.default_points_limit is not None:
        need(spec.default_points_limit, spec.points_limits, ("default_points_limit",), "points limit")
    for type_id, type_spec in spec.card_types.items():
        for fname, fspec in type_spec.fields.items():
            if (fspec.pattern or fspec.pattern_help) and fspec.type != "text":
                out.add(Problem("pack.field", f"field `{fname}` of `{type_id}` has a `pattern`, but only "
                                f"`text` fields take one (it is `{fspec.type}`)",
                                doc.at(("card_types", type_id, "fields", fname)), found=fspec.type,
                                expected="type: text", fix="make it a text field, or remove `pattern`"))
    movement = spec.movement
    if movement is not None and movement.card_type is not None:
        path = ("movement", "card_type")
        need(movement.card_type, spec.card_types, path, "card type")
        mtype_spec = spec.card_types.get(movement.card_type)
        for key in ("move_field", "jump_field"):
            name = getattr(movement, key)
            mfspec = mtype_spec.fields.get(name) if mtype_spec else None
            if mtype_spec is not None and (mfspec is None or mfspec.type != "int"):
                ints = [n for n, f in mtype_spec.fields.items() if f.type == "int"]
                out.add(Problem("pack.reference", f"`movement.{key}` names `{name}`, which is not an int field "
                                f"of `{movement.card_type}`", doc.at(("movement", key)), found=name,
                                expected=f"one of: {short_list(ints) or 'none (declare an int field)'}",
                                fix=f"did you mean `{did_you_mean(name, ints)}`?" if did_you_mean(name, ints) else None))
    _check_sizes_and_fields(spec, doc, out)
    out.raise_if_any()


def _check_deck(spec: GameSpec, side_id: str, side: SideSpec,
                need: Callable[[str | None, Collection[str], PathT, str], None]) -> None:
    """The deck's draw and cost name card types of the deck and fields its cards have."""
    deck = side.deck
    if deck is None:
        return
    fields = {n: f for t in deck.types if t in spec.card_types for n, f in spec.card_types[t].fields.items()}
    if deck.cost is not None:
        need(deck.cost, {n for n, f in fields.items() if f.type == "int"}, ("sides", side_id, "deck", "cost"),
             "int field of the deck's cards")
    if deck.draw is not None:
        for j, type_id in enumerate(deck.draw.of):
            need(type_id, set(deck.types), ("sides", side_id, "deck", "draw", "of", j), "deck card type")
        if deck.draw.by is not None:
            need(deck.draw.by, {n for n, f in fields.items() if f.type == "choice"},
                 ("sides", side_id, "deck", "draw", "by"), "choice field of the deck's cards")


def _check_card_checks(spec: GameSpec, doc: Document, out: ProblemList) -> None:
    """A `card_check` rule names a card type (`each`) and an expression (`expect`) that parses
    and reads only fields and card types the pack has."""
    def fields_of(type_id: str) -> list[str] | None:
        type_spec = spec.card_types.get(type_id)
        return None if type_spec is None else list(type_spec.fields)

    for i, rule in enumerate(spec.rules):
        if rule.check != "card_check":
            continue
        for key in ("each", "expect"):
            if getattr(rule, key) is None:
                out.add(Problem("schema.missing", f"rule `{rule.id}` (card_check) needs `{key}`", doc.at(("rules", i)),
                                expected="each: CARD-TYPE and expect: EXPRESSION",
                                fix="e.g. each: hero, expect: \"base_hp <= max_hp\""))
        if rule.each is None or rule.expect is None:
            continue
        if rule.each not in spec.card_types:
            guess = did_you_mean(rule.each, spec.card_types)
            out.add(Problem("pack.reference", f"card type `{rule.each}` is not defined", doc.at(("rules", i, "each")),
                            found=rule.each, expected=f"one of: {short_list(sorted(spec.card_types))}",
                            fix=f"did you mean `{guess}`?" if guess else None))
            continue
        where = doc.at(("rules", i, "expect"))
        try:
            tree = expr.parse(rule.expect)
        except expr.ExprError as exc:
            out.add(Problem("pack.expression", f"rule `{rule.id}`: the expression does not read: {exc.message}",
                            where, found=rule.expect, expected=exc.expected,
                            fix="see docs/validation.md, \"Card-data checks\""))
            continue
        for name, column, known in expr.unknown_names(tree, fields_of, rule.each):
            guess = did_you_mean(name, known)
            what = "card type" if not known else "field"
            out.add(Problem("pack.reference", f"rule `{rule.id}`: {what} `{name}` (column {column} of the expression) "
                            f"is not defined", where, found=name,
                            expected=f"one of: {short_list(sorted(known or spec.card_types))}",
                            fix=f"did you mean `{guess}`?" if guess else None))


def _check_sizes_and_fields(spec: GameSpec, doc: Document, out: ProblemList) -> None:
    """Values in game.yaml that the rest of the program relies on: named card sizes exist, a
    `choice` field has choices, `min` is not above `max`, and a field's `default` fits its type."""
    def size_ok(size: object, path: PathT) -> None:
        if isinstance(size, str) and size not in CARD_SIZES_MM:
            guess = did_you_mean(size, CARD_SIZES_MM)
            out.add(Problem("pack.reference", f"card size `{size}` is not defined", doc.at(path), found=size,
                            expected=f"one of: {', '.join(CARD_SIZES_MM)}, or {{width: W, height: H}} in mm",
                            fix=f"did you mean `{guess}`?" if guess else None))

    size_ok(spec.card_size, ("card_size",))
    for type_id, type_spec in spec.card_types.items():
        size_ok(type_spec.size, ("card_types", type_id, "size"))
        for fname, fspec in type_spec.fields.items():
            path = ("card_types", type_id, "fields", fname)
            if fspec.type == "choice" and not fspec.choices:
                out.add(Problem("schema.missing", f"the choice field `{fname}` of `{type_id}` lists no `choices`",
                                doc.at(path), expected="choices: [A, B, ...]", fix="add the choices"))
                continue
            if fspec.min is not None and fspec.max is not None and fspec.min > fspec.max:
                out.add(Problem("schema.range", f"field `{fname}` of `{type_id}` has `min` {fspec.min} above "
                                f"`max` {fspec.max}", doc.at(path + ("min",)), found=str(fspec.min),
                                expected=f"at most {fspec.max}", fix="swap them"))
                continue
            if fspec.default is not None:
                try:
                    TypeAdapter(field_annotation(fspec, spec)).validate_python(fspec.default, strict=True)
                except (ValidationError, ValueError, TypeError):
                    out.add(Problem("schema.type", f"the default of field `{fname}` of `{type_id}` does not "
                                    f"fit its type `{fspec.type}`", doc.at(path + ("default",)),
                                    found=repr(fspec.default)[:60], expected=f"a value of type `{fspec.type}`",
                                    fix="correct the default, or remove it"))


# Each card type's model, by the parsed game.yaml it was made from (held, so an id is never taken
# for another's): a Document is never changed in place, so the same one gives the same spec and
# models. A pack loaded in another language (`pnp validate`'s language workers, `--lang`) shares
# its documents with the pack in its own language and reuses them (10 ms for Boss Fight).
_CARD_MODELS: BoundedCache[int, tuple[Document, dict[str, type[BaseModel]]]] = BoundedCache(16)


def _card_models(game_doc: Document, spec: GameSpec) -> dict[str, type[BaseModel]]:
    hit = _CARD_MODELS.get(id(game_doc))
    if hit is None or hit[0] is not game_doc:
        hit = _CARD_MODELS[id(game_doc)] = (game_doc, card_models(spec))
    return hit[1]


def load_pack(root: Path, documents: dict[FileKey | None, Document] | None = None, lang: str | None = None,
              fallbacks: bool = True) -> Pack:
    """The pack in folder `root`, every card file read and checked. `documents` (pnp watch, or
    the pack in its own language when loading it in another): the files parsed by an earlier
    load, by `file_key` (pack/documents.py); a file unchanged since is not parsed again, and the
    pack keeps this dict. `lang`: the pack in that language, from its translations/<lang>.po;
    `fallbacks`: what prints in the source language counted (TranslationLayer.finish)."""
    root = Path(root)
    if not (root / "game.yaml").is_file():
        where = display_path(root)
        raise InputError([Problem("pack.missing", f"{where} is not a game pack (no game.yaml in it)",
                                  Location(where), expected="a folder with game.yaml",
                                  fix="give the pack folder, e.g. card_data/boss_fight")])
    _check_inside(root, [root / "game.yaml"])
    documents = {} if documents is None else documents
    forget_changed(documents)
    spec, game_doc = load_game_spec(root, documents)
    layer = TranslationLayer(root, lang, spec, game_doc, documents, fallbacks) if lang and lang != spec.language else None
    models = _card_models(game_doc, spec)
    problems = ProblemList()
    cards: dict[str, Card] = {}
    unreadable: set[str] = set()  # ids of cards already reported as broken
    files = {part: sorted((root / part).glob(pattern))
             for part, pattern in (("cards", "*.yaml"), ("presets", "*.yaml"), ("maps", "*.yaml"), ("rules", "*.md"))}
    sheets = sheet_sources(root, problems.problems)  # cards from spreadsheets (pack/sheets)
    _check_inside(root, [f for group in files.values() for f in group] + [p for p, _ in sheets])
    for path in files["cards"]:
        try:
            doc = parsed_document(documents, path)
        except InputError as exc:
            problems.problems.extend(exc.problems)
            continue
        _read_cards(layer.cards(doc) if layer else doc, spec, models, cards, problems, root, unreadable)
    for sheet_doc in load_sheet_documents(sheets, spec, cards, problems):  # after YAML: refs may name its cards
        _read_cards(layer.cards(sheet_doc) if layer else sheet_doc, spec, models, cards, problems, root, unreadable)
    _check_card_refs(cards, spec, problems, unreadable)
    problems.raise_if_any()
    pack = Pack(
        root=root, spec=layer.spec if layer else spec, cards=cards, game_file=game_doc.file,
        preset_files=files["presets"], map_files=files["maps"], rule_files=files["rules"],
        translation=layer.finish(files["presets"], files["maps"], files["rules"]) if layer else None,
        documents=documents)
    return pack


def pack_document(pack: Pack, path: Path) -> Document:
    """A YAML file of the pack's run (game.yaml, a preset, a map, a build), parsed once: later
    stages ask the pack instead of reading the file again; a preset or map of a pack in another
    language is read in it (a translated copy, made once)."""
    return translated_pack_file(pack, Path(path), parsed_document(pack.documents, Path(path)))


PresetResult = tuple[Path, "Build | None", list[Problem]]
PRESET_RESULTS: Slot[list[PresetResult]] = Slot("preset_results")
PRESETS: Slot[list[Build]] = Slot("presets")


def preset_results(pack: Pack) -> list[PresetResult]:
    """Each preset file with its Build, or None and the problems that stopped it: built once
    per run (the pack keeps them), for the build, `pnp validate` and the rulebook alike."""
    def made() -> list[PresetResult]:
        results: list[PresetResult] = []
        for path in pack.preset_files:
            try:
                results.append((Path(path), load_build(Path(path), pack), []))
            except InputError as exc:
                results.append((Path(path), None, list(exc.problems)))
        return results
    return pack.loaded.fresh(PRESET_RESULTS, tuple(file_key(path) for path in pack.preset_files), made)


def load_presets(pack: Pack) -> list[Build]:
    """The pack's presets that load, in file-name order, made once per run; a broken preset is
    left out here and reported by `pnp validate`."""
    return pack.loaded.fresh(PRESETS, tuple(file_key(path) for path in pack.preset_files),
                             lambda: [build for _p, build, _e in preset_results(pack) if build])


def _check_inside(root: Path, paths: list[Path]) -> None:
    """Every file a pack brings must be inside the pack folder: a link that leads out is refused,
    so a pack can never make the tool read a file elsewhere on the machine."""
    base = root.resolve()
    problems = []
    for path in paths:
        try:
            target = path.resolve()
        except (OSError, RuntimeError) as exc:  # a loop of links
            where = display_path(path)
            problems.append(Problem("path.invalid", f"{where} cannot be read: {exc}", Location(where),
                                    expected="a file inside the pack", fix="replace the link with the file"))
            continue
        if target != base and base not in target.parents:
            where = display_path(path)
            problems.append(Problem("path.outside", f"{where} is a link that leads outside the pack",
                                    Location(where), found=str(target), expected=f"a file inside {display_path(root)}",
                                    fix="copy the file into the pack instead of linking to it"))
    if problems:
        raise InputError(problems)


def _read_cards(doc: Addressed, spec: GameSpec, models: dict[str, type[BaseModel]], cards: dict[str, Card],
                problems: ProblemList, root: Path | None = None, unreadable: set[str] | None = None) -> None:
    data = doc.data
    if not isinstance(data, dict) or "cards" not in data:
        problems.add(Problem("schema.type", f"{doc.file} must be a mapping with a `cards:` list",
                             doc.at(()), expected="cards: [ ... ]"))
        return
    extra = [k for k in data if k != "cards"]
    for key in extra:
        problems.add(Problem("schema.unknown-key", f"unknown key `{key}` in a cards file",
                             doc.at((key,), key=True), found=str(key), expected="cards", fix="remove it"))
    if not isinstance(data["cards"], list):
        problems.add(Problem("schema.type", "`cards` should be a list", doc.at(("cards",)), expected="a list"))
        return
    for i, raw in enumerate(data["cards"]):
        path: PathT = ("cards", i)
        if not isinstance(raw, dict):
            problems.add(Problem("schema.type", "each card should be a mapping", doc.at(path),
                                 expected="id, name, type, ..."))
            continue
        type_id = raw.get("type")
        if not isinstance(type_id, str) or type_id not in models:
            guess = did_you_mean(type_id, models) if isinstance(type_id, str) else None
            problems.add(Problem(
                "schema.missing" if type_id is None else "schema.choice",
                "card has no `type`" if type_id is None else f"unknown card type `{type_id}`",
                doc.at(path + ("type",)), found=None if type_id is None else str(type_id),
                expected=f"one of: {', '.join(sorted(models))}",
                fix=f"did you mean `{guess}`?" if guess else None))
            continue
        model = models[type_id]
        try:
            record = model.model_validate(raw)
        except ValidationError as exc:
            name = raw.get("id") or f"card {i + 1}"
            problems.problems.extend(problems_from(exc, doc, path, f"card `{name}`", allowed_keys_fn(model)))
            if unreadable is not None and isinstance(raw.get("id"), str):
                unreadable.add(raw["id"])
            continue
        values = record.model_dump()
        # a model made at run time: mypy knows BaseModel, CardRecord names the fields every card type has
        valid = cast(CardRecord, record)
        location = doc.at(path)
        if valid.id in cards:
            first = cards[valid.id].location
            problems.add(Problem("pack.duplicate-id", f"card id `{valid.id}` is used twice (first at {first})",
                                 doc.at(path + ("id",)), found=valid.id, expected="a unique id",
                                 fix="rename one of the two cards"))
            continue
        art = art_of(valid.art)
        if art is not None:
            art_problems = card_art_problems(art, doc, path, f"card `{valid.id}`", spec.art_styles, root)
            if art_problems:
                problems.problems.extend(art_problems)
                continue
        icon_problems = _unknown_icons(raw, doc, path, valid.id, spec)
        if icon_problems:
            problems.problems.extend(icon_problems)
            if unreadable is not None:
                unreadable.add(valid.id)
            continue
        common = {"id", "name", "type", "set", "points", "text", "flavour", "copies", "art", "audit_note"}
        fields = {k: v for k, v in values.items() if k not in common}
        if values["audit_note"]:
            fields["audit_note"] = values["audit_note"]
        cards[valid.id] = Card(
            id=valid.id, name=valid.name, type=type_id, set=valid.set, points=valid.points,
            text=valid.text, flavour=valid.flavour,
            copies=valid.copies if valid.copies is not None else default_copies(spec, type_id, valid.set, fields),
            art=art, fields=fields, location=location, order=len(cards),
            field_locations={k: doc.at(path + (k,)) for k in raw if isinstance(k, str)})


def _unknown_icons(raw: dict[str, object], doc: Addressed, path: PathT, card_id: str, spec: GameSpec) -> list[Problem]:
    """`:name:` in a card's text that names neither a built-in icon nor one of game.yaml's
    `icons:` would print as the plain text `:name:`: an error at the text's file:line."""
    known = pack_icon_names(spec)
    out: list[Problem] = []

    def walk(value: object, at: PathT) -> None:
        if isinstance(value, str):
            for name in dict.fromkeys(ICON_MARK.findall(value)):
                if name in known:
                    continue
                guess = did_you_mean(name, known)
                out.append(Problem("card.icon", f"card `{card_id}`: `:{name}:` is no icon, so it would print as "
                                   "text", doc.at(at), found=f":{name}:",
                                   expected="a built-in icon or one of game.yaml `icons:`",
                                   fix=f"did you mean `:{guess}:`?" if guess else
                                   "add the icon to game.yaml `icons:` (see docs/layouts.md#icons)"))
        elif isinstance(value, dict):
            for key, item in value.items():
                if key not in ("id", "type", "set", "art"):
                    walk(item, at + (key,))
        elif isinstance(value, list):
            for i, item in enumerate(value):
                walk(item, at + (i,))

    walk(raw, path)
    return out


def _check_card_refs(cards: dict[str, Card], spec: GameSpec, problems: ProblemList,
                     unreadable: set[str] | None = None) -> None:
    """Fields of type card-refs must name cards that exist. A card that is there but could
    not be read has its own error already; naming it is not reported again."""
    for card in cards.values():
        for fname, fspec in spec.card_types[card.type].fields.items():
            if fspec.type not in ("card-refs", "card-ref"):
                continue
            value = card.fields.get(fname)
            refs = [value] if isinstance(value, str) else (value or [])
            for ref in refs:
                if ref not in cards and ref not in (unreadable or ()):
                    guess = did_you_mean(ref, cards)
                    problems.add(Problem("pack.dangling-ref", f"card `{card.id}` names `{ref}` in `{fname}`, "
                                         "but no card has that id", card.location, found=ref,
                                         expected="the id of a card in this pack",
                                         fix=f"did you mean `{guess}`?" if guess else None))


# ---- builds ---------------------------------------------------------------------------


def load_build(path: Path, pack: Pack) -> Build:
    doc = pack_document(pack, path)
    return build_from_document(doc, pack)


def build_from_document(doc: Document, pack: Pack) -> Build:
    data = doc.data
    spec = pack.spec
    if not isinstance(data, dict):
        raise InputError([Problem("schema.type", "a build must be a mapping", doc.at(()),
                                  expected="pack, name, side, characters")])
    side = data.get("side")
    if not isinstance(side, str) or side not in spec.sides:
        guess = did_you_mean(side, spec.sides) if isinstance(side, str) else None
        raise InputError([Problem(
            "schema.missing" if side is None else "schema.choice",
            "the build has no `side`" if side is None else f"unknown side `{side}`",
            doc.at(("side",)), found=None if side is None else str(side),
            expected=f"one of: {', '.join(sorted(spec.sides))}",
            fix=f"did you mean `{guess}`?" if guess else "add e.g. `side: " + sorted(spec.sides)[0] + "`")])
    pack_id = data.get("pack")
    if isinstance(pack_id, str) and pack_id != spec.id:
        raise InputError([Problem("build.pack", f"this build is for the pack `{pack_id}`, not `{spec.id}`",
                                  doc.at(("pack",)), found=pack_id, expected=spec.id)])
    if "points_limit" in data and data["points_limit"] is None:
        # an empty value used to fall back to the pack default unseen; say which was meant
        default = pack.limit_value(spec.default_points_limit)
        raise InputError([Problem(
            "schema.type", "`points_limit` is empty", doc.at(("points_limit",)), found="null",
            expected="a number, " + (f"a named limit ({', '.join(sorted(spec.points_limits))}), "
                                     if spec.points_limits else "") + "or `none`",
            fix="write `points_limit: none` to play without a limit, or remove the key for the pack default"
                + (f" ({default})" if default is not None else ""))])
    model = build_models(spec)[side]
    try:
        # a model made at run time: mypy knows BaseModel, BuildRecord names the fields every side's build has
        valid = cast(BuildRecord, model.model_validate(data))
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "the build", allowed_keys_fn(model))) from None
    side_spec = spec.sides[side]
    base = side_spec.base
    characters = []
    for ci, char in enumerate(valid.characters):
        cpath = ("characters", ci)
        raw_char = data["characters"][ci]
        bases: list[BaseEntry] = []
        equipment: list[Ref] = []
        abilities: list[Ref] = []
        deck: list[DeckEntry] = []
        for place in document_places(side_spec, raw_char):  # the one reading of a character's places
            path = cpath + place.path
            # a deck entry is `card-id: copies`; point at the id (the key), which is what a person misspells
            ref = Ref(place.card, path, doc.at(path, key=place.place == "deck"))
            if place.place == "base":
                bases.append(BaseEntry(ref))
            elif place.base is not None:  # fixed to the base card just read
                bases[place.base] = bases[place.base]._replace(equipment=bases[place.base].equipment + (ref,))
            elif place.place == "deck":
                deck.append(DeckEntry(ref, place.copies))
            else:
                (equipment if place.place == "equipment" else abilities).append(ref)
        name = char.name or _default_name(raw_char, base, pack) or f"character {ci + 1}"
        characters.append(Character(
            name=name, path=cpath, location=doc.at(cpath), bases=tuple(bases), equipment=tuple(equipment),
            abilities=tuple(abilities), deck=tuple(deck),
            deck_location=doc.at(cpath + ("deck",), key=True)))
    given, unlimited = valid.points_limit, valid.points_limit == "none"
    limit = (None if unlimited else spec.points_limits[given]) if isinstance(given, str) else given
    return Build(
        file=doc.file, pack=valid.pack, name=valid.name, side=side, points_limit=limit,
        points_limit_location=doc.at(("points_limit",), key=True) if "points_limit" in data else doc.at(("name",), key=True),
        characters=tuple(characters), location=doc.at(()), unlimited=unlimited,
        max_characters=valid.max_characters,
        max_characters_location=doc.at(("max_characters",), key=True) if "max_characters" in data else None,
        notes=valid.notes or "")


def _default_name(raw_char: CharacterDoc, base: BaseSpec, pack: Pack) -> str | None:
    """A hero is named by its hero card when the build gives no name."""
    if not base.many:
        card_id = raw_char.get(base.key)
        card = pack.cards.get(card_id) if isinstance(card_id, str) else None
        return card.name if card else None
    return None

"""A Tabletop Simulator saved object, `<Pack>.json`, next to the deck sheets of `--profile tts`.

TTS reads saves and saved objects as JSON: `ObjectStates` is the list of objects on the
table. Each deck here is a `DeckCustom` whose `CustomDeck` maps a small integer (the deck
key, one per sheet image) to the sheet's `FaceURL`/`BackURL` and its `NumWidth` x
`NumHeight` grid; every card inside (`ContainedObjects`) has `CardID` = key x 100 + its
slot on that sheet (left to right, top to bottom), and `DeckIDs` lists those ids in
order. A deck that needs more than one sheet (over 69 cards, or a sheet that would pass
4096 px) simply has several keys. Maps become `Custom_Board` objects scaled to true size
(1 TTS unit = 1 inch) on the save's `Grid` of the map's kind and pitch.

Links. TTS loads an image from a URL: `http(s)://` or an absolute `file:///` path; it
does not resolve a path relative to the save. So `<Pack>.json` links every image by its
absolute `file:///` path (or under `--tts-url-base`), and `<Pack>.relative.json` is the
same save with links relative to the `tts/` folder ("maps/x.png"), the file to keep when
the folder moves or is uploaded (prefix its links, or rebuild, before TTS loads it).

Grids. A save has one table grid; a flat-top map needs a flat-top grid, a pointy-top map a
pointy-top one, a square map a box grid. Maps are grouped by grid (kind and pitch): the
first group's maps go in `<Pack>.json` with its grid, every other group in
`<Pack>-<grid>.json` (e.g. `Boss-Fight-flat-top-25.4mm.json`) with its own; each save
holds all the decks and pieces.

The file is built only from what the deck export wrote (`decks.json`, the index of sheets
and of the card in every slot) and from the pack, so it can be checked against the images.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from generator.pack.model import Pack
from generator.core.files import atomic_output
from generator.export.tts_pieces import export_tts_pieces

# TTS draws a card object at scale 1 about 2.5 x 3.5 units whatever its image's pixel size
# (units are inches on TTS's ruler): poker cards use scale 1; other sizes scale x and z
# apart so they keep their own proportions (not checked in TTS itself).
TTS_CARD_WIDTH_UNITS, TTS_CARD_HEIGHT_UNITS = 2.5, 3.5
# A Custom_Board with ImageScalar 1 is taken to span about 18 units on its longer side at
# scale 1; boards are scaled to true size from it. NOT verified in TTS itself (not available
# here): if a board comes out the wrong size, this one number corrects every map.
TTS_BOARD_UNITS_AT_SCALE_1 = 18.0
# Custom tiles and tokens are taken to span 2 units on their longer side at scale 1; the
# same caveat: an assumption, not checked in TTS here.
TTS_TILE_UNITS_AT_SCALE_1 = 2.0
TILE_TYPES = {"square": 0, "hex": 1, "round": 2}  # TTS CustomTile.Type: box, hex, circle, rounded
GRID_HEX_FLAT_TOP, GRID_HEX_POINTY_TOP = 1, 2  # TTS GridType: 0 box, 1 hex horizontal, 2 hex vertical
_WHITE = {"r": 1.0, "g": 1.0, "b": 1.0}
_CARD_TINT = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}


def _guid(*parts) -> str:
    """Six hex digits, as TTS writes them, derived from the object's identity (reproducible)."""
    return hashlib.sha1("/".join(str(p) for p in parts).encode()).hexdigest()[:6]


def _transform(x=0.0, y=1.0, z=0.0, rot_y=180.0, rot_z=0.0, scale=1.0, scale_z=None) -> dict:
    return {"posX": round(x, 4), "posY": round(y, 4), "posZ": round(z, 4), "rotX": 0.0, "rotY": rot_y,
            "rotZ": rot_z, "scaleX": round(scale, 4), "scaleY": 1.0,
            "scaleZ": round(scale if scale_z is None else scale_z, 4)}


def file_url(path: Path) -> str:
    """`file:///` URL of an absolute path, spaces and other specials %-escaped."""
    return "file:///" + quote(str(Path(path).resolve()).lstrip("/").replace("\\", "/"))


def linker(folder: Path, url_base: str | None = None, relative: bool = False):
    """How the save links a file of the tts folder (`rel`, POSIX, e.g. `maps/x.png`): under
    `url_base`, relative to the folder, or by its absolute `file:///` URL."""
    def link(rel: str) -> str:
        if url_base:
            return url_base.rstrip("/") + "/" + rel
        if relative:
            return quote(rel)
        return file_url(Path(folder) / rel)
    return link


GRID_NAMES = {0: "squares", GRID_HEX_FLAT_TOP: "flat-top", GRID_HEX_POINTY_TOP: "pointy-top"}


def icon_words(pack) -> dict[str, str]:
    """In a pack loaded in another language, an icon in a tooltip reads as the word the pack gives it
    there (a stat's or keyword's name: `:health:` is `Leben`); as written, the icon's own name."""
    if pack.translation is None:
        return {}
    words = {k.icon: k.name for k in pack.spec.keywords.values() if getattr(k, "icon", None)}
    words.update({s.icon: s.name for s in pack.spec.stats.values() if s.icon})
    return words


def card_object(card, card_id: int, deck_key: int, custom: dict, scale: tuple, where: str,
                words: dict[str, str] | None = None) -> dict:
    nickname = card.name if card is not None else "Reference"
    # the card text's inline icons (`:health:`) read as their names in TTS's tooltip (`words`: icon_words)
    description = re.sub(r":([a-z0-9][a-z0-9-]*):", lambda m: (words or {}).get(m[1], m[1]),
                         card.text if card is not None else "").strip()
    return {"GUID": _guid("card", where, card_id), "Name": "Card",
            "Transform": _transform(scale=scale[0], scale_z=scale[1], rot_z=180.0),
            "Nickname": nickname, "Description": description, "GMNotes": card.id if card is not None else "",
            "ColorDiffuse": dict(_CARD_TINT), "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
            "Sticky": True, "Tooltip": True, "Hands": True, "SidewaysCard": False, "HideWhenFaceDown": True,
            "CardID": card_id, "CustomDeck": {str(deck_key): custom}}


def build_save(pack: Pack, folder: Path, url_base: str | None = None, relative: bool = False) -> dict:
    """The main save document (the first grid's maps) from `folder`/decks.json and
    `folder`/maps/*.json."""
    return build_saves(pack, folder, url_base, relative)[""]


def build_saves(pack: Pack, folder: Path, url_base: str | None = None, relative: bool = False, *,
                decks: dict | None = None, maps: list | None = None, pieces: dict | None = None,
                link_folder: Path | None = None) -> dict[str, dict]:
    """{file-name suffix: save}: "" for the first grid's maps, `-<grid>` for each other grid
    (flat-top, pointy-top or squares, and the pitch), each with every deck and piece. The deck
    index, the maps' sidecars and the pieces' index are passed as the exports made them, or
    else read from `folder` (decks.json, maps/*.json, pieces/pieces.json); links point into
    `link_folder` (default `folder`), where the folder will be once the build is kept."""
    link = linker(link_folder or folder, url_base, relative)
    index = decks if decks is not None else json.loads((Path(folder) / "decks.json").read_text(encoding="utf-8"))
    by_type: dict[tuple[str, str], list[dict[str, Any]]] = {}  # (set, card type) -> its decks' sheets
    for entry in index["decks"]:
        by_type.setdefault((entry["set"], entry["type"]), []).append(entry)
    objects, key = [], 0
    x = 0.0
    words = icon_words(pack)
    for (set_id, type_id), sheets in by_type.items():
        w_mm, h_mm = pack.card_size_mm(type_id)
        scale = (w_mm / 25.4 / TTS_CARD_WIDTH_UNITS, h_mm / 25.4 / TTS_CARD_HEIGHT_UNITS)
        custom_decks, deck_ids, contained = {}, [], []
        for sheet in sheets:
            key += 1
            custom = {"FaceURL": link(sheet["face"]), "BackURL": link(sheet["back"]),
                      "NumWidth": sheet["columns"], "NumHeight": sheet["rows"],
                      "BackIsHidden": True, "UniqueBack": bool(sheet.get("unique_back")), "Type": 0}
            custom_decks[str(key)] = custom
            for slot, card_id in enumerate(sheet["ids"]):
                cid = key * 100 + slot
                deck_ids.append(cid)
                contained.append(card_object(pack.cards.get(card_id), cid, key, custom, scale, f"{sheet['face']}",
                                             words))
        set_name = pack.spec.sets[set_id].name if set_id in pack.spec.sets else set_id
        type_spec = pack.spec.card_types.get(type_id)
        name = f"{set_name} — {type_spec.name if type_spec else type_id.title()}"
        deck = {"GUID": _guid("deck", set_id, type_id), "Name": "DeckCustom",
                "Transform": _transform(x=x, y=1.0, z=0.0, rot_z=180.0, scale=scale[0], scale_z=scale[1]),
                "Nickname": name, "Description": f"{len(deck_ids)} cards", "ColorDiffuse": dict(_CARD_TINT),
                "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
                "Hands": False, "SidewaysCard": False, "DeckIDs": deck_ids, "CustomDeck": custom_decks,
                "ContainedObjects": contained}
        if len(deck_ids) == 1:  # TTS has no one-card deck: a lone card is a Card object
            deck = dict(contained[0], Transform=deck["Transform"])
        objects.append(deck)
        x += w_mm / 25.4 + 0.5
    groups: dict = {}  # grid key -> (grid, boards), in the order the maps come
    next_z: dict = {}  # each save lays its boards out from the same place
    if maps is None:
        maps = [json.loads(sidecar.read_text(encoding="utf-8")) for sidecar in
                sorted((Path(folder) / "maps").glob("*.json")) if (Path(folder) / "maps").is_dir()]
    for m in sorted(maps, key=lambda m: f"{m['map']}.json"):  # in the order of the sidecar files
        square = m.get("grid") == "square"
        if "hex_pitch_px" not in m and not square:
            continue
        w_in, h_in = m["width_px"] / m["dpi"], m["height_px"] / m["dpi"]
        scale = round(max(w_in, h_in) / TTS_BOARD_UNITS_AT_SCALE_1, 4)
        cell_mm = m["tile_size_mm"] if square else m["hex_size_mm"]
        pitch_in = round(cell_mm / 25.4, 4)
        kind = "tiles" if square else "hexes"
        grid_type = 0 if square else (GRID_HEX_FLAT_TOP if m.get("orientation") == "flat" else GRID_HEX_POINTY_TOP)
        grid = {"Type": grid_type,
                "Lines": True, "Color": {"r": 0.0, "g": 0.0, "b": 0.0}, "Opacity": 0.5, "ThickLines": False,
                "Snapping": False, "Offset": False, "BothSnapping": False,
                "xSize": pitch_in, "ySize": pitch_in, "PosOffset": {"x": 0.0, "y": 1.0, "z": 0.0}}
        suffix = f"-{GRID_NAMES[grid_type]}-{cell_mm:g}mm"
        group = groups.setdefault(suffix, (grid, []))
        z = next_z.get(suffix, -8.0)
        group[1].append({
            "GUID": _guid("map", m["map"]), "Name": "Custom_Board", "Transform": _transform(z=z, scale=scale),
            "Nickname": m.get("title") or m["map"],
            "Description": f"{m['map']}: {w_in:.2f} x {h_in:.2f} in, {kind} {cell_mm:g} mm"
                           + ("" if square else " flat to flat"),
            "ColorDiffuse": dict(_WHITE), "Locked": True, "Grid": True, "Snap": True, "Autoraise": True,
            "Sticky": True, "Tooltip": True,
            "CustomImage": {"ImageURL": link("maps/" + m["image"]),
                            "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0}})
        next_z[suffix] = z - h_in - 1.0
    piece_objects = _pieces(Path(folder), link, pieces)
    saves = {}
    for n, (suffix, (grid, boards)) in enumerate(groups.items() or [("", (None, []))]):
        name = f"{pack.spec.name} {pack.spec.version}" + (f" ({suffix[1:]} maps)" if n else "")
        save = {"SaveName": name, "GameMode": pack.spec.name, "Date": "",
                "Table": "Table_RPG", "Sky": "Sky_Museum", "Note": "Made by pnp from the pack's data.", "Rules": "",
                "XmlUI": "", "LuaScript": "", "LuaScriptState": "", "VersionNumber": "",
                "ObjectStates": objects + boards + piece_objects}
        if grid is not None:
            save["Grid"] = grid
        saves["" if n == 0 else suffix] = save
    return saves


def _pieces(folder: Path, link, index: dict | None = None) -> list[dict]:
    """A bag of tiles per kind of counter, a token per base, from the pieces' index (as
    export_tts_pieces returned it, or read from pieces/pieces.json)."""
    if index is None:
        index_file = folder / "pieces" / "pieces.json"
        if not index_file.is_file():
            return []
        index = json.loads(index_file.read_text(encoding="utf-8"))
    out, x = [], 0.0
    for c in index.get("counters", []):
        if not c.get("front"):
            continue
        scale = round(c["size_mm"] / 25.4 / TTS_TILE_UNITS_AT_SCALE_1, 4)
        front = link("pieces/" + c["front"])
        back = link("pieces/" + c["back"]) if c.get("back") else front
        tiles = [{"GUID": _guid("counter", c["kind"], i), "Name": "Custom_Tile",
                  "Transform": _transform(x=x, y=1.0, z=10.0, rot_y=0.0, scale=scale),
                  "Nickname": c["kind"].replace("-", " ").title(), "Description": "",
                  "ColorDiffuse": dict(_WHITE), "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
                  "Sticky": True, "Tooltip": True,
                  "CustomImage": {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0,
                                  "WidthScale": 0.0,
                                  "CustomTile": {"Type": TILE_TYPES.get(c["shape"], 0), "Thickness": 0.1,
                                                 "Stackable": True, "Stretch": True}}}
                 for i in range(1, c["count"] + 1)]
        out.append({"GUID": _guid("bag", c["kind"]), "Name": "Bag",
                    "Transform": _transform(x=x, y=1.0, z=10.0, rot_y=0.0),
                    "Nickname": f"{c['kind'].replace('-', ' ').title()} counters",
                    "Description": f"{c['count']} {c['shape']} counters, {c['size_mm']:g} mm",
                    "ColorDiffuse": dict(_WHITE), "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
                    "Sticky": True, "Tooltip": True, "ContainedObjects": tiles})
        x += 2.5
    z = 14.0
    for i, b in enumerate(index.get("bases", [])):
        scale = round(max(b["width_mm"], b["height_mm"]) / 25.4 / TTS_TILE_UNITS_AT_SCALE_1, 4)
        out.append({"GUID": _guid("base", b["side"], b["key"]), "Name": "Custom_Token",
                    "Transform": _transform(x=(i % 8) * 4.0, y=1.0, z=z + (i // 8) * 5.0, rot_y=0.0, scale=scale),
                    "Nickname": b["key"].replace("-", " ").title(),
                    "Description": f"{b['side']} base, {b['hexes']} hex{'es' if b['hexes'] != 1 else ''}",
                    "ColorDiffuse": dict(_WHITE), "Locked": False, "Grid": True, "Snap": True, "Autoraise": True,
                    "Sticky": True, "Tooltip": True,
                    "CustomImage": {"ImageURL": link("pieces/" + b["image"]),
                                    "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                                    "CustomToken": {"Thickness": 0.2, "MergeDistancePixels": 15.0,
                                                    "StandUp": False, "Stackable": False}}})
    return out


def save_name(pack: Pack) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", pack.spec.name).strip("-") or pack.spec.id


def write_tts_save(pack: Pack, folder: Path, url_base: str | None = None, build=None, pieces: bool = True, *,
                   decks: dict | None = None, maps: list | None = None, link_folder: Path | None = None) -> dict:
    """Write `folder`/<Pack>.json, one `<Pack>-<grid>.json` per further map grid, a
    `.relative.json` of each (links relative to the folder) and, with `pieces`, the counters'
    and bases' images; returns counts for the build log (of the main save). `decks` and
    `maps` are what the deck and map exports returned (else read from `folder`)."""
    index = export_tts_pieces(pack, folder, build) if pieces else None

    def saves_of(relative: bool) -> dict[str, dict]:
        return build_saves(pack, folder, url_base, relative, decks=decks, maps=maps, pieces=index,
                           link_folder=link_folder)

    saves = saves_of(False)
    relative = saves_of(True) if not url_base else {}
    for suffix, doc in list(saves.items()) + [(f"{s}.relative", d) for s, d in relative.items()]:
        target = Path(folder) / f"{save_name(pack)}{suffix}.json"
        with atomic_output(target, suffix=".json") as tmp:
            Path(tmp).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    save = saves[""]
    cards = sum(len(o.get("DeckIDs", [])) or (o["Name"] == "Card") for o in save["ObjectStates"])
    bags = [o for o in save["ObjectStates"] if o["Name"] == "Bag"]
    return {"objects": len(save["ObjectStates"]), "cards": cards,
            "counters": sum(len(b["ContainedObjects"]) for b in bags),
            "bases": sum(o["Name"] == "Custom_Token" for o in save["ObjectStates"])}

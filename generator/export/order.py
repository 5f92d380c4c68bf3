"""What a print-service order needs besides the images: file names that keep each card's
face beside its back in a sorted listing, and a manifest (CSV and JSON) giving, for every
face, its back, its copies in the kit, its name and type.

Cards sharing a back (same set and card type) form a group; each group is numbered in the
kit's order and every file of the group starts with that number, so a sorted listing shows
a group's faces followed by its one back:

    03-boss-boss-piece-001-lantern-skull.png
    03-boss-boss-piece-002-basalt-jaw.png
    03-boss-boss-piece-back.png

A card type with `backs: each` gives every card its own back, named after its face
(`01-heroes-hero-001-brannoc-stonehide-back.png`).
"""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from generator.render.cards.faces import CardFace

MANIFEST_FORMAT = "pnp.png-manifest/1"
CSV_FIELDS = ("face_file", "back_file", "copies", "name", "type", "set", "card")


@dataclass(frozen=True)
class OrderRow:
    face_file: str
    back_file: str
    copies: int
    name: str
    type: str
    set: str
    card: str  # the card's id, or the layout of a face that is not a card (the reference card)


def face_key(face: CardFace) -> str:
    return face.card.id if face.card else face.layout


def plan_files(faces: list[CardFace], type_names: dict[str, str] | None = None, back_key=None
               ) -> tuple[list[tuple[CardFace, str]], dict[tuple, tuple[CardFace, str]], list[OrderRow]]:
    """For the kit's faces (with their copies): each distinct face with its file name, each
    back (by `back_key(face)`: set and type unless a card type gives every card its own back)
    with the first face carrying it and its file name, and the rows of the manifest in the
    same order. A card's own back is named after its face: `...-001-brannoc-back.png`."""
    back_key = back_key or (lambda f: (f.set_id, f.type_id))
    copies = Counter(face_key(f) for f in faces)
    groups: dict[tuple[str, str], int] = {}
    for f in faces:
        groups.setdefault((f.set_id, f.type_id), len(groups) + 1)
    width = max(2, len(str(len(groups))))
    distinct, backs, rows, seen = [], {}, [], set()
    numbers: Counter[tuple[str, str]] = Counter()  # cards named so far per (set, card type)
    for f in faces:
        key = face_key(f)
        if key in seen:
            continue
        seen.add(key)
        group = (f.set_id, f.type_id)
        prefix = f"{groups[group]:0{width}d}-{f.set_id}-{f.type_id}"
        numbers[group] += 1
        name = f"{prefix}-{numbers[group]:03d}-{key}.png"
        distinct.append((f, name))
        back = back_key(f)
        if back not in backs:
            own = len(back) > 2  # this card's own back, beside its face in a sorted listing
            backs[back] = (f, f"{prefix}-{numbers[group]:03d}-{key}-back.png" if own else f"{prefix}-back.png")
        rows.append(OrderRow(name, backs[back][1], copies[key], f.card.name if f.card else key.replace("-", " ").title(),
                             (type_names or {}).get(f.type_id, f.type_id), f.set_id, key))
    return distinct, backs, rows


def manifest_texts(rows: list[OrderRow], header: dict) -> tuple[str, str]:
    """(CSV, JSON) of the manifest: one row per distinct face."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(asdict(row))
    doc = {"format": MANIFEST_FORMAT, **header, "faces": len(rows), "cards": sum(r.copies for r in rows),
           "backs": sorted({r.back_file for r in rows}), "rows": [asdict(r) for r in rows]}
    return buffer.getvalue(), json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def write_manifest(folder: Path, rows: list[OrderRow], header: dict) -> None:
    text_csv, text_json = manifest_texts(rows, header)
    (Path(folder) / "manifest.csv").write_text(text_csv, encoding="utf-8")
    (Path(folder) / "manifest.json").write_text(text_json, encoding="utf-8")

"""Scale a card layout drawn for one card size to another, for `pnp new --size`: the shared
poker frame and back become a pack's own layouts at the chosen size, which the designer
then edits. Positions scale with the card's width and height; type, icons and corner
radii with the smaller of the two, so text never grows past the box it was fitted to."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from generator.core.errors import InputError, Location, Problem
from generator.core.typesize import floor_pt
from generator.pack.model import CARD_SIZES_MM

X_KEYS = ("x", "w", "x2")
Y_KEYS = ("y", "h", "y2")
EVEN_KEYS = ("size", "min_size", "radius")
# a card layout or one of its elements as its YAML reads (checked by the renderer's layout model, a layer above)
Layout = dict[str, Any]


def parse_size(value: str) -> tuple[str | None, tuple[float, float]]:
    """`tarot` or `120x70` (mm) -> (the size's name or None, (width, height))."""
    text = str(value).strip().lower()
    if text in CARD_SIZES_MM:
        return text, CARD_SIZES_MM[text]
    parts = text.replace("×", "x").split("x")
    try:
        w, h = (float(p) for p in parts)
        if 10 < w <= 400 and 10 < h <= 400:
            return None, (w, h)
    except ValueError:
        pass
    raise InputError([Problem("cli.size", f"`{value}` is not a card size", Location("--size"), found=str(value),
                              expected=f"one of {', '.join(CARD_SIZES_MM)}, or WIDTHxHEIGHT in mm "
                              "between 10 and 400 (e.g. 120x70)")])


def _round(v: float) -> float:
    r = round(v, 2)
    return int(r) if r == int(r) else r


def scale_element(element: Layout, sx: float, sy: float) -> Layout:
    even = min(sx, sy)
    if element.get("kind") == "icon" or _round_box(element):
        return _scale_about_centre(element, sx, sy, even)  # icons, discs and badges keep their shape
    out: Layout = {}
    for key, value in element.items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            if key in X_KEYS:
                value = _round(value * sx)
            elif key in Y_KEYS:
                value = _round(value * sy)
            elif key in EVEN_KEYS:
                value = _round(value * even)
        out[key] = value
    if out.get("kind") == "text":  # type a player can read: never scaled below its role's floor
        floor = floor_pt(out.get("role", "rules"))
        for key in ("size", "min_size"):
            if isinstance(out.get(key), (int, float)) and out[key] < floor:
                out[key] = floor
        if isinstance(out.get("h"), (int, float)):  # room for one line at that size
            out["h"] = max(out["h"], _round(out.get("size", floor) * 1.2 * 25.4 / 72))
    return out


def _round_box(e: Layout) -> bool:
    """A disc or a pill (a badge): its corner radius is about half its smaller side."""
    w, h, r = e.get("w") or 0, e.get("h") or 0, e.get("radius") or 0
    return e.get("kind") == "box" and w > 0 and h > 0 and (w == h or 2 * r >= 0.9 * min(w, h))


def _scale_about_centre(element: Layout, sx: float, sy: float, even: float) -> Layout:
    if element.get("kind") == "icon":
        w = h = element.get("size", 0)
    else:
        w, h = element["w"], element["h"]
    cx, cy = (element.get("x", 0) + w / 2) * sx, (element.get("y", 0) + h / 2) * sy
    out = dict(element)
    for key in EVEN_KEYS + ("w", "h"):
        if isinstance(out.get(key), (int, float)):
            out[key] = _round(out[key] * even)
    out["x"], out["y"] = _round(cx - w * even / 2), _round(cy - h * even / 2)
    return out


def scaled_layout(data: Layout, from_mm: tuple[float, float], to_mm: tuple[float, float],
                  size_name: str | None) -> Layout:
    """A layout (frame and elements, already resolved: no `extends`) redrawn for `to_mm`."""
    sx, sy = to_mm[0] / from_mm[0], to_mm[1] / from_mm[1]
    out: Layout = {"size": size_name or {"width": to_mm[0], "height": to_mm[1]}}
    if data.get("description"):
        out["description"] = data["description"]
    for part in ("frame", "elements"):
        if data.get(part):
            out[part] = [scale_element(e, sx, sy) for e in data[part]]
    return out


def merge_elements(parent: list[Layout], child: list[Layout]) -> list[Layout]:
    """`extends` by hand: a child's element with the same id replaces the parent's."""
    by_id = {e["id"]: e for e in child if e.get("id")}
    merged = [by_id.pop(e["id"]) if e.get("id") in by_id else e for e in parent]
    return merged + [e for e in child if not e.get("id") or e["id"] in by_id]


def read_layout(path: Path) -> Layout:
    return yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}


def dump_layout(layout: Layout, comment: str) -> str:
    """YAML with one element per line, as the shipped layouts are written."""
    lines = [f"# {line}" if line else "#" for line in comment.splitlines()]
    size = layout["size"]
    lines.append(f"size: {size if isinstance(size, str) else yaml.safe_dump(size, default_flow_style=True).strip()}")
    if layout.get("description"):
        lines.append("description: " + yaml.safe_dump(layout["description"], width=10_000).strip().removesuffix("..."
                                                                                                        ).strip())
    for part in ("frame", "elements"):
        if layout.get(part):
            lines.append(f"{part}:")
            for e in layout[part]:
                lines.append("  - " + yaml.safe_dump(e, default_flow_style=True, width=10_000, sort_keys=False,
                                                     allow_unicode=True).strip())
    return "\n".join(lines) + "\n"

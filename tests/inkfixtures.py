"""Packs that put the layout checks on the spot (issue 39): text, icons, statistics, hex and
square shapes at every trim edge, text on flat colours, on art, on the placeholder emblem, in
the frame (a PDF form) and on backs, a card type of its own size, elements that draw nothing.

tests/test_ink_record.py holds the findings of every one of them (and of every shipped pack)
to the findings the checks gave when they read each element back from its own PDF page
through PDFium (recorded in tests/fixtures/ink_findings.json before the checks changed), and
to that read-back itself (tests/inkoracle.py).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from generator.pack.scaffold import create_pack

REPO = Path(__file__).resolve().parents[1]

# icons named here rather than listed from the renderer: the recorded findings must not move
# when an icon is added
ICONS = ["agility", "area", "attack", "boss", "damage", "feat", "health", "hex", "indirect", "intelligence",
         "move", "points", "push", "range", "sight", "slot", "strength", "fall", "height"]

EDGES = [
    '{id: left-regular, kind: text, x: 1.2, y: 14, w: 20, h: 5, text: "Edge gyp", size: 7}',
    '{id: left-bold, kind: text, x: 2.0, y: 20, w: 20, h: 5, text: "Bold edge", font: bold, size: 9}',
    '{id: left-italic, kind: text, x: 2.6, y: 26, w: 20, h: 5, text: "Jagged italic", font: italic, size: 8}',
    '{id: left-bolditalic, kind: text, x: 2.9, y: 32, w: 20, h: 5, text: "(quiet)", font: bold-italic, size: 8}',
    '{id: right-aligned, kind: text, x: 40, y: 14, w: 22.5, h: 5, text: "right W", size: 8, align: right}',
    '{id: right-centred, kind: text, x: 45, y: 20, w: 18, h: 5, text: "centre wide text", size: 7, min_size: 4, align: center}',
    '{id: top-text, kind: text, x: 20, y: 0.8, w: 20, h: 4, text: "Top ÅÉ", size: 7}',
    '{id: bottom-text, kind: text, x: 20, y: 83.5, w: 20, h: 5, text: "bottom gyp", size: 7, valign: bottom}',
    '{id: bottom-many, kind: text, x: 3.5, y: 70, w: 30, h: 18.5, text: "A long text that wraps over several '
    'lines and shrinks to fit the box right down to the bottom edge of the card, with quips", size: 9, '
    'min_size: 5, valign: bottom}',
    '{id: inline-icons, kind: text, x: 1.8, y: 38, w: 40, h: 6, text: ":strength: 2 and :range: 3 **bold** *it*", '
    'size: 7}',
    '{id: keyword-run, kind: text, x: 2.5, y: 44, w: 50, h: 5, text: "Exhaust it, then exhaust again", size: 7}',
    '{id: middle-text, kind: text, x: 1.0, y: 50, w: 61.5, h: 5, text: "Middle", size: 7, align: center}',
    '{id: empty-text, kind: text, x: 0, y: 0, w: 0, h: 0, text: "{{ \'\' }}"}',
    '{id: skipped, kind: text, when: "false", x: 0.5, y: 60, w: 10, h: 5, text: "never", size: 7}',
]

ICON_ROW = [f'{{id: icon-{name}, kind: icon, x: {0.5 + (i % 10) * 6.2:.1f}, y: {0.4 if i < 10 else 84.0}, '
            f'size: 4, name: "{name}"}}' for i, name in enumerate(ICONS)]
ICON_MORE = [
    '{id: icon-coloured, kind: icon, x: 1.0, y: 40, size: 5, name: "health", color: "#123456"}',
    '{id: icon-unknown, kind: icon, x: 59.0, y: 40, size: 4, name: "no-such-icon"}',
    '{id: icon-set, kind: icon, x: 2.2, y: 50, size: 3, name: "{{ set.symbol }}"}',
    '{id: stats-left, kind: stats, x: 0.5, y: 60, w: 20, h: 5, items: "[[\'strength\', 12], [\'range\', 3]]", '
    'size: 8}',
    '{id: stats-right, kind: stats, x: 42, y: 66, w: 21.5, h: 5, items: "card.stats", size: 9}',
    '{id: stats-wide, kind: stats, x: 5, y: 72, w: 8, h: 4, items: "[[\'health\', \'WWWWWW\'], [\'agility\', 1]]", '
    'size: 8}',
]

SHAPES = [
    '{id: hex-left, kind: hexshape, x: 0.5, y: 10, w: 12, h: 12, hexes: "[[0, 0], [1, 0], [0, 1]]"}',
    '{id: hex-one, kind: hexshape, x: 51, y: 10, w: 12.5, h: 12, hexes: "[]", size: 6}',
    '{id: hex-bottom, kind: hexshape, x: 20, y: 78, w: 20, h: 10.9, hexes: "[[0, 0], [1, -1], [2, -1], [-1, 1]]"}',
    '{id: squares-top, kind: squares, x: 20, y: 0.2, w: 20, h: 8, cells: "[[0, 0], [1, 0], [2, 0], [1, 1]]"}',
    '{id: squares-right, kind: squares, x: 55, y: 30, w: 8.5, h: 8, cells: "[[0, 0]]", size: 4}',
    '{id: squares-empty, kind: squares, x: 0, y: 40, w: 5, h: 5, cells: "[]"}',
    '{id: line-near, kind: line, x: 0.5, y: 60, x2: 30, y2: 62, stroke: "#000000", stroke_width: 0.5}',
]

CONTRAST = [
    '{id: dark-bar, kind: box, x: 5, y: 14, w: 50, h: 12, fill: "#1f4e7a"}',
    '{id: red-on-blue, kind: text, x: 6, y: 15, w: 40, h: 5, text: "Attack", size: 8, color: "#7a1f1f"}',
    '{id: white-on-blue, kind: text, x: 6, y: 20, w: 40, h: 5, text: "title", size: 8, color: "#ffffff"}',
    '{id: keyword-on-blue, kind: text, x: 30, y: 20, w: 25, h: 5, text: "exhaust now", size: 8, color: "#ffffff"}',
    '{id: keyword-coloured, kind: text, x: 30, y: 15, w: 25, h: 5, text: "Exhaust twice", size: 8, '
    'color: "#ffffff", keyword_color: "#1f4e7a"}',
    '{id: cream-bar, kind: box, x: 5, y: 27, w: 50, h: 6, radius: 2, fill: "#f8f4ea", stroke: "#000000"}',
    '{id: grey-on-cream, kind: text, x: 6, y: 28, w: 40, h: 4, text: "faint", size: 6, color: "#8a8171"}',
    '{id: dark-on-cream, kind: text, x: 30, y: 28, w: 20, h: 4, text: "fine", size: 6, color: "#6e6658"}',
    '{id: half-on-bar, kind: text, x: 2, y: 34, w: 60, h: 5, text: "half on the bar and half on the paper", '
    'size: 7, color: "#dddddd"}',
    '{id: bar-two, kind: box, x: 30, y: 34, w: 30, h: 5, fill: "#eeeeee"}',
    '{id: on-line, kind: line, x: 5, y: 42, x2: 55, y2: 42, stroke: "#ffff00", stroke_width: 3}',
    '{id: yellow-on-line, kind: text, x: 6, y: 40, w: 40, h: 4, text: "on a thick line", size: 7, color: "#eeee00"}',
    '{id: art-box, kind: image, x: 5, y: 46, w: 50, h: 20, fill: "#333333", emblem: "hex", color: "#444444"}',
    '{id: on-placeholder, kind: text, x: 6, y: 47, w: 20, h: 5, text: "on grey", size: 8, color: "#3a3a3a"}',
    '{id: on-emblem, kind: text, x: 20, y: 53, w: 20, h: 6, text: "on the emblem", size: 8, min_size: 5, color: "#4a4a4a"}',
    '{id: multi-line, kind: text, x: 6, y: 68, w: 25, h: 12, text: "several lines of grey text on the panel '
    'below the art, one after another", size: 7, color: "#aaaaaa"}',
    '{id: stats-on-bar, kind: stats, x: 6, y: 21, w: 20, h: 4, items: "[[\'strength\', 5]]", size: 7, '
    'color: "#1f4e7a"}',
]

FRAME = [
    '{id: frame-edge-text, kind: text, x: 1.0, y: 62, w: 30, h: 5, text: "frame text at the edge", size: 7}',
    '{id: frame-dark, kind: box, x: 35, y: 62, w: 25, h: 6, fill: "#222222"}',
    '{id: frame-low, kind: text, x: 36, y: 62.5, w: 22, h: 5, text: "dim", size: 8, color: "#333333"}',
    '{id: frame-icon, kind: icon, x: 0.3, y: 70, size: 4, name: "slot"}',
]

BACK = """size: poker
elements:
  - {id: background, kind: box, bleed: true, fill: "{{ set.color }}"}
  - {id: border, kind: box, x: 3.0, y: 3.0, w: 57.5, h: 82.9, radius: 3.0, stroke: "#ffffff", stroke_width: 0.6}
  - {id: emblem, kind: icon, x: 1.0, y: 29.45, size: 20, name: "{{ set.symbol }}", color: "#ffffff"}
  - {id: game, kind: text, x: 1.5, y: 10, w: 51.5, h: 8, text: "{{ pack.name }}", font: bold, size: 14, min_size: 8,
     valign: middle, color: "#ffffff", hyphenate: false}
  - {id: low, kind: text, x: 6, y: 60, w: 51.5, h: 7, text: "{{ set.name }}", size: 11, color: "#3f6d60"}
  - {id: stats, kind: stats, x: 40, y: 80, w: 23, h: 6, items: "[['hex', 9]]", size: 9}
"""


def _append(layout: Path, elements: list[str], frame: list[str] | None = None) -> None:
    text = layout.read_text(encoding="utf-8") + "".join(f"  - {e}\n" for e in elements)
    if frame:
        text += "frame:\n" + "".join(f"  - {e}\n" for e in frame)
    layout.write_text(text, encoding="utf-8")


def _more_cards(root: Path, cards: str) -> None:
    path = root / "cards" / "units.yaml"
    path.write_text(path.read_text(encoding="utf-8") + cards, encoding="utf-8")


MORE_CARDS = """  - id: second-unit
    name: Second Unit with a Long Name That Shrinks
    type: unit
    set: core
    points: 0
    role: Guard
    stats: {power: 14}
    text: "Exhaust: *each* foe within :range: 2 takes :damage: 1. **Then** draw a card; if it is a unit, exhaust it."
  - id: third-unit
    name: Third
    type: unit
    set: core
    points: 7
    role: Striker
    stats: {power: 1}
    flavour: ""
    text: "Short."
"""


def make(name: str, tmp: Path) -> Path:
    """Build fixture `name` in `tmp` and return its pack folder."""
    if name == "sizes":
        root = create_pack("inksizes", tmp, size="tarot")
        layout = root / "templates" / "cards" / "unit.yaml"
        _append(layout, [e.replace("62.5", "69.5") for e in EDGES[:8]] + ICON_ROW[:6] + SHAPES[:3])
        return root
    root = create_pack(f"ink{name}", tmp)
    layout = root / "templates" / "cards" / "unit.yaml"
    _more_cards(root, MORE_CARDS)
    if name == "edges":
        _append(layout, EDGES)
    elif name == "icons":
        _append(layout, ICON_ROW + ICON_MORE)
    elif name == "shapes":
        _append(layout, SHAPES)
    elif name == "contrast":
        _append(layout, CONTRAST)
    elif name == "frame":
        _append(layout, EDGES[:2], frame=FRAME)
        (root / "templates" / "cards" / "back.yaml").write_text(BACK, encoding="utf-8")
    elif name == "art":
        (root / "art").mkdir(exist_ok=True)
        shutil.copy(REPO / "tests" / "corpus" / "art" / "valid-png.png", root / "art" / "face.png")
        (root / "art" / "face.svg").write_text(
            '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">'
            '<rect x="0" y="0" width="40" height="30" fill="#204060"/>'
            '<circle cx="20" cy="15" r="9" fill="#ffcc00" stroke="#000000" stroke-width="2"/></svg>',
            encoding="utf-8")
        cards = (root / "cards" / "units.yaml").read_text(encoding="utf-8")
        cards = cards.replace("    flavour: \"Everything", "    art: art/face.png\n    flavour: \"Everything", 1)
        cards = cards.replace("  - id: third-unit\n", "  - id: third-unit\n    art: art/face.svg\n", 1)
        (root / "cards" / "units.yaml").write_text(cards, encoding="utf-8")
        _append(layout, [
            '{id: on-art, kind: text, x: 5, y: 14, w: 30, h: 6, text: "on the art", size: 9, color: "#ffffff"}',
            '{id: art-edge, kind: image, x: 0.5, y: 60, w: 20, h: 15}',
            '{id: on-art-edge, kind: text, x: 1.0, y: 61, w: 18, h: 6, text: "edge art", size: 8, color: "#111111"}',
        ])
    else:
        raise KeyError(name)
    return root


NAMES = ["edges", "icons", "shapes", "contrast", "frame", "art", "sizes"]

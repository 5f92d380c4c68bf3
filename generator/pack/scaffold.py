"""`pnp new NAME`: a small, valid pack to start a game of one's own from."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from pydantic import BaseModel

from generator.core.errors import InputError, Location, Problem
from generator.core.staging import output_error
from generator.pack.model import ID_MAX_LENGTH, NAME_MAX_LENGTH
from generator.core.resources import TEMPLATES
from generator.pack.load import load_pack
from generator.pack.schema_export import write_schemas
from generator.pack.layout_scale import dump_layout, merge_elements, parse_size, read_layout, scaled_layout

SHARED_LAYOUTS = TEMPLATES / "cards"  # the shared frame and back

GAME = """\
# yaml-language-server: $schema=schemas/game.schema.json
# Your game. Every key is described in docs/formats.md.
id: {id}
name: {title}
version: "0.1.0"
summary: A new game made with pnp.
card_size: poker
stats:
  power: {{name: Power, icon: strength}}
keywords:
  exhaust: {{name: Exhaust, kind: term, text: Turn the card sideways; it cannot be used again this round.}}
sets:
  core: {{name: Core Set, side: any, color: "#2f5d50", symbol: neutral}}
card_types:
  unit:
    name: Unit
    kit_copies: 2
    fields:
      stats: {{type: stats, required: true}}
      role: {{type: choice, choices: [Striker, Guard], required: true}}
"""

CARDS = """\
# yaml-language-server: $schema=../schemas/cards.{id}.schema.json
cards:
  - id: first-unit
    name: First Unit
    type: unit
    set: core
    points: 3
    role: Striker
    stats: {{power: 2}}
    flavour: "Everything starts somewhere."
    text: "When this unit attacks, it gains +1 :strength:. Exhaust it afterwards."
"""

LAYOUT_SCHEMA = "# yaml-language-server: $schema=../../schemas/layout.schema.json\n"
LAYOUT = LAYOUT_SCHEMA + """\
# The layout of the `unit` card type: the shared frame plus a role line and its stats.
extends: base
elements:
  - {id: type-line, kind: text, x: 4.0, y: 41.3, w: 49.5, h: 3.8, text: "Unit — {{ card.role }}", font: italic, size: 7.5, min_size: 5.5, valign: middle, hyphenate: false}
  - {id: stats, kind: stats, x: 3.4, y: 45.8, w: 56.7, h: 5.4, items: "card.stats", size: 8.5}
"""

RULES = """\
# How to play {{{{ game.name }}}}

{{{{ game.name }}}} is a new game. Describe the goal here, then how a turn goes.

## Components

The kit holds {{{{ count('unit') }}}} different units.

## Terms

{{% for k in keywords.values() %}}- **{{{{ k.name }}}}**: {{{{ k.text }}}}
{{% endfor %}}
"""


def sized_layouts(size: str) -> tuple[str, dict[str, str]]:
    """game.yaml's `card_size` value and the layouts a pack of that size needs: the shared
    poker frame (with the unit's own lines) and back, scaled to the size."""
    name, mm = parse_size(size)
    if name == "poker":
        return "poker", {}
    base, back = (read_layout(SHARED_LAYOUTS / f"{n}.yaml") for n in ("base", "back"))
    unit = yaml.safe_load(LAYOUT)
    face = {"description": "Unit - the shared frame redrawn for this card size, with the role line and stats.",
            "frame": base.get("frame", []), "elements": merge_elements(base.get("elements", []), unit["elements"])}
    poker = (63.5, 88.9)
    note = (f"The `unit` card type at {mm[0]:g} x {mm[1]:g} mm: `pnp new --size` scaled the shared poker\n"
            "layout to this size. Coordinates are mm from the trim's top-left corner, y down; see docs/layouts.md.")
    back_note = f"The card back at {mm[0]:g} x {mm[1]:g} mm (scaled from the shared poker back)."
    files = {"templates/cards/unit.yaml": dump_layout(scaled_layout(face, poker, mm, name), note),
             "templates/cards/back.yaml": dump_layout(scaled_layout(back, poker, mm, name), back_note)}
    card_size = name or f"{{width: {mm[0]:g}, height: {mm[1]:g}}}"
    return card_size, files


def create_pack(name: str, root: Path = Path("."), size: str = "poker",
                layout_model: type[BaseModel] | None = None) -> Path:
    """A new pack `root/<id>`, with its JSON Schemas in `schemas/` (the card layout's too, given
    the renderer's layout model) named by the `$schema` line of each YAML file."""
    pack_id = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not pack_id:
        raise InputError([Problem("cli.name", f"`{name}` gives no usable pack id", Location("command line"),
                                  expected="a name with letters or digits", fix="e.g. pnp new my_game")])
    title = " ".join(w.capitalize() for w in re.split(r"[^A-Za-z0-9]+", name) if w) or pack_id
    if len(pack_id) > ID_MAX_LENGTH or len(title) > NAME_MAX_LENGTH:
        raise InputError([Problem("cli.name", f"the name is {len(name)} characters long, too long for a game",
                                  Location("command line"), found=f"{len(name)} characters",
                                  expected=f"a name of at most {NAME_MAX_LENGTH} characters whose folder name "
                                  f"({pack_id[:20]}…) is at most {ID_MAX_LENGTH}",
                                  fix="choose a shorter name; the rulebook can say more")])
    target = root / pack_id
    try:
        exists = target.exists()
    except OSError as exc:  # the --root path is no folder, or cannot be looked into
        raise output_error(exc, target) from None
    if exists:
        raise InputError([Problem("cli.exists", f"{target} already exists", Location(str(target)),
                                  expected="a new folder", fix="choose another name, or remove the folder")])
    card_size, layouts = sized_layouts(size)
    files = {
        "game.yaml": GAME.format(id=pack_id, title=title).replace("card_size: poker", f"card_size: {card_size}"),
        "cards/units.yaml": CARDS.format(id=pack_id),
        "templates/cards/unit.yaml": LAYOUT,
        "rules/01-how-to-play.md": RULES.format(),
        **{rel: LAYOUT_SCHEMA + text for rel, text in layouts.items()},
    }
    try:
        for rel, text in files.items():
            path = target / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        for folder in ("presets", "maps", "art"):
            (target / folder).mkdir(exist_ok=True)
    except OSError as exc:  # --root read-only, full, or a file in the way: one clear error
        raise output_error(exc, target) from None
    write_schemas(load_pack(target), target / "schemas", layout_model=layout_model)
    return target

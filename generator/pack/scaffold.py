"""`pnp new NAME`: a small, valid pack to start a game of one's own from."""

from __future__ import annotations

import re
from pathlib import Path

from generator.core.errors import InputError, Location, Problem

GAME = """\
# yaml-language-server: $schema=../../schemas/game.schema.json
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
cards:
  - id: first-unit
    name: First Unit
    type: unit
    set: core
    points: 3
    role: Striker
    stats: {power: 2}
    flavour: "Everything starts somewhere."
    text: "When this unit attacks, it gains +1 :strength:. Exhaust it afterwards."
"""

LAYOUT = """\
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


def create_pack(name: str, root: Path = Path("card_data")) -> Path:
    pack_id = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
    if not pack_id:
        raise InputError([Problem("cli.name", f"`{name}` gives no usable pack id", Location("command line"),
                                  expected="a name with letters or digits", fix="e.g. pnp new my_game")])
    target = root / pack_id
    if target.exists():
        raise InputError([Problem("cli.exists", f"{target} already exists", Location(str(target)),
                                  expected="a new folder", fix="choose another name, or remove the folder")])
    title = " ".join(w.capitalize() for w in re.split(r"[^A-Za-z0-9]+", name) if w) or pack_id
    files = {
        "game.yaml": GAME.format(id=pack_id, title=title),
        "cards/units.yaml": CARDS,
        "templates/cards/unit.yaml": LAYOUT,
        "rules/01-how-to-play.md": RULES.format(),
    }
    for rel, text in files.items():
        path = target / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in ("presets", "maps", "art"):
        (target / folder).mkdir(exist_ok=True)
    return target

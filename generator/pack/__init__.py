"""pack: what a game pack is and how it is read: the pydantic models, the loader (game.yaml,
card files, builds), the schemas derived from a pack, font and art checks, card art and the
bundled icon set (game-icons.net: names, authors, outlines; package data in data/), the card list,
`pnp new` scaffolding, `pnp example` (copying a shipped game) and the JSON Schema export.

May import: generator.core, generator.grids. Never rules, maps, render or cli."""

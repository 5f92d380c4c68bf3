"""A pack's own icons: game.yaml `icons: {name: icons/name.svg}` adds SVG files (inside the
pack), and `icons: {name: {icon: lantern-flame}}` icons of the bundled set, to the built-in
icons, for `:name:` in card text and `icon` elements in layouts."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from generator.core.errors import InputError, Location, Problem
from generator.pack.art import PackIcon
from generator.render.base.icons import known_icons


def pack_icons(pack, art) -> dict:
    """name -> svglib drawing (read through the pack's art library: the same containment and
    safety checks as card art), or the PackIcon naming an icon of the bundled set."""
    out = {}
    game_file = getattr(pack, "game_file", None) or str(Path(pack.root) / "game.yaml")
    for name, relative in (getattr(pack.spec, "icons", None) or {}).items():
        owner = SimpleNamespace(id=f"icon {name}", location=Location(str(game_file)))
        if name in known_icons():
            raise InputError([Problem("icon.duplicate", f"the pack's icon `{name}` has the name of a built-in "
                                      "icon", owner.location, found=name, expected="a new icon name",
                                      fix=f"rename it (e.g. `{name}-2`)")])
        if isinstance(relative, PackIcon):
            out[name] = relative
            continue
        if not relative.lower().endswith(".svg"):
            raise InputError([Problem("icon.type", f"the pack's icon `{name}` must be an SVG file",
                                      owner.location, found=relative, expected="a .svg file inside the pack")])
        kind, drawing, _w, _h = art.load(relative, owner)
        out[name] = drawing
    return out

"""`pnp layout PACK [TYPE ...]`: give card types of their own size a face and back layout of
that size, scaled from the layouts they would otherwise use (usually the shared poker frame
and back). Without TYPE: every type whose layout is drawn for another size. Existing files
are never overwritten; the designer edits the written layouts from there."""

from __future__ import annotations

from pathlib import Path

import click

from generator.core.errors import InputError, Location, Problem, did_you_mean


def layouts_to_write(pack, type_ids: list[str]) -> dict[Path, str]:
    """File -> text of the layouts the types need (only those that do not fit their size)."""
    from generator.pack.layout_scale import dump_layout, scaled_layout
    from generator.render.cards.fit import layout_fits
    from generator.render.cards.faces import CardShared
    shared = CardShared(pack)
    folder = Path(pack.root) / "templates" / "cards"
    chosen = type_ids or list(pack.spec.card_types)
    unknown = [t for t in chosen if t not in pack.spec.card_types]
    if unknown:
        guess = did_you_mean(unknown[0], pack.spec.card_types)
        raise InputError([Problem("layout.type", f"{pack.spec.name} has no card type `{unknown[0]}`",
                                  Location(pack.game_file), found=unknown[0],
                                  expected=", ".join(pack.spec.card_types),
                                  fix=f"did you mean `{guess}`?" if guess else None)])
    out = {}
    for type_id in chosen:
        size = pack.card_size_mm(type_id)
        # the pack's own layouts of the type, else the generic frame and back (the shared folder
        # also holds Boss Fight's layouts of its own types, which are no start for another game)
        face = shared.layouts.get(type_id if (folder / f"{type_id}.yaml").is_file() else "base")
        back = shared.back_layout(type_id) if (folder / f"back-{type_id}.yaml").is_file() else shared.layouts.get("back")
        for name, layout in ((type_id, face), (f"back-{type_id}", back)):
            target = folder / f"{name}.yaml"
            if target.exists() or layout.size is None or (not type_ids and layout_fits(layout, size)):
                continue
            data = {"description": f"`{type_id}` cards at {size[0]:g} x {size[1]:g} mm, scaled from `{layout.name}`.",
                    "frame": [_plain(e) for e in layout.frame], "elements": [_plain(e) for e in layout.elements]}
            note = (f"The {'back' if name.startswith('back-') else 'face'} of `{type_id}` cards, scaled by "
                    f"`pnp layout` from `{layout.name}` ({layout.size[0]:g} x {layout.size[1]:g} mm).\n"
                    "Coordinates are mm from the trim's top-left corner, y down; see docs/layouts.md.")
            out[target] = dump_layout(scaled_layout(data, layout.size, size, None), note)
    return out


def _plain(element) -> dict:
    return element.model_dump(exclude_defaults=True)


@click.command(name="layout")
@click.argument("pack_dir", type=click.Path(path_type=Path, file_okay=False))
@click.argument("type_ids", nargs=-1)
def layout_command(pack_dir, type_ids):
    """Write a face and back layout at their own size for card types that lack one (scaled
    from the shared frame); TYPE: only these types."""
    from generator.pack.load import load_pack
    pack = load_pack(pack_dir)
    files = layouts_to_write(pack, list(type_ids))
    if not files:
        click.echo("every card type already has layouts of its own size")
        return
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        click.echo(f"wrote {path}")

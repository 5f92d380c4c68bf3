"""`pnp watch`: rebuild the outputs a change touches, as soon as a pack file is saved."""

from __future__ import annotations

import time
from pathlib import Path

import click

from generator.cli.common import current_pack, kit_folder_option, refused_verdict
from generator.cli.progress import echo_line
from generator.core.errors import InputError, Location, Problem
from generator.core.papers import DEFAULT_PAPER, PAPERS
from generator.core.resources import TEMPLATES
from generator.export.options import BuildOptions



def outputs_for(changed: set[Path], pack_root: Path) -> set[str]:
    """Which parts of the kit a set of changed files affects."""
    parts: set[str] = set()
    root = pack_root.resolve()
    for path in changed:
        if path.name.startswith((".~lock", "~$")):
            continue  # a spreadsheet program's lock file: the sheet itself has not changed
        path = path.resolve()
        try:
            rel = path.relative_to(root)
        except ValueError:
            rel = None
        if rel is not None:
            top = rel.parts[0] if rel.parts else ""
            if top in ("cards", "art", "templates"):
                parts.add("cards")
            elif top == "maps":
                parts.add("maps")
            elif top == "rules":
                parts.add("rulebook")
            elif top == "presets":
                parts.add("rulebook")
            else:  # game.yaml and anything else: everything may change
                parts.update({"cards", "maps", "rulebook", "pieces"})
        elif TEMPLATES in path.parents:
            parts.add("rulebook" if "rulebook" in path.parts else "cards")
    return parts


def only_card_files(changed: set[Path], pack_root: Path) -> bool:
    """Every change is to a card file (cards/*.yaml and the like): the quick path may redraw
    only the sheets of the cards that changed; anything else (game.yaml, art, layouts) may
    change every face."""
    root = pack_root.resolve()
    for path in changed:
        if path.name.startswith((".~lock", "~$")):
            continue
        try:
            rel = path.resolve().relative_to(root)
        except ValueError:
            return False
        if not rel.parts or rel.parts[0] != "cards":
            return False
    return True


def watch(pack_dir: Path, echo, paper: str = DEFAULT_PAPER, out_dir: Path | None = None, stop=None) -> None:
    # deferred: watchfiles loads only under `pnp watch`
    from watchfiles import watch as watch_files

    from generator.build import SheetMemory, build_folder, redraw_cards  # deferred: ReportLab takes a second to load
    from generator.kit import OUTPUT_ROOT

    # the saved calibration, as `pnp build` uses it
    options, note = BuildOptions.make(paper=paper).with_calibration()
    if note:
        echo(note)

    memory = SheetMemory()  # the last cards.pdf, for redrawing only the sheets an edit touches

    def rebuild(parts, quick: bool = False, first: bool = False):
        start = time.perf_counter()
        try:
            if quick and parts == {"cards"}:
                lines = redraw_cards(pack_dir, options.part("cards"), out_dir, memory, verdict=refused_verdict)
                if lines is not None:
                    for line in lines:
                        echo(line)
                    echo(f"rebuilt cards in {time.perf_counter() - start:.2f} s")
                    return
                echo(f"building all of cards.pdf: {memory.reason}")
            for part in sorted(parts):
                for line in build_folder(pack_dir, None, options.part(part), out_dir,
                                         memory=memory if part == "cards" else None, verdict=refused_verdict):
                    echo(line)
            echo(f"rebuilt {', '.join(sorted(parts))} in {time.perf_counter() - start:.2f} s")
        except InputError as exc:
            if first and any(p.code.startswith(("output.", "pack.missing")) for p in exc.problems):
                raise  # no edit to a pack mends the output folder, or a folder that is no pack: exit 2 now
            for p in exc.problems:
                echo(f"{p.location}: {p.message}" + (f" ({p.fix})" if p.fix else ""))
            echo("not rebuilt: fix the error above and save again (the previous files are untouched)")

    rebuild({"cards"}, first=True)
    echo(f"watching {pack_dir} and templates/ (Ctrl-C to stop)")
    # the outputs may lie inside the pack (`pnp watch` run in the pack's folder): writing them is no change
    written = Path(out_dir or OUTPUT_ROOT).resolve()
    try:
        for changes in watch_files(pack_dir, TEMPLATES, stop_event=stop, debounce=50, step=20):
            _rebuild_for(changes, written, pack_dir, rebuild)
    except OSError as exc:  # a folder the system will not let us watch (permissions, too many watches)
        raise InputError([Problem("watch.folder", f"cannot watch {pack_dir}: {exc}", Location(str(pack_dir)),
                                  expected="a pack folder you may read",
                                  fix="check its permissions, or build it once with `pnp build`")]) from None


def _rebuild_for(changes, written: Path, pack_dir: Path, rebuild) -> None:
    """Rebuild what one batch of changed files touches (the outputs' own folder is no change)."""
    changed = {Path(p) for _, p in changes}
    changed = {p for p in changed if p.resolve() != written and written not in p.resolve().parents}
    parts = outputs_for(changed, Path(pack_dir))
    if parts:
        rebuild(parts, quick=only_card_files(changed, Path(pack_dir)))


@click.command(name="watch")
@click.argument("pack_dir", required=False, type=click.Path(path_type=Path, file_okay=False))
@click.option("--paper", type=click.Choice(PAPERS), default=DEFAULT_PAPER, show_default=True)
@kit_folder_option
def watch_command(pack_dir, paper, out_dir):
    """Rebuild the kit's outputs whenever a pack (default: the current folder) or template file changes."""
    pack_dir = pack_dir or current_pack()
    try:
        watch(pack_dir, echo_line, paper=paper, out_dir=out_dir)  # warnings to stderr
    except KeyboardInterrupt:
        pass

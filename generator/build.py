"""`pnp build`: load the pack, then write each requested output atomically.

The home kit is four independent parts (cards, pieces, maps, rulebook); a whole-kit build
runs them in two worker processes, since the machines have two cores and ReportLab is
single-threaded. Each part's bytes do not depend on which process made it.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.core.errors import InputError
from generator.export.raster import export_pngs, export_tts
from generator.kit import build_faces, output_dir, pack_faces
from generator.maps.load import load_pack_maps
from generator.pack.load import load_build, load_pack, load_presets
from generator.pack.model import Build, Pack
from generator.preflight.layout import layout_warning_lines
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import (write_calibration, write_gutterfold, write_home_sheets,
                                           write_print_shop)
from generator.render.maps.document import build_maps_pdf, export_map_pngs
from generator.render.pieces.document import build_pieces_pdf
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.quickref import build_quick_reference_pdf

HOME_PARTS = ("rulebook", "maps", "cards", "pieces")  # longest first, for the worker pool
WORKERS = 2


@dataclass(frozen=True)
class Options:
    paper: str = "a4"
    duplex: str = "long-edge"
    back_offset: tuple = (0.0, 0.0)
    png_size: str = "mpc"
    # print services, CMYK, cutting machines, TTS (generator/export/services.py)
    color: str = "rgb"
    icc: str | None = None
    ink_limit: float = 240.0
    cut: str | None = None
    cut_inset: float = 0.0
    tts_url_base: str | None = None


def _timed(path, fn, *args, **kw) -> str:
    start = time.perf_counter()
    info = fn(*args, **kw) or {}
    detail = ", ".join(f"{v} {k}" for k, v in info.items() if isinstance(v, (int, float)))
    return f"wrote {path} ({detail}{', ' if detail else ''}{time.perf_counter() - start:.2f} s)"


def _home_part(part: str, pack: Pack, build: Build | None, stem: str | None, out: Path, opt: Options) -> list[str]:
    lines = []
    if part == "cards":
        shared = CardShared(pack)
        # the layout checks, as warnings, made here where the card resources already are
        lines.extend(layout_warning_lines(pack, build, shared))
        faces = build_faces(pack, build, shared) if build else pack_faces(pack, shared)
        name = f"{stem}-cards.pdf" if stem else "cards.pdf"
        lines.append(_timed(out / name, write_home_sheets, pack, faces, out / name, sheet=opt.paper,
                            duplex=opt.duplex, back_offset=opt.back_offset, shared=shared))
        if not build:
            lines.append(_timed(out / "calibration.pdf", write_calibration, pack, out / "calibration.pdf",
                                sheet=opt.paper, duplex=opt.duplex if opt.duplex != "none" else "long-edge"))
    elif part == "pieces" and pack.spec.pieces is not None:
        name = f"{stem}-pieces.pdf" if stem else "pieces.pdf"
        lines.append(_timed(out / name, build_pieces_pdf, pack, out / name, paper=opt.paper, build=build,
                            duplex=opt.duplex, back_offset=opt.back_offset))
    elif part == "maps" and pack.map_files and not build:
        lines.append(_timed(out / "maps.pdf", build_maps_pdf, pack, out / "maps.pdf", paper=opt.paper))
    elif part == "rulebook" and pack.rule_files and not build:
        lines.append(_timed(out / "rulebook.pdf", build_rulebook_pdf, pack, out / "rulebook.pdf", paper=opt.paper))
        lines.append(_timed(out / "quick-reference.pdf", build_quick_reference_pdf, pack,
                            out / "quick-reference.pdf", paper=opt.paper))
    return lines


def _worker(args) -> list[str]:
    part, pack, out, opt = args
    return _home_part(part, pack, None, None, out, opt)


def _read_shared_files(pack: Pack) -> None:
    """Parse the files several parts need (maps, presets) before the pack goes to the workers,
    so each file is read once per build; a broken map is left for the maps part to report."""
    load_presets(pack)
    if pack.map_files:
        try:
            load_pack_maps(pack)
        except InputError:
            pass


def run_build(pack_dir: Path, build_file: Path | None = None, profile: str = "home", paper: str = "a4",
              duplex: str = "long-edge", back_offset=(0.0, 0.0), png_size: str = "mpc", only: str = "all",
              out_dir: Path | None = None, parallel: bool = True, extra: dict | None = None):
    """Yields one line per file written (and a warning line per layout problem)."""
    pack = load_pack(Path(pack_dir))
    build = load_build(build_file, pack) if build_file else None
    out = output_dir(pack, out_dir)
    stem = Path(build_file).stem if build_file else None
    opt = Options(paper, duplex, tuple(back_offset), png_size, **(extra or {}))
    if profile == "home":
        parts = HOME_PARTS if only == "all" else (only,)
        if parallel and build is None and len(parts) > 1:
            _read_shared_files(pack)
            with ProcessPoolExecutor(max_workers=WORKERS) as pool:  # the loaded pack travels, pickled
                results = dict(zip(parts, pool.map(_worker, [(p, pack, out, opt) for p in parts])))
            for part in ("cards", "pieces", "maps", "rulebook"):
                yield from results.get(part, [])
        else:
            for part in ("cards", "pieces", "maps", "rulebook"):
                if part in parts:
                    yield from _home_part(part, pack, build, stem, out, opt)
        return

    shared = CardShared(pack)
    yield from layout_warning_lines(pack, build, shared)
    faces = build_faces(pack, build, shared) if build else pack_faces(pack, shared)
    if profile in ("dtc", "cut", "printplaygames") or (profile == "print-shop" and opt.color == "cmyk"):
        from generator.export.services import run_extra_profile
        yield from run_extra_profile(profile, pack, build, faces, shared, out, stem, opt, _timed)
    elif profile == "gutterfold":
        name = f"{stem}-gutterfold.pdf" if stem else "cards-gutterfold.pdf"
        yield _timed(out / name, write_gutterfold, pack, faces, out / name, sheet=f"gutterfold-{paper}",
                     shared=shared)
    elif profile == "print-shop":
        name = f"{stem}-print-shop.pdf" if stem else "cards-print-shop.pdf"
        yield _timed(out / name, write_print_shop, pack, faces, out / name, shared=shared)
    elif profile == "png":
        folder = out / f"png-{png_size}"
        yield _timed(folder, export_pngs, pack, faces, folder, png_size, shared)
    elif profile == "tts":
        folder = out / "tts"
        yield _timed(folder, export_tts, pack, faces, folder, shared)
        if pack.map_files and build is None:  # maps for the virtual table too, with their hex pitch
            yield _timed(out / "tts" / "maps", export_map_pngs, pack, out / "tts" / "maps")
        from generator.export.tts_save import save_name, write_tts_save
        yield _timed(folder / f"{save_name(pack)}.json", write_tts_save, pack, folder, opt.tts_url_base, build)

"""`pnp build`: load the pack once, then write each requested output atomically."""

from __future__ import annotations

import time
from pathlib import Path

from generator.kit import build_faces, output_dir, pack_faces
from generator.load import load_build, load_pack
from generator.render.cards import CardShared
from generator.render.cardsheets import write_calibration, write_gutterfold, write_home_sheets, write_print_shop


def run_build(pack_dir: Path, build_file: Path | None = None, profile: str = "home", paper: str = "a4",
              duplex: str = "long-edge", back_offset=(0.0, 0.0), png_size: str = "mpc", only: str = "all",
              out_dir: Path | None = None):
    """Yields one line per file written."""
    pack = load_pack(Path(pack_dir))
    shared = CardShared(pack)
    build = load_build(build_file, pack) if build_file else None
    faces = build_faces(pack, build, shared) if build else pack_faces(pack, shared)
    out = output_dir(pack, out_dir)
    stem = Path(build_file).stem if build_file else None

    def timed(label, path, fn, *args, **kw):
        start = time.perf_counter()
        info = fn(*args, **kw) or {}
        detail = ", ".join(f"{v} {k}" for k, v in info.items() if isinstance(v, (int, float)))
        return f"wrote {path} ({detail}{', ' if detail else ''}{time.perf_counter() - start:.2f} s)"

    if profile == "home":
        if only in ("cards", "all"):
            name = f"{stem}-cards.pdf" if stem else "cards.pdf"
            yield timed("cards", out / name, write_home_sheets, pack, faces, out / name, sheet=paper,
                        duplex=duplex, back_offset=back_offset, shared=shared)
            if not build:
                yield timed("calibration", out / "calibration.pdf", write_calibration, pack, out / "calibration.pdf",
                            sheet=paper, duplex=duplex if duplex != "none" else "long-edge")
        if only in ("pieces", "all") and getattr(pack.spec, "pieces", None) is not None:
            from generator.render.pieces import build_pieces_pdf
            name = f"{stem}-pieces.pdf" if stem else "pieces.pdf"
            yield timed("pieces", out / name, build_pieces_pdf, pack, out / name, paper=paper, build=build,
                        duplex=duplex, back_offset=back_offset)
        if build:
            return
        if only in ("maps", "all") and pack.map_files:
            from generator.render.maps import build_maps_pdf, export_map_pngs
            yield timed("maps", out / "maps.pdf", build_maps_pdf, pack, out / "maps.pdf", paper=paper)
            yield timed("map images", out / "maps", export_map_pngs, pack, out / "maps")
        if only in ("rulebook", "all") and pack.rule_files:
            from generator.render.quickref import build_quick_reference_pdf
            from generator.render.rulebook import build_rulebook_pdf
            yield timed("rulebook", out / "rulebook.pdf", build_rulebook_pdf, pack, out / "rulebook.pdf", paper=paper)
            yield timed("quick reference", out / "quick-reference.pdf", build_quick_reference_pdf, pack,
                        out / "quick-reference.pdf", paper=paper)
    elif profile == "gutterfold":
        name = f"{stem}-gutterfold.pdf" if stem else "cards-gutterfold.pdf"
        yield timed("gutterfold", out / name, write_gutterfold, pack, faces, out / name,
                    sheet=f"gutterfold-{paper}", shared=shared)
    elif profile == "print-shop":
        name = f"{stem}-print-shop.pdf" if stem else "cards-print-shop.pdf"
        yield timed("print-shop", out / name, write_print_shop, pack, faces, out / name, shared=shared)
    elif profile in ("png", "tts"):
        from generator.export.raster import export_pngs, export_tts
        if profile == "png":
            folder = out / f"png-{png_size}"
            yield timed("png", folder, export_pngs, pack, faces, folder, png_size, shared)
        else:
            folder = out / "tts"
            yield timed("tts", folder, export_tts, pack, faces, folder, shared)

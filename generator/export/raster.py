"""Raster exports. We rasterize the PDF we already drew (pypdfium2), so a PNG matches
print exactly; pages are shared between two worker processes (the machines have two cores)."""

from __future__ import annotations

import json
import math
import shutil
import tempfile
from pathlib import Path

from generator.core import pdfium, staging
from generator.export.credits import write_credits
from generator.core.workers import PROCESSES as WORKERS, worker_pool
from generator.export.order import plan_files, write_manifest
from generator.pack.model import Pack
from generator.render.cards.faces import CardFace, CardShared
from generator.render.cards.sheets import write_print_shop


DPI = 300
# print services' pixel sizes for a poker card at 300 dpi (PRINT-SPECS.md)
PNG_SIZES = {"mpc": (822, 1122), "tgc": (825, 1125)}
TTS_MAX_COLUMNS, TTS_MAX_ROWS, TTS_MAX_PX = 10, 7, 4096


def _render_pages(args) -> list[str]:
    """Worker: render pages [start, stop) of a PDF to PNG files of exactly (w, h) pixels."""
    pdf_path, jobs = args
    from PIL import Image  # deferred: Pillow loads in the worker that draws, not at start-up
    written = []
    with pdfium.document(pdf_path) as pdf:
        for page_index, target, (w, h), *dpi in jobs:  # dpi, when given, is stored in the PNG
            page = pdf[page_index]
            width_pt = page.get_width()
            # pdfium rounds the bitmap size up: aim a hair under so w × h comes out exact
            scale = (w - 1e-6) / width_pt
            image = pdfium.image(page, scale=scale).convert("RGB")
            page.close()
            if image.size != (w, h):
                image = image.resize((w, h), Image.Resampling.LANCZOS)
            image.save(target, format="PNG", optimize=False, **({"dpi": (dpi[0], dpi[0])} if dpi else {}))
            written.append(target)
    return written


def _run_jobs(pdf_path: Path, jobs: list) -> None:
    if not jobs:
        return
    if len(jobs) < 8:
        _render_pages((str(pdf_path), jobs))
        return
    halves = [jobs[i::WORKERS] for i in range(WORKERS)]
    with worker_pool(WORKERS) as pool:  # terminated, not waited for, if the build stops
        pool.map(_render_pages, [(str(pdf_path), part) for part in halves])


def _unique(faces: list[CardFace]) -> list[CardFace]:
    seen, out = set(), []
    for f in faces:
        key = f.card.id if f.card else f.layout
        if key not in seen:
            seen.add(key)
            out.append(f)
    return out


def _replace_dir(tmp: Path, folder: Path) -> None:
    """Swap a finished folder into place (with the build's other outputs, when staged)."""
    staging.finish(tmp, folder, folder=True)


def png_px(trim_mm: tuple[float, float], size: str = "mpc") -> tuple[int, int]:
    """Pixels of one card face with bleed at 300 dpi: 36 px (mpc) or 1/8 in (tgc) around the
    trim, which gives the services' 822 × 1122 and 825 × 1125 for a poker card."""
    trim_w, trim_h = trim_mm
    if size in PNG_SIZES and (trim_w, trim_h) == (63.5, 88.9):
        return PNG_SIZES[size]
    bleed_px = 37.5 if size == "tgc" else 36
    return (round(trim_w / 25.4 * DPI + 2 * bleed_px), round(trim_h / 25.4 * DPI + 2 * bleed_px))


def export_pngs(pack: Pack, faces: list[CardFace], folder: Path, size: str = "mpc",
                shared: CardShared | None = None) -> dict:
    """One PNG per distinct card face and one per distinct back, with bleed, 300 dpi stored
    in each; each card type at its own size, so a tarot or square card is never stretched to
    the pack's; manifest.csv/.json say each face's back and copies (export/order.py)."""
    bleed_mm = (37.5 if size == "tgc" else 36) / DPI * 25.4
    distinct, backs, rows = plan_files(faces, {t: spec.name for t, spec in pack.spec.card_types.items()},
                                       lambda f: pack.back_key(f.set_id, f.type_id, f.card))
    sizes: dict[tuple[float, float], tuple[int, int]] = {}  # (trim mm) -> px, in first-seen order
    for face, _name in distinct:
        trim = pack.card_size_mm(face.type_id)
        sizes.setdefault(trim, png_px(trim, size))
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=staging.temp_prefix(folder.name), dir=folder.parent))
    try:
        pdf = tmp / "faces.pdf"
        with staging.unstaged():  # a work file inside the staged folder, read back at once
            write_print_shop(pack, [f for f, _ in distinct], pdf, bleed_mm=bleed_mm, shared=shared, backs=True)
        jobs = []
        for i, (face, name) in enumerate(distinct):
            px = sizes[pack.card_size_mm(face.type_id)]
            jobs.append((2 * i, str(tmp / name), px, DPI))
            group = pack.back_key(face.set_id, face.type_id, face.card)
            if backs[group][0] is face:
                jobs.append((2 * i + 1, str(tmp / backs[group][1]), px, DPI))
        _run_jobs(pdf, jobs)
        pdf.unlink()
        write_manifest(tmp, rows, {"pack": pack.spec.id, "version": pack.spec.version, "dpi": DPI,
                                   "bleed_mm": round(bleed_mm, 3),
                                   "sizes": [{"trim_mm": list(trim), "width_px": px[0], "height_px": px[1]}
                                             for trim, px in sizes.items()]})
        lines = [f"{pack.spec.name} {pack.spec.version}: {len(distinct)} card faces and {len(backs)} backs for "
                 f"{sum(r.copies for r in rows)} cards at {DPI} dpi with {bleed_mm:.3f} mm bleed around the trim:"]
        lines += [f"  {px[0]} x {px[1]} px for a {trim[0]:g} x {trim[1]:g} mm card" for trim, px in sizes.items()]
        lines += ["manifest.csv / manifest.json: each face file, its back file, its copies in the kit, the card's "
                  "name and type. Files sharing a back share a number, so a sorted listing keeps each face with "
                  "its back."]
        (tmp / "README.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        write_credits(tmp, pack)
        _replace_dir(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    first = next(iter(sizes.values()), png_px(pack.card_size_mm(), size))
    return {"faces": len(distinct), "backs": len(backs), "cards": len(faces), "width_px": first[0],
            "height_px": first[1], "sizes": len(sizes)}


def tts_card_px(trim_mm: tuple[float, float]) -> tuple[int, int]:
    """The largest card that lets 10 × 7 fit in 4096 × 4096 pixels."""
    w = TTS_MAX_PX // TTS_MAX_COLUMNS
    h = round(w * trim_mm[1] / trim_mm[0])
    if h * TTS_MAX_ROWS > TTS_MAX_PX:
        h = TTS_MAX_PX // TTS_MAX_ROWS
        w = round(h * trim_mm[0] / trim_mm[1])
    return w, h


def _back_sheet(backs: list, cols: int, rows: int, card_px):
    """Each card's own back in the slot of its face; the last slot repeats the first back."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import Image
    sheet = Image.new("RGB", (cols * card_px[0], rows * card_px[1]), "white")
    for i, path in enumerate(backs + [backs[0]] * (cols * rows - len(backs))):
        with Image.open(path) as img:
            sheet.paste(img, ((i % cols) * card_px[0], (i // cols) * card_px[1]))
    return sheet


def hidden_card(card_px: tuple[int, int], color: str):
    """The hidden-card image of a deck whose cards each have their own back: the set's colour
    with a white frame, the same for every card of the deck."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import Image, ImageDraw
    w, h = card_px
    image = Image.new("RGB", (w, h), color)
    inset, width = round(min(w, h) * 0.06), max(2, round(min(w, h) * 0.012))
    ImageDraw.Draw(image).rounded_rectangle((inset, inset, w - 1 - inset, h - 1 - inset), radius=inset,
                                            outline="#ffffff", width=width)
    return image


def export_tts(pack: Pack, faces: list[CardFace], folder: Path, shared: CardShared | None = None) -> dict:
    """Deck sheets for Tabletop Simulator: one deck per set and card type (they share a back),
    up to 69 cards a sheet plus the hidden-card image in the 70th slot, and the back image."""
    # deferred: Pillow loads only when an image is made or read
    from PIL import Image
    groups: dict = {}
    for face in faces:
        groups.setdefault((face.set_id, face.type_id), []).append(face)
    px_of = {key: tts_card_px(pack.card_size_mm(key[1])) for key in groups}  # each type at its own size
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=staging.temp_prefix(folder.name), dir=folder.parent))
    manifest = []
    try:
        distinct = _unique(faces)
        pdf = tmp / "faces.pdf"
        with staging.unstaged():  # a work file inside the staged folder, read back at once
            write_print_shop(pack, distinct, pdf, bleed_mm=0.0, shared=shared, backs=True)
        page_of, backs, jobs = {}, set(), []
        for i, face in enumerate(distinct):
            key = face.card.id if face.card else face.layout
            page_of[key] = tmp / f"f-{i}.png"
            face_px = px_of[(face.set_id, face.type_id)]
            jobs.append((2 * i, str(page_of[key]), face_px))
            back = pack.back_key(face.set_id, face.type_id, face.card)
            if back not in backs:
                backs.add(back)
                jobs.append((2 * i + 1, str(tmp / f"back-{'-'.join(back)}.png"), face_px))
        _run_jobs(pdf, jobs)
        per_sheet = TTS_MAX_COLUMNS * TTS_MAX_ROWS - 1
        for (set_id, type_id), members in sorted(groups.items()):
            back_path = tmp / f"back-{set_id}-{type_id}.png"
            card_px = px_of[(set_id, type_id)]
            for n in range(math.ceil(len(members) / per_sheet)):
                chunk = members[n * per_sheet:(n + 1) * per_sheet]
                cols = min(TTS_MAX_COLUMNS, max(2, len(chunk) + 1))
                rows = min(TTS_MAX_ROWS, math.ceil((len(chunk) + 1) / cols))
                if len(chunk) + 1 > cols * rows:
                    cols, rows = TTS_MAX_COLUMNS, TTS_MAX_ROWS
                sheet = Image.new("RGB", (cols * card_px[0], rows * card_px[1]), "white")
                for i, face in enumerate(chunk):
                    with Image.open(page_of[face.card.id if face.card else face.layout]) as img:
                        sheet.paste(img, ((i % cols) * card_px[0], (i // cols) * card_px[1]))
                own = [tmp / f"back-{'-'.join(pack.back_key(set_id, type_id, f.card))}.png" for f in chunk]
                unique = any(p != back_path for p in own)  # `backs: each`: a back sheet laid out like the faces
                last = cols * rows - 1  # TTS shows the last slot for a card hidden in a hand
                if unique:  # no one card's back: that would tell the table which card is hidden
                    hidden = hidden_card(card_px, pack.spec.sets[set_id].color if set_id in pack.spec.sets else "#555555")
                    sheet.paste(hidden, ((last % cols) * card_px[0], (last // cols) * card_px[1]))
                else:
                    with Image.open(back_path) as hidden:
                        sheet.paste(hidden, ((last % cols) * card_px[0], (last // cols) * card_px[1]))
                name = f"{set_id}-{type_id}-{n + 1}.png"
                sheet.save(tmp / name, format="PNG")
                back_name = back_path.name
                if unique:
                    back_name = f"{set_id}-{type_id}-{n + 1}-backs.png"
                    _back_sheet(own, cols, rows, card_px).save(tmp / back_name, format="PNG")
                manifest.append({"set": set_id, "type": type_id, "face": name, "back": back_name,
                                 **({"unique_back": True} if unique else {}),
                                 "columns": cols, "rows": rows, "cards": len(chunk), "width_px": sheet.size[0],
                                 "height_px": sheet.size[1], "card_px": list(card_px),
                                 "ids": [f.card.id if f.card else f.layout for f in chunk]})
        for f in tmp.glob("f-*.png"):
            f.unlink()
        used = {m["back"] for m in manifest}
        for f in tmp.glob("back-*.png"):
            if f.name not in used:  # a card's own back lives on its deck's back sheet
                f.unlink()
        pdf.unlink()
        index = {"pack": pack.spec.id, "version": pack.spec.version,
                 "card_px": list(tts_card_px(pack.card_size_mm())), "decks": manifest}
        (tmp / "decks.json").write_text(json.dumps(index, indent=2), encoding="utf-8")
        _replace_dir(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return {"sheets": len(manifest), "cards": len(faces), "index": index}  # the index: decks.json, as a value

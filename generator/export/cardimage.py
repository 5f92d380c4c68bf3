"""One card face as a PNG, for screens (the web builder's card browser), cached on disk.

The image is drawn by the same layouts and painter as cards.pdf: the face is rendered to a
one-page PDF in memory and rasterized with pypdfium2, as the PNG and TTS exports do. It is
kept under a hash of everything the face depends on, so a changed card, layout, font or art
file is redrawn and nothing else:

- the card's own data, its number in the kit (`index`/`total`, which layouts may print), its
  set and card type declarations and the pack-wide values every layout can read (name,
  version, stats, keywords, reference summaries);
- the layout file and every layout it `extends`, the pack's fonts and SVG icons and the
  card's art file;
- the generator: its version and the source of its drawing code (a new painter redraws).

A back does not depend on the card, only on its set and type, so every card of one set and
type shares one back image.
"""

from __future__ import annotations

import functools
import hashlib
import io
import json
import os
import tempfile
import threading
import weakref
from importlib.metadata import version
from pathlib import Path

from generator.core import pdfium
from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.resources import PACKAGE, TEMPLATES
from generator.core.yamlio import load_yaml_file
from generator.pack.cardlist import card_order
from generator.pack.model import Card, Pack
from generator.pack.typefaces import font_file
from generator.render.base.layout import LayoutSet
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import CardFace, CardPainter, CardShared

FACES = ("front", "back")
MIN_DPI, MAX_DPI = 36, 600
CACHE_FORMAT = "pnp.cardimage/1"  # bump when the key's recipe changes
_file_digests: dict = {}  # (path, mtime_ns, size) -> sha256: a file is read once while unchanged
_extends: dict = {}  # layout file sha256 -> the layout it extends
# One CardShared per pack and set of layout files, reused across drawings: setting up layouts
# and the text fitter costs more than drawing a card. Drawings in one process take turns.
_shared: dict = {}  # (id(pack), layout fingerprint) -> (weak reference to the pack, CardShared)
_SHARED_KEEP = 4
_draw_lock = threading.Lock()


def _file_digest(path: Path) -> str:
    path = Path(path)
    try:
        st = path.stat()
    except OSError:
        return "missing"
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    digest = _file_digests.get(key)
    if digest is None:
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        _file_digests[key] = digest
    return digest


@functools.lru_cache(maxsize=1)
def generator_fingerprint() -> str:
    """The package version and a digest of the drawing code (render/ and this module)."""
    try:
        ver = version("pnp-generator")
    except Exception:  # not installed (running from a source tree)
        ver = "source"
    h = hashlib.sha256(ver.encode())
    for path in sorted((PACKAGE / "render").rglob("*.py")) + [Path(__file__)]:
        h.update(path.relative_to(PACKAGE).as_posix().encode())
        h.update(path.read_bytes())
    return f"{ver}+{h.hexdigest()[:16]}"


def _layout_folders(pack: Pack) -> list[Path]:
    # the same search order as render.cards.CardShared: the pack's own layouts first
    folders = [Path(pack.root) / "templates" / "cards", TEMPLATES / "cards"]
    return [f for f in folders if f.is_dir()] or [TEMPLATES / "cards"]


def _layout_chain(layouts, name: str) -> list[Path]:
    """The layout file of `name` and every file it extends, nearest first."""
    chain: list[Path] = []
    while name and len(chain) < 32:
        path = layouts.path_of(name)
        if path is None or path in chain:
            break
        chain.append(path)
        digest = _file_digest(path)
        if digest not in _extends:  # parsed once per content, not once per card
            data = load_yaml_file(path).data
            _extends[digest] = data.get("extends") if isinstance(data, dict) else None
        name = _extends[digest]
    return chain


def _layout_name(layouts, card: Card, face: str) -> str:
    if face == "back":
        return f"back-{card.type}" if layouts.path_of(f"back-{card.type}") else "back"
    return card.type if layouts.path_of(card.type) else "base"


def _card_number(pack: Pack, card_id: str) -> tuple[int, int]:
    order = card_order(pack)
    return next(i for i, c in enumerate(order, 1) if c.id == card_id), len(order)


def _card_data(card: Card) -> dict:
    return {"id": card.id, "name": card.name, "type": card.type, "set": card.set, "points": card.points,
            "text": card.text, "flavour": card.flavour, "copies": card.copies,
            "art": card.art.document() if card.art else None, "fields": card.fields}


def _icon_digest(pack: Pack, value) -> object:
    """A game.yaml `icons:` entry as what it draws: the SVG file's digest, or the bundled icon named."""
    return _file_digest(Path(pack.root) / value) if isinstance(value, str) else value.model_dump()


def card_key(pack: Pack, card_id: str, face: str = "front", dpi: int = 150) -> str:
    """The hash an image of this face is cached under (hex sha256)."""
    card = _check(pack, card_id, face, dpi)
    spec = pack.spec
    layouts = LayoutSet(_layout_folders(pack))
    layout = _layout_name(layouts, card, face)
    parts = {
        "format": CACHE_FORMAT, "generator": generator_fingerprint(), "face": face, "dpi": dpi,
        "size": pack.card_size_mm(card.type), "layout": layout,
        "layout_files": [[p.name, _file_digest(p)] for p in _layout_chain(layouts, layout)],
        "set": {"id": card.set, **(spec.sets[card.set].model_dump() if card.set in spec.sets else {})},
        "type": {"id": card.type, **(spec.card_types[card.type].model_dump() if card.type in spec.card_types else {})},
        "pack": {"id": spec.id, "name": spec.name, "version": spec.version,
                 **spec.model_dump(include={"stats", "keywords", "reference", "emblem", "back_pattern", "art_styles"})},
        "fonts": {style: _file_digest(font_file(rel, pack.root)) for style, rel in sorted(spec.fonts.items())},
        # the pack's own SVG icons (game.yaml `icons:`), which card text and layouts may show
        "icons": {name: _icon_digest(pack, rel) for name, rel in sorted(getattr(spec, "icons", {}).items())},
    }
    if pack.translation is not None:  # a layout's own words (`_('Hero')`) come from the translation
        parts["translation"] = pack.translation.digest
    if face == "back" and len(pack.back_key(card.set, card.type, card)) > 2:  # `backs: each`: its own back
        parts["card"] = _card_data(card)
    if face == "front":  # a shared back is drawn from the set and type alone (the kit prints one per pair)
        parts["card"] = _card_data(card)
        parts["number"] = _card_number(pack, card.id)
        if card.art and card.art.file:
            parts["art"] = _file_digest(Path(pack.root) / card.art.file)
    text = json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _check(pack: Pack, card_id: str, face: str, dpi: int) -> Card:
    where = Location("<card image>")
    if face not in FACES:
        raise InputError([Problem("cardimage.face", f"unknown card face `{face}`", where, found=str(face),
                                  expected=" or ".join(FACES))])
    if not isinstance(dpi, int) or isinstance(dpi, bool) or not MIN_DPI <= dpi <= MAX_DPI:
        raise InputError([Problem("cardimage.dpi", f"a resolution of {dpi!r} dpi cannot be drawn", where,
                                  found=str(dpi), expected=f"a whole number from {MIN_DPI} to {MAX_DPI}")])
    card = pack.cards.get(card_id) if isinstance(card_id, str) else None
    if card is None:
        guess = did_you_mean(card_id, pack.cards) if isinstance(card_id, str) else None
        raise InputError([Problem("card.unknown", f"no card with the id `{card_id}` in {pack.spec.name}", where,
                                  found=str(card_id)[:80], expected="the id of a card of this pack",
                                  fix=f"did you mean `{guess}`?" if guess else "run `pnp list` to see the card ids")])
    return card


def render_png(pack: Pack, card_id: str, face: str, dpi: int, shared=None) -> bytes:
    """Draw one face (trim size, no bleed) and rasterize it: PNG bytes."""
    from reportlab.lib.units import mm  # deferred: ReportLab loads when a face is first drawn

    card = pack.cards[card_id]
    shared = shared or CardShared(pack)
    index, total = _card_number(pack, card_id) if face == "front" else (0, len(card_order(pack)))
    layout = shared.back_layout(card.type).name if face == "back" else shared.layout_for(card.type).name
    w_mm, h_mm = pack.card_size_mm(card.type)
    buf = io.BytesIO()
    canvas = new_canvas(buf, (w_mm * mm, h_mm * mm), f"{pack.spec.name} — {card.name}", face)
    painter = CardPainter(canvas, shared)
    painter.draw_face(CardFace(card, face == "back", index, total, layout, card.set, card.type), 0, 0)
    canvas.showPage()
    canvas.save()
    with pdfium.document(buf.getvalue()) as pdf:
        image = pdfium.image(pdf[0], scale=dpi / 72).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()


def _layouts_fingerprint(pack: Pack) -> str:
    h = hashlib.sha256()
    for folder in _layout_folders(pack):
        for path in sorted(folder.glob("*.yaml")):
            h.update(f"{path}\0{_file_digest(path)}\n".encode())
    for style, rel in sorted(pack.spec.fonts.items()):
        h.update(f"{style}\0{_file_digest(font_file(rel, pack.root))}\n".encode())
    for name, rel in sorted(getattr(pack.spec, "icons", {}).items()):
        h.update(f"icon {name}\0{_icon_digest(pack, rel)}\n".encode())
    return h.hexdigest()


def shared_for(pack: Pack):
    """A render.cards.CardShared for `pack`, kept while the pack object lives and its layout and
    font files are unchanged (a changed file gets a fresh one, so nothing stale is drawn)."""
    key = (id(pack), _layouts_fingerprint(pack))
    held = _shared.get(key)
    if held is not None and held[0]() is pack:
        return held[1]
    shared = CardShared(pack)
    for stale in [k for k, (ref, _) in _shared.items() if ref() is None or k[0] == id(pack)]:
        del _shared[stale]
    while len(_shared) >= _SHARED_KEEP:
        del _shared[next(iter(_shared))]
    _shared[key] = (weakref.ref(pack), shared)
    return shared


def card_image(pack: Pack, card_id: str, cache_dir: Path, face: str = "front", dpi: int = 150,
               shared=None) -> Path:
    """The PNG of one card face (or its back), drawn on a cache miss and kept in `cache_dir`.
    `shared` (a render.cards.CardShared of this pack) saves setting one up per drawing."""
    key = card_key(pack, card_id, face, dpi)
    folder = Path(cache_dir) / (pack.spec.id + (f"-{pack.spec.language}" if pack.translation else ""))
    stem = f"{card_id}.{face}.{dpi}" if face == "front" else f"back.{pack.cards[card_id].set}." \
        f"{pack.cards[card_id].type}.{dpi}"
    target = folder / f"{stem}.{key[:20]}.png"
    if target.is_file():
        return target
    with _draw_lock:
        if target.is_file():  # another thread drew it meanwhile
            return target
        if shared is None:
            shared = shared_for(pack)
            art = pack.cards[card_id].art
            if art and art.file:  # the art file may have changed since the shared library read it
                shared.art.cache.pop(art.file, None)
        data = render_png(pack, card_id, face, dpi, shared)
        _write(target, data)
    for old in folder.glob(f"{stem}.*.png"):  # earlier drawings of this face are stale now
        if old != target:
            old.unlink(missing_ok=True)
    return target


def _write(target: Path, data: bytes) -> None:
    """Write atomically: a reader sees the old file or the whole new one, never a part."""
    folder = target.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)  # two workers drawing the same face write the same bytes: either wins
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise

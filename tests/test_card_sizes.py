"""Every card type at its own size in every output: a pack with poker, square, tarot and
landscape types (tests/fixtures/packs/sizes) builds PNG, TTS and gutterfold output with each
face at its type's size and aspect; `pnp new --size`; the reference card sized to the pack
and switchable."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image
from reportlab.lib.units import mm

from generator.build import build_folder
from generator.export.options import BuildOptions
from generator.cli import main
from generator.export.raster import png_px, tts_card_px
from generator.pack.load import load_pack
from generator.render.cards import sheets as cardsheets

SIZES = Path(__file__).resolve().parent / "fixtures" / "packs" / "sizes"
TYPE_MM = {"unit": (63.5, 88.9), "tile": (70.0, 70.0), "boss": (69.85, 120.65), "hero": (120.65, 69.85),
           "reference": (63.5, 88.9)}
CARD_TYPE = {"first-unit": "unit", "second-unit": "unit", "stone-tile": "tile", "great-boss": "boss",
             "wide-hero": "hero", "reference": "reference"}


@pytest.fixture(scope="module")
def pack_copy(tmp_path_factory):
    root = tmp_path_factory.mktemp("sizes")
    shutil.copytree(SIZES, root / "sizes")
    return root / "sizes"


def test_the_pack_declares_the_sizes_the_test_checks(pack_copy):
    pack = load_pack(pack_copy)
    for type_id, size in TYPE_MM.items():
        if type_id != "reference":
            assert pack.card_size_mm(type_id) == size


@pytest.mark.parametrize("service,bleed_px", [("mpc", 36), ("tgc", 37.5)])
def test_png_renders_each_face_at_its_type_size(pack_copy, tmp_path, service, bleed_px):
    list(build_folder(pack_copy, options=BuildOptions(profile="png", png_size=service), out_dir=tmp_path))
    folder = tmp_path / f"png-{service}"
    rows = json.loads((folder / "manifest.json").read_text())["rows"]  # file names: export/order.py
    assert len(rows) == 6
    for row in rows:
        path = folder / row["face_file"]
        type_id = CARD_TYPE[row["card"]]
        w_mm, h_mm = TYPE_MM[type_id]
        with Image.open(path) as img:
            size = img.size
        assert size == png_px((w_mm, h_mm), service), path.name
        # the aspect of trim + bleed, to within a pixel's rounding: no stretching to poker
        want = (w_mm / 25.4 * 300 + 2 * bleed_px) / (h_mm / 25.4 * 300 + 2 * bleed_px)
        assert abs(size[0] / size[1] - want) < 0.002, path.name
    back_of = {CARD_TYPE[row["card"]]: row["back_file"] for row in rows}
    for type_id in ("unit", "tile", "boss", "hero"):
        with Image.open(folder / back_of[type_id]) as img:
            assert img.size == png_px(TYPE_MM[type_id], service)
    assert (folder / "README.txt").read_text().count(" px for a ") == 4
    assert png_px(TYPE_MM["boss"], "mpc") == (897, 1497) and png_px(TYPE_MM["hero"], "mpc") == (1497, 897)
    assert png_px(TYPE_MM["tile"], "tgc") == (902, 902)


def test_tts_sheets_use_each_type_size(pack_copy, tmp_path):
    list(build_folder(pack_copy, options=BuildOptions(profile="tts"), out_dir=tmp_path))
    doc = json.loads((tmp_path / "tts" / "decks.json").read_text())
    decks = {d["face"].split("-")[1]: d for d in doc["decks"]}
    assert set(decks) == {"unit", "tile", "boss", "hero", "reference"}
    for type_id, deck in decks.items():
        w_mm, h_mm = TYPE_MM[type_id]
        cw, ch = tts_card_px((w_mm, h_mm))
        assert deck["card_px"] == [cw, ch]
        assert abs(cw / ch - w_mm / h_mm) < 0.01
        with Image.open(tmp_path / "tts" / deck["face"]) as sheet:
            assert sheet.size == (deck["columns"] * cw, deck["rows"] * ch)
        with Image.open(tmp_path / "tts" / deck["back"]) as back:
            assert back.size == (cw, ch)
    assert decks["hero"]["card_px"][0] > decks["hero"]["card_px"][1]  # landscape stays landscape


def test_gutterfold_places_and_marks_each_type_at_its_real_size(pack_copy, tmp_path, monkeypatch):
    placed, marked = [], []
    draw_faces, guide_segments = cardsheets._draw_faces, cardsheets.guide_segments

    def record_faces(canvas, painter, faces, slots, turn=0):
        placed.extend((f.type_id, f.back, turn, s.w / mm, s.h / mm) for f, s in zip(faces, slots))
        return draw_faces(canvas, painter, faces, slots, turn)

    def record_marks(grid, spec, slots, avoid=()):  # the cut guides (render/base/cutguides.py)
        segments = guide_segments(grid, spec, slots, avoid)
        marked.append((slots[0].w / mm, slots[0].h / mm, segments))
        return segments

    monkeypatch.setattr(cardsheets, "_draw_faces", record_faces)
    monkeypatch.setattr(cardsheets, "guide_segments", record_marks)
    lines = list(build_folder(pack_copy, options=BuildOptions(profile="gutterfold"), out_dir=tmp_path))
    assert (tmp_path / "cards-gutterfold.pdf").is_file(), lines
    assert {t for t, *_ in placed} == set(TYPE_MM)
    for type_id, back, turn, w, h in placed:  # a tarot card lies on its side: two to a half, not one
        assert turn == ((-90 if back else 90) if type_id == "boss" else 0)
        assert (round(w, 2), round(h, 2)) == (TYPE_MM[type_id][::-1] if turn else TYPE_MM[type_id])
    sizes = {(round(w, 2), round(h, 2)) for w, h, _ in marked}
    assert sizes == {TYPE_MM[t] for t in TYPE_MM if t != "boss"}  # the boss's slots: the hero's shape
    for w, _h, segments in marked:  # guides run along the trim edges of that size
        xs = sorted({round(x1, 3) for x1, y1, x2, y2 in segments if abs(x1 - x2) < 1e-6})
        gaps = {round((b - a) / mm, 2) for a, b in zip(xs, xs[1:])}
        assert round(w, 2) in gaps


def test_home_sheets_keep_each_size(pack_copy, tmp_path):
    from pypdf import PdfReader
    list(build_folder(pack_copy, options=BuildOptions(only="cards"), out_dir=tmp_path))
    text = "".join(p.extract_text() for p in PdfReader(tmp_path / "cards.pdf").pages)
    for card_id in CARD_TYPE:
        assert f"pnp:face:{card_id}" in text


def test_pnp_new_with_a_size_validates_and_prints_at_that_size(tmp_path):
    runner = CliRunner()
    res = runner.invoke(main, ["new", "Tile Game", "--root", str(tmp_path), "--size", "square"])
    assert res.exit_code == 0, res.output
    pack = tmp_path / "tile_game"
    assert "card_size: square" in (pack / "game.yaml").read_text()
    assert "size: square" in (pack / "templates" / "cards" / "unit.yaml").read_text()
    assert runner.invoke(main, ["validate", str(pack)]).exit_code == 0
    res = runner.invoke(main, ["build", str(pack), "--profile", "png", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    first = json.loads((tmp_path / "out" / "png-mpc" / "manifest.json").read_text())["rows"][0]["face_file"]
    with Image.open(tmp_path / "out" / "png-mpc" / first) as img:
        assert img.size == (899, 899)
    res = runner.invoke(main, ["new", "Wide", "--root", str(tmp_path), "--size", "120x70"])
    assert res.exit_code == 0 and "card_size: {width: 120, height: 70}" in (tmp_path / "wide" / "game.yaml").read_text()
    res = runner.invoke(main, ["new", "Bad", "--root", str(tmp_path), "--size", "huge"])
    assert res.exit_code == 2 and "cli.size" in res.output and not (tmp_path / "bad").exists()


def test_reference_card_is_sized_to_the_pack_and_can_be_switched_off(tmp_path):
    runner = CliRunner()
    assert runner.invoke(main, ["new", "Tall", "--root", str(tmp_path), "--size", "tarot"]).exit_code == 0
    pack = tmp_path / "tall"
    game = pack / "game.yaml"  # a status effect: something for the reference card to say
    game.write_text(game.read_text().replace(
        "keywords:\n", "keywords:\n  dazed: {name: Dazed, kind: status, text: Skip your next action.}\n"))
    res = runner.invoke(main, ["build", str(pack), "--profile", "png", "-o", str(tmp_path / "a")])
    assert res.exit_code == 0, res.output
    (reference,) = (tmp_path / "a" / "png-mpc").glob("*-reference.png")  # named by export/order.py
    with Image.open(reference) as img:
        assert img.size == (897, 1497)  # the poker reference layout, drawn at the pack's tarot size
    game.write_text(game.read_text() + "reference:\n  card: false\n")
    res = runner.invoke(main, ["build", str(pack), "--profile", "png", "-o", str(tmp_path / "b")])
    assert res.exit_code == 0, res.output
    assert not list((tmp_path / "b" / "png-mpc").glob("*reference*"))


def test_a_layout_for_no_card_type_is_a_warning(pack_copy, tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(pack_copy, pack)
    shutil.copy(pack / "templates" / "cards" / "boss.yaml", pack / "templates" / "cards" / "bos.yaml")
    res = CliRunner().invoke(main, ["validate", str(pack)])
    assert res.exit_code == 0, res.output
    assert "layout.unused" in res.output and "did you mean `boss`?" in res.output
    res = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0 and "warning:" in res.output and "`bos`" in res.output


def test_pnp_layout_writes_layouts_of_the_types_own_size(pack_copy, tmp_path):
    pack = tmp_path / "p"
    shutil.copytree(pack_copy, pack)
    for name in ("boss", "back-boss", "hero"):
        (pack / "templates" / "cards" / f"{name}.yaml").unlink()
    runner = CliRunner()
    res = runner.invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert res.exit_code == 2 and "layout.size" in res.output and "pnp layout" in res.output
    res = runner.invoke(main, ["layout", str(pack)])
    assert res.exit_code == 0, res.output
    written = sorted(word.rsplit("/", 1)[1] for word in res.output.split() if "/" in word)
    assert [w for w in written if w.endswith(".yaml")] == ["back-boss.yaml", "boss.yaml", "hero.yaml"]
    assert "size: {height: 120.65, width: 69.85}" in (pack / "templates" / "cards" / "boss.yaml").read_text()
    assert "already" in runner.invoke(main, ["layout", str(pack)]).output  # nothing overwritten
    res = runner.invoke(main, ["build", str(pack), "--profile", "png", "-o", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    (boss,) = (tmp_path / "out" / "png-mpc").glob("*-great-boss.png")  # named by export/order.py
    with Image.open(boss) as img:
        assert img.size == (897, 1497)
    res = runner.invoke(main, ["layout", str(pack), "bos"])
    assert res.exit_code == 2 and "did you mean `boss`?" in res.output

"""A card's art (pack/art.py, render/base/iconart.py): an icon of the bundled set with its look,
or an image file; errors at file:line:column with "did you mean"; styles by name, type, set and
default; each distinct picture drawn once per PDF as a form, as vector paths."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.errors import InputError
from generator.pack.art import Art, look_of
from generator.pack.load import load_pack
from generator.pack.scaffold import create_pack

CARD = """
  - id: {id}
    name: {name}
    type: unit
    set: core
    points: 1
    role: Guard
    stats: {{power: 1}}
    text: "Guard."
{art}
"""


def _pack(tmp_path: Path, cards: list[tuple[str, str]], extra: str = "") -> Path:
    """A fresh pack (pnp new) whose cards have the art given (YAML under `art:`, indented 4)."""
    pack = tmp_path / "art_test"
    if not pack.exists():
        create_pack("Art Test", tmp_path)
    body = "cards:\n" + "".join(CARD.format(id=f"card-{i}", name=f"Card {i}", art=textwrap.indent(art, "    "))
                                for i, art in enumerate(a for _n, a in cards))
    (pack / "cards" / "units.yaml").write_text(body)
    if extra:
        with (pack / "game.yaml").open("a") as f:
            f.write(extra)
    return pack


def _errors(pack: Path) -> list:
    with pytest.raises(InputError) as err:
        load_pack(pack)
    return err.value.problems


def test_art_is_a_file_or_an_icon_with_its_look(tmp_path):
    from PIL import Image
    (tmp_path / "x").mkdir()
    pack = create_pack("Art Test", tmp_path / "x")
    (pack / "art").mkdir(exist_ok=True)
    for name in ("a", "b"):
        Image.new("RGB", (8, 8), "red").save(pack / "art" / f"{name}.png")
    pack = _pack(tmp_path / "x", [("", "art: art/a.png"),
                                  ("", "art: {file: art/b.png, author: Ann Example, licence: CC BY 4.0}"),
                                  ("", "art: {icon: lantern-flame}"),
                                  ("", 'art: {icon: eskimo, color: "#ffffff", background: "#000000", flip: true}')])
    cards = load_pack(pack).cards
    assert cards["card-0"].art == Art(file="art/a.png")
    assert cards["card-1"].art == Art(file="art/b.png", author="Ann Example", licence="CC BY 4.0")
    assert cards["card-2"].art == Art(icon="lantern-flame") and cards["card-2"].art.name == "lantern-flame"
    assert cards["card-3"].art.document() == {"icon": "eskimo", "color": "#ffffff", "background": "#000000",
                                              "flip": True}


@pytest.mark.parametrize("art, code, at, words", [
    ("art: {icon: lantern-flames}", "art.icon", (11, 17), "did you mean `lantern-flame`?"),
    ("art: {icon: skull, file: a.png}", "schema.invalid", (11, 10), "one of the two"),
    ("art: {icon: skull-crossed-bones, author: Me}", "schema.invalid", (11, 10), "credited from the set"),
    ("art: {icon: crowned-skull, style: bos}", "art.style", (11, 39), "did you mean `boss`?"),
    ("art: {icon: crowned-skull, background: {kind: radial, colors: ['#000000']}}", "schema.invalid", (11, 44),
     "2 colours"),
    ("art: {icon: crowned-skull, colour: '#000000'}", "schema.unknown-key", (11, 32), "color"),
    ("art: ../../outside.png", "path.outside", (11, 10), ""),
])
def test_bad_art_is_named_where_it_is_written(tmp_path, art, code, at, words):
    pack = _pack(tmp_path, [("", art)], "art_styles:\n  boss: {color: '#aa0000'}\n")
    (problem,) = _errors(pack)
    where = f"{problem.location}"
    assert problem.code == code, problem
    assert where.endswith(f"units.yaml:{at[0]}:{at[1]}"), where
    assert words in f"{problem.message} {problem.expected} {problem.fix}", problem


def test_a_pack_icon_of_the_bundled_set_is_checked_too(tmp_path):
    pack = _pack(tmp_path, [("", "art: {icon: lantern-flame}")], "icons:\n  emblem: {icon: crownd-skull}\n")
    (problem,) = _errors(pack)
    assert problem.code == "art.icon" and str(problem.location).endswith("game.yaml:22:18")
    assert problem.fix == "did you mean `crowned-skull`?"


def test_the_style_comes_from_the_card_its_type_its_set_or_the_default():
    bg = "#101010"
    styles = {"default": _style(color="#000001"), "core": _style(color="#000002", background=bg),
              "unit": _style(color="#000003", scale=0.5), "shiny": _style(color="#000004")}
    assert look_of(styles, Art(icon="x"), "unit", "core").color == "#000003"  # the type's before the set's
    assert look_of(styles, Art(icon="x"), "other", "core").background == bg
    assert look_of(styles, Art(icon="x"), "other", "none").color == "#000001"
    assert look_of(styles, Art(icon="x", style="shiny"), "unit", "core").color == "#000004"
    mine = look_of(styles, Art(icon="x", color="#abcdef", flip=True), "unit", "core")
    assert (mine.color, mine.scale, mine.flip, mine.background) == ("#abcdef", 0.5, True, None)
    assert look_of({}, Art(icon="x")).key == "x|#222222|None||0.8|0"


def _style(**values):
    from generator.pack.art import ArtStyle
    return ArtStyle(**values)


# ---- drawn --------------------------------------------------------------------------------------


STYLES = """art_styles:
  core:
    color: "#f3d57a"
    background: {kind: burst, colors: ["#7a1f1f", "#5c1515"]}
    frame: {shape: hexagon, color: "#f3d57a", width: 0.6}
  glow: {color: "#ffffff", background: {kind: radial, colors: ["#ffcc00", "#553300"]}, scale: 0.6}
  stripes: {background: {kind: pattern, pattern: stripes, colors: ["#eeeeee", "#dddddd"]}}
  fade: {background: {kind: gradient, colors: ["#000000", "#ffffff"], angle: 0}}
icons:
  emblem: {icon: crowned-skull, color: "#aa0000"}
"""


@pytest.fixture(scope="module")
def drawn(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("art")
    arts = ["art: {icon: lantern-flame}", "art: {icon: lantern-flame}", "art: {icon: lantern-flame, style: glow}",
            "art: {icon: crowned-skull, style: stripes}", "art: {icon: crowned-skull, style: fade}",
            "art: {icon: crowned-skull, style: fade, flip: true}", ""]
    pack = _pack(tmp, [("", a) for a in arts], STYLES)
    units = pack / "cards" / "units.yaml"
    units.write_text(units.read_text().replace('text: "Guard."', 'text: "Guard :emblem:."', 1))
    out = tmp / "out"
    result = CliRunner().invoke(main, ["build", str(pack), "-q", "-o", str(out), "--only", "cards"])
    assert result.exit_code == 0, result.output
    return pack, out / "cards.pdf"


def _forms(pdf_path: Path) -> dict[str, pikepdf.Stream]:
    found = {}
    with pikepdf.open(pdf_path) as pdf:
        for page in pdf.pages:
            for name, obj in page.Resources.get("/XObject", {}).items():
                found.setdefault(str(name), obj)
        for obj in list(found.values()):
            for inner, sub in obj.get("/Resources", {}).get("/XObject", {}).items():
                found.setdefault(str(inner), sub)
        return {k: (v.Subtype, bytes(v.read_bytes())) for k, v in found.items()}


def test_each_distinct_picture_is_one_form_and_every_icon_one_glyph(drawn):
    _pack_dir, pdf = drawn
    forms = _forms(pdf)
    glyphs = [k for k in forms if k.startswith("/FormXob.gi-")]
    pictures = [k for k in forms if k.startswith("/FormXob.art-")]
    assert sorted(glyphs) == ["/FormXob.gi-crowned-skull", "/FormXob.gi-lantern-flame"]
    assert len(pictures) == 5  # 6 cards with art, two the same: and each card printed twice (kit_copies)
    assert all(kind == "/Form" for kind, _data in forms.values())  # vectors: no image anywhere
    for name in pictures:  # a picture places its glyph and paints in flat colours, never a shading
        data = forms[name][1]
        assert re.search(rb"/FormXob\.gi-[a-z-]+ Do", data) and b" sh" not in data, name
    glyph = forms["/FormXob.gi-lantern-flame"][1]
    assert b" rg" not in glyph and b" c " in glyph and glyph.rstrip().endswith(b"f")  # curves, filled in the placer's colour


def test_the_pictures_look_as_styled(drawn):
    _pack_dir, pdf = drawn
    doc = pypdfium2.PdfDocument(str(pdf))
    image = doc[0].render(scale=150 / 72).to_pil().convert("RGB")
    doc.close()
    colours = {rgb for _count, rgb in image.getcolors(maxcolors=1 << 22)}
    near = lambda rgb: any(sum(abs(a - b) for a, b in zip(rgb, c)) < 30 for c in colours)  # noqa: E731
    assert near((0x7a, 0x1f, 0x1f)) and near((0x5c, 0x15, 0x15))  # the burst's two colours
    assert near((0xf3, 0xd5, 0x7a))  # the icon in the style's colour
    assert near((0xaa, 0x00, 0x00))  # the pack's emblem icon in card text, in its colour


def test_the_placeholder_stays_for_a_card_without_art(drawn):
    pack_dir, _pdf = drawn
    assert load_pack(pack_dir).cards["card-6"].art is None


def test_a_pdf_with_icon_art_stays_small(drawn):
    _pack_dir, pdf = drawn
    # 14 faces and their backs with 5 pictures: the pictures add kilobytes, not one copy per card
    assert pdf.stat().st_size < 200_000, pdf.stat().st_size


# ---- credits, validate, list ------------------------------------------------------------------


@pytest.fixture(scope="module")
def credited(tmp_path_factory):
    """A pack with icons, an image that declares its licence and one that does not, a card
    without art; built with every profile that makes a folder."""
    from PIL import Image
    tmp = tmp_path_factory.mktemp("credits")
    pack = _pack(tmp, [("", a) for a in (
        "art: {icon: lantern-flame}", "art: {icon: abstract-001}", "art: {icon: crowned-skull}",
        "art: {file: art/own.png, author: Ann Example, licence: CC BY 4.0, source: https://example.org/own}",
        "art: art/bare.png", "")])
    for name in ("own", "bare"):
        Image.new("RGB", (900, 450), "#336699").save(pack / "art" / f"{name}.png")
    return pack


def test_every_output_folder_credits_each_icon_and_image(credited, tmp_path):
    outputs = []
    for profile in ("home", "png", "tts", "dtc"):
        out = tmp_path / profile
        result = CliRunner().invoke(main, ["build", str(credited), "-q", "-o", str(out), "--profile", profile])
        assert result.exit_code == 0, result.output
        outputs.append(out)
    folders = [o for o in outputs] + [f for o in outputs for f in o.iterdir() if f.is_dir()]
    assert {f.name for f in folders} >= {"home", "png", "tts", "dtc", "png-mpc"}  # dtc/ and tts/ inside theirs
    for folder in folders:
        text = (folder / "CREDITS.txt").read_text()
        assert text.startswith("Art Test 0.1.0: credits"), folder
        assert "Creative Commons Attribution 3.0 licence (CC BY 3.0, https://creativecommons.org/licenses/by/3.0/)" in text
        assert "- Lorc (http://lorcblog.blogspot.com): crowned-skull, lantern-flame" in text
        assert "- Viscious Speed (http://viscious-speed.deviantart.com), CC0 1.0: abstract-001" in text
        assert "- art/own.png: by Ann Example, CC BY 4.0, https://example.org/own" in text
        assert "- art/bare.png: author not declared, licence not declared" in text
    from generator.core.pdfwords import page_words
    words = " ".join(w for page in page_words(tmp_path / "home" / "rulebook.pdf").values() for w, _b in page)
    assert "game-icons.net" in words and "Viscious Speed" in words and "Ann Example" in words


def test_validate_warns_of_an_unlicensed_image_and_tells_the_cards_without_art(credited):
    result = CliRunner().invoke(main, ["validate", str(credited), "--format", "json"])
    assert result.exit_code == 0, result.output  # neither is an error
    import json
    found = {v["rule"]: v for r in json.loads(result.output)["results"] for v in r["violations"]}
    assert found["art.licence"]["severity"] == "warning" and "art/bare.png" in found["art.licence"]["message"]
    assert found["art.licence"]["line"] == 51  # card-4's `art:` (each card takes 10 lines)
    assert found["art.missing"]["severity"] == "info" and found["art.missing"]["observed"] == 1
    assert "card-5" in found["art.missing"]["message"]
    text = CliRunner().invoke(main, ["validate", str(credited)]).output
    assert "info art.missing 1 card of 6 print" in text and "0 warning" not in text


def test_list_json_is_a_versioned_document_with_each_cards_art(credited):
    import json
    document = json.loads(CliRunner().invoke(main, ["list", str(credited), "--format", "json"]).output)
    assert document["schema"] == "pnp.cards/1" and document["pack"] == {"id": "art_test", "name": "Art Test",
                                                                         "version": "0.1.0"}
    art = {c["id"]: (c["art"], c["art_kind"]) for c in document["cards"]}
    assert art == {"card-0": ("lantern-flame", "icon"), "card-1": ("abstract-001", "icon"),
                   "card-2": ("crowned-skull", "icon"), "card-3": ("art/own.png", "file"),
                   "card-4": ("art/bare.png", "file"), "card-5": (None, None)}


def test_the_builders_about_page_credits_the_art(credited, tmp_path):
    from fastapi.testclient import TestClient

    from generator.web.app import create_app
    from generator.web.site import Site
    site = Site.load([credited], tmp_path / "builds", tmp_path / "cache")
    client = TestClient(create_app(site), base_url="http://localhost")
    page = client.get("/p/art_test/about")
    assert page.status_code == 200
    assert '<a href="https://game-icons.net/1x1/lorc/lantern-flame.html">lantern-flame</a>' in page.text
    assert "Viscious Speed</a> (CC0 1.0)" in page.text and "art/own.png: by Ann Example, CC BY 4.0" in page.text
    assert 'href="/p/art_test/about"' in client.get("/p/art_test").text  # every page's footer links it


def test_writing_xlsx_without_the_extra_says_how_to_add_it(tmp_path, monkeypatch):
    """openpyxl is the `xlsx` extra (it made room for the icon set): without it .xlsx is one
    clear error, the default sheet is .ods, and `pnp new --sheet xlsx` stops before making anything."""
    import generator.pack.sheets.write as write
    monkeypatch.setattr(write, "find_spec", lambda name: None if name == "openpyxl" else object())
    pack = create_pack("Sheet Test", tmp_path)
    result = CliRunner().invoke(main, ["export-sheet", str(pack), "-o", str(tmp_path / "c.xlsx")])
    assert result.exit_code == 2 and "sheet.xlsx-extra" in result.output and "openpyxl" in result.output
    assert not (tmp_path / "c.xlsx").exists()
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["export-sheet", str(pack)])
    assert result.exit_code == 0 and (tmp_path / "output" / "sheet_test" / "cards.ods").is_file(), result.output
    result = CliRunner().invoke(main, ["new", "Other Game", "--sheet"])
    assert result.exit_code == 2 and "sheet.xlsx-extra" in result.output and not (tmp_path / "other_game").exists()


# issue #40 item 2: every card of every shipped pack has art of its own (copies are one card, so they
# share it; distinct cards do not), as `pnp list --format json` reports it, and `pnp validate` has no
# card left on the placeholder
REPO = Path(__file__).resolve().parents[1]
SHIPPED = sorted(p.name for p in (REPO / "card_data").iterdir() if (p / "game.yaml").is_file())


def art_problems(pack: Path) -> list[str]:
    """What `pnp list --format json` shows against the rule: cards without art, art shared."""
    import json
    result = CliRunner().invoke(main, ["list", str(pack), "--format", "json"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output)
    assert document["schema"].startswith("pnp.cards/")
    out = [f"{c['id']}: no art" for c in document["cards"] if c["art"] is None]
    owners: dict[str, list[str]] = {}
    for c in document["cards"]:
        if c["art"] is not None:
            owners.setdefault(c["art"], []).append(c["id"])
    out += [f"{art}: shared by {', '.join(ids)}" for art, ids in owners.items() if len(ids) > 1]
    return out


def test_the_five_games_ship():
    assert SHIPPED == ["battle_bosses", "boss_fight", "final_boss", "raid_boss", "tactics"]


@pytest.mark.parametrize("pack_id", SHIPPED)
def test_every_card_of_a_shipped_pack_has_art_of_its_own(pack_id):
    pack = REPO / "card_data" / pack_id
    assert art_problems(pack) == []
    result = CliRunner().invoke(main, ["validate", str(pack)])
    assert "art.missing" not in result.output and "art.licence" not in result.output


def test_the_art_check_sees_a_card_without_art_and_art_shared(tmp_path):
    """The guard above bites: Stepfall with one unit's art removed and another's given to a third."""
    import shutil
    pack = tmp_path / "tactics"
    shutil.copytree(REPO / "card_data" / "tactics", pack)
    units = pack / "cards" / "units.yaml"
    text = units.read_text(encoding="utf-8")
    arts = re.findall(r"\n    art: \{icon: ([a-z0-9-]+)\}", text)
    assert len(arts) >= 3
    text = text.replace(f"\n    art: {{icon: {arts[0]}}}", "", 1).replace(f"{{icon: {arts[2]}}}", f"{{icon: {arts[1]}}}", 1)
    units.write_text(text, encoding="utf-8")
    problems = art_problems(pack)
    assert len(problems) == 2 and problems[0].endswith(": no art") and f"{arts[1]}: shared by" in problems[1]
    result = CliRunner().invoke(main, ["validate", str(pack)])
    assert "art.missing" in result.output and "1 card of 8" in result.output

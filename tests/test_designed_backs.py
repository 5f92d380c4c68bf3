"""Designed card backs (issue #40, item 6): every game's backs carry the set's colour, the game's
pattern (game.yaml `back_pattern`) and its emblem (`emblem`), drawn once per document, readable
(the layout checks find nothing on them) and still placed behind their own fronts."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pikepdf
import pytest

from generator.core.errors import InputError
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.preflight.layout import layout_findings
from generator.render.base.colors import shade, tint
from generator.render.cards.faces import CardShared
from generator.render.cards.sheets import write_home_sheets

REPO = Path(__file__).resolve().parents[1]
PACKS = ("boss_fight", "raid_boss", "battle_bosses", "final_boss", "tactics")


def _rg(colour: str) -> bytes:
    """The fill operator ReportLab writes for a #rrggbb colour."""
    from reportlab.lib.colors import HexColor
    from reportlab.lib.rl_accel import fp_str
    c = HexColor(colour)
    return f"{fp_str(c.red, c.green, c.blue)} rg".encode()


def _rg_stroke(colour: str) -> bytes:
    return _rg(colour)[:-2] + b"RG"


@pytest.fixture(scope="module")
def sheets(tmp_path_factory):
    """The fronts and backs of the first card of each card type, per pack."""
    out = {}
    for pack_id in PACKS:
        pack = load_pack(REPO / "card_data" / pack_id)
        shared = CardShared(pack)
        faces = list({f.type_id: f for f in reversed(pack_faces(pack, shared, copies=False))}.values())[::-1]
        path = tmp_path_factory.mktemp(pack_id) / "cards.pdf"
        write_home_sheets(pack, faces, path, shared=shared)
        out[pack_id] = (pack, faces, path)
    return out


def _forms(path: Path) -> dict[str, bytes]:
    """Every form of the PDF by its resource name, those placed inside other forms too."""
    out: dict[str, bytes] = {}

    def walk(resources) -> None:
        for name, xobj in resources.get("/XObject", {}).items():
            if str(name) not in out:
                out[str(name)] = xobj.read_bytes()
                walk(xobj.get("/Resources", {}))
    with pikepdf.open(path) as pdf:
        for page in pdf.pages:
            walk(page.Resources)
    return out


def _page_streams(path: Path) -> list[bytes]:
    with pikepdf.open(path) as pdf:
        return [b"".join(c.read_bytes() for c in ([p.Contents] if isinstance(p.Contents, pikepdf.Stream) else p.Contents))
                for p in pdf.pages]


@pytest.mark.parametrize("pack_id", PACKS)
def test_every_game_names_its_emblem_and_pattern(pack_id):
    spec = load_pack(REPO / "card_data" / pack_id).spec
    assert spec.emblem and spec.back_pattern != "none"


@pytest.mark.parametrize("pack_id", PACKS)
def test_a_back_shows_the_set_colour_the_pattern_and_the_emblem(sheets, pack_id):
    pack, faces, path = sheets[pack_id]
    forms = _forms(path)
    backs = {name: body for name, body in forms.items() if "back" in name.lower()}
    assert backs, sorted(forms)
    patterned = []
    for face in faces:
        colour = pack.spec.sets[face.set_id].color
        # the set colour to the bleed, and the pattern: one path of many pieces in a tint of it
        inks = {_rg_stroke(tint(colour, t)) for t in (0.14, 0.16)} | {_rg(tint(colour, 0.08))}
        patterned += [name for name, body in backs.items() if _rg(colour) in body and any(i in body for i in inks)
                      and len(re.findall(rb" (?:m|re)\b", body)) > 20]
    assert patterned, sorted(backs)
    # the emblem: the game's icon, drawn as its own form
    emblem_forms = [n for n in forms if n.startswith(f"/FormXob.icon-{pack.spec.emblem}-")]
    if pack_id != "raid_boss":  # the Raid Boss heroes' backs are their own (`backs: each`), no emblem
        assert emblem_forms, sorted(forms)


def test_the_shared_back_draws_its_plates_in_a_shade_of_the_set_colour(sheets):
    pack, faces, path = sheets["boss_fight"]
    colour = pack.spec.sets[faces[0].set_id].color
    assert faces[0].layout != "back-hero"
    assert any(_rg(shade(colour, 0.3)) in body for name, body in _forms(path).items() if "back" in name.lower())


@pytest.mark.parametrize("pack_id", PACKS)
def test_the_layout_checks_find_nothing_on_the_backs(sheets, pack_id):
    pack, faces, _ = sheets[pack_id]
    shared = CardShared(pack)
    back_elements = {e.id for t in list(pack.spec.card_types) for e in
                     shared.back_layout(t).frame + shared.back_layout(t).elements}
    findings = [f for f in layout_findings(pack, shared=shared) if f.element in back_elements and f.rule in
                ("layout.safe-zone", "text.contrast", "card.text-overflow")]
    assert not findings, [(f.card, f.element, f.message) for f in findings]


def test_backs_are_drawn_once_and_placed_behind_every_front(sheets):
    pack, faces, path = sheets["boss_fight"]
    pages = _page_streams(path)
    assert len(pages) == 2 and len(faces) <= 9  # the fronts, then their backs
    backs_used = re.findall(rb"/(FormXob\.\S*back\S*) Do", pages[1])
    assert len(backs_used) == len(faces)  # one back per front, each a placement of a form drawn once
    forms = _forms(path)
    assert all(f"/{name.decode()}" in forms for name in set(backs_used))


def test_an_unknown_back_pattern_or_emblem_is_refused_where_it_is_written(tmp_path):
    pack_dir = tmp_path / "tactics"
    shutil.copytree(REPO / "card_data" / "tactics", pack_dir, ignore=shutil.ignore_patterns(".cache"))
    game = pack_dir / "game.yaml"
    original = game.read_text(encoding="utf-8")
    game.write_text(original.replace("back_pattern: chevrons", "back_pattern: tartan"), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_pack(pack_dir)
    assert exc.value.problems[0].location.line == original.splitlines().index("back_pattern: chevrons") + 1
    assert "tartan" in str(exc.value.problems[0].found)
    game.write_text(original.replace("emblem: range", "emblem: rang"), encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_pack(pack_dir)
    (problem,) = exc.value.problems
    assert problem.code == "pack.reference" and "`range`" in (problem.fix or "")
    assert problem.location.line == original.splitlines().index("emblem: range") + 1

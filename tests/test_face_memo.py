"""Copies of a card drawn one after another share what their templates gave (render/base/
layout.py's FaceContext memo): each copy's collation line still counts it, a template that
names `index` or `total` runs again for a copy of another number, one that names `name_of`
for every copy, and the drawing is the same as with no memo at all."""

from __future__ import annotations

import io
from dataclasses import replace
from pathlib import Path

import pytest

from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.render.base.layout import Layout, memo_key, same_for_copies
from generator.render.base.pdfout import new_canvas
from generator.render.cards.faces import CardPainter, CardShared

PACK = Path("card_data/boss_fight")


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK)


def _draw(pack, faces, monkeypatch, memo: bool = True) -> tuple[bytes, list]:
    """The PDF of `faces` drawn one after another, and the template sources run (not taken
    from the memo)."""
    shared = CardShared(pack)
    out = io.BytesIO()
    c = new_canvas(out, (600.0, 800.0), "memo")
    painter = CardPainter(c, shared)
    ran: list = []
    original = Layout.render

    def counting(self, source, context, element):
        key = memo_key("render", source, context)
        if context.memo is None or key is None or key not in context.memo:
            ran.append(source)
        return original(self, source, context, element)

    monkeypatch.setattr(Layout, "render", counting)
    if not memo:
        monkeypatch.setattr(CardPainter, "_memo", lambda self, face: None)
    for face in faces:
        painter.draw_face(face, 20.0, 20.0, tick=False)
    c.showPage()
    c.save()
    monkeypatch.undo()
    return out.getvalue(), ran


def test_copies_share_templates_but_not_their_number(pack, monkeypatch):
    shared = CardShared(pack)
    face = next(f for f in pack_faces(pack, shared, copies=False) if f.card is not None and f.card.text)
    copies = [replace(face, index=i, total=3) for i in (1, 2, 3)]
    with_memo, ran = _draw(pack, copies, monkeypatch)
    assert ran.count("{{ card.name }}") == 1, ran  # the title: run for the first copy only
    assert len([s for s in ran if "{{ index }}" in s]) == 3  # the collation line: each copy its own number
    without, ran_all = _draw(pack, copies, monkeypatch, memo=False)
    assert ran_all.count("{{ card.name }}") == 3
    assert with_memo == without  # the same drawing, byte for byte


def test_copies_of_one_number_share_their_collation_line_and_name_of_runs_for_each(pack, monkeypatch):
    # a kit numbers each card once: its copies share `index` and `total`, so the collation line
    # runs once; `name_of` is noted per sheet (pnp watch) and runs for every copy
    shared = CardShared(pack)
    face = next(f for f in pack_faces(pack, shared, copies=False) if f.card is not None and f.card.text)
    copies = [replace(face, index=4, total=9)] * 3 + [replace(face, index=5, total=9)]
    with_memo, ran = _draw(pack, copies, monkeypatch)
    assert len([s for s in ran if "{{ index }}" in s]) == 2  # numbers 4 and 5
    without, _ = _draw(pack, copies, monkeypatch, memo=False)
    assert with_memo == without
    from generator.render.base.layout import FaceContext
    ctx = FaceContext(index=4, total=9)
    assert memo_key("render", "{{ card.name }}", ctx) == ("render", "{{ card.name }}")
    assert memo_key("render", "{{ index }}/{{ total }}", ctx) == ("render", "{{ index }}/{{ total }}", 4, 9)
    assert memo_key("render", "{{ card.boss | name_of }} {{ index }}", ctx) is None


def test_another_card_or_side_starts_afresh(pack):
    shared = CardShared(pack)
    faces = [f for f in pack_faces(pack, shared, copies=False) if f.card is not None][:2]
    out = io.BytesIO()
    painter = CardPainter(new_canvas(out, (600.0, 800.0), "memo"), shared)
    first = painter._memo(faces[0])
    assert painter._memo(faces[0]) is first  # a copy: the same memo
    assert painter._memo(faces[1]) is not first  # another card: a new one
    back = replace(faces[1], back=True)
    assert painter._memo(back) is not painter._memo(faces[1])  # each side its own
    assert painter._memo(replace(faces[0], card=None)) is None  # a face without a card: none


@pytest.mark.parametrize("source, same", [
    ("{{ card.name }}", True),
    ("{{ index }}/{{ total }}", False),
    ("{% for x in card.tags %}{{ loop.index }}{% endfor %}", False),
    ("{{ card.created_by | map('name_of') | join(', ') }}", False),
    ("card.points > 0", True),
])
def test_which_templates_are_the_same_for_every_copy(source, same):
    assert same_for_copies(source) is same


def test_each_face_s_marker_writes_what_a_text_object_of_its_own_writes(pack):
    """The invisible label at a face's trim corner is written from the first one's operators
    (CardPainter._marker), its origin and label replaced: the same text as a text object each."""
    from generator.render.cards.faces import CardFace
    faces = [f for f in pack_faces(pack, CardShared(pack))][:40]
    faces += [CardFace(None, False, 7, 9, "base", faces[0].set_id, faces[0].type_id),
              CardFace(faces[3].card, True, 2, 9, faces[3].layout, faces[3].set_id, faces[3].type_id)]
    places = [(10.0 + i * 7.25, 700.0 - i * 13.5) for i in range(len(faces))] + [(0.0, 1.0), (-2.5, 1e-6)]

    def markers(stamped: bool) -> tuple[list, bool]:
        c = new_canvas(io.BytesIO(), (600.0, 800.0), "markers")
        painter = CardPainter(c, CardShared(pack))
        for face, (x, y) in zip(faces + faces[:2], places):
            if not stamped:
                painter._stamp = None
            painter._marker(face, x, y)
        return list(c._code), painter._stamp is not None

    (stamped, kept), (plain, _) = markers(True), markers(False)
    assert kept and stamped == plain and len(stamped) == len(places)
    assert all(code.startswith("BT 1 0 0 1 ") and " 3 Tr " in code and code.endswith(" 0 Tr ET") for code in stamped)


def test_an_element_is_found_inside_once_per_card_size(pack, monkeypatch):
    """The painter checks that an element lies inside the card once for each size it meets it
    at (an element is frozen): drawn again at that size it is not checked again, drawn on a
    card it reaches out of it is refused as before."""
    from generator.core.errors import InputError
    from generator.render.cards import faces as faces_module

    shared = CardShared(pack)
    face = next(f for f in pack_faces(pack, shared, copies=False) if f.card is not None)
    layout = shared.layouts.get(face.layout)
    element = next(e for e in layout.elements if e.kind == "text" and e.x > 10)
    ctx = shared.context(face.card, face.set_id, face.type_id, face.index, face.total)
    painter = CardPainter(new_canvas(io.BytesIO(), (600.0, 800.0), "inside"), shared)
    checked = []
    original = faces_module.check_inside
    monkeypatch.setattr(faces_module, "check_inside", lambda *a: checked.append(a[2]) or original(*a))
    painter.width_mm, painter.height_mm = pack.card_size_mm(face.type_id)
    for _ in range(3):
        painter.draw_element(element, layout, ctx, 0.0, 0.0)
    assert checked == [pack.card_size_mm(face.type_id)]  # once for its card's size
    painter.width_mm, painter.height_mm = element.x + element.w / 2, element.y + element.h / 2  # a card it reaches out of
    with pytest.raises(InputError) as refused:
        painter.draw_element(element, layout, ctx, 0.0, 0.0)
    assert refused.value.problems[0].code == "layout.outside"
    with pytest.raises(InputError):  # and again: a refusal is not kept as inside
        painter.draw_element(element, layout, ctx, 0.0, 0.0)

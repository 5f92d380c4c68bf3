"""A build's notes (issue 26, item 4): plain text kept in the build file by the writer the
editor saves with, read back by the loader, and printed on the roster under "Notes"."""

from __future__ import annotations

import yaml
from pypdf import PdfReader

from generator.core.yamlio import Document
from generator.pack.load import build_from_document, load_pack
from generator.render.roster.sheet import write_roster
from generator.share.codes import dump_build
from web_support import PACKS

NOTES = "Bring the blue dice.\nSable goes first: she has the longest reach."


def _preset(pack_id: str, stem: str) -> dict:
    return yaml.safe_load((PACKS / pack_id / "presets" / f"{stem}.yaml").read_text())


def test_notes_survive_the_build_file_and_print_on_the_roster(tmp_path):
    pack = load_pack(PACKS / "raid_boss")
    doc = _preset("raid_boss", "party-first-raid")
    doc["notes"] = NOTES
    text = dump_build(doc)
    again = yaml.safe_load(text)
    assert again["notes"] == NOTES
    build = build_from_document(Document("notes.yaml", again), pack)
    assert build.notes == NOTES
    out = tmp_path / "roster.pdf"
    write_roster(pack, build, out)
    words = " ".join(page.extract_text() for page in PdfReader(str(out)).pages)
    assert "Notes" in words and "Bring the blue dice." in words and "longest reach" in words


def test_a_build_without_notes_has_none_on_the_roster(tmp_path):
    pack = load_pack(PACKS / "raid_boss")
    doc = _preset("raid_boss", "party-first-raid")
    assert "notes" not in dump_build(doc)
    build = build_from_document(Document("plain.yaml", doc), pack)
    assert build.notes == ""
    out = tmp_path / "roster.pdf"
    write_roster(pack, build, out)
    words = " ".join(page.extract_text() for page in PdfReader(str(out)).pages)
    assert "Notes" not in words

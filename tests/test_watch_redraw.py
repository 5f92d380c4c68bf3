"""`pnp watch`'s quick path: an edit to one card redraws only its sheet of cards.pdf and splices
it in with pikepdf; every page is then the same as a whole build's of the edited pack (rendered
and compared pixel for pixel, text read back), the pages not redrawn keep their very streams, and
each font subset keeps a name of its own. What it cannot redraw alone (another number of cards
or pages) is built whole."""

from __future__ import annotations

import io
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from generator.build import SheetMemory, build_folder, redraw_cards
from generator.export.options import BuildOptions

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from bigpack import make_big_pack  # noqa: E402

CARDS = BuildOptions().part("cards")


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """A pack of some 200 cards (boss_fight's, repeated): its later sheets use nothing new."""
    root = tmp_path_factory.mktemp("big") / "big"
    make_big_pack(200, root)
    return root


def _pages(data: bytes) -> list[tuple[bytes, str]]:
    """Each page rendered (50 dpi, grey) and its text."""
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(data)
    out = []
    for page in doc:
        image = page.render(scale=50 / 72, grayscale=True).to_pil()
        out.append((image.tobytes(), page.get_textpage().get_text_range()))
    return out


def _same_document(quick: bytes, full: bytes) -> None:
    """The spliced file is the whole build's document: every page draws alike, and it is a sound
    file whose font subsets each have a name of their own."""
    import hashlib

    import pikepdf
    a, b = _pages(quick), _pages(full)
    assert len(a) == len(b)
    assert [i + 1 for i, (x, y) in enumerate(zip(a, b)) if x != y] == []
    names: dict[str, set[str]] = {}
    with pikepdf.open(io.BytesIO(quick)) as pdf:
        assert pdf.check_pdf_syntax() == []
        for page in pdf.pages:
            for font in page.obj.Resources.get("/Font", {}).values():
                d = font.get("/FontDescriptor")
                data = next((d[k] for k in ("/FontFile2", "/FontFile", "/FontFile3") if d is not None and k in d), None)
                if data is not None:
                    names.setdefault(str(font.BaseFont), set()).add(hashlib.sha256(data.read_raw_bytes()).hexdigest())
    assert names and all(len(digests) == 1 for digests in names.values()), names


def _streams(data: bytes) -> list[bytes]:
    import pikepdf
    with pikepdf.open(io.BytesIO(data)) as pdf:
        return [page.obj.Contents.read_bytes() for page in pdf.pages]


def _full(pack: Path, out: Path, memory=None) -> bytes:
    list(build_folder(pack, None, CARDS, out, parallel=False, memory=memory))
    return (out / "cards.pdf").read_bytes()


def _edit(path: Path, pattern: str, repl: str) -> None:
    text = path.read_text(encoding="utf-8")
    edited = re.sub(pattern, repl, text, count=1)
    assert edited != text
    path.write_text(edited, encoding="utf-8")


def _last_file(pack: Path) -> Path:
    return sorted((pack / "cards").glob("x*.yaml"))[-1]


@pytest.mark.parametrize("pattern,repl", [
    (r"points: \d+", "points: 7"),                      # points
    (r"\n  name: ([^\n]*)", r"\n  name: \1 Renamed"),   # name
    (r"\n  text: ", "\n  text: Then draw a card. "),     # rules text
])
def test_one_card_edited_redraws_its_sheet_and_matches_a_full_build(big, tmp_path, pattern, repl):
    import shutil
    pack = tmp_path / "big"
    shutil.copytree(big, pack)
    memory = SheetMemory()
    before = _full(pack, tmp_path / "watch", memory)
    _edit(_last_file(pack), pattern, repl)
    lines = redraw_cards(pack, CARDS, tmp_path / "watch", memory)
    assert lines is not None, memory.reason
    sheet = int(re.fullmatch(r"redrew sheet (\d+) of cards\.pdf \(2 of \d+ pages redrawn\)", lines[-1])[1])
    quick = (tmp_path / "watch" / "cards.pdf").read_bytes()
    assert quick != before
    _same_document(quick, _full(pack, tmp_path / "full"))
    old, new = _streams(before), _streams(quick)
    kept = [i for i in range(len(old)) if i not in (2 * sheet - 2, 2 * sheet - 1)]
    assert [old[i] for i in kept] == [new[i] for i in kept]  # the other pages are left as they were
    assert new[2 * sheet - 2] != old[2 * sheet - 2]


def _redrawn_boss_fight(tmp_path: Path, cards_file: str, pattern: str, repl: str) -> tuple[Path, list[str]]:
    """A copy of boss_fight built under watch's memory, one edit to `cards_file`, then the quick
    redraw into tmp_path/watch (which must take the quick path): the pack and the lines said."""
    import shutil
    pack = tmp_path / "boss_fight"
    shutil.copytree(REPO / "card_data" / "boss_fight", pack)
    memory = SheetMemory()
    _full(pack, tmp_path / "watch", memory)
    _edit(pack / "cards" / cards_file, pattern, repl)
    lines = redraw_cards(pack, CARDS, tmp_path / "watch", memory)
    assert lines is not None, memory.reason
    return pack, lines


def test_a_card_of_a_real_pack_redraws_with_the_forms_its_sheet_makes(tmp_path):
    """In a pack of a few sheets, most sheets are the first to use some frame, back or icon form:
    redrawn alike, they stay the objects they were."""
    pack, lines = _redrawn_boss_fight(tmp_path, "heroes.yaml", r"points: \d+", "points: 9")
    _same_document((tmp_path / "watch" / "cards.pdf").read_bytes(), _full(pack, tmp_path / "full"))


def test_renaming_a_card_redraws_the_sheets_whose_layouts_name_it(tmp_path):
    """boss_fight's token layout prints `Created by <name>` through `name_of`: renaming Brood
    Call redraws its own sheet and the Spawnling token's."""
    pack, lines = _redrawn_boss_fight(tmp_path, "boss-abilities.yaml", r"name: Brood Call", "name: Brood Summons")
    sheets = re.search(r"redrew sheet ([\d, ]+) of", lines[-1]).group(1).split(", ")
    assert len(sheets) == 2, lines
    quick = (tmp_path / "watch" / "cards.pdf").read_bytes()
    _same_document(quick, _full(pack, tmp_path / "full"))
    assert b"Brood Summons" not in quick  # text is subset-encoded: read it back instead
    import pypdfium2 as pdfium
    doc = pdfium.PdfDocument(quick)
    text = " ".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    assert "Created by Brood Summons" in " ".join(text.split()), "the token names the new name"


def test_nothing_changed_redraws_nothing(big, tmp_path):
    memory = SheetMemory()
    before = _full(big, tmp_path / "watch", memory)
    lines = redraw_cards(big, CARDS, tmp_path / "watch", memory)
    assert lines == ["redrew sheet none of cards.pdf (0 of %d pages redrawn)" % memory.pages]
    assert (tmp_path / "watch" / "cards.pdf").read_bytes() == before


def test_a_character_no_page_used_is_redrawn_alone_but_a_new_card_builds_the_whole_file(big, tmp_path):
    import shutil
    pack = tmp_path / "big"
    shutil.copytree(big, pack)
    memory = SheetMemory()
    _full(pack, tmp_path / "watch", memory)
    # a character no page used before (the Greek omega): the redrawn sheet brings its own subset
    _edit(_last_file(pack), r"\n  text: ", "\n  text: Ω ")
    assert redraw_cards(pack, CARDS, tmp_path / "watch", memory) is not None, memory.reason
    _same_document((tmp_path / "watch" / "cards.pdf").read_bytes(), _full(pack, tmp_path / "full"))
    # one card more: the sheets shift and the page count may change
    text = _last_file(pack).read_text(encoding="utf-8")
    first = re.search(r"(?ms)^- id: .*?(?=^- id: |\Z)", text).group(0)
    _last_file(pack).write_text(text + first.replace("- id: ", "- id: extra-", 1), encoding="utf-8")
    assert redraw_cards(pack, CARDS, tmp_path / "watch", memory) is None
    assert "cards before" in memory.reason


def test_watch_reports_the_sheet_it_redrew(big, tmp_path, monkeypatch):
    import shutil

    from generator.cli.watch import watch
    pack = tmp_path / "big"
    shutil.copytree(big, pack)
    out = tmp_path / "out"
    monkeypatch.chdir(REPO)
    lines: list[str] = []
    stop = threading.Event()
    thread = threading.Thread(target=watch, args=(pack, lines.append), kwargs={"out_dir": out, "stop": stop},
                              daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120  # a guard against hanging, not a speed test
        while not any(line.startswith("rebuilt") for line in lines):
            assert time.monotonic() < deadline, lines
            time.sleep(0.1)
        time.sleep(0.5)  # let the watcher settle before the save
        _edit(_last_file(pack), r"points: \d+", "points: 9")
        while not any(line.startswith("redrew sheet") for line in lines):
            assert time.monotonic() < deadline, lines
            assert not any(line.startswith(("building all", "not rebuilt")) for line in lines), lines
            time.sleep(0.1)
        while not lines[-1].startswith("rebuilt cards in"):
            assert time.monotonic() < deadline, lines
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(10)
    _same_document((out / "cards.pdf").read_bytes(), _full(pack, tmp_path / "full"))

"""PDFium is used by one thread at a time (generator/core/pdfium.py).

`pnp serve` once died on Ctrl-C with glibc's "corrupted double-linked list": PDFium is not
thread-safe, and the builder drew card pictures and rule icons on several threads at once (the
card pictures took a lock of their own, the icons none, the print jobs' read-backs none), so
the heap was damaged quietly and the damage found when the library was freed at exit. Here:

- no module but core/pdfium.py opens PDFium (a static check, with a planted breach it sees);
- PDFium's C functions, watched in this process while four threads draw what the builder
  draws, are never entered by two threads at once; without the lock the same watch sees them
  overlap (the guard bites);
- `pnp serve` raced by parallel clients that each make it use PDFium (icons, card pictures,
  a printed PDF with its layout checks), stopped with Ctrl-C while they are answered, exits 0
  with nothing on its output but its first line.
"""

from __future__ import annotations

import ast
import contextlib
import http.client
import json
import threading
import time
import urllib.parse
from pathlib import Path

import pytest

from web_support import PACKS, REPO, doc_of, start_serve, stop_serve

GENERATOR = REPO / "generator"
HOME = GENERATOR / "core" / "pdfium.py"
# raw calls that make or free a document or the library: only core/pdfium.py (through pypdfium2) may
OPENERS = {"FPDF_LoadDocument", "FPDF_LoadMemDocument", "FPDF_LoadMemDocument64", "FPDF_LoadCustomDocument",
           "FPDF_CreateNewDocument", "FPDF_CloseDocument", "FPDF_InitLibrary", "FPDF_InitLibraryWithConfig",
           "FPDF_DestroyLibrary"}


def pdfium_openings(path: Path) -> list[str]:
    """Where a module reaches PDFium other than through generator.core.pdfium: an import of
    pypdfium2 or of a part of it other than `raw` (the C functions, used on the objects of a
    document core/pdfium.py opened), or a raw call that opens, closes or frees."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {a.name}" for a in node.names
                      if a.name.split(".")[0] in ("pypdfium2", "pypdfium2_raw") and a.name != "pypdfium2.raw"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if node.module == "pypdfium2.raw" and not {a.name for a in node.names} & (OPENERS | {"*"}):
                continue
            if top in ("pypdfium2", "pypdfium2_raw") and not (node.module == "pypdfium2"
                                                             and [a.name for a in node.names] == ["raw"]):
                found.append(f"{node.lineno}: from {node.module} import {', '.join(a.name for a in node.names)}")
        elif isinstance(node, ast.Attribute) and node.attr in OPENERS:
            found.append(f"{node.lineno}: {node.attr}")
    return found


def test_only_core_pdfium_opens_pdfium():
    found = [f"{p.relative_to(REPO)}:{use}" for p in sorted(GENERATOR.rglob("*.py")) if p != HOME
             for use in pdfium_openings(p)]
    assert found == [], "open PDFium with generator.core.pdfium.document(), which takes the process's lock"
    assert pdfium_openings(HOME)  # the one place that does


def test_the_static_check_sees_each_way_round_the_lock(tmp_path):
    planted = tmp_path / "m.py"
    planted.write_text("import pypdfium2.raw as pdfium_c\nfrom pypdfium2 import raw\n"
                       "import pypdfium2 as pdfium\nfrom pypdfium2 import PdfDocument\n"
                       "from pypdfium2.raw import FPDF_LoadMemDocument64\nimport pypdfium2_raw\n\n"
                       "def f(data):\n    pdfium_c.FPDFText_CountChars(None)\n"
                       "    return pdfium_c.FPDF_LoadMemDocument(data, len(data), None)\n")
    assert pdfium_openings(planted) == ["3: import pypdfium2", "4: from pypdfium2 import PdfDocument",
                                        "5: from pypdfium2.raw import FPDF_LoadMemDocument64",
                                        "6: import pypdfium2_raw", "10: FPDF_LoadMemDocument"]


# ---- in this process: PDFium's C functions watched while threads draw ----


class Watch:
    """Every C function of pypdfium2.raw wrapped: counts the threads inside PDFium and yields
    the interpreter to the others on the way in (time.sleep(0): no waiting, a turn given), so
    that a thread not held back by the lock does come in meanwhile. A thread that comes in
    while another is inside is counted (`most`), then made to wait until that one is out (a
    condition, no timeout): even without the lock, PDFium itself never runs on two threads at
    once here, so the self-test cannot damage this process."""

    def __init__(self, monkeypatch):
        import pypdfium2.raw as raw
        self.most, self.calls = 0, 0
        self.owner: int | None = None  # the thread inside PDFium
        self.depth = 0  # its calls under way (a callback may call in again)
        self._turn = threading.Condition()
        for name in dir(raw):
            fn = getattr(raw, name)
            if name.startswith("FPDF") and callable(fn) and hasattr(fn, "argtypes"):
                monkeypatch.setattr(raw, name, self._wrap(fn))

    def _wrap(self, fn):
        def watched(*args):
            me = threading.get_ident()
            with self._turn:
                self.calls += 1
                if self.owner not in (None, me):
                    self.most = 2
                    self._turn.wait_for(lambda: self.owner is None)
                self.most = max(self.most, 1)
                self.owner, self.depth = me, self.depth + 1
            try:
                time.sleep(0)
                return fn(*args)
            finally:
                with self._turn:
                    self.depth -= 1
                    if not self.depth:
                        self.owner = None
                        self._turn.notify_all()
        return watched


def draw_at_once(jobs: list, rounds: int) -> list[BaseException]:
    """Each job `rounds` times, each on a thread of its own, all at once: what they raised."""
    errors: list[BaseException] = []

    def run(job):
        try:
            for _ in range(rounds):
                job()
        except Exception as exc:  # said by the test, not lost in the thread
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return errors


@pytest.fixture(scope="module")
def builder_drawings(tmp_path_factory):
    """What the builder draws with PDFium: rule icons and card pictures (as its pages ask for
    them), and the words and contrast of a printed PDF read back (as a print job's checks)."""
    from generator.core.pdfwords import page_words
    from generator.export.cardimage import render_png
    from generator.export.iconimage import icon_names, icon_png
    from generator.pack.load import load_pack
    from generator.render.base.pdfout import new_canvas
    from generator.render.base.readback import low_contrast_text
    from generator.render.cards.faces import CardShared

    pack = load_pack(PACKS / "boss_fight")
    icons = sorted(icon_names(pack))[:6]
    cards = list(pack.cards)[:2]
    pdf = tmp_path_factory.mktemp("pdfium") / "words.pdf"
    c = new_canvas(str(pdf), (200, 200), "words", "front")
    c.drawString(20, 100, "Lantern Skull deals 3 damage")
    c.showPage()
    c.save()
    return {"icons": lambda: [icon_png(pack, n) for n in icons],
            "cards": lambda: [render_png(pack, card, "front", 36, CardShared(pack)) for card in cards],
            "words": lambda: page_words(pdf), "contrast": lambda: low_contrast_text(pdf)}


def test_pdfium_is_never_entered_by_two_threads_at_once(monkeypatch, builder_drawings):
    watch = Watch(monkeypatch)
    assert draw_at_once(list(builder_drawings.values()), rounds=3) == []
    assert watch.calls > 100  # the watch saw the drawing (492 calls)
    assert watch.most == 1


def test_the_watch_sees_threads_overlap_without_the_lock(monkeypatch, builder_drawings):
    """The same drawing with the lock taken away: the watch sees a second thread come in (so
    the test above can fail), and holds it back."""
    from generator.core import pdfium
    monkeypatch.setattr(pdfium, "_lock", contextlib.nullcontext())
    watch = Watch(monkeypatch)
    assert draw_at_once([builder_drawings["icons"], builder_drawings["words"], builder_drawings["words"]],
                        rounds=5) == []
    assert watch.most > 1


# ---- pnp serve raced by parallel clients, then Ctrl-C ----


def test_serve_raced_by_clients_that_use_pdfium_stops_cleanly_on_ctrl_c(tmp_path):
    from generator.export.iconimage import icon_names
    from generator.pack.load import load_pack

    urls = []
    for pack_id in ("boss_fight", "tactics", "raid_boss"):
        pack = load_pack(PACKS / pack_id)
        urls += [f"/p/{pack_id}/icons/{name}.png" for name in sorted(icon_names(pack))]  # drawn once each
        cards = list(pack.cards)[:12]
        urls += [f"/p/{pack_id}/cards/{c}.png?thumb=1" for c in cards] + [f"/p/{pack_id}/cards/{c}.png" for c in cards]
    proc, port, first = start_serve("card_data", "--port", "0", "--builds", str(tmp_path / "builds"),
                                    "--cache", str(tmp_path / "cache"))
    host = f"localhost:{port}"

    def ask(method, url, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            conn.request(method, url, body=body, headers={"Host": host, **(headers or {})})
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()

    build = doc_of(ask("GET", "/p/boss_fight/edit?preset=boss-ashen-behemoth")[1].decode())
    printed = urllib.parse.urlencode({"build": json.dumps(build)})
    answers: list = []
    answered = threading.Event()

    def client(method, url, body=None, headers=None):
        try:
            answers.append((url, ask(method, url, body, headers)[0]))
        except OSError as exc:  # asked after Ctrl-C closed the socket
            answers.append((url, type(exc).__name__))
        answered.set()

    threads = [threading.Thread(target=client, args=("POST", "/p/boss_fight/print/cards.pdf", printed,
                                                     {"Content-Type": "application/x-www-form-urlencoded",
                                                      "Origin": f"http://{host}"}))]
    threads += [threading.Thread(target=client, args=("GET", url)) for url in urls]
    for t in threads:
        t.start()
    try:
        for t in threads[: len(threads) // 2]:  # half of them answered; the rest in flight or waiting
            t.join()
    finally:
        out = stop_serve(proc)  # Ctrl-C: exit 0, no traceback
    for t in threads:
        t.join()
    assert out.strip() == "", out  # no "corrupted double-linked list", no abort, no warning
    assert len(answers) == len(urls) + 1
    assert {status for _, status in answers} <= {200, "ConnectionRefusedError", "ConnectionResetError",
                                                 "RemoteDisconnected"}, answers
    assert sum(1 for _, status in answers if status == 200) >= len(urls) // 2

"""A whole kit's build in its two workers (build.py): the cards and the pieces, which wait for a
worker freed, find the fonts and icon outlines the parent loaded meanwhile. The maps part goes first and judges the
contrast of its text as it draws (render/base/paints.py), with no job of its own reading
maps.pdf back and no PDF library loaded. What it finds is judged as when the kit is built in
one process: the same lines, and an error keeps no file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import build_folder
from generator.core.errors import InputError
from generator.core.workers import PROCESSES
from generator.export.profile_table import PROFILES
from generator.render.base.paints import TextOnPaint

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"


def _finding(monkeypatch, ratio: float, log: Path):
    """Every maps drawing finds one label at `ratio`, and writes down that it judged (the
    workers are forked: the log file is how they tell)."""
    def low(recorder):
        with log.open("a", encoding="utf-8") as f:
            f.write(f"judged {len(recorder.judged)}\n")
        grey = 0.35 if ratio < 3 else 0.3
        return [(3, TextOnPaint("3,-1", (grey,) * 3, (0.62,) * 3, ratio, (10.0, 10.0, 20.0, 16.0)))]

    monkeypatch.setattr("generator.render.base.paints.PaintRecorder.low", property(low))


def test_the_maps_go_first():
    assert PROFILES["home"].parts[0] == "maps"


_SEEN = """
import json
import sys
from pathlib import Path
import generator.build as b
import pyphen
from generator.pack.gameicons import icon_set
from generator.render.base import iconart, templatecache
from reportlab.pdfbase.pdfmetrics import getRegisteredFontNames
started, pool, log = b._worker, b.worker_pool, Path(sys.argv[2])
compiled = []  # templates and expressions compiled (or read from the cache folder)
for name in ("from_string", "expression"):
    def counting(*a, _real=getattr(templatecache, name), **k):
        compiled.append(1)
        return _real(*a, **k)
    setattr(templatecache, name, counting)

def read():  # icon outlines' text kept, files parsed, hyphenation dictionaries read, templates compiled: so far
    return (len(iconart._TEXTS), len(pack_documents), len(pyphen.hdcache), len(compiled))

def worker(args):  # in the forked worker: what it found loaded (the log file is how it tells)
    global pack_documents
    pack_documents = args[1].documents
    found = [args[0], "_outlines" in vars(icon_set()), len(getRegisteredFontNames()) > 0, read()]
    try:
        return started(args)
    finally:
        with log.open("a", encoding="utf-8") as f:
            f.write(json.dumps(found + [read()]) + "\\n")

b._worker = worker
b.worker_pool = lambda n, **kw: print("workers", n) or pool(n, **kw)
list(b.build_folder(Path(sys.argv[1]), out_dir=Path(sys.argv[3])))
"""


def test_the_parts_that_wait_find_what_the_parent_loaded(tmp_path):
    """maps and rulebook start in the two workers; the cards and the pieces wait for one freed, and
    the parent (a fresh process) has loaded meanwhile the fonts they draw with, made the outline
    text of the cards' icons (from the icon outlines), parsed the layouts and read the hyphenation
    dictionary (the pool does its idle work before it takes a result). On the next run, with the
    cache folder filled, the outline text and the fits are read from it: no process reads the
    outlines or the dictionary."""
    assert PROFILES["home"].parts[PROCESSES:] == ("cards", "pieces")
    env = dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache"))  # a first run: its own empty cache folder
    for run in ("first", "next"):
        log = tmp_path / f"workers-{run}.txt"
        done = subprocess.run([sys.executable, "-c", _SEEN, str(BOSS_FIGHT), str(log), str(tmp_path / "kit")],
                              capture_output=True, text=True, check=True, env=env)
        assert done.stdout.splitlines()[0] == f"workers {PROCESSES}"
        found = {line[0]: line[1:] for line in map(json.loads, log.read_text(encoding="utf-8").splitlines())}
        assert sorted(found) == ["cards", "maps", "pieces", "rulebook"]
        read = run == "first"  # the outlines: only where their text is not kept
        assert [found[p][:2] for p in ("cards", "pieces", "maps", "rulebook")] == \
            [[read, True]] * 2 + [[False, False]] * 2
        # the cards' worker made or read no icon outline's text, parsed no file, read no hyphenation dictionary
        # and compiled no layout's template of its own, nor the pieces' an outline or a dictionary: the parent
        # had (kit.preload_drawing), in the CardShared the cards' part takes (faces.prepare_cards)
        (outlines, files, dictionaries, templates), after = found["cards"][2:]
        assert after == [outlines, files, dictionaries, templates] and outlines >= 100
        assert dictionaries == (1 if run == "first" else 0)  # the next run's fits are kept: no word is broken
        assert templates >= 30
        before, after = found["pieces"][2:]
        assert [after[0], after[2]] == [before[0], before[2]] == [outlines, dictionaries]
        assert found["maps"][2][0] == found["rulebook"][2][0] == 0  # forked before the parent made them


def test_what_a_kit_reads_ahead_is_frozen_in_the_command_and_the_collector_back_as_it_was():
    # in the pnp command (which froze its imports), kit.preload_drawing runs without the collector
    # and freezes what it made (core/collector.py): it lives as long as the parent and the workers
    # forked after it; elsewhere (a test's build) nothing is frozen, as a frozen cycle is never freed
    import gc

    from generator.kit import preload_drawing
    from generator.pack.load import load_pack
    from generator.render.cards import faces

    pack = load_pack(BOSS_FIGHT)
    gc.unfreeze()
    try:
        for command in (True, False):
            for enabled in (True, False):
                if command:
                    gc.freeze()  # what the command does with its imports
                (gc.enable if enabled else gc.disable)()
                preload_drawing(pack)
                assert gc.isenabled() == enabled
                shared = faces._prepared[id(pack)][1]
                assert any(o is shared for o in gc.get_objects()) != command  # frozen: no generation holds it
                gc.unfreeze()
    finally:
        gc.unfreeze()
        gc.enable()


@pytest.mark.parametrize("ratio", [3.5, 2.6])
def test_the_maps_part_finds_the_same_alone_and_in_the_workers(ratio, tmp_path, monkeypatch):
    said: dict[bool, list[str]] = {}
    for parallel in (False, True):
        log = tmp_path / f"judged-{parallel}.txt"
        _finding(monkeypatch, ratio, log)
        out = tmp_path / f"kit-{parallel}"
        if ratio < 3:  # an error: refused, with the finding, and nothing kept
            with pytest.raises(InputError) as refused:
                list(build_folder(BOSS_FIGHT, out_dir=out, parallel=parallel))
            said[parallel] = [f"{p.code}: {p.message}" for p in refused.value.problems]
            assert not out.exists()
        else:
            lines = list(build_folder(BOSS_FIGHT, out_dir=out, parallel=parallel))
            said[parallel] = [line for line in lines if "text.contrast" in line]
            assert (out / "maps.pdf").is_file()
        judged = log.read_text(encoding="utf-8").splitlines()
        assert len(judged) == 1 and int(judged[0].split()[1]) > 1000  # once, while drawing every label
    assert said[True] == said[False] and len(said[True]) == 1 and "maps.pdf" in said[True][0]
    assert "“3,-1”" in said[True][0] and f"contrast of {ratio:.2f}:1" in said[True][0]
    assert said[True][0].startswith("warning: text.contrast") == (ratio >= 3)


def test_the_kit_reads_no_pdf_back(tmp_path):
    """The whole kit, built in one process, never loads PDFium (nor pypdf, pikepdf)."""
    code = ("import sys; from pathlib import Path; from generator.build import build_folder; "
            f"list(build_folder(Path({str(BOSS_FIGHT)!r}), out_dir=Path({str(tmp_path / 'kit')!r}), parallel=False)); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pypdfium2', 'pypdf', 'pikepdf')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
    assert (tmp_path / "kit" / "maps.pdf").is_file()


@pytest.mark.parametrize("bad", ['text: "{{ card.name "', 'when: "card.cost >", text: "x"'])
def test_a_template_that_does_not_compile_is_said_alike_by_the_kit_and_its_cards(tmp_path, bad):
    """The parent compiles the layouts ahead for the cards' worker (faces.prepare_cards), leaving
    what does not compile to the drawing: it is refused at its element, in the same words as
    when the cards are built alone."""
    import os
    import shutil
    pack = tmp_path / "pack"
    shutil.copytree(BOSS_FIGHT, pack)
    (pack / "templates" / "cards" / "action.yaml").write_text(
        "extends: base\nelements:\n  - {id: title, kind: text, x: 4, y: 3, w: 45, h: 7, " + bad + "}\n",
        encoding="utf-8")
    said = []
    for only in ([], ["--only", "cards"]):
        done = subprocess.run([sys.executable, "-m", "generator", "build", str(pack), "-o", str(tmp_path / "out"),
                               *only], cwd=REPO, capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, PNP_CACHE_DIR=str(tmp_path / "cache")))
        assert done.returncode == 2, done.stderr
        said.append([line for line in done.stderr.splitlines() if "layout.template" in line])
    assert said[0] == said[1] and len(said[0]) == 1 and "action.yaml:3:5" in said[0][0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def _frozen_here(marker) -> bool:
    import gc
    return not any(o is marker for o in gc.get_objects())  # frozen: no generation of the collector holds it


def test_a_worker_freezes_what_it_inherited():
    # core/workers._child freezes the heap it forked with (the loaded pack, the modules): the
    # worker's collections walk only what it makes. The parent's own objects stay unfrozen.
    from generator.core.workers import worker_pool

    marker = [object()]  # made after any freeze: in a generation of the parent's collector
    assert not _frozen_here(marker)
    with worker_pool(1) as pool:
        assert pool.map(lambda _: _frozen_here(marker), [0]) == [True]
    assert not _frozen_here(marker)

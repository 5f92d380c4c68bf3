"""The rulebook's text layouts and table word widths kept between processes (render/rulebook/
kept.py): a layout read back is the layout the text fitter makes for the same arguments (the same
lines, runs, fonts, colours, offsets, widths and heights), for every text of a shipped rulebook and
quick reference in English and German; so is a word width; what a file does not hold, or holds
wrong, is laid out again; the rulebook's bytes are the same cold and warm."""

from __future__ import annotations

import io
import marshal

import pytest

from generator.pack.load import load_pack
from generator.render.base import templatecache
from generator.render.base.text import TextFitter
from generator.render.rulebook import kept
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.quickref import build_quick_reference_pdf
from generator.render.rulebook.text import Book, BookStyle

from conftest import REPO


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """An empty cache folder of the test's own, and no store left from another test's process state."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    kept._STORES.clear()
    yield tmp_path / "cache"
    kept._STORES.clear()


def _made(monkeypatch) -> list:
    """Every layout the text fitter works out (not read): a list that grows by one each."""
    made: list = []
    real = TextFitter.layout

    def layout(self, *args):
        made.append(args)
        return real(self, *args)

    monkeypatch.setattr(TextFitter, "layout", layout)
    return made


def _built(pack, tmp_path, monkeypatch) -> tuple[list, list, bytes]:
    """The rulebook and the quick reference built as the kit's worker builds them, in a process of
    their own (no store yet): every layout and word width the books gave, and the rulebook's bytes."""
    kept._STORES.clear()
    layouts: list = []
    words: list = []
    real_layout, real_words = kept.KeptText.layout, kept.KeptText.words_of

    def layout(self, fitter, args):
        layouts.append((args, real_layout(self, fitter, args)))
        return layouts[-1][1]

    def words_of(self, key, measure):
        words.append((key, real_words(self, key, measure), measure()))
        return words[-1][1]

    monkeypatch.setattr(kept.KeptText, "layout", layout)
    monkeypatch.setattr(kept.KeptText, "words_of", words_of)
    out = io.BytesIO()
    build_rulebook_pdf(pack, out)
    build_quick_reference_pdf(pack, tmp_path / "quick-reference.pdf", checked=True)
    kept.keep_all()
    monkeypatch.setattr(kept.KeptText, "layout", real_layout)
    monkeypatch.setattr(kept.KeptText, "words_of", real_words)
    return layouts, words, out.getvalue()


def _same(asked: list, made: list) -> bool:
    """Every layout asked for is the one made for the same arguments (and the rulebook's all are)."""
    first = dict(made)
    return all(first.get(args) == lay for args, lay in asked) and len(asked) > 1000


@pytest.mark.parametrize("lang", [None, "de"])
def test_every_kept_layout_of_a_shipped_rulebook_is_the_layout(cache, tmp_path, monkeypatch, lang):
    pack = load_pack(REPO / "card_data" / "boss_fight", lang=lang)
    made = _made(monkeypatch)
    layouts, words, cold = _built(pack, tmp_path, monkeypatch)
    assert len(made) == len({args for args, _lay in layouts}) > 1500  # each laid out once
    assert any(run.value.endswith("-") for _a, lay in layouts for ln in lay.lines for run in ln.runs)  # hyphenated
    assert all(w == measured for _k, w, measured in words) and len(words) > 500
    count = len(made)
    read, read_words, warm = _built(pack, tmp_path, monkeypatch)
    assert len(made) == count  # nothing laid out: every layout read
    # the same lines, runs, fonts, colours, offsets, widths and heights (fewer: the quick reference's
    # size is kept too, and fewer sizes are tried)
    assert _same(read, layouts)
    measured = {k: w for k, w, _m in words}
    assert all(measured[k] == w for k, w, _m in read_words) and len(read_words) > 500
    assert warm == cold  # the same rulebook


@pytest.mark.parametrize("damage", ["not-blocks", "not-marshal", "a-wrong-place"])
def test_a_kept_file_that_holds_no_layouts_is_laid_out_and_written_again(cache, tmp_path, monkeypatch, pack, damage):
    made = _made(monkeypatch)
    layouts, _words, cold = _built(pack, tmp_path, monkeypatch)
    (file,) = [p for p in cache.iterdir() if p.read_bytes().startswith(kept._FORM)]
    where, words, blob = marshal.loads(file.read_bytes()[len(kept._FORM) + 32:])
    args = next(iter(where))
    payload = {"not-blocks": marshal.dumps([1, 2]), "not-marshal": b"\xff\x00",
               "a-wrong-place": marshal.dumps(({**where, args: (0, 5)}, words, blob))}[damage]
    templatecache.keep(file.name, kept._FORM, payload)  # framed and summed as the cache writes
    count = len(made)
    again, _w, bytes_again = _built(pack, tmp_path, monkeypatch)
    assert _same(again, layouts) and bytes_again == cold
    # laid out again: everything, or the one whose place holds no layout
    assert made[count:] == ([args] if damage == "a-wrong-place" else [a for a, _lay in again])
    count = len(made)
    assert _same(_built(pack, tmp_path, monkeypatch)[0], layouts) and len(made) == count  # written again: all read


def test_past_the_cap_a_file_keeps_the_run_s_own(cache, tmp_path, monkeypatch):
    """Another paper's or another text's layouts are kept with this run's up to MAX_KEPT; past
    it, the run's own alone (what the next run of the same kit reads)."""
    book = Book(["Stunned"], BookStyle())
    store = book.kept
    for width in (100.0, 120.0, 140.0):
        book.layout("A *line* of Stunned text, long enough to break somewhere.", width, 9.0, 1.3)
    kept.keep_all()
    monkeypatch.setattr(kept, "MAX_KEPT", 4)
    kept._STORES.clear()
    book = Book(["Stunned"], BookStyle())
    assert book.kept is not store and book.kept.key == store.key
    for width in (200.0, 220.0):
        book.layout("Another text, laid out at two more widths, both too narrow for it.", width / 3, 9.0, 1.3)
    kept.keep_all()
    kept._STORES.clear()
    where = Book(["Stunned"], BookStyle()).kept._read()[0]
    assert sorted(args[1] for args in where) == [200.0 / 3, 220.0 / 3]


def test_books_of_other_words_or_languages_keep_apart(cache):
    keys = {Book(words, BookStyle(), lang=lang).kept.key
            for words, lang in ((["Stunned"], "en_GB"), (["Dazed"], "en_GB"), (["Stunned"], "de_DE"))}
    assert len(keys) == 3 and None not in keys
    assert Book(["Stunned"], BookStyle()).kept is Book(["Stunned"], BookStyle(body=12)).kept  # one store a file


def test_no_cache_folder_means_laid_out_every_time(tmp_path, monkeypatch, pack):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    kept._STORES.clear()
    made = _made(monkeypatch)
    first, _w, cold = _built(pack, tmp_path, monkeypatch)
    count = len(made)
    again, _w, warm = _built(pack, tmp_path, monkeypatch)
    assert len(made) == 2 * count and _same(again, first) and warm == cold
    assert not (tmp_path / "cache").exists() or list((tmp_path / "cache").iterdir()) == []
    kept._STORES.clear()


def _sheet(pack, path, monkeypatch) -> tuple[dict, list, bytes]:
    """The quick reference built: what it says, each size laid out to see whether it fits, its bytes."""
    from generator.render.rulebook import quickref
    tried: list = []
    real = quickref._story

    def story(pack, book, geometry, text):
        tried.append(book.style.body)
        return real(pack, book, geometry, text)

    monkeypatch.setattr(quickref, "_story", story)
    info = build_quick_reference_pdf(pack, path, checked=True)
    monkeypatch.setattr(quickref, "_story", real)
    return info, tried[:-1], path.read_bytes()  # the last story is the one drawn


@pytest.mark.parametrize("kept_wrong", [None, "too-large", "too-small", "not-a-size"])
def test_the_quick_reference_s_size_is_kept_and_checked(cache, tmp_path, monkeypatch, pack, kept_wrong):
    """A second run takes the size the first chose, once it still fits and the next larger still does
    not (two sizes laid out, not every size from the largest); a kept size that fails either check
    is searched for again, as the first run did, and kept anew: the same sheet every time."""
    from generator.render.rulebook import quickref
    info, tried, cold = _sheet(pack, tmp_path / "q1.pdf", monkeypatch)
    sizes = quickref.SIZES
    chosen = sizes.index(info["size"])
    assert chosen >= 2 and tried == sizes[:chosen + 1]  # searched from the largest
    (file,) = [p for p in cache.iterdir() if p.read_bytes().startswith(kept._SIZE_FORM)]
    if kept_wrong is not None:
        wrong = {"too-large": sizes[chosen - 1], "too-small": sizes[chosen + 1], "not-a-size": 8.8}[kept_wrong]
        templatecache.keep(file.name, kept._SIZE_FORM, marshal.dumps(wrong))
    again, tried, warm = _sheet(pack, tmp_path / "q2.pdf", monkeypatch)
    assert again == info and warm == cold
    if kept_wrong is None:
        assert tried == [sizes[chosen], sizes[chosen - 1]]  # it fits, the next larger does not
    else:
        assert tried[-(chosen + 1):] == sizes[:chosen + 1]  # searched again
        assert _sheet(pack, tmp_path / "q3.pdf", monkeypatch)[1] == [sizes[chosen], sizes[chosen - 1]]

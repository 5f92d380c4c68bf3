"""Pyphen's hyphenation dictionaries, read when a word needs them rather than all at once.

Pyphen parses every pattern of a `hyph_*.dic` file when it loads it, with a regular expression
and a call per character: German's dictionary (1 MB, 66,000 patterns) took 0.4 s, a fifth of
drawing Boss Fight in German (`pnp validate` does, for its translation), to hyphenate the few
hundred words that do not fit a line. `hyphenator` keeps each pattern's line as the file
writes it, under its letters (the line without its digits, found for the whole file at once),
and parses a line the first time a word looks its letters up, with pyphen's own parsing. A
line whose values are all zero is left out, as pyphen leaves it out. Everything else (the
positions, the left and right minimums, the word cache) is pyphen's: the dictionary goes
into pyphen's own cache. tests/test_hyphenation.py compares the patterns, parsed, with
pyphen's for every dictionary it ships.

Those lines by their letters are kept on disk between processes (render/base/templatecache.py's
folder, in a format of their own), as the rulebook keeps its parsed Markdown: reading German's
1 MB and finding its 66,000 patterns' letters cost each process that hyphenates German 25-60 ms
(`pnp validate`'s German worker, both of `pnp build --lang de`'s), loading them marshalled about
a third of it. A file is named by the sha256 of what the reading depends on (the dictionary's
path, size and mtime, as __pycache__ judges a source; pyphen's version; our code, by
code_fingerprint()), and holds the same dict whether just read or loaded.
"""

from __future__ import annotations

import hashlib
import marshal
import re
from pathlib import Path

import pyphen

from generator.render.base import templatecache

_DIGIT = re.compile(r"\d")
_ZEROS = re.compile(r"(?m)^[^1-9\n]*\n")  # a line without a value above zero (pyphen skips it)


def _parsed(pattern: str) -> tuple:
    """(offset, values) of a pattern line, as pyphen.HyphDict.__init__ makes them."""
    factory: object = int
    if "/" in pattern and "=" in pattern:  # a nonstandard hyphenation
        pattern, alternative = pattern.split("/", 1)
        factory = pyphen.AlternativeParser(pattern, alternative)
    values = [factory(i or "0") for i, _letter in pyphen.parse(pattern)]  # type: ignore[operator]
    start, end = 0, len(values)
    while not values[start]:
        start += 1
    while not values[end - 1]:
        end -= 1
    return start, tuple(values[start:end])


class _Patterns(dict):
    """letters -> (offset, values), each made from its line on the first look-up."""

    def get(self, key, default=None):
        value = dict.get(self, key)
        if value is None:
            return default
        if value.__class__ is str:
            value = self[key] = _parsed(value)
        return value


def read_patterns(path: Path) -> pyphen.HyphDict:
    """The dictionary at `path`, which looks its patterns up as pyphen.HyphDict(path) does."""
    maxlen, by_letters = _kept_lines(path)
    hd = pyphen.HyphDict.__new__(pyphen.HyphDict)
    hd.patterns = _Patterns(by_letters)
    hd.cache = {}
    hd.maxlen = maxlen
    return hd


_FORMAT = b"pnp-hyphenation-1"


def _kept_lines(path: Path) -> tuple[int, dict[str, str]]:
    """The longest letters' length, and the pattern lines by their letters: read (`_lines`) or
    loaded as kept (above)."""
    try:
        st = path.stat()
    except OSError:
        return _lines(path)  # reports the file as the reading does
    h = hashlib.sha256(templatecache.code_fingerprint())
    h.update(repr((str(path.resolve()), st.st_size, st.st_mtime_ns, pyphen.__version__)).encode())
    key = h.hexdigest()
    kept = templatecache.load(key, _FORMAT)
    if kept is not None:
        try:
            maxlen, by_letters = marshal.loads(kept)
            if type(maxlen) is int and type(by_letters) is dict and by_letters:
                return maxlen, by_letters
        except (EOFError, ValueError, TypeError):
            pass  # not what was kept: read and written again
    read = _lines(path)
    templatecache.keep(key, _FORMAT, marshal.dumps(read))
    return read


def _lines(path: Path) -> tuple[int, dict[str, str]]:
    """The longest letters' length, and each pattern's line under its letters, as pyphen reads
    the file (lines with no value above zero left out)."""
    with path.open("rb") as fd:
        encoding = fd.readline().decode()
    if encoding.lower() == "microsoft-cp1251":
        encoding = "cp1251"
    kept = [line for line in map(str.strip, path.read_text(encoding).split("\n")[1:])
            if line and not line.startswith(pyphen.ignored)]
    text = "\n".join(kept) + "\n"
    if "^^" in text:  # characters written in hex (`^^e9`)
        text = "\n".join(pyphen.parse_hex(lambda match: chr(int(match.group(1), 16)), line) if "^^" in line
                         else line for line in kept) + "\n"
    text = _ZEROS.sub("", text)
    lines = text.split("\n")[:-1]
    letters = _letters(text).split("\n")[:-1]
    if "/" in text:  # a nonstandard hyphenation's line (`pattern/alternative`) is found by its pattern's letters
        letters = [key.split("/", 1)[0] if "/" in key and "=" in key else key for key in letters]
    return max(map(len, letters)), dict(zip(letters, lines))


def _letters(text: str) -> str:
    """The text without its digits (what \\d finds). bytes.translate drops 0-9 at once from the
    text as UTF-8 (whose other characters' bytes are never ASCII; German's 1 MB: 1 ms, 17 by the
    regular expression; English's, which has ligatures and a curly apostrophe beyond Latin-1,
    0.4 ms against 2.6), and the regular expression then takes any decimal digit of another
    script (a search that finds none: 0.4 ms)."""
    text = text.encode("utf-8").translate(None, b"0123456789").decode("utf-8")
    return text if _DIGIT.search(text) is None else _DIGIT.sub("", text)


def hyphenator(lang: str) -> pyphen.Pyphen:
    """Pyphen for `lang` (one of pyphen.LANGUAGES), its dictionary read once per process."""
    path = pyphen.LANGUAGES[pyphen.language_fallback(lang)]
    if path not in pyphen.hdcache:
        pyphen.hdcache[path] = read_patterns(Path(path))
    return pyphen.Pyphen(lang=lang)

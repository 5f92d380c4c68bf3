"""Safe YAML reading that remembers where every value came from.

Only PyYAML's SafeLoader composes the document; we then build plain Python values
ourselves so we can refuse duplicate keys, bound alias expansion ("billion laughs")
and nesting depth, and record a (line, column) for every path into the document.
PyYAML is imported when a text is parsed, never when it is kept in the cache folder already
(parse_kept): a run whose files are all kept does without it (~10 ms of a kit's start, before
its workers begin).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import math
import os
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

from generator.core import kept
from generator.core.errors import InputError, Location, Problem

if TYPE_CHECKING:
    import yaml

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 200_000
# Nesting can be no deeper than the count of the characters that open a level; below this
# the C composer's recursion is safe and the builder enforces MAX_DEPTH, above it the
# parser's events are checked first (libyaml segfaults at a few ten thousand levels).
SAFE_COMPOSE_DEPTH = 2_000
_MAP_TAG, _SEQ_TAG = "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq"
_TEXT_TAGS = ("tag:yaml.org,2002:timestamp",)  # kept as the text the author wrote
_STR_TAG, _INT_TAG = "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"

PathT: TypeAlias = tuple[str | int, ...]  # a path into a document: keys and list indexes
LineCol: TypeAlias = tuple[int, int]  # 1-based


class Addressed(Protocol):
    """A document whose every value knows where it was written: a parsed YAML file (Document), or
    the cards of a spreadsheet (pack/sheets: SheetDocument), so the loader reads both alike."""

    @property
    def file(self) -> str: ...
    @property
    def data(self) -> object: ...

    def at(self, path: PathT = (), key: bool = False) -> Location: ...


@dataclass
class Document:
    """A parsed YAML file: its data plus the source position of every path."""

    file: str
    data: object
    positions: dict[PathT, LineCol] = field(default_factory=dict)
    key_positions: dict[PathT, LineCol] = field(default_factory=dict)

    @cached_property
    def start(self) -> Location:
        """The top of the file (one shared, frozen value)."""
        return Location(self.file, 1, 1)

    def at(self, path: PathT = (), key: bool = False) -> Location:
        """Location of the value at `path` (or of its key), falling back to the nearest ancestor."""
        if not self.positions and not self.key_positions:  # data that came without a file (JSON from the builder)
            return self.start
        path = tuple(path)
        if key and path in self.key_positions:
            line, col = self.key_positions[path]
            return Location(self.file, line, col)
        while True:
            if path in self.positions:
                line, col = self.positions[path]
                return Location(self.file, line, col)
            if not path:
                return self.start
            path = path[:-1]


def display_path(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _problem(file: str, code: str, message: str, line: int = 1, col: int = 1, **kw: str | None) -> InputError:
    return InputError([Problem(code, message, Location(file, line, col), **kw)])


def read_text(path: Path, file: str | None = None) -> str:
    file = file or display_path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise _problem(file, "file.missing", f"file not found: {file}",
                       expected="an existing file", fix="check the path") from None
    except OSError as exc:
        raise _problem(file, "file.unreadable", f"cannot read {file}: {exc.strerror}") from None
    if not path.is_file():
        raise _problem(file, "file.not-a-file", f"{file} is not a file", expected="a YAML file")
    if size > MAX_FILE_BYTES:
        raise _problem(file, "file.too-large",
                       f"{file} is {size:,} bytes; files above {MAX_FILE_BYTES:,} bytes are refused",
                       found=f"{size:,} bytes", expected=f"at most {MAX_FILE_BYTES:,} bytes",
                       fix="split the file into several smaller ones")
    raw = path.read_bytes()
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise _problem(file, "file.encoding", f"{file} is UTF-16 text", found="UTF-16 (a byte order mark)",
                       expected="UTF-8 text", fix="save the file as UTF-8")
    if b"\x00" in raw:
        raise _problem(file, "file.binary", f"{file} is not text (it contains NUL bytes)",
                       found="binary data", expected="UTF-8 YAML text")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _problem(file, "file.encoding", f"{file} is not valid UTF-8 (byte {raw[exc.start]:#04x})",
                       line, col, found="a non-UTF-8 byte", expected="UTF-8 text",
                       fix="save the file as UTF-8") from None


def load_yaml_file(path: Path, file: str | None = None) -> Document:
    """The YAML file at `path`, parsed, or loaded as kept by an earlier process (below)."""
    file = file or display_path(path)
    return parse_kept(read_text(path, file), file)


def parse_kept(text: str, file: str) -> Document:
    """`text` parsed (parse_yaml), or loaded as kept by an earlier process that parsed the same
    text (below); what parsed is kept for the next."""
    key = hashlib.sha256(_reader_fingerprint() + text.encode("utf-8", "surrogatepass")).hexdigest()
    payload = kept.load(key, _FORMAT)
    if payload is not None:
        try:
            data, positions, key_positions = marshal.loads(payload)
            if type(positions) is dict and type(key_positions) is dict:
                return Document(file, data, positions, key_positions)
        except (EOFError, ValueError, TypeError):
            pass  # not what was kept: parsed and written again
    doc = parse_yaml(text, file)
    try:
        values: Any = (doc.data, doc.positions, doc.key_positions)  # the builder's plain values
        payload = marshal.dumps(values)
    except ValueError:  # a value marshal cannot write: not kept
        return doc
    kept.keep(key, _FORMAT, payload)
    return doc


# A file that parsed is kept in the cache folder (core/kept.py) as its values and positions,
# marshalled: composing and building a pack's YAML costs each process that loads it ~0.4 ms a
# file (Boss Fight: 27 files, 0.015 s, in `pnp validate`'s parent and again some in each worker;
# 37 files, 0.03 s, before `pnp build` starts its workers), loading them ~0.08 ms. A file is named
# by the sha256 of its text and of what reads it (this module, by size and mtime; PyYAML's files
# and loader; Python's version); only a document without problems is kept, so a broken file is
# parsed every time and says the same words at the same line.
_FORMAT = b"pnp-yaml-1"


@functools.cache
def _reader_fingerprint() -> bytes:
    """This module by size and mtime, PyYAML's __init__.py so (its version is written there) and
    whether its C loader is there, and Python's version: found without importing PyYAML (above)."""
    spec = importlib.util.find_spec("yaml")
    folder = os.path.dirname(spec.origin) if spec is not None and spec.origin else ""
    marks = []
    for path in (__file__, os.path.join(folder, "__init__.py")):
        try:
            st = os.stat(path)
            marks.append((st.st_size, st.st_mtime_ns))
        except OSError:
            marks.append((-1, -1))
    try:
        c_loader = any(name.startswith("_yaml.") for name in os.listdir(folder))
    except OSError:
        c_loader = False
    return hashlib.sha256(repr((marks, c_loader, sys.version)).encode()).digest()


@functools.cache
def _composer() -> type:
    """PyYAML's safe loader, imported on first use: libyaml's (several times faster, still giving
    marks) where PyYAML has it."""
    import yaml  # deferred: loaded with the first text parsed (module docstring)
    return getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str, file: str) -> Document:
    import yaml  # loaded with the first text parsed (above)
    try:
        if sum(text.count(c) for c in "[{-:?") > SAFE_COMPOSE_DEPTH:
            _check_depth(text, file)  # the C composer recurses: very deep nesting would crash it
        node = yaml.compose(text, Loader=_composer())
    except yaml.MarkedYAMLError as exc:
        raise _syntax_error(exc, text, file) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - (text.rfind("\n", 0, exc.position) + 1) + 1
        char = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "?")
        raise _problem(file, "yaml.syntax", f"YAML syntax error: the control character U+{char:04X} is not allowed",
                       line, col, found=f"U+{char:04X}", expected="printable text",
                       fix="remove the character (write it as an escape such as \\t inside double quotes if it is meant)") from None
    except yaml.YAMLError as exc:
        raise _problem(file, "yaml.syntax", f"YAML cannot be read: {exc}") from None
    except RecursionError:
        raise _problem(file, "yaml.too-deep", f"nesting deeper than Python can follow in {file}",
                       expected=f"at most {MAX_DEPTH} levels") from None
    doc = Document(file, None)
    if node is None:
        raise _problem(file, "yaml.empty", f"{file} is empty", expected="a YAML mapping",
                       fix="see docs/formats.md for what this file holds")
    builder = _Builder(doc)
    doc.data = builder.build(node, (), 0)
    if builder.problems:
        raise InputError(builder.problems)
    return doc


def _check_depth(text: str, file: str) -> None:
    """Walk the parser's events (libyaml parses without recursion) and refuse nesting deeper
    than MAX_DEPTH before anything composes the document."""
    import yaml  # deferred: loaded with the first text parsed (module docstring)
    depth = 0
    starts = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
    ends = (yaml.MappingEndEvent, yaml.SequenceEndEvent)
    events = yaml.parse(text, Loader=_composer())
    while True:
        try:
            event = next(events, None)
        except yaml.MarkedYAMLError as exc:
            # libyaml 0.2.5 as bundled by PyYAML >= 6.0.3 stops deep nesting itself (at 1000
            # levels, reading ahead); that is the same fault as ours, so it gets the same code
            if "maximum nesting depth" not in str(exc.problem):
                raise
            raise _problem(file, "yaml.too-deep", f"nesting deeper than {MAX_DEPTH} levels",
                           *_line_col(exc.problem_mark), expected=f"at most {MAX_DEPTH} levels") from None
        if event is None:
            return
        if isinstance(event, starts):
            depth += 1
            if depth > MAX_DEPTH:
                raise _problem(file, "yaml.too-deep", f"nesting deeper than {MAX_DEPTH} levels",
                               *_line_col(event.start_mark), expected=f"at most {MAX_DEPTH} levels")
        elif isinstance(event, ends):
            depth -= 1


class _Mark(Protocol):
    """A place in the text as PyYAML's marks give it (the Python and the C loader's), 0-based."""

    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...


def _line_col(mark: _Mark | None) -> LineCol:
    """A mark's 1-based (line, column); the top of the file when the error came without one."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _syntax_error(exc: yaml.MarkedYAMLError, text: str, file: str) -> InputError:
    line, col = _line_col(exc.problem_mark or exc.context_mark)
    problem = exc.problem or "invalid YAML"
    ctx_mark = exc.context_mark
    opened = exc.context or ""  # what was open when the error was found (a quoted scalar, a flow sequence, ...)
    unclosed = bool(ctx_mark is not None and any(
        w in opened for w in ("quoted scalar", "flow sequence", "flow mapping"))
        and ("end of stream" in problem or "did not find expected" in problem))
    if unclosed:  # an unclosed quote or bracket: the place to fix is where it was opened
        line, col = _line_col(ctx_mark)
    lines = text.splitlines()
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    fix = None
    if "\t" in src[: max(col, 1)] or "'\\t'" in problem:
        problem = "a tab character is used for indentation"
        fix = "YAML indents with spaces only: replace the tab with spaces"
        col = src.find("\t") + 1 if "\t" in src else col
    elif unclosed:
        what = "quote" if "quoted" in opened else "bracket" if "sequence" in opened else "brace"
        closer = {"quote": "quote", "bracket": "`]`", "brace": "`}`"}[what]
        problem = f"this {what} is opened but never closed ({problem})"
        fix = f"close it with the matching {closer}" + (" (or check the commas between items)" if what != "quote" else "")
    elif "found unexpected end of stream" in problem or "found unexpected end" in problem:
        fix = "a quote or bracket is opened but never closed"
    elif "mapping values are not allowed" in problem:
        fix = "check the indentation of this line, or quote a value that contains ': '"
    elif "expected <block end>" in problem or "did not find expected key" in problem:
        fix = "this line is indented differently from the lines around it"
    elif "expected '-' indicator" in problem:
        fix = "list items (`- ...`) and keys (`key: ...`) are mixed at the same indentation"
    elif "another document" in problem:
        fix = "a file holds one YAML document: remove the `---` line and what follows, or split the file"
    elif "undefined alias" in problem:
        fix = "define the anchor (`&name`) before using it (`*name`)"
    elif "duplicate anchor" in opened + problem:
        fix = "give each anchor (`&name`) its own name"
    context = f" ({exc.context})" if exc.context else ""
    if ctx_mark is not None and exc.problem_mark is not None and ctx_mark.line != exc.problem_mark.line:
        context = f" ({exc.context} started at line {ctx_mark.line + 1}, column {ctx_mark.column + 1})"
    return _problem(file, "yaml.syntax", f"YAML syntax error: {problem}{context}", line, col,
                    found=src.strip() or None, fix=fix)


class _Builder:
    """Turns a composed node tree into plain values, recording positions and refusing abuse."""

    def __init__(self, doc: Document):
        import yaml  # the parser has loaded it (parse_yaml)
        self.yaml = yaml
        self.doc = doc
        self.problems: list[Problem] = []
        self.count = 0
        self.constructor = yaml.SafeLoader("")
        self.collection_tags: dict[type, str] = {yaml.MappingNode: _MAP_TAG, yaml.SequenceNode: _SEQ_TAG}

    def loc(self, node: yaml.Node) -> LineCol:
        return node.start_mark.line + 1, node.start_mark.column + 1

    def build(self, node: yaml.Node, path: PathT, depth: int) -> object:
        self.count += 1
        if self.count > MAX_NODES:
            line, col = self.loc(node)
            raise InputError([Problem(
                "yaml.too-large", f"the document expands to more than {MAX_NODES:,} values "
                "(aliases that multiply, a 'billion laughs'?)", Location(self.doc.file, line, col),
                expected=f"at most {MAX_NODES:,} values", fix="remove the aliases (*name) that repeat large blocks")])
        if depth > MAX_DEPTH:
            line, col = self.loc(node)
            raise InputError([Problem("yaml.too-deep", f"nesting deeper than {MAX_DEPTH} levels",
                                      Location(self.doc.file, line, col), expected=f"at most {MAX_DEPTH} levels")])
        self.doc.positions.setdefault(path, self.loc(node))
        expected_tag = self.collection_tags.get(type(node))
        if expected_tag is not None and node.tag != expected_tag:
            line, col = self.loc(node)
            self.problems.append(Problem(
                "yaml.tag", f"the tag `{_short_tag(node.tag)}` is not supported", Location(self.doc.file, line, col),
                found=_short_tag(node.tag), expected="a plain list or mapping", fix="remove the tag"))
            return None
        if isinstance(node, self.yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, self.yaml.SequenceNode):
            return [self.build(item, path + (i,), depth + 1) for i, item in enumerate(node.value)]
        return self.scalar(node)

    def mapping(self, node: yaml.MappingNode, path: PathT, depth: int) -> dict[str | int, object]:
        out: dict[str | int, object] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                line, col = self.loc(key_node)
                self.problems.append(Problem("yaml.merge-key", "merge keys (<<) are not supported",
                                             Location(self.doc.file, line, col), fix="write the keys out"))
                continue
            if not isinstance(key_node, self.yaml.ScalarNode):
                line, col = self.loc(key_node)
                self.problems.append(Problem("yaml.key-type", "a mapping key must be a plain value",
                                             Location(self.doc.file, line, col), found="a list or mapping"))
                continue
            key = self.scalar(key_node)
            if not isinstance(key, (str, int, bool)) or isinstance(key, bool):
                key = str(key_node.value)
            if key in out:
                line, col = self.loc(key_node)
                first = self.doc.key_positions.get(path + (key,), (0, 0))
                self.problems.append(Problem(
                    "yaml.duplicate-key", f"duplicate key `{key}` (first given on line {first[0]})",
                    Location(self.doc.file, line, col), found=str(key), expected="each key once",
                    fix=f"remove one of the two `{key}` entries or merge them"))
                continue
            self.doc.key_positions[path + (key,)] = self.loc(key_node)
            out[key] = self.build(value_node, path + (key,), depth + 1)
        return out

    def scalar(self, node: yaml.Node) -> object:
        tag, text = node.tag, node.value
        # the two tags nearly every value has, read as SafeLoader reads them, without its dispatch
        if tag == _STR_TAG:
            return text
        if tag == _INT_TAG and len(text) <= 18 and text.isascii() and text.isdigit() and (text[0] != "0" or len(text) == 1):
            return int(text)  # short plain decimals (a leading 0 is YAML 1.1 octal, a long one refused: below)
        if tag in _TEXT_TAGS:
            return str(text)
        line, col = self.loc(node)
        where = Location(self.doc.file, line, col)
        try:
            value = self.constructor.construct_object(node, deep=True)
        except self.yaml.constructor.ConstructorError as exc:
            problem = exc.problem or str(exc)
            if "could not determine a constructor" in problem:
                self.problems.append(Problem("yaml.tag", f"the tag `{_short_tag(node.tag)}` is not supported",
                                             where, found=_short_tag(node.tag), expected="a plain value",
                                             fix="remove the tag"))
            else:
                self.problems.append(Problem("yaml.value", f"cannot read value: {problem}", where,
                                             found=_shorten(node.value)))
            return None
        except (self.yaml.YAMLError, ValueError, OverflowError) as exc:  # e.g. a 5,000-digit number
            first = str(exc).split(";")[0].split("\n")[0]
            self.problems.append(Problem("yaml.value", f"cannot read value: {first}", where,
                                         found=_shorten(node.value), expected="a number of reasonable size or text"))
            return None
        if isinstance(value, float) and not math.isfinite(value):
            self.problems.append(Problem("yaml.value", f"`{node.value}` is not a finite number", where,
                                         found=_shorten(node.value), expected="a finite number",
                                         fix="give the number in digits"))
            return None
        if isinstance(value, (bytes, bytearray)):
            line, col = self.loc(node)
            self.problems.append(Problem("yaml.value", "binary values are not accepted",
                                         Location(self.doc.file, line, col), expected="text or a number"))
            return None
        if not isinstance(value, (str, int, float, bool, type(None))):
            return str(node.value)  # dates and timestamps stay as the text the author wrote
        return value


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


def _shorten(value: object, limit: int = 60) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"

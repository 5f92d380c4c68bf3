"""Compiled Jinja templates kept on disk between processes, as Python's __pycache__ keeps bytecode.

Compiling the card layouts' and the rule chapters' templates (parse, our counting code generator,
Python's compile) costs every drawing process tens of milliseconds; the code it makes depends only
on the source and on what shapes the compiler. A file here is named by the sha256 of everything
that does: the source, Jinja's, ReportLab's and Python's versions (and bytecode magic), our own
code (the stat of every module of the `generator` package: the code generator, the sandbox and the
filters Jinja may fold at compile time), the environment's compile options and its filters' and
tests' names. It holds a marshalled code object behind the sha256 of its bytes; a short, corrupt or
foreign file is ignored and written again. The rulebook's parsed Markdown is kept in the same folder
the same way (`load`/`keep`, a format of its own: render/rulebook/markdown.py), and so are the outline
text of a pack's icons (render/base/iconart.py: keep_outlines) and its cards' text fits (render/base/
text.py: TextFitter with `kept`, written by the layout checks once every face is drawn).

Loading a code object runs it, so the folder must be the user's own: made 0700, and refused (no
caching, nothing said) when it is not a directory owned by the user, is open to others, cannot be
written, or on any OSError. Only templates that compiled are written: a bad template is compiled
the normal way every time, so its error is the same words at the same file:line. Writes go through
a temporary file and os.replace (another process never reads half a file). The folder is bounded:
past MAX_FILES the oldest files are forgotten.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import marshal
import sys
from pathlib import Path
from types import CodeType

import jinja2
from jinja2 import nodes
from jinja2.environment import TemplateExpression
from jinja2.exceptions import TemplateSyntaxError
from jinja2.parser import Parser

from generator.core import kept
from generator.core.kept import cache_dir as cache_dir, has as has, keep as keep, load as load
from generator.core.kept import sources_fingerprint as sources_fingerprint

_FORMAT = b"pnp-template-1"

# Environment attributes that change the code Jinja makes from a source
_OPTIONS = ("block_start_string", "block_end_string", "variable_start_string", "variable_end_string",
            "comment_start_string", "comment_end_string", "line_statement_prefix", "line_comment_prefix",
            "trim_blocks", "lstrip_blocks", "newline_sequence", "keep_trailing_newline", "optimized",
            "is_async", "sandboxed", "intercepted_binops", "intercepted_unops")


@functools.cache
def code_fingerprint() -> bytes:
    """What shapes the code besides the environment: versions, bytecode magic, and our own
    modules by name, size and mtime (as __pycache__ judges a source; cheap: ~1.5 ms)."""
    h = hashlib.sha256()
    reportlab = sys.modules.get("reportlab")
    h.update(repr((jinja2.__version__, getattr(reportlab, "Version", None), sys.version)).encode())
    h.update(importlib.util.MAGIC_NUMBER)
    sources_fingerprint(h, Path(__file__).resolve().parents[2])  # the generator package
    return h.digest()


def _env_fingerprint(env) -> str:
    options = [(name, getattr(env, name, None)) for name in _OPTIONS]
    options = [(name, sorted(v) if isinstance(v, (set, frozenset)) else v) for name, v in options]  # stable
    return repr((type(env).__qualname__, env.code_generator_class.__qualname__, options,
                 bool(env.autoescape) if not callable(env.autoescape) else "callable",
                 env.finalize is not None, sorted(env.extensions), sorted(env.filters), sorted(env.tests)))


def _key(env, source: str) -> str:
    h = hashlib.sha256(code_fingerprint())
    h.update(_env_fingerprint(env).encode())
    h.update(b"\0name:None\0")  # from_string's templates have no name
    h.update(source.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _code(payload: bytes | None) -> CodeType | None:
    if payload is None:
        return None
    try:
        code = marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


def from_string(env, source: str):
    """`env.from_string(source)`, with the compiled code read from the cache when it is there
    (the same steps as Jinja's from_string: globals, compile, the template class's from_code)."""
    folder = kept.private_dir()
    if folder is None:
        return env.from_string(source)
    path = folder / _key(env, source)
    code = _code(kept.read(path, _FORMAT))
    if code is None:
        code = env.compile(source)  # a bad template raises here, exactly as from_string would
        kept.write(folder, path, marshal.dumps(code), _FORMAT)
    return env.template_class.from_code(env, code, env.make_globals(None), None)


def expression(env, source: str):
    """`env.compile_expression(source)`, with the compiled code read from the cache when it is
    there: the expression parsed as Jinja parses it, into the one-assignment template Jinja makes
    of it (the same code), kept under the sha256 of a source no template can have. An expression
    that does not parse is compiled the normal way, so its error is Jinja's own."""
    folder = kept.private_dir()
    if folder is None:
        return env.compile_expression(source)
    path = folder / _key(env, "\0expression\0" + source)
    code = _code(kept.read(path, _FORMAT))
    if code is None:
        try:
            parser = Parser(env, source, state="variable")
            expr = parser.parse_expression()
            if not parser.stream.eos:
                raise TemplateSyntaxError("chunk after expression", parser.stream.current.lineno, None, None)
            expr.set_environment(env)
        except TemplateSyntaxError:
            return env.compile_expression(source)  # raises Jinja's error, with its words
        code = env.compile(nodes.Template([nodes.Assign(nodes.Name("result", "store"), expr, lineno=1)], lineno=1))
        kept.write(folder, path, marshal.dumps(code), _FORMAT)
    return TemplateExpression(env.template_class.from_code(env, code, env.make_globals(None), None), True)

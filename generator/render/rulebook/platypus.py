"""ReportLab's platypus, as the rulebook imports it: every rulebook module takes its platypus
names from here, so that platypus is first imported here.

Importing reportlab.platypus runs reportlab.platypus.paragraph, which compiles at once a pattern
for web addresses (`uri_pat`: case-insensitive over most of Unicode, some 18-30 ms of CPU) that
only Paragraph's hyphenation of a URL reads (`_uri_split_pairs`), and reportlab.lib.textsplit,
which compiles one for CJK text (`rx`, ~2 ms) that only its `cjkwrap` reads; the rulebook sets no
Paragraph and wraps no CJK text that way. Each process that lays out a rulebook paid them: the
kit's rulebook worker, and `pnp validate` before it forks its language workers. Here those two
patterns are compiled when first used: while platypus is imported, `re.compile` given exactly one
of them returns an object that compiles it on first use and answers as the compiled pattern
would (tests/test_private_apis.py checks that both are still those patterns and are left to
their first use)."""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager

URI_PATTERN_START = "(^(?:[a-z0-9\\.\\-\\+]*)://)"  # how ReportLab's uri_pat begins (its scheme)
CJK_PATTERN = "([\u2e80-\uffff])"  # reportlab.lib.textsplit.rx, whole


class OnFirstUse:
    """A pattern compiled the first time anything of it is asked for."""

    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int):
        self.pattern, self.flags = pattern, flags
        self._compiled: re.Pattern | None = None

    @property
    def compiled(self) -> bool:
        return self._compiled is not None

    def __getattr__(self, name: str):
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return getattr(self._compiled, name)


@contextmanager
def _patterns_deferred():
    real = re.compile

    def compile(pattern, flags=0):  # noqa: A001 (re's name)
        if isinstance(pattern, str) and ((pattern.startswith(URI_PATTERN_START) and flags == re.I)
                                         or (pattern == CJK_PATTERN and flags == re.U)):
            return OnFirstUse(pattern, flags)
        return real(pattern, flags)

    re.compile = compile
    try:
        yield
    finally:
        re.compile = real


if "reportlab.platypus.paragraph" not in sys.modules:
    with _patterns_deferred():
        import reportlab.platypus  # noqa: F401

from reportlab.platypus import (BaseDocTemplate, Flowable, Frame, FrameBreak, NextPageTemplate, PageBreak,  # noqa: E402
                                PageTemplate, Table, TableStyle)
from reportlab.platypus.doctemplate import ActionFlowable, IndexingFlowable, LayoutError  # noqa: E402

__all__ = ["ActionFlowable", "BaseDocTemplate", "Flowable", "Frame", "FrameBreak", "IndexingFlowable", "LayoutError",
           "NextPageTemplate", "PageBreak", "PageTemplate", "Table", "TableStyle"]

"""The Jinja sandbox that layouts and rule chapters run in, and the work a template may do.

Templates come from strangers, so what a template may cost is bounded, and bounded by counting
work, never by a clock: a verdict must not depend on how busy the machine is (a legal pack had
failed once with a template timeout on a loaded machine). The count (`Work`) is charged for
each item a loop draws, each call, each filter and test by the size of what it reads and makes,
each value written out or joined by its size, and each comparison by the size of its operands;
macro calls and recursive loops may nest `MAX_DEPTH` deep. Past `MAX_STEPS` the template stops
with `TemplateBudget`. Operators and methods that could make one enormous value from a short
template (`'x' * 10**9`, `9 ** 9 ** 9`, `'%099999999d' % 1`, `'x'.ljust(10**9)`) are refused
before the value is made. Nothing here reads the time.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Iterator

from jinja2 import Template, nodes
from jinja2.compiler import CodeGenerator, operators
from jinja2.constants import LOREM_IPSUM_WORDS
from jinja2.exceptions import SecurityError
from jinja2.runtime import LoopContext, Macro
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_RENDERED_CHARS = 20_000  # a card element; far above any card text (2,000)
MAX_VALUE_CHARS = 100_000  # a string or list made by one operator, filter or method inside a template
MAX_EXPONENT_BITS = 4_096
# The work one template (or one card face: its templates share one count) may do. The shipped
# packs' busiest use about 2% of it (tests/test_template_budget.py measures them); a hundred
# thousand items through a few filters is honest work and fits.
MAX_STEPS = 2_000_000
MACRO_STEPS = 16  # a macro call costs about as much as sixteen loop steps (Jinja makes a frame and a context)
MAX_DEPTH = 40  # macros calling macros, recursive loops: far below Python's own recursion limit
SAFE_ATTRIBUTE_MEMO = 4096  # (class, attribute) answers the sandbox keeps; layouts use a few dozen


class TemplateBudget(SecurityError):
    """A template did more work than MAX_STEPS, or nested deeper than MAX_DEPTH: a loop that
    never ends, a macro that calls itself, or far too much work."""


class Work:
    """The work counted so far in one template run (or one card face's)."""

    __slots__ = ("steps", "depth")

    def __init__(self):
        self.steps = 0
        self.depth = 0

    def charge(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > MAX_STEPS:
            raise TemplateBudget(f"the template did more than {MAX_STEPS:,} steps of work (a loop that never "
                                 "ends, or far too much work)")


# Per thread: the count of the run going on, so nested runs (every template of one card face)
# share one count. Web requests render on worker threads: each counts its own.
_CURRENT = threading.local()


def _work() -> Work:
    work = getattr(_CURRENT, "work", None)
    if work is None:  # a template run outside any budget (a test's env.from_string): count it alone
        work = Work()
    return work


def run_within_budget(call):
    """Run `call` with one count of work for every template it renders (a card face, a chapter,
    one expression); inside another budget, the enclosing count goes on."""
    if getattr(_CURRENT, "work", None) is not None:
        return call()
    _CURRENT.work = Work()
    try:
        return call()
    finally:
        _CURRENT.work = None


def _size(value) -> int:
    """What reading `value` costs: its items, nested lists and dicts walked (strings by their
    length), charged as it goes so an enormous value stops the walk at the budget."""
    work = _work()
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        n = 1
        if isinstance(item, str):
            n = len(item) or 1
        elif isinstance(item, (list, tuple, set, frozenset)):
            n = len(item) or 1
            stack.extend(item)
        elif isinstance(item, dict):
            n = len(item) or 1
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, range):
            n = len(item) or 1
        work.charge(n)
        total += n
    return total


def _counted(iterable) -> Iterator:
    """Each item drawn from `iterable` is a step."""
    work = _work()
    for item in iterable:
        work.charge()
        yield item


def _made(value):
    """A filter's or call's result: a generator counts what is drawn from it, a value its size."""
    if isinstance(value, Iterator) and not isinstance(value, (str, bytes)):
        return _counted(value)
    if isinstance(value, (str, list, tuple, dict, set, frozenset)):
        if len(value) > MAX_VALUE_CHARS:
            raise SecurityError(f"a value of {len(value):,} characters or items (at most {MAX_VALUE_CHARS:,})")
        _work().charge(len(value))
    return value


class CountingCodeGenerator(CodeGenerator):
    """Jinja's code generator, with the work of loops, comparisons and `~` counted: every loop
    draws its items through the `pnp_items` filter (a step each), each operand of a comparison
    and of a `~` is charged by its size."""

    def visit_Template(self, node: nodes.Template, frame=None) -> None:
        for loop in node.find_all(nodes.For):  # before the filters the template uses are listed
            loop.iter = nodes.Filter(loop.iter, "pnp_items", [], [], None, None, lineno=loop.iter.lineno)
        super().visit_Template(node, frame)

    def visit_Compare(self, node: nodes.Compare, frame) -> None:
        self.write("(environment.pnp_read(")
        self.visit(node.expr, frame)
        self.write(")")
        for op in node.ops:
            self.visit(op, frame)
        self.write(")")

    def visit_Operand(self, node: nodes.Operand, frame) -> None:
        self.write(f" {operators[node.op]} environment.pnp_read(")
        self.visit(node.expr, frame)
        self.write(")")

    def visit_Concat(self, node: nodes.Concat, frame) -> None:
        self.write("environment.pnp_joined(")
        super().visit_Concat(node, frame)
        self.write(")")


class BudgetTemplate(Template):
    """A template whose rendering is one run of counted work (or part of the run around it)."""

    def render(self, *args, **kwargs):
        return run_within_budget(lambda: super(BudgetTemplate, self).render(*args, **kwargs))


# A str method whose int argument is the length of what it makes
_WIDTH_METHODS = frozenset(["ljust", "rjust", "center", "zfill", "expandtabs"])
# a width or precision of 10,000 or more, or one taken from an argument (`{:{}}`, `%*d`)
_HUGE_FORMAT = re.compile(r"\{[^{}]*:[^{}]*(\d{5,}|\{)|%[-#0 +]*(\d{5,}|\.\d{5,}|\*|\.\*)")


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's sandbox with its work counted (module docstring), and bounds on the operators,
    filters and methods that could make one enormous value from a short template. Intercepting
    the operators also stops Jinja from folding them at compile time."""

    intercepted_binops = frozenset(["*", "**", "%", "+", "//"])
    code_generator_class = CountingCodeGenerator
    template_class = BudgetTemplate

    def __init__(self, *args, **kwargs):
        super().__init__(*args, finalize=self._written, **kwargs)
        self._safe_attributes: dict = {}  # (class, attribute name) -> Jinja's is_safe_attribute
        self.globals["lipsum"] = lipsum  # Jinja's is random: the same input must give the same pages

    # ---- the work ---------------------------------------------------------------------------
    @staticmethod
    def _written(value):
        """Every `{{ value }}` written out: charged by its size (finalize)."""
        _size(value)
        return value

    @staticmethod
    def pnp_read(value):
        _size(value)
        return value

    @staticmethod
    def pnp_joined(text):
        return _made(text)

    def call(__self, __context, __obj, *args, **kwargs):  # noqa: N805 - Jinja's own signature
        work = _work()
        if isinstance(__obj, (Macro, LoopContext)):  # a macro, `caller()`, or a recursive loop's `loop(...)`
            work.charge(MACRO_STEPS)
            if isinstance(__obj, LoopContext) and args:
                args = (_counted(args[0]), *args[1:])
            if work.depth >= MAX_DEPTH:
                raise TemplateBudget(f"macros or recursive loops nested more than {MAX_DEPTH} deep")
            work.depth += 1
            try:
                return super().call(__context, __obj, *args, **kwargs)
            finally:
                work.depth -= 1
        work.charge()
        for key, value in kwargs.items():
            if key not in ("_loop_vars", "_block_vars"):  # Jinja's own: the loop's variables
                _size(value)
        for value in args:
            _size(value)
        _check_method(__obj, args, kwargs)
        return _made(super().call(__context, __obj, *args, **kwargs))

    def call_binop(self, context, operator, left, right):
        _size(left)
        _size(right)
        if operator == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(left) > 1:
                if abs(right) * math.log2(abs(left)) > MAX_EXPONENT_BITS:
                    raise SecurityError(f"the power {left} ** {right} is too large for a layout")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * max(n, 0) > MAX_VALUE_CHARS:
                    raise SecurityError(f"repeating a value {n} times makes more than {MAX_VALUE_CHARS:,} items")
            return _made(left * right)
        if operator == "%":
            if isinstance(left, str) and _HUGE_FORMAT.search(left):
                raise SecurityError("a `%` format with a width or precision of 10,000 or more, or one taken "
                                    "from an argument")
            return _made(left % right)
        return _made(super().call_binop(context, operator, left, right))

    def getitem(self, obj, argument):
        if isinstance(argument, slice):  # a slice copies what it takes
            return _made(super().getitem(obj, argument))
        return super().getitem(obj, argument)

    def is_safe_attribute(self, obj, attr, value) -> bool:
        """Jinja's answer, kept per (class, attribute name): it depends on nothing else (which
        kinds of object the value is an instance of, and the name), and every card asks the
        same few dozen. An object that claims another class than its own type is asked afresh,
        and the memo stops growing at SAFE_ATTRIBUTE_MEMO entries (a template can make names)."""
        cls = type(obj)
        if obj.__class__ is not cls:
            return super().is_safe_attribute(obj, attr, value)
        key = (cls, attr)
        safe = self._safe_attributes.get(key)
        if safe is None:
            safe = super().is_safe_attribute(obj, attr, value)
            if len(self._safe_attributes) < SAFE_ATTRIBUTE_MEMO:
                self._safe_attributes[key] = safe
        return safe

    def make_globals(self, d):
        """A template's globals as a plain dict, not Jinja's ChainMap over the environment's:
        every render copies them into a new context, and a ChainMap is copied key by key in
        Python (a tenth of a card's template time). Layout environments never change their
        globals after they are made, so the snapshot is the same mapping."""
        return {**self.globals, **(d or {})}

    def wrap_str_format(self, value):
        wrapped = super().wrap_str_format(value)
        if wrapped is not None and _HUGE_FORMAT.search(str(value.__self__)):
            def refuse(*args, **kwargs):
                raise SecurityError("a format with a width or precision of 10,000 or more, or one taken "
                                    "from an argument")
            return refuse
        return wrapped



def lipsum(n: int = 5, html: bool = True, min: int = 20, max: int = 100) -> str:  # noqa: A002 - Jinja's names
    """Placeholder text, as Jinja's `lipsum` gives, but the same every time (Jinja's is random)
    and at most 20 paragraphs of at most 200 words."""
    if not (0 <= n <= 20 and 1 <= min <= max <= 200):
        raise SecurityError("lipsum gives at most 20 paragraphs of at most 200 words")
    words = LOREM_IPSUM_WORDS.split()
    paragraphs = []
    for i in range(n):
        count = min + (i * 37) % (max - min + 1)
        paragraphs.append(" ".join(words[(i * 53 + k) % len(words)] for k in range(count)).capitalize() + ".")
    return "\n".join(f"<p>{p}</p>" for p in paragraphs) if html else "\n\n".join(paragraphs)


def _check_method(obj, args, kwargs) -> None:
    """A str method asked for a width (`'x'.ljust(10**9)`) or a replace that would grow past
    MAX_VALUE_CHARS is refused before the string is made."""
    owner = getattr(obj, "__self__", None)
    name = getattr(obj, "__name__", "")
    if not isinstance(owner, str):
        return
    if name in _WIDTH_METHODS:
        for n in (*args, *kwargs.values()):
            if isinstance(n, int) and n > MAX_VALUE_CHARS:
                raise SecurityError(f"a width of {n:,} (at most {MAX_VALUE_CHARS:,})")
    elif name == "replace" and len(args) >= 2:
        old, new = str(args[0]), str(args[1])
        hits = len(owner) + 1 if old == "" else owner.count(old)
        if len(owner) + hits * max(0, len(new) - len(old)) > MAX_VALUE_CHARS:
            raise SecurityError(f"`replace` would make more than {MAX_VALUE_CHARS:,} characters")


# Filters that read no more than their first value's length or first item, or that hand on
# a generator (whose items are counted as they are drawn): their first value is not walked
_LIGHT_FILTERS = frozenset(["length", "count", "first", "default", "d", "attr", "abs", "int", "float", "round",
                            "bool", "items", "batch", "slice", "map", "select", "reject", "selectattr", "rejectattr",
                            "signed", "tint", "shade", "area_cells"])


def counted_filters(env) -> None:
    """Every filter and test charges the size of what it reads (its values walked: a string
    costs its length; a light filter's first value is not walked) and of what it makes; a
    filter that makes a generator charges each item drawn from it. The filters whose result can
    be far larger than their input are bounded before they run. `random` is left out: the same
    input must give the same pages. `pnp_items` is how every loop draws its items."""
    env.filters.pop("random", None)
    _bounded_filters(env)
    for name, fn in list(env.filters.items()):
        env.filters[name] = _counting(fn, name in _LIGHT_FILTERS)
    for name, fn in list(env.tests.items()):
        env.tests[name] = _counting(fn, False)
    env.filters["pnp_items"] = _counted


def _counting(fn, light: bool):
    pass_arg = getattr(fn, "jinja_pass_arg", None)
    skip = 1 if pass_arg is not None else 0  # the context or environment Jinja passes first

    def counted(*args, **kwargs):
        work = _work()
        work.charge()
        for i, value in enumerate(args[skip:]):
            if not (i == 0 and light):
                _size(value)
        for value in kwargs.values():
            _size(value)
        return _made(fn(*args, **kwargs))

    if pass_arg is not None:
        counted.jinja_pass_arg = pass_arg  # type: ignore[attr-defined]
    counted.__name__ = getattr(fn, "__name__", "filter")
    return counted


def _bounded_filters(env) -> None:
    """Filters whose result can be far larger than their input get a bound on that result."""
    center, indent, fmt, replace, join = (env.filters[n] for n in ("center", "indent", "format", "replace", "join"))

    def _check_width(width):
        if isinstance(width, int) and width > MAX_RENDERED_CHARS:
            raise SecurityError(f"a width of {width:,} (at most {MAX_RENDERED_CHARS:,})")

    def bounded_center(value, width=80):
        _check_width(width)
        return center(value, width)

    def bounded_indent(s, width=4, *args, **kwargs):
        _check_width(width)
        return indent(s, width, *args, **kwargs)

    def bounded_format(value, *args, **kwargs):
        if _HUGE_FORMAT.search(str(value)):
            raise SecurityError("a format with a width or precision of 10,000 or more")
        return fmt(value, *args, **kwargs)

    def bounded_replace(eval_ctx, s, old, new, count=None):
        text, old_s, new_s = str(s), str(old), str(new)
        hits = (len(text) + 1 if old_s == "" else text.count(old_s)) if count is None else count
        if len(text) + max(0, hits) * max(0, len(new_s) - len(old_s)) > MAX_VALUE_CHARS:
            raise SecurityError(f"`replace` would make more than {MAX_VALUE_CHARS:,} characters")
        return replace(eval_ctx, s, old, new, count)

    def bounded_join(eval_ctx, value, d="", attribute=None):
        items = list(value) if not isinstance(value, (list, tuple, str)) else value
        if len(str(d)) * max(len(items) - 1, 0) > MAX_VALUE_CHARS:
            raise SecurityError(f"`join` would make more than {MAX_VALUE_CHARS:,} characters")
        return join(eval_ctx, items, d, attribute)

    bounded_replace.jinja_pass_arg = replace.jinja_pass_arg  # type: ignore[attr-defined]
    bounded_join.jinja_pass_arg = join.jinja_pass_arg  # type: ignore[attr-defined]
    env.filters.update(center=bounded_center, indent=bounded_indent, format=bounded_format,
                       replace=bounded_replace, join=bounded_join)

"""Card layouts: YAML files of elements placed in millimetres from the card's trim corner
(top-left, y downwards), with text and values as Jinja run in a sandbox.

A layout may `extends:` another; a child's element with the same `id` replaces the
parent's, others are added after. `frame:` elements depend only on the set and type,
so they are drawn once per document as a PDF form and placed under every card.
"""

from __future__ import annotations

import math
import re
import signal
import threading
import time
from pathlib import Path
from typing import Literal

from jinja2 import StrictUndefined, Template, TemplateError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.yamlio import Document, display_path, load_yaml_file
from generator.grids import squaregrid
from generator.pack.model import CARD_SIZES_MM, CardSize
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn
from generator.render.base.colors import shade, tint


# the element kinds a layout may use; each is drawn by its module in generator.render.cards.elements
ELEMENT_KINDS = ("box", "line", "text", "icon", "stats", "image", "hexshape", "squares", "pattern")


# One element of a card layout: the fields every kind may use (each kind reads its own FIELDS,
# see generator.render.cards.elements). A comment, not a docstring: the layout schema shows
# docstrings to people editing layouts.
class Element(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: str | None = None
    kind: Literal[ELEMENT_KINDS]
    when: str | None = None
    x: float = 0
    y: float = 0
    w: float = 0
    h: float = 0
    x2: float | None = None
    y2: float | None = None
    bleed: bool = False
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = Field(default=0.3, ge=0, le=5)
    radius: float = Field(default=0, ge=0, le=50)
    text: str | None = None
    font: Literal["regular", "bold", "italic", "bold-italic", "display"] = "regular"
    size: float = Field(default=8, gt=0, le=200)
    min_size: float | None = Field(default=None, gt=0, le=200)
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: str = "#222222"
    keyword_color: str | None = None  # `text`: the colour of the pack's keywords (default: the keyword red)
    leading: float = Field(default=1.18, ge=0.8, le=3)
    hyphenate: bool = True
    name: str | None = None
    items: str | None = None
    hexes: str | None = None
    cells: str | None = None  # `squares`: an expression giving [x, y] tiles, e.g. "card.aoe | area_cells"
    fit: Literal["cover", "contain"] = "cover"
    emblem: str | None = None


class LayoutFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    extends: str | None = None
    description: str = ""
    # the card size the layout is drawn for (a size name or {width, height} mm); inherited
    # through `extends`. A card of another size refuses it (see render/cards/fit.py).
    size: str | CardSize | None = None
    frame: list[Element] = []
    elements: list[Element] = []


class Layout:
    """A resolved layout: frame and elements after `extends`, with compiled Jinja."""

    def __init__(self, name: str, file: str, frame: list[Element], elements: list[Element], env,
                 locations: dict | None = None, size: tuple[float, float] | None = None):
        self.name = name
        self.size = size  # (width, height) mm it is drawn for, or None: any size its elements fit
        self.file = file
        self.frame = frame
        self.elements = elements
        self.env = env
        self.locations = locations or {}  # id(element) -> where it is written (file:line:column)
        self._templates: dict = {}
        self._expressions: dict = {}

    def where(self, element: Element) -> Location:
        return self.locations.get(id(element)) or Location(self.file)

    def render(self, source: str, context: dict, element: Element) -> str:
        if "{{" not in source and "{%" not in source:
            return source
        template = self._templates.get(source)
        if template is None:
            template = self._compile(lambda: self.env.from_string(source), element)
            self._templates[source] = template
        text = self._run(lambda: template.render(context), element, context)
        if len(text) > MAX_RENDERED_CHARS:
            raise self._error(f"renders to {len(text):,} characters", element, context,
                              expected=f"at most {MAX_RENDERED_CHARS:,} characters")
        return text

    def evaluate(self, expression: str, context: dict, element: Element):
        fn = self._expressions.get(expression)
        if fn is None:
            fn = self._compile(lambda: self.env.compile_expression(expression), element)
            self._expressions[expression] = fn
        return self._run(lambda: run_within_budget(lambda: fn(**context)), element, context)

    def _compile(self, make, element: Element):
        try:
            return make()
        except (TemplateError, RecursionError, MemoryError, ValueError, TypeError, OverflowError) as exc:
            raise InputError([Problem("layout.template", f"layout `{self.name}` element "
                                      f"`{element.id or element.kind}`: {exc}", self.where(element),
                                      expected="a valid Jinja expression")]) from None

    def _run(self, call, element: Element, context: dict):
        try:
            return call()
        except InputError:
            raise
        except Exception as exc:  # SecurityError from the sandbox, or any error inside an expression
            message = str(exc) or type(exc).__name__
            if "no loader" in message:
                message = "layouts cannot include, import or extend other templates"
            raise self._error(message, element, context) from None

    def _error(self, message: str, element: Element, context: dict, expected: str | None = None) -> InputError:
        """A layout problem, at the element in the layout file; the card it was drawing is named."""
        card = context.get("card")
        card_at = getattr(card, "location", None) if card is not None else None
        where = f" for card `{card.id}`" + (f" ({card_at})" if card_at else "") if hasattr(card, "id") else ""
        return InputError([Problem("layout.template", f"layout `{self.name}` element "
                                   f"`{element.id or element.kind}`{where}: {message}", self.where(element),
                                   expected=expected, fix=f"check the layout file {self.where(element).file}")])


LAYOUT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
MAX_RENDERED_CHARS = 20_000  # a card element; far above any card text (2,000)
MAX_VALUE_CHARS = 100_000  # a string or list made by `*` or `%` inside a template
MAX_EXPONENT_BITS = 4_096


TEMPLATE_SECONDS = 5.0  # one template or expression; real ones take milliseconds
SAFE_ATTRIBUTE_MEMO = 4096  # (class, attribute) answers the sandbox keeps; layouts use a few dozen


class TemplateTimeout(SecurityError):
    """A template ran past its time budget: a loop that never ends, or far too much work."""


# Per thread: whether a budget timer is running, so nested calls (every template of one card)
# share the card's timer instead of arming four system timers per template.
_BUDGET = threading.local()


def run_within_budget(call, seconds: float | None = None):
    """Run `call`, interrupting it with TemplateTimeout after `seconds` (a real-time timer; only
    in the main thread of a process, where signals are delivered). Nests with an outer timer."""
    if getattr(_BUDGET, "running", False):  # an enclosing budget (a whole card) already watches
        return call()  # (tested first: most calls are nested; `running` is only set in the main thread)
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        return call()
    seconds = TEMPLATE_SECONDS if seconds is None else seconds

    def on_alarm(signum, frame):
        raise TemplateTimeout(f"the template ran longer than {seconds:g} s (a loop that never ends, "
                              "or far too much work)")

    previous_handler = signal.signal(signal.SIGALRM, on_alarm)
    outer, _ = signal.setitimer(signal.ITIMER_REAL, 0)
    start = time.monotonic()
    signal.setitimer(signal.ITIMER_REAL, min(seconds, outer) if outer > 0 else seconds)
    _BUDGET.running = True
    try:
        return call()
    finally:
        _BUDGET.running = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if outer > 0:  # give the outer timer what is left of its time
            signal.setitimer(signal.ITIMER_REAL, max(outer - (time.monotonic() - start), 0.001))


class BudgetTemplate(Template):
    """A template whose rendering runs within the time budget."""

    def render(self, *args, **kwargs):
        return run_within_budget(lambda: super(BudgetTemplate, self).render(*args, **kwargs))


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """Jinja's sandbox, plus bounds on the operators that can make huge values from a short
    template (`'x' * 10**9`, `9 ** 9 ** 9`, `'%099999999d' % 1`): such a template is refused
    with an error instead of eating the machine's memory or time. Intercepting these operators
    also stops Jinja from folding them at compile time. Every rendering runs within a time
    budget, so nested loops of a hundred thousand steps each end in an error too."""

    intercepted_binops = frozenset(["*", "**", "%"])
    template_class = BudgetTemplate

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._safe_attributes: dict = {}  # (class, attribute name) -> Jinja's is_safe_attribute

    def call_binop(self, context, operator, left, right):
        if operator == "**":
            if isinstance(left, (int, float)) and isinstance(right, (int, float)) and abs(left) > 1:
                if abs(right) * math.log2(abs(left)) > MAX_EXPONENT_BITS:
                    raise SecurityError(f"the power {left} ** {right} is too large for a layout")
            return left ** right
        if operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and len(seq) * max(n, 0) > MAX_VALUE_CHARS:
                    raise SecurityError(f"repeating a value {n} times makes more than {MAX_VALUE_CHARS:,} items")
            return left * right
        if operator == "%":
            if isinstance(left, str) and re.search(r"%[-#0 +]*(\d{5,}|\.\d{5,})", left):
                raise SecurityError("a `%` format with a width or precision of 10,000 or more")
            return left % right
        return super().call_binop(context, operator, left, right)

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
                raise SecurityError("a format with a width or precision of 10,000 or more")
            return refuse
        return wrapped


_HUGE_FORMAT = re.compile(r"\{[^{}]*:[^{}]*\d{5,}|%[-#0 +]*(\d{5,}|\.\d{5,})")


def _bounded_filters(env) -> None:
    """Filters whose result can be far larger than their input get a bound on that result."""
    center, indent, fmt, replace = (env.filters[n] for n in ("center", "indent", "format", "replace"))

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

    bounded_replace.jinja_pass_arg = replace.jinja_pass_arg
    env.filters.update(center=bounded_center, indent=bounded_indent, format=bounded_format,
                       replace=bounded_replace)


def make_environment() -> ImmutableSandboxedEnvironment:
    """Layouts and rules may come from strangers: the sandbox refuses attribute tricks,
    there is no loader, so templates cannot read files, and operators that could make
    enormous values are bounded."""
    env = BoundedSandbox(undefined=StrictUndefined, autoescape=False,
                         trim_blocks=False, lstrip_blocks=False)
    _bounded_filters(env)
    env.filters["signed"] = lambda v: f"+{v}" if isinstance(v, int) and v > 0 else str(v)
    env.filters["tint"] = tint
    env.filters["shade"] = shade
    env.filters["area_cells"] = area_cells
    return env


def area_cells(spec) -> list[list[int]]:
    """The tiles of a square-grid area written as text (`+`, `2`, `3x3`) around (0, 0), as
    [x, y] pairs; nothing for an empty value. See `generator.squaregrid.area`."""
    if spec is None or str(spec).strip() == "":
        return []
    try:
        return [[t.x, t.y] for t in squaregrid.area(spec)]
    except ValueError:
        return []


class LayoutSet:
    """All layouts of a template folder, loaded on demand and resolved once."""

    def __init__(self, folders: list[Path]):
        self.folders = folders
        self.env = make_environment()
        self._cache: dict[str, Layout] = {}
        self._paths: dict[str, Path | None] = {}  # resolved once per name (a set lives for one build)

    def path_of(self, name: str) -> Path | None:
        if not isinstance(name, str) or not LAYOUT_NAME.match(name):
            return None  # a layout is named by a plain file name: never a path out of its folder
        if name not in self._paths:
            self._paths[name] = self._find(name)
        return self._paths[name]

    def _find(self, name: str) -> Path | None:
        for folder in self.folders:
            path = folder / f"{name}.yaml"
            if path.is_file():  # (a loop of links is not a file)
                root = folder.resolve()
                if root not in path.resolve().parents:
                    raise InputError([Problem("path.outside", f"the layout `{name}` is a link that leads outside "
                                              f"its folder {folder}", Location(display_path(path)),
                                              found=str(path.resolve()),
                                              expected=f"a file inside {folder}",
                                              fix="copy the layout into the folder instead of linking to it")])
                return path
        return None

    def get(self, name: str, _chain: tuple = (), _where: Location | None = None) -> Layout:
        if name in self._cache:
            return self._cache[name]
        path = self.path_of(name)
        if path is None:
            known = sorted({p.stem for f in self.folders for p in f.glob("*.yaml")})
            guess = did_you_mean(name, known)
            plain = LAYOUT_NAME.match(name)
            raise InputError([Problem("layout.missing", f"no layout named `{name}`",
                                      _where or Location(str(self.folders[0] / f"{name}.yaml")), found=name,
                                      expected=(f"a file {name}.yaml in " + " or ".join(str(f) for f in self.folders))
                                      if plain else "the name of a layout (a file name without .yaml, no folders)",
                                      fix=f"did you mean `{guess}`?" if guess else
                                      "add the layout, or extend an existing one")])
        doc = load_yaml_file(path)
        spec = _validate(doc)
        frame, elements = list(spec.frame), list(spec.elements)
        locations: dict = {}
        if spec.extends:
            if spec.extends in _chain or spec.extends == name:
                raise InputError([Problem("layout.cycle", f"layout `{name}` extends itself through "
                                          f"{' → '.join(_chain + (name, spec.extends))}",
                                          doc.at(("extends",)), found=spec.extends)])
            parent = self.get(spec.extends, _chain + (name,), doc.at(("extends",)))
            frame = _merge(parent.frame, frame)
            elements = _merge(parent.elements, elements)
            locations.update(parent.locations)
        for part in ("frame", "elements"):
            for i, element in enumerate(getattr(spec, part)):
                locations[id(element)] = doc.at((part, i))
        size = _layout_size(spec, doc)
        if size is None and spec.extends:
            size = parent.size
        layout = Layout(name, doc.file, frame, elements, self.env, locations, size)
        self._cache[name] = layout
        return layout


def _validate(doc: Document) -> LayoutFile:
    if not isinstance(doc.data, dict):
        raise InputError([Problem("schema.type", "a layout must be a mapping", doc.at(()),
                                  expected="extends, frame, elements")])
    try:
        return LayoutFile.model_validate(doc.data)
    except ValidationError as exc:
        raise InputError(problems_from(exc, doc, (), "the layout", allowed_keys_fn(LayoutFile))) from None


def _layout_size(spec: LayoutFile, doc: Document) -> tuple[float, float] | None:
    if spec.size is None:
        return None
    if isinstance(spec.size, CardSize):
        return (spec.size.width, spec.size.height)
    if spec.size not in CARD_SIZES_MM:
        raise InputError([Problem("layout.size", f"no card size named `{spec.size}`", doc.at(("size",)),
                                  found=spec.size, expected=f"one of {', '.join(CARD_SIZES_MM)} or "
                                  "{width: W, height: H} in mm", fix=hint_size(spec.size))])
    return CARD_SIZES_MM[spec.size]


def hint_size(name: str) -> str | None:
    guess = did_you_mean(name, CARD_SIZES_MM)
    return f"did you mean `{guess}`?" if guess else None


def _merge(parent: list[Element], child: list[Element]) -> list[Element]:
    by_id = {e.id: e for e in child if e.id}
    merged = [by_id.pop(e.id) if e.id in by_id else e for e in parent]
    return merged + [e for e in child if not e.id or e.id in by_id]

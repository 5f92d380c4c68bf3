"""Card layouts: YAML files of elements placed in millimetres from the card's trim corner
(top-left, y downwards), with text and values as Jinja run in a sandbox.

A layout may `extends:` another; a child's element with the same `id` replaces the
parent's, others are added after. `frame:` elements depend only on the set and type,
so they are drawn once per document as a PDF form and placed under every card.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any, Literal, get_args

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.typesize import Role
from generator.core.yamlio import Document, display_path, load_yaml_file
from generator.grids import squaregrid
from generator.pack.documents import parsed_document
from generator.pack.model import CARD_SIZES_MM, CardSize, FileKey
from generator.pack.pydantic_errors import problems_from
from generator.pack.schemas import allowed_keys_fn
from generator.render.base import templatecache
from generator.render.base.colors import shade, tint
# the sandbox and its bounds live in sandbox.py; these names are read from here too
from generator.render.base.sandbox import (MAX_RENDERED_CHARS, MAX_VALUE_CHARS, SAFE_ATTRIBUTE_MEMO,  # noqa: F401
                                           BoundedSandbox, TemplateBudget, counted_filters, run_within_budget)


# the element kinds a layout may use; each is drawn by its module in generator.render.cards.elements
ElementKind = Literal["box", "line", "text", "icon", "stats", "image", "hexshape", "squares", "pattern"]
ELEMENT_KINDS: tuple[str, ...] = get_args(ElementKind)


# One element of a card layout: the fields every kind may use (each kind reads its own FIELDS,
# see generator.render.cards.elements). A comment, not a docstring: the layout schema shows
# docstrings to people editing layouts.
class Element(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: str | None = None
    kind: ElementKind
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
    # `text`: what the words are to a player: `rules` (sentences to read, at least 6 pt) or a
    # `label` (a caption, a tag, the collation line: at least 5 pt); the layout check holds the
    # drawn text to it (render/base/typesize.py). Other kinds' text (numbers) counts as labels.
    role: Role = "rules"
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


# What may tell one printed copy of a card from another (`index`, `total`), and the filter
# whose calls `pnp watch` notes per sheet (`name_of`): a template naming index or total is run
# again for a copy of another number, one naming name_of for every copy; the names are looked
# for in the text, so `loop.index` counts too.
_PER_COPY = re.compile(r"\b(index|total|name_of)\b")
_EVERY_COPY = re.compile(r"\bname_of\b")


@functools.lru_cache(maxsize=4096)
def same_for_copies(source: str) -> bool:
    """Does a template (or expression) give every copy of a card the same value?"""
    return _PER_COPY.search(source) is None


@functools.lru_cache(maxsize=4096)
def _run_every_copy(source: str) -> bool:
    return _EVERY_COPY.search(source) is not None


def memo_key(kind: str, source: str, context: dict) -> tuple | None:
    """Where a face's memo keeps what `source` gave (render/cards/faces.py: the memo of copies
    of one card drawn one after another): by the source alone when every copy gets the same,
    with the copy's number (`index`, `total`) when it may differ, None when it must run for
    every copy (`name_of`, noted per sheet)."""
    if same_for_copies(source):
        return (kind, source)
    if _run_every_copy(source):
        return None
    return (kind, source, context.get("index"), context.get("total"))


class FaceContext(dict):
    """The values a face's templates see, and `memo`: None, or what its templates gave the
    face drawn before it, when that was a copy of the same card on the same side (render/
    cards/faces.py): a kit prints most cards several times, and each copy's templates but the
    collation line give what the first copy's gave."""

    __slots__ = ("memo",)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.memo: dict | None = None


# what compiling a stranger's template or expression may raise (reported at its element)
_COMPILE_ERRORS = (TemplateError, RecursionError, MemoryError, ValueError, TypeError, OverflowError)


class Layout:
    """A resolved layout: frame and elements after `extends`, with compiled Jinja."""

    def __init__(self, name: str, file: str, frame: list[Element], elements: list[Element], env,
                 locations: dict | None = None, size: tuple[float, float] | None = None,
                 compiled: tuple[dict, dict] | None = None):
        self.name = name
        self.size = size  # (width, height) mm it is drawn for, or None: any size its elements fit
        self.file = file
        self.frame = frame
        self.elements = elements
        self.env = env
        self.locations = locations or {}  # id(element) -> where it is written (file:line:column)
        # source -> compiled template, expression -> compiled function: shared by the layouts of
        # one set (`compiled`), so the frame a dozen card types extend is compiled once
        self._templates, self._expressions = compiled if compiled is not None else ({}, {})

    def where(self, element: Element) -> Location:
        return self.locations.get(id(element)) or Location(self.file)

    def render(self, source: str, context: dict, element: Element) -> str:
        if "{{" not in source and "{%" not in source:
            return source
        memo = getattr(context, "memo", None)
        key = None if memo is None else memo_key("render", source, context)
        if memo is not None and key is not None and key in memo:
            return memo[key]
        template = self._templates.get(source)
        if template is None:
            template = self._compile(lambda: templatecache.from_string(self.env, source), element)
            self._templates[source] = template
        text = self._run(lambda: template.render(context), element, context)
        if len(text) > MAX_RENDERED_CHARS:
            raise self._error(f"renders to {len(text):,} characters", element, context,
                              expected=f"at most {MAX_RENDERED_CHARS:,} characters")
        if memo is not None and key is not None:
            memo[key] = text
        return text

    def evaluate(self, expression: str, context: dict, element: Element):
        memo = getattr(context, "memo", None)
        key = None if memo is None else memo_key("evaluate", expression, context)
        if memo is not None and key is not None and key in memo:
            return memo[key]
        fn = self._expressions.get(expression)
        if fn is None:
            fn = self._compile(lambda: templatecache.expression(self.env, expression), element)
            self._expressions[expression] = fn
        value = self._run(lambda: run_within_budget(lambda: fn(**context)), element, context)
        if memo is not None and key is not None:
            memo[key] = value
        return value

    def compile_all(self, rendered: tuple[str, ...], evaluated: tuple[str, ...]) -> None:
        """Compile now what `render` and `evaluate` would compile the first time they meet it: of
        each element of the frame and the elements, the templates in the `rendered` fields and
        the expressions in the `evaluated` ones (a field left empty: `[]`, as the elements
        default it). A process that forks its drawing workers later compiles them once for all
        (render/cards/faces.py: prepare_cards); what does not compile is left for the drawing
        to meet and report at its element."""
        for element in self.frame + self.elements:
            for field in rendered:
                source = getattr(element, field)
                if isinstance(source, str) and ("{{" in source or "{%" in source) and source not in self._templates:
                    try:
                        self._templates[source] = templatecache.from_string(self.env, source)
                    except _COMPILE_ERRORS:
                        pass
            for field in evaluated:
                expression = getattr(element, field) or "[]"
                if expression not in self._expressions:
                    try:
                        self._expressions[expression] = templatecache.expression(self.env, expression)
                    except _COMPILE_ERRORS:
                        pass

    def _compile(self, make, element: Element):
        try:
            return make()
        except _COMPILE_ERRORS as exc:
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
        card: Any = context.get("card")
        card_at = getattr(card, "location", None) if card is not None else None
        where = f" for card `{card.id}`" + (f" ({card_at})" if card_at else "") if hasattr(card, "id") else ""
        return InputError([Problem("layout.template", f"layout `{self.name}` element "
                                   f"`{element.id or element.kind}`{where}: {message}", self.where(element),
                                   expected=expected, fix=f"check the layout file {self.where(element).file}")])


LAYOUT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")

def make_environment() -> ImmutableSandboxedEnvironment:
    """Layouts and rules may come from strangers: the sandbox refuses attribute tricks,
    there is no loader, so templates cannot read files, operators that could make enormous
    values are bounded, and the work a template does is counted (render/base/sandbox.py)."""
    env = BoundedSandbox(undefined=StrictUndefined, autoescape=False,
                         trim_blocks=False, lstrip_blocks=False)
    env.filters["signed"] = lambda v: f"+{v}" if isinstance(v, int) and v > 0 else str(v)
    env.filters["tint"] = tint
    env.filters["shade"] = shade
    env.filters["area_cells"] = area_cells
    counted_filters(env)
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

    def __init__(self, folders: list[Path], documents: dict[FileKey | None, Document] | None = None):
        self.folders = folders
        self.documents = documents  # the run's parsed files (pack/documents.py): a layout is parsed once
        self.env = make_environment()
        self._cache: dict[str, Layout] = {}
        self._paths: dict[str, Path | None] = {}  # resolved once per name (a set lives for one build)
        self._compiled: tuple[dict, dict] = ({}, {})  # what its layouts compiled, shared (same env)

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
        doc = parsed_document(self.documents, path) if self.documents is not None else load_yaml_file(path)
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
        layout = Layout(name, doc.file, frame, elements, self.env, locations, size, self._compiled)
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

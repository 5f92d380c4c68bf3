"""Card layouts: YAML files of elements placed in millimetres from the card's trim corner
(top-left, y downwards), with text and values as Jinja run in a sandbox.

A layout may `extends:` another; a child's element with the same `id` replaces the
parent's, others are added after. `frame:` elements depend only on the set and type,
so they are drawn once per document as a PDF form and placed under every card.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from jinja2 import StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from generator.errors import InputError, Location, Problem
from generator.pydantic_errors import problems_from
from generator.schemas import allowed_keys_fn
from generator.yamlio import Document, load_yaml_file


class Element(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: str | None = None
    kind: Literal["box", "line", "text", "icon", "stats", "image", "hexshape"]
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
    font: Literal["regular", "bold", "italic", "bold-italic"] = "regular"
    size: float = Field(default=8, gt=0, le=200)
    min_size: float | None = Field(default=None, gt=0, le=200)
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: str = "#222222"
    leading: float = Field(default=1.18, ge=0.8, le=3)
    hyphenate: bool = True
    name: str | None = None
    items: str | None = None
    hexes: str | None = None
    fit: Literal["cover", "contain"] = "cover"
    emblem: str | None = None


class LayoutFile(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    extends: str | None = None
    description: str = ""
    frame: list[Element] = []
    elements: list[Element] = []


class Layout:
    """A resolved layout: frame and elements after `extends`, with compiled Jinja."""

    def __init__(self, name: str, file: str, frame: list[Element], elements: list[Element], env):
        self.name = name
        self.file = file
        self.frame = frame
        self.elements = elements
        self.env = env
        self._templates: dict = {}
        self._expressions: dict = {}

    def render(self, source: str, context: dict, element: Element) -> str:
        if "{{" not in source and "{%" not in source:
            return source
        template = self._templates.get(source)
        if template is None:
            template = self._compile(lambda: self.env.from_string(source), element)
            self._templates[source] = template
        return self._run(lambda: template.render(context), element, context)

    def evaluate(self, expression: str, context: dict, element: Element):
        fn = self._expressions.get(expression)
        if fn is None:
            fn = self._compile(lambda: self.env.compile_expression(expression), element)
            self._expressions[expression] = fn
        return self._run(lambda: fn(**context), element, context)

    def _compile(self, make, element: Element):
        try:
            return make()
        except TemplateError as exc:
            raise InputError([Problem("layout.template", f"layout `{self.name}` element "
                                      f"`{element.id or element.kind}`: {exc}", Location(self.file),
                                      expected="a valid Jinja expression")]) from None

    def _run(self, call, element: Element, context: dict):
        try:
            return call()
        except TemplateError as exc:  # includes SecurityError from the sandbox
            card = context.get("card")
            where = f" for card `{card.id}`" if card is not None and hasattr(card, "id") else ""
            raise InputError([Problem("layout.template", f"layout `{self.name}` element "
                                      f"`{element.id or element.kind}`{where}: {exc}",
                                      card.location if card is not None and hasattr(card, "location") else Location(self.file),
                                      fix=f"check the layout file {self.file}")]) from None


def make_environment() -> ImmutableSandboxedEnvironment:
    """Layouts and rules may come from strangers: the sandbox refuses attribute tricks,
    and there is no loader, so templates cannot read files."""
    env = ImmutableSandboxedEnvironment(undefined=StrictUndefined, autoescape=False,
                                        trim_blocks=False, lstrip_blocks=False)
    env.filters["signed"] = lambda v: f"+{v}" if isinstance(v, int) and v > 0 else str(v)
    env.filters["tint"] = tint
    return env


def tint(color: str, amount: float = 0.2) -> str:
    """Mix a #rrggbb colour with white (amount 0..1): lighter panels without transparency,
    which PDF forms and print shops both handle badly."""
    color = str(color).lstrip("#")
    if len(color) != 6:
        return "#" + color
    rgb = [int(color[i:i + 2], 16) for i in (0, 2, 4)]
    mixed = [round(v + (255 - v) * float(amount)) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in mixed)


class LayoutSet:
    """All layouts of a template folder, loaded on demand and resolved once."""

    def __init__(self, folders: list[Path]):
        self.folders = folders
        self.env = make_environment()
        self._cache: dict[str, Layout] = {}

    def path_of(self, name: str) -> Path | None:
        for folder in self.folders:
            path = folder / f"{name}.yaml"
            if path.is_file():
                return path
        return None

    def get(self, name: str, _chain: tuple = ()) -> Layout:
        if name in self._cache:
            return self._cache[name]
        path = self.path_of(name)
        if path is None:
            raise InputError([Problem("layout.missing", f"no layout named `{name}`",
                                      Location(str(self.folders[0] / f"{name}.yaml")),
                                      expected=f"a file {name}.yaml in " + " or ".join(str(f) for f in self.folders),
                                      fix="add the layout, or extend an existing one")])
        doc = load_yaml_file(path)
        spec = _validate(doc)
        frame, elements = list(spec.frame), list(spec.elements)
        if spec.extends:
            if spec.extends in _chain or spec.extends == name:
                raise InputError([Problem("layout.cycle", f"layout `{name}` extends itself through "
                                          f"{' → '.join(_chain + (name, spec.extends))}",
                                          doc.at(("extends",)), found=spec.extends)])
            parent = self.get(spec.extends, _chain + (name,))
            frame = _merge(parent.frame, frame)
            elements = _merge(parent.elements, elements)
        layout = Layout(name, doc.file, frame, elements, self.env)
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


def _merge(parent: list[Element], child: list[Element]) -> list[Element]:
    by_id = {e.id: e for e in child if e.id}
    merged = [by_id.pop(e.id) if e.id in by_id else e for e in parent]
    return merged + [e for e in child if not e.id or e.id in by_id]

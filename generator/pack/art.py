"""Card art as a pack declares it, and what the build credits for it.

A card's `art:` is an image file inside the pack (`art: art/titan.png`, as before, or
`art: {file: art/titan.png, author: ..., licence: ...}`), or an icon of the bundled set
(`art: {icon: lantern-flame}`) drawn in a colour over a background, in a frame. The look may
come from a named style of game.yaml `art_styles:` (the card's `style:`, else the style named
after the card's type, else after its set, else `default`); the card's own keys win.
See docs/formats.md, "Card art".
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, StringConstraints, model_validator

from generator.core.errors import InputError, Location, Problem, did_you_mean
from generator.core.paths import resolve_inside
from generator.core.yamlio import Addressed, Document
from generator.pack.gameicons import icon_set
from generator.pack.strict import CardId, Color, Strict

IconName = Annotated[str, StringConstraints(min_length=1, max_length=80)]
FilePath = Annotated[str, StringConstraints(min_length=1)]  # its length is the file system's to refuse (path.missing)
DEFAULT_ICON_COLOR = "#222222"
DEFAULT_SCALE = 0.8
BackgroundKind = Literal["flat", "gradient", "radial", "burst", "pattern"]
PatternName = Literal["dots", "stripes", "checks", "diamonds"]
FrameShape = Literal["circle", "square", "rounded", "hexagon"]
BACKGROUND_KINDS, PATTERNS, FRAME_SHAPES = get_args(BackgroundKind), get_args(PatternName), get_args(FrameShape)


class Background(Strict):
    """What the art box shows behind the icon. `flat` has one colour, the others two: a
    gradient from the first to the second (`angle` 90: bottom to top), a radial gradient from
    the centre, a burst of `rays` alternating rays, a pattern of the second colour on the first."""

    kind: BackgroundKind
    colors: list[Color] = Field(min_length=1, max_length=2)
    angle: float = Field(default=90, ge=-360, le=360)
    rays: int = Field(default=16, ge=4, le=64)
    pattern: PatternName = "dots"

    @model_validator(mode="after")
    def _colour_count(self) -> Background:
        wanted = 1 if self.kind == "flat" else 2
        if len(self.colors) != wanted:
            raise ValueError(f"a `{self.kind}` background has {wanted} colour{'s' if wanted > 1 else ''} "
                             f"in `colors`, not {len(self.colors)}")
        return self


class Frame(Strict):
    """A medallion around the icon: its outline (`width` mm, 0 for none) and its fill."""

    shape: FrameShape = "circle"
    color: Color = DEFAULT_ICON_COLOR
    width: float = Field(default=0.5, ge=0, le=5)
    fill: Color | None = None


class ArtStyle(Strict):
    """The look of icon art: the icon's colour, the background, a frame, the icon's size as a
    share of the box's shorter side, a mirror image."""

    color: Color | None = None
    background: Color | Background | None = None
    frame: Frame | None = None
    scale: float | None = Field(default=None, gt=0, le=1.5)
    flip: bool | None = None


class ArtSpec(ArtStyle):
    """A card's `art:` written as a mapping: an icon or a file, its look, its credit."""

    icon: IconName | None = None
    file: FilePath | None = None
    style: CardId | None = None
    author: Annotated[str, StringConstraints(min_length=1, max_length=200)] | None = None
    licence: Annotated[str, StringConstraints(min_length=1, max_length=100)] | None = None
    source: Annotated[str, StringConstraints(min_length=1, max_length=500)] | None = None

    @model_validator(mode="after")
    def _one_picture(self) -> ArtSpec:
        if (self.icon is None) == (self.file is None):
            raise ValueError("art names an `icon:` of the bundled set or a `file:` inside the pack, one of the two")
        if self.icon is not None and (self.author or self.licence or self.source):
            raise ValueError("an icon of the bundled set is credited from the set: `author`, `licence` and "
                             "`source` are for a `file:`")
        return self


class PackIcon(Strict):
    """game.yaml `icons: {name: {icon: ...}}`: an icon of the bundled set under a name of the
    pack's own, for `:name:` in card text and `icon` elements in layouts."""

    icon: IconName
    color: Color | None = None


@dataclass(frozen=True)
class Art:
    """A card's art as the rest of the program sees it: `icon` or `file`, the card's own look
    (None where the card leaves it to the style) and credit."""

    icon: str | None = None
    file: str | None = None
    style: str | None = None
    color: str | None = None
    background: str | Background | None = None
    frame: Frame | None = None
    scale: float | None = None
    flip: bool | None = None
    author: str | None = None
    licence: str | None = None
    source: str | None = None

    @property
    def name(self) -> str:
        """What the art is, in a word: the icon's name or the file's path."""
        return self.icon if self.icon is not None else str(self.file)

    def document(self) -> str | dict[str, Any]:
        """The art as a card file writes it (a bare path when that is all there is)."""
        values: dict[str, Any] = {k: v for k, v in (("icon", self.icon), ("file", self.file), ("style", self.style),
                                    ("color", self.color), ("background", self.background), ("frame", self.frame),
                                    ("scale", self.scale), ("flip", self.flip), ("author", self.author),
                                    ("licence", self.licence), ("source", self.source)) if v is not None}
        if list(values) == ["file"]:
            return str(values["file"])
        return {k: v.model_dump(exclude_defaults=True) if isinstance(v, Strict) else v for k, v in values.items()}


def art_of(value: str | ArtSpec | None) -> Art | None:
    """A validated `art:` value (a path or an ArtSpec) as an Art."""
    if value is None:
        return None
    if isinstance(value, str):
        return Art(file=value)
    return Art(**{k: getattr(value, k) for k in Art.__dataclass_fields__})


@dataclass(frozen=True)
class Look:
    """Icon art with its style applied: everything the renderer needs, and `key`, the same for
    two arts that draw the same."""

    icon: str
    color: str
    background: str | Background | None
    frame: Frame | None
    scale: float
    flip: bool

    @property
    def key(self) -> str:
        bg = self.background if isinstance(self.background, str) or self.background is None else \
            self.background.model_dump_json()
        frame = self.frame.model_dump_json() if self.frame is not None else ""
        return f"{self.icon}|{self.color}|{bg}|{frame}|{self.scale:g}|{int(self.flip)}"


def style_name(styles: dict[str, ArtStyle], art: Art, type_id: str, set_id: str) -> str | None:
    """The style a card's art takes: its own `style:`, else the one named after its type, its
    set, or `default`; None when there is none."""
    if art.style is not None:
        return art.style
    for name in (type_id, set_id, "default"):
        if name in styles:
            return name
    return None


def look_of(styles: dict[str, ArtStyle], art: Art, type_id: str = "", set_id: str = "") -> Look:
    """Icon art's look: the card's own keys over its style's over the defaults."""
    name = style_name(styles, art, type_id, set_id)
    style = styles.get(name) if name else None

    def pick(key: str, default: Any) -> Any:
        own = getattr(art, key)
        if own is not None:
            return own
        theirs = getattr(style, key, None) if style is not None else None
        return theirs if theirs is not None else default

    return Look(icon=str(art.icon), color=pick("color", DEFAULT_ICON_COLOR), background=pick("background", None),
                frame=pick("frame", None), scale=pick("scale", DEFAULT_SCALE), flip=bool(pick("flip", False)))


# ---- checks at load --------------------------------------------------------------------------


def icon_problem(name: str, where: Location, owner: str) -> Problem | None:
    """`name` is no icon of the bundled set: the error, with the closest name."""
    icons = icon_set()
    if name in icons:
        return None
    guess = icons.suggest(name)
    return Problem("art.icon", f"{owner}: `{name}` is no icon of the bundled set (game-icons.net)", where,
                   found=name, expected="an icon's name (`pnp icons search WORD` finds them)",
                   fix=f"did you mean `{guess}`?" if guess else f"try `pnp icons search {name.split('-')[0]}`")


def card_art_problems(art: Art, doc: Addressed, path: tuple[str | int, ...], owner: str,
                      styles: dict[str, ArtStyle], root: Path | None) -> list[Problem]:
    """What is wrong with a card's art, each at its key's file:line:column: a file outside the
    pack, a name that is no icon, a style game.yaml does not define."""
    out: list[Problem] = []
    mapping = not (art.file is not None and art.document() == art.file)

    def at(key: str) -> Location:
        return doc.at(path + ("art", key)) if mapping else doc.at(path + ("art",))

    if art.file is not None and root is not None:
        try:
            resolve_inside(root, art.file, at("file"), "art")
        except InputError as exc:
            out.extend(exc.problems)
    if art.icon is not None:
        problem = icon_problem(art.icon, at("icon"), owner)
        if problem is not None:
            out.append(problem)
    if art.style is not None and art.style not in styles:
        guess = did_you_mean(art.style, styles)
        out.append(Problem("art.style", f"{owner}: the art style `{art.style}` is not defined", at("style"),
                           found=art.style, expected=f"one of game.yaml `art_styles:` ({', '.join(sorted(styles)) or 'none'})",
                           fix=f"did you mean `{guess}`?" if guess else "define it under game.yaml `art_styles:`"))
    return out


def pack_icon_problems(icons: dict[str, str | PackIcon], doc: Document) -> list[Problem]:
    """game.yaml `icons:` entries that name an icon of the bundled set which it does not have."""
    out = []
    for name, value in icons.items():
        if isinstance(value, PackIcon):
            problem = icon_problem(value.icon, doc.at(("icons", name, "icon")), f"the pack's icon `{name}`")
            if problem is not None:
                out.append(problem)
    return out

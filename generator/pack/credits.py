"""Who made the art and the typefaces a pack prints, and under which licence: what every output credits.

The icons of the bundled set a pack's cards and game.yaml `icons:` name, grouped by author
(each icon's author from the set's catalogue), the pack's own image files with the `author`,
`licence` and `source` a card declares for them, and the typefaces (pack/typefaces.py, read from
the fonts' own name tables). The same `Credits` fill the
rulebook's credits page, the `CREDITS.txt` of every output folder and the builder's about
page; `pnp validate` reads `unlicensed` and `without_art`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable

from generator.pack.art import PackIcon
from generator.pack.gameicons import SET_NAME, icon_set
from generator.pack.typefaces import Credit, font_credits

if TYPE_CHECKING:
    from generator.pack.model import Card, Pack

CREDITS_FILE = "CREDITS.txt"


@dataclass(frozen=True)
class IconCredit:
    """One author's icons: the author, their site, the licence, the icons' names."""

    author: str
    url: str
    licence: str
    icons: tuple[str, ...]


@dataclass(frozen=True)
class ImageCredit:
    """An image file of the pack, as its cards declare it (None: not declared)."""

    file: str
    author: str | None
    licence: str | None
    source: str | None
    cards: tuple[str, ...]


@dataclass(frozen=True)
class Credits:
    game: str
    people: tuple[str, ...]  # game.yaml `credits:`
    icons: tuple[IconCredit, ...]
    images: tuple[ImageCredit, ...]
    without_art: tuple[str, ...] = field(default=())  # card ids that print the placeholder
    typefaces: tuple[Credit, ...] = field(default=())  # the fonts the kit is set in (pack/typefaces.py)

    @property
    def icon_count(self) -> int:
        return sum(len(group.icons) for group in self.icons)

    @property
    def unlicensed(self) -> tuple[ImageCredit, ...]:
        return tuple(image for image in self.images if not image.licence)

    def text(self) -> str:
        """CREDITS.txt."""
        lines = [f"{self.game}: credits", ""]
        lines += [*self.people, ""] if self.people else []
        if self.typefaces:
            lines += ["Typefaces", ""]
            lines += [f"- {t.what}: {t.author}. {t.licence}" + (f"; its licence text: {t.where}" if t.where else "")
                      for t in self.typefaces]
            lines.append("")
        lines += art_lines(self)
        return "\n".join(lines).rstrip() + "\n"


def art_lines(credits: Credits) -> list[str]:
    """The art's credits as plain lines (CREDITS.txt, and the words of the rulebook's page)."""
    lines: list[str] = []
    if credits.icons:
        icons = icon_set()
        lines += [f"Icons from {SET_NAME} ({icons.url}), licensed under the Creative Commons Attribution 3.0 "
                  f"licence ({icons.licence}, {icons.licence_url}) unless noted; recoloured, resized and set "
                  "on backgrounds for these cards.", ""]
        for group in credits.icons:
            where = f" ({group.url})" if group.url else ""
            terms = "" if group.licence == icons.licence else f", {group.licence}"
            lines.append(f"- {group.author}{where}{terms}: {', '.join(group.icons)}")
        lines.append("")
    if credits.images:
        lines += ["Images", ""]
        for image in credits.images:
            lines.append(f"- {image.file}: {image_words(image)}")
        lines.append("")
    return lines


def image_words(image: ImageCredit) -> str:
    parts = [f"by {image.author}" if image.author else "author not declared",
             image.licence or "licence not declared"]
    if image.source:
        parts.append(image.source)
    return ", ".join(parts)


def pack_credits(pack: Pack) -> Credits:
    """The credits of a pack's outputs: every card's art (a build's outputs credit the same: a
    folder may hold several builds' outputs, and no icon goes uncredited)."""
    icon_names: set[str] = set()
    images: dict[str, list[Card]] = {}
    without: list[str] = []
    for card in sorted(pack.cards.values(), key=lambda c: c.order):
        art = card.art
        if art is None:
            without.append(card.id)
        elif art.icon is not None:
            icon_names.add(art.icon)
        elif art.file is not None:
            images.setdefault(art.file, []).append(card)
    icon_names.update(v.icon for v in pack.spec.icons.values() if isinstance(v, PackIcon))
    return Credits(f"{pack.spec.name} {pack.spec.version}", tuple(pack.spec.credits), icon_groups(icon_names),
                   tuple(_image(file, owners) for file, owners in sorted(images.items())), tuple(without),
                   tuple(font_credits(pack.spec.fonts, str(pack.root))))


def icon_groups(names: Iterable[str]) -> tuple[IconCredit, ...]:
    """Icons by author: the authors by name, each one's icons sorted."""
    icons = icon_set()
    groups: dict[str, list[str]] = {}
    for name in names:
        key = icons.resolve(name)
        if key is not None:
            groups.setdefault(icons.author(key).id, []).append(key)
    out = []
    for _id, keys in groups.items():
        author = icons.author(keys[0])
        out.append(IconCredit(author.name, author.url, author.licence, tuple(sorted(set(keys)))))
    return tuple(sorted(out, key=lambda g: g.author.lower()))


def _image(file: str, owners: list[Card]) -> ImageCredit:
    """An image's credit: what its cards declare (the first that declares each)."""
    def first(key: str) -> str | None:
        return next((getattr(c.art, key) for c in owners if getattr(c.art, key)), None)
    return ImageCredit(file, first("author"), first("licence"), first("source"), tuple(c.id for c in owners))

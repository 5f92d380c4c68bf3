"""pnp's own words: what the renderers print that no file of the pack says (the rulebook's
"Contents", a card sheet's footer), in the language the pack was loaded in. They are listed here
once, each with where it prints, and a renderer prints one through `words_of(pack)`:

    say = words_of(pack)
    say("Chapter {n}").format(n=3)

`pnp translate` puts the list in every pack's PO file (referenced `pnp/<where>`), so a kit's
translator has everything the kit prints in one file. tests/test_translations.py holds every
`say("...")` of the renderers to this list, and the list to the renderers."""

from __future__ import annotations

from collections.abc import Callable

from generator.pack.model import Pack
from generator.pack.translations.table import Source

# (where it prints, the words, a note for the translator). {names} are filled in; keep them.
OWN_WORDS: tuple[tuple[str, str, str], ...] = (
    ("rulebook", "RULEBOOK", "the rulebook cover's subtitle, set spaced out"),
    ("rulebook", "Version {version} · print-and-play edition", "the rulebook cover"),
    ("rulebook", "**{count}** cards", "the rulebook cover: what the kit holds"),
    ("rulebook", "**{count}** chapters of rules", "the rulebook cover: what the kit holds"),
    ("rulebook", "**{count}** ready-made presets", "the rulebook cover: what the kit holds"),
    ("rulebook", "**{count}** maps", "the rulebook cover: what the kit holds"),
    ("rulebook", "Contents", "the rulebook's contents page"),
    ("rulebook", "Chapter {n}", "above a chapter's title"),
    ("rulebook", "Reference", "above a reference page's title (Reference A, B, ...)"),
    ("rulebook", "Rulebook", "the rulebook's running header and file title"),
    ("rulebook", "Rules of {game}", "the rulebook file's subject, when the game has no summary"),
    ("rulebook", "{set} ({count} cards)", "a heading of the Card List"),
    ("rulebook", "Card", "a column heading of the Card List and the presets"),
    ("rulebook", "Type", "a column heading of the presets"),
    ("rulebook", "Points", "a column heading of the Card List and the presets"),
    ("rulebook", "**Total**", "the last row of a preset's table"),
    ("rulebook", "**Total {total}** points", "a preset's total, without a limit"),
    ("rulebook", "**Total {total}** of {limit} points", "a preset's total against its limit"),
    ("rulebook", "*does not pass validation: run* `pnp validate`", "a preset that breaks a rule"),
    ("rulebook", "{name} · {points} points", "a character of a preset, with its points"),
    ("rulebook", "**Deck ({count}):** {cards}", "a preset character's action deck"),
    ("rulebook", "**Size:** {size}", "the map catalogue"),
    ("rulebook", "**Obstacles:** {count} hexes", "the map catalogue"),
    ("rulebook", "**Terrain:** {names}", "the map catalogue"),
    ("rulebook", "**Impassable:** {count} hexes", "the map catalogue"),
    ("rulebook", "**Obstacles:** {count} tiles", "the map catalogue, a map of square tiles"),
    ("rulebook", "**Impassable:** {count} tiles", "the map catalogue, a map of square tiles"),
    ("rulebook", "{count} hexes · {width} × {height} cm printed ({size} mm hexes)", "the map catalogue: a map's size"),
    ("quick-reference", "Quick Reference", "the quick reference's title"),
    ("quick-reference", "quick reference · the rulebook has the full rules", "the quick reference's footer"),
    ("cards", "cards · sheet {n} of {total} · fronts", "the footer of a sheet of card fronts"),
    ("cards", "cards · sheet {n} of {total} · backs", "the footer of a sheet of card backs"),
    ("cards", "print double-sided, flip on the long edge", "a card sheet's footer, after the sheet"),
    ("cards", "print double-sided, flip on the short edge", "a card sheet's footer, after the sheet"),
)
WORDS = {text for _where, text, _note in OWN_WORDS}


def _same(text: str) -> str:
    return text


def words_of(pack: Pack) -> Callable[[str], str]:
    """`say`: pnp's own words in the pack's language (the words as written in its own)."""
    translation = pack.translation
    return translation.gettext if translation is not None else _same


def own_sources() -> list[Source]:
    return [Source(f"pnp/{where}", None, text, None, f"pnp's own words: {note}") for where, text, note in OWN_WORDS]

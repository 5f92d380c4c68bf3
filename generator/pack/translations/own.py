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
    ("maps", "Legend", "a map's overview page: the legend's heading"),
    ("maps", "Hex", "the legend: one space of a hex map"),
    ("maps", "{size} mm flat to flat; the label gives its coordinates (q, r).", "the legend, beside Hex"),
    ("maps", "Obstacle", "the legend"),
    ("maps", "Blocks movement and line of sight.", "the legend, beside Obstacle"),
    ("maps", "{name} start (scenario)", "the legend: a side's start area ({name}: Boss, Hero Party)"),
    ("maps", "Optional scenario setup: if all players agree, {name} figures are set up wholly inside these "
     "hexes. Otherwise set up as the rules say.", "the legend, beside an optional start area"),
    ("maps", "{name} start", "the legend: a side's start area"),
    ("maps", "{name} figures are set up wholly inside these hexes.", "the legend, beside a start area"),
    ("maps", "Regions", "the legend"),
    ("maps", "Heavy lines border the named regions: {names}.", "the legend, beside Regions"),
    ("maps", "Line of sight: two figures see each other if a straight line from a corner of one's hex to a "
     "corner of the other's touches no obstacle or sight-blocking hex, not even at an edge or a corner.",
     "under the legend: the pack's line of sight, corner to corner"),
    ("maps", "Line of sight: draw a straight line between the centres of two hexes; obstacles and "
     "sight-blocking terrain on the hexes it passes through block it.", "under the legend: centre to centre"),
    ("maps", "A line running exactly along a hex edge or through a corner is blocked if a hex on either side "
     "blocks.", "under the legend, after the centre-to-centre rule (strict)"),
    ("maps", "A line running exactly along a hex edge or through a corner is blocked only if hexes on both "
     "sides block.", "under the legend, after the centre-to-centre rule (lenient)"),
    ("maps", "Terrain not declared by the pack.", "the legend, beside terrain the pack does not name"),
    ("maps", "Walkable", "the legend, after a terrain's text"),
    ("maps", "Impassable", "the legend, after a terrain's text"),
    ("maps", "blocks line of sight.", "the legend, after Walkable; or Impassable;"),
    ("maps", "does not block line of sight.", "the legend, after Walkable; or Impassable;"),
    ("maps", "{count} hexes, pointy-top, {size} mm", "a map's overview: its grid"),
    ("maps", "{count} hexes, flat-top, {size} mm", "a map's overview: its grid"),
    ("maps", "true scale on {count} {paper} sheets", "a map's overview ({paper}: A4, Letter)"),
    ("maps", "true scale on {count} {paper} sheet", "a map's overview, one sheet"),
    ("maps", "Overview at {percent} % of true size", "under a map's overview picture"),
    ("maps", "Print at 100 % (actual size). This bar must measure 100 mm;", "beside a sheet's scale bar"),
    ("maps", "one hex is {size} mm flat to flat.", "beside a sheet's scale bar, the line after"),
    ("maps", "Sheet row {row} of {rows}, column {col} of {cols} · true scale", "the head of a map sheet"),
    ("maps", "Sheet {label}", "the head of a map sheet ({label}: R1 C2)"),
    ("maps", "CUT here, lay on {label}", "along a map sheet's edge to cut"),
    ("maps", "sheet {label} overlaps up to the crosses", "along a map sheet's edge another overlaps"),
    ("maps", "{title}: putting the sheets together", "the head of a map's assembly page"),
    ("maps", "1. Print the {count} sheets at 100 % (actual size, no 'fit to page'). Check that the scale bar "
     "at the foot of each sheet measures 100 mm.", "a map's assembly page"),
    ("maps", "2. On every sheet, cut along the dashed lines only (they are on the left and top edges of sheets "
     "that join a neighbour). Leave the other edges as they are.", "a map's assembly page"),
    ("maps", "3. Lay each cut sheet over its neighbour to the left and above, so that the cut edge runs through "
     "the centres of the neighbour's crosses: the half-crosses and hex lines continue across the seam. One row "
     "of hexes is printed on both sheets; the upper sheet covers it.", "a map's assembly page"),
    ("maps", "4. Work row by row from the top left (R1 C1). Tape the seams on the back.",
     "a map's assembly page (R1 C1: row 1, column 1, as the sheets are labelled)"),
)
WORDS = {text for _where, text, _note in OWN_WORDS}


Say = Callable[[str], str]


def as_written(text: str) -> str:
    """`say` of a pack in its own language (and the default of a drawing function given none)."""
    return text


def words_of(pack: Pack) -> Say:
    """`say`: pnp's own words in the pack's language (the words as written in its own)."""
    translation = pack.translation
    return translation.gettext if translation is not None else as_written


def own_sources() -> list[Source]:
    return [Source(f"pnp/{where}", None, text, None, f"pnp's own words: {note}") for where, text, note in OWN_WORDS]

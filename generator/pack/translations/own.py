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
    ('pieces', '{game}: play pieces',
     "the head of the pieces file's contents page (and its PDF title)"),
    ('pieces', 'for {build}',
     "the pieces PDF's title, after `{game}: play pieces`, for one build"),
    ('pieces', 'Counters, standees, bases, trackers and a blank board',
     "the pieces PDF's subject"),
    ('pieces', 'pieces',
     "the pieces file's footer, after the game and version"),
    ('pieces', 'for {build} ({side})',
     'the contents page: whose pieces ({side}: Boss, Hero Party)'),
    ('pieces', 'the whole kit',
     'the contents page: whose pieces'),
    ('pieces', 'Version {version}',
     'the contents page'),
    ('pieces', 'hexes {size} mm flat to flat, pointy-top',
     'the contents page'),
    ('pieces', 'hexes {size} mm flat to flat, flat-top',
     'the contents page'),
    ('pieces', 'Contents',
     "the contents page's heading"),
    ('pieces', 'page {n}',
     'the contents page: where a section is'),
    ('pieces', 'pages {first}–{last}',
     'the contents page: where a section is'),
    ('pieces', 'Counters, double-sided',
     'a section of the pieces file'),
    ('pieces', 'Counters, single-sided',
     'a section of the pieces file'),
    ('pieces', 'Standees and bases',
     'a section of the pieces file'),
    ('pieces', 'Trackers',
     'a section of the pieces file, and a page heading'),
    ('pieces', 'Dice',
     'a section of the pieces file, and a page heading'),
    ('pieces', 'Blank board',
     'a section of the pieces file'),
    ('pieces', 'Printing',
     'the contents page: a heading'),
    ('pieces', 'Print at 100 % ("actual size", never "fit to page"): the bar below must measure 100 mm and the hex {size} mm across its flats, the size of the map hexes.',
     'the contents page, under Printing'),
    ('pieces', 'Print pages {first}–{last} double-sided, flipping on the long edge; the backs are mirrored so every back lands behind its front. If your printer shifts the back side, read the shift on calibration.pdf and save it with pnp calibrate DX,DY (the numbers as read); later builds apply it. Print every other page single-sided.',
     'the contents page, under Printing (keep `pnp calibrate DX,DY` as it is: a command)'),
    ('pieces', 'Print pages {first}–{last} double-sided, flipping on the short edge; the backs are mirrored so every back lands behind its front. If your printer shifts the back side, read the shift on calibration.pdf and save it with pnp calibrate DX,DY (the numbers as read); later builds apply it. Print every other page single-sided.',
     'the contents page, under Printing (keep `pnp calibrate DX,DY` as it is: a command)'),
    ('pieces', 'Every page is single-sided.',
     'the contents page, under Printing'),
    ('pieces', 'Putting the pieces together',
     'the contents page: a heading'),
    ('pieces', 'Counters',
     "the contents page, and a counter page's heading"),
    ('pieces', 'Cut along the solid line round each counter. Two-sided counters: print their pages double-sided; the colour runs 1 mm past every cut line, so a small shift between the sides does not show. Glue the sheet to thin card before cutting for sturdier counters.',
     'the contents page, beside Counters'),
    ('pieces', 'Standees',
     'the contents page'),
    ('pieces', "Cut out the strip. Fold it over at the dash-dot line at the figure's top and glue the two panels back to back. Fold the end tabs outwards at the dashed lines, one to each side, and glue them along the dashed standee line of the figure's base.",
     'the contents page, beside Standees'),
    ('pieces', 'Bases',
     'the contents page'),
    ('pieces', 'Every base hex is exactly the size of a map hex. Glue the base to card and cut along the solid outline; the thin lines inside show the hexes with their [q, r] coordinates, the dot marks hex (0, 0). A custom model may stand on the base instead of a standee.',
     'the contents page, beside Bases'),
    ('pieces', 'Slide a paper clip along the numbered edge (or turn the dial) to the current value.',
     'the contents page, beside Trackers'),
    ('pieces', 'Cut round the net, fold every dashed line away from you and glue each tab inside the face it meets, closing the last face over the tabs.',
     'the contents page, beside Dice'),
    ('pieces', 'Trim and tape the sheets like a printed map (see its assembly page), then lay obstacle and terrain counters on it.',
     'the contents page, beside Blank board'),
    ('pieces', 'In this file: {counters} counters, {standees} standees, {bases} bases.',
     'the foot of the contents page'),
    ('pieces', '{length} mm at 100 %',
     "beside a page's scale bar"),
    ('pieces', 'Counters · double-sided',
     "a counter page's heading"),
    ('pieces', 'Counters · backs',
     'a page of counter backs: its heading'),
    ('pieces', 'Print this page and the next double-sided (flip on the long edge), at 100 %. Cut on the solid lines.',
     "a counter page's note"),
    ('pieces', 'Print this page and the next double-sided (flip on the short edge), at 100 %. Cut on the solid lines.',
     "a counter page's note"),
    ('pieces', 'Single-sided. Cut on the solid lines.',
     "a counter page's note"),
    ('pieces', 'The backs of the page before: they land behind their fronts when printed double-sided, flip on the long edge.',
     'a page of counter backs: its note'),
    ('pieces', 'The backs of the page before: they land behind their fronts when printed double-sided, flip on the short edge.',
     'a page of counter backs: its note'),
    ('pieces', 'counters {n} of {total} · fronts',
     "a counter page's footer"),
    ('pieces', 'counters {n} of {total}',
     "a counter page's footer"),
    ('pieces', 'counters {n} of {total} · backs',
     'a page of counter backs: its footer'),
    ('pieces', 'Figures · {side}',
     'a page of standees and bases: its heading'),
    ('pieces', 'Cut on the solid lines. Standees: fold over at the dash-dot line and glue the panels back to back; fold the tabs out at the dashed lines and glue them along the dashed line of the base.',
     'a page of standees and bases: its note'),
    ('pieces', '{side} figures {n} of {total} · single-sided',
     'a page of standees and bases: its footer'),
    ('pieces', 'Trackers and counters',
     "a tracker page's heading, when counters share it"),
    ('pieces', 'Cut on the solid lines. Mark the value with a paper clip on the edge (dials: join the two discs with a split pin).',
     "a tracker page's note"),
    ('pieces', 'trackers {n} of {total} · single-sided',
     "a tracker page's footer"),
    ('pieces', 'Starts at {start}.',
     'a health tracker'),
    ('pieces', 'Mark your start value.',
     'a health tracker without a fixed start'),
    ('pieces', 'Slide a paper clip along the edge; at 0 the character falls.',
     'a health tracker, after its start'),
    ('pieces', 'Round',
     "the round tracker's heading"),
    ('pieces', 'Slide a paper clip along the top edge at the start of each round.',
     'the round tracker'),
    ('pieces', 'Turn order: lay the chips by current {stat}, highest first, at the start of every round.',
     'the round tracker ({stat}: the initiative stat, Agility)'),
    ('pieces', '{n}st',
     "the round tracker's turn-order slots: 1st, 21st"),
    ('pieces', '{n}nd',
     "the round tracker's turn-order slots: 2nd"),
    ('pieces', '{n}rd',
     "the round tracker's turn-order slots: 3rd"),
    ('pieces', '{n}th',
     "the round tracker's turn-order slots: 4th, 11th"),
    ('pieces', 'Put a marker (or a paper clip on the edge) on the step being played.',
     'the phase tracker'),
    ('pieces', 'Cut on the solid line, fold every dashed line away from you and glue each tab inside the face it meets. Thin card rolls best.',
     'a page of dice: its note'),
    ('pieces', 'dice {n} of {total} · single-sided',
     'a page of dice: its footer'),
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

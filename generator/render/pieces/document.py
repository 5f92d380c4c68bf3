"""pieces.pdf: a contents page, then the sections in a fixed order (double-sided counter
sheets first, so one page range is printed duplex and everything after it single-sided)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit

from generator.core.errors import InputError, Location, Problem
from generator.core.files import atomic_output
from generator.core.papers import DEFAULT_PAPER, PAPERS
from generator.pack.load import pack_document
from generator.pack.translations.numbers import numbers_of
from generator.pack.translations.own import Say, words_of
from generator.render.base.art import ArtLibrary
from generator.render.base.fonts import BOLD, REGULAR
from generator.render.base.icons import IconSheet
from generator.render.base.pdfout import MM, new_canvas
from generator.render.pieces.counters import counter_blocks, counter_pages, expand_counters
from generator.render.pieces.dice import dice_pages
from generator.render.pieces.draw import MARGIN_MM, Kit, hex_points, marker, polygon_path, scale_bar, text
from generator.render.pieces.figures import figure_pages
from generator.render.pieces.model import build_figures, check_pieces, hex_geometry, kit_figures, pieces_spec
from generator.render.pieces.trackers import board_pages, tracker_pages, trackers_for

if TYPE_CHECKING:
    from generator.pack.model import Build, Pack
    from generator.render.pieces.draw import PagePlan
    from generator.render.pieces.model import Figure

def section_titles(say: Say) -> dict[str, str]:
    """Each section's title on the contents page, in the pack's language."""
    return {
        "counters-duplex": say("Counters, double-sided"),
        "counters": say("Counters, single-sided"),
        "figures": say("Standees and bases"),
        "trackers": say("Trackers"),
        "dice": say("Dice"),
        "board": say("Blank board"),
    }


def assembly(say: Say) -> list[tuple[str, str, tuple[str, ...]]]:
    """(title, text, the sections it is about): how to put each kind of piece together."""
    return [
        (say("Counters"), say("Cut along the solid line round each counter. Two-sided counters: print their pages "
                              "double-sided; the colour runs 1 mm past every cut line, so a small shift between the "
                              "sides does not show. Glue the sheet to thin card before cutting for sturdier "
                              "counters."),
         ("counters-duplex", "counters", "trackers")),
        (say("Standees"), say("Cut out the strip. Fold it over at the dash-dot line at the figure's top and glue the "
                              "two panels back to back. Fold the end tabs outwards at the dashed lines, one to each "
                              "side, and glue them along the dashed standee line of the figure's base."),
         ("figures",)),
        (say("Bases"), say("Every base hex is exactly the size of a map hex. Glue the base to card and cut along the "
                           "solid outline; the thin lines inside show the hexes with their [q, r] coordinates, the "
                           "dot marks hex (0, 0). A custom model may stand on the base instead of a standee."),
         ("figures",)),
        (say("Trackers"), say("Slide a paper clip along the numbered edge (or turn the dial) to the current value."),
         ("trackers",)),
        (say("Dice"), say("Cut round the net, fold every dashed line away from you and glue each tab inside the face "
                          "it meets, closing the last face over the tabs."), ("dice",)),
        (say("Blank board"), say("Trim and tape the sheets like a printed map (see its assembly page), then lay "
                                 "obstacle and terrain counters on it."), ("board",)),
    ]


def write_pieces(pack: Pack, out: Path, paper: str, build: Build | None, duplex: str,
                 back_offset: tuple[float, float]) -> dict:
    hex_mm, orientation = hex_geometry(pack)
    say = words_of(pack)  # pnp's own words in the pack's language
    title = f"{pack.spec.name} {pack.spec.version} · {say('pieces')}" + (f" · {build.name}" if build else "")
    kit = Kit(pack=pack, hex_mm=hex_mm, orientation=orientation, paper=paper,
              duplex=duplex if duplex in ("long-edge", "short-edge") else "long-edge",
              back_offset=back_offset, title=title)
    kit.doc = pack_document(pack, Path(pack.root) / "game.yaml")
    figures: list[Figure] = build_figures(pack, build) if build is not None else kit_figures(pack)
    counters = expand_counters(kit, figures, build)
    plans: list[PagePlan] = []
    # a build's few single-sided counters share the trackers' pages
    plans += counter_pages(kit, counters, single=build is None)
    plans += figure_pages(kit, figures)
    extra = counter_blocks(kit, [i for i in counters if i.back is None]) if build is not None else []
    plans += tracker_pages(kit, figures, build, extra)
    plans += dice_pages(kit, build)
    if build is None:
        plans += board_pages(kit)

    # page numbers: the contents page is page 1
    sections: list[tuple[str, int, int]] = []
    page = 2
    for plan in plans:
        count = plan.extra.get("pages", 1)
        if sections and sections[-1][0] == plan.section:
            sections[-1] = (plan.section, sections[-1][1], page + count - 1)
        else:
            sections.append((plan.section, page, page + count - 1))
        page += count

    spec = pieces_spec(pack)
    standees = sum(1 for f in figures if (cfg := spec.figures.get(f.side)) and cfg.standee is not None)
    bases = sum(1 for f in figures if (cfg := spec.figures.get(f.side)) and cfg.base)
    w, h = kit.page_mm
    with atomic_output(out) as tmp:
        c = new_canvas(str(tmp), (w * MM, h * MM), say("{game}: play pieces").format(game=pack.spec.name) +
                       (" " + say("for {build}").format(build=build.name) if build else ""),
                       say("Counters, standees, bases, trackers and a blank board"), keep_streams=True)
        kit.canvas = c
        kit.icons = IconSheet(c)
        kit.art = ArtLibrary(Path(pack.root), pack.spec.art_styles)
        _contents(kit, sections, build, len(counters), standees, bases)
        c.showPage()
        for plan in plans:
            if plan.extra.get("self_paged"):
                plan.draw(c)
                continue
            c.setPageSize((w * MM, h * MM))
            plan.draw(c)
            c.showPage()
        c.save()
    return {"pages": page - 1, "counters": len(counters), "standees": standees, "bases": bases,
            "trackers": len(trackers_for(kit, figures, build))}


def _contents(kit: Kit, sections, build: Build | None, counters: int, standees: int, bases: int) -> None:
    c = kit.canvas
    w, h = kit.page_mm
    x = MARGIN_MM + 2
    width = w - 2 * x
    y = h - MARGIN_MM - 10
    say = words_of(kit.pack)  # pnp's own words in the pack's language
    text(c, x, y, say("{game}: play pieces").format(game=kit.pack.spec.name), 20, BOLD)
    y -= 7
    what = (say("for {build} ({side})").format(build=build.name, side=kit.pack.spec.sides[build.side].name)
            if build else say("the whole kit"))
    hexes = (say("hexes {size} mm flat to flat, pointy-top") if kit.orientation == "pointy" else
             say("hexes {size} mm flat to flat, flat-top")).format(size=numbers_of(kit.pack)(kit.hex_mm))
    text(c, x, y, say("Version {version}").format(version=kit.pack.spec.version) + f" · {what} · "
         f"{kit.paper.upper() if kit.paper == 'a4' else 'Letter'} · {hexes}", 9, REGULAR, "#444444")
    y -= 12
    text(c, x, y, say("Contents"), 12, BOLD)
    y -= 2
    titles = section_titles(say)
    for section, first, last in sections:
        y -= 6
        pages = say("page {n}").format(n=first) if first == last else say("pages {first}–{last}").format(
            first=first, last=last)
        text(c, x + 2, y, titles.get(section, section), 10)
        text(c, x + 70, y, pages, 10, BOLD)
    duplex = [s for s in sections if s[0] == "counters-duplex"]
    y -= 12
    text(c, x, y, say("Printing"), 12, BOLD)
    lines = [say("Print at 100 % (\"actual size\", never \"fit to page\"): the bar below must measure 100 mm and "
                 "the hex {size} mm across its flats, the size of the map hexes.").format(size=numbers_of(kit.pack)(kit.hex_mm))]
    if duplex:
        _, a, b = duplex[0]
        lines.append((say("Print pages {first}–{last} double-sided, flipping on the long edge; the backs are "
                          "mirrored so every back lands behind its front. If your printer shifts the back side, read "
                          "the shift on calibration.pdf and save it with pnp calibrate DX,DY (the numbers as read); "
                          "later builds apply it. Print every other page single-sided.")
                      if kit.duplex == "long-edge" else
                      say("Print pages {first}–{last} double-sided, flipping on the short edge; the backs are "
                          "mirrored so every back lands behind its front. If your printer shifts the back side, read "
                          "the shift on calibration.pdf and save it with pnp calibrate DX,DY (the numbers as read); "
                          "later builds apply it. Print every other page single-sided.")).format(first=a, last=b))
    else:
        lines.append(say("Every page is single-sided."))
    for para in lines:
        for ln in simpleSplit(para, REGULAR, 9, width * MM):
            y -= 4.4
            text(c, x, y, ln, 9)
        y -= 1.5
    y -= 18
    scale_bar(c, x, y, 100.0, say=say)
    hx, hy = x + 150, y + 1
    c.saveState()
    c.setLineWidth(0.5)
    c.setFillColor(_grey(0.9))
    c.drawPath(polygon_path(c, hex_points(kit.orientation, hx, hy, kit.hex_mm)), stroke=1, fill=1)
    c.restoreState()
    text(c, hx, hy - 1, f"{numbers_of(kit.pack)(kit.hex_mm)} mm", 8, BOLD, "#222222", "centre")
    marker(c, f"pnp:check-hex:{kit.hex_mm:g}", hx, hy)
    y -= 26
    text(c, x, y, say("Putting the pieces together"), 12, BOLD)
    y -= 1
    present = {s[0] for s in sections}
    steps = [(title, body) for title, body, about in assembly(say) if present.intersection(about)]
    # the titles' column: 28 mm, wider when a title in the pack's language needs it (`Leerer Spielplan`)
    column = max([28.0] + [c.stringWidth(title, BOLD, 9.5) / MM + 3 for title, _ in steps])
    for title, body in steps:
        y -= 5.5
        text(c, x, y, title, 9.5, BOLD)
        for ln in simpleSplit(body, REGULAR, 8.5, (width - column) * MM):
            text(c, x + column, y, ln, 8.5, REGULAR, "#222222")
            y -= 4.1
        y += 4.1
    y -= 10
    text(c, x, y, say("In this file: {counters} counters, {standees} standees, {bases} bases.").format(
        counters=counters, standees=standees, bases=bases), 8.5, REGULAR, "#444444")
    marker(c, "pnp:page:contents:1", 0, 0)


def _grey(v: float):
    # deferred: ReportLab loads only when something is drawn
    from reportlab.lib.colors import Color
    return Color(v, v, v)


# ---- the PDF -----------------------------------------------------------------------------------


def build_pieces_pdf(pack: Pack, out_path: Path, paper: str = DEFAULT_PAPER, build: Build | None = None, *,
                     duplex: str = "long-edge", back_offset=(0.0, 0.0)) -> dict:
    """Write pieces.pdf atomically: a contents page, then double-sided counter sheets
    (fronts, then their backs mirrored for `duplex`), single-sided counters, standees and
    bases, trackers and the blank board. With a build: that build's pieces only."""
    problems = check_pieces(pack)
    if problems:
        raise InputError(problems)
    if paper not in PAPERS:
        raise InputError([Problem("cli.paper", f"unknown paper `{paper}`", Location("command line"),
                                  expected=" or ".join(PAPERS))])
    return write_pieces(pack, Path(out_path), paper, build, duplex, tuple(back_offset))

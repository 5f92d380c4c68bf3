"""A rulebook chapter that cannot be laid out (a table row or picture taller than a page,
a word wider than a column) is an input error naming the chapter file and the Markdown line
of the block that does not fit, not a ReportLab traceback."""

from __future__ import annotations

from generator.core.errors import InputError, Location, Problem


def tag_chapter(flowables: list, file: str) -> None:
    for f in flowables:
        f._pnp_file = file


def _inner(flowable) -> list:
    return list(getattr(flowable, "content", None) or [flowable])


def layout_error(exc: Exception, flowable, canvas, width: float, height: float) -> InputError:
    """The error for ReportLab's LayoutError while placing `flowable` (a chapter's columns, or
    a block of its own) in frames of `width` × `height` points."""
    culprit = None
    detail = str(exc).split("\n", 1)[0][:160]
    for f in _inner(flowable):
        try:
            w, h = f.wrapOn(canvas, width, height)
            if (h > height + 0.01 or w > width + 0.01) and not f.split(width, height):
                culprit = f
                detail = f"{type(f).__name__} of {h / 72 * 25.4:.0f} mm"  # as check_story says it
                break
        except Exception:  # a block that cannot even be measured is the one
            culprit = f
            break
    culprit = culprit or flowable
    cards = getattr(culprit, "_pnp_cards", None)  # a Card List table (reference.card_list): its rows' cards
    if cards and getattr(culprit, "_rowHeights", None):  # measured above: the tallest row is the card to fix
        rows = list(culprit._rowHeights[1:])
        card = cards[rows.index(max(rows))]
        return InputError([Problem(
            "rules.layout", f"card `{card.id}` ({card.name}): its row of the rulebook's Card List is "
            f"{max(rows) / 72 * 25.4:.0f} mm tall; the table cannot be laid out on a page", card.location,
            found=detail, expected=f"rows that fit a page of {width / 72 * 25.4:.0f} × {height / 72 * 25.4:.0f} mm",
            fix="shorten the card's values that the Card List shows (its name and fields)")])
    file = getattr(culprit, "_pnp_file", None) or getattr(flowable, "_pnp_file", None)
    line = getattr(culprit, "_pnp_line", 1)
    what = type(culprit).__name__
    return InputError([Problem(
        "rules.layout", f"{file or 'a rulebook page'}: a block ({what}) near line {line} cannot be laid out: "
        "it is taller or wider than a page column and cannot be split", Location(file or "rulebook", line),
        found=detail, expected=f"blocks that fit a column of {width / 72 * 25.4:.0f} × {height / 72 * 25.4:.0f} mm",
        fix="split the table or paragraph, shorten its cells, or make the picture smaller")])


def check_story(story: list, canvas, column: float, height: float) -> list:
    """The layout errors a rulebook would stop on, found without laying it out: every block of
    the chapters and of the generated reference pages (tagged by book.rulebook_story) measured
    against a column, or the page width on a one-column page (what `pnp validate` does; a full
    layout takes seconds)."""
    problems = []
    for top in story:
        if getattr(top, "_pnp_file", None) is None:
            continue
        width = getattr(top, "_pnp_width", column)  # a one-column page (the Card List) is wider
        for f in _inner(top):
            if getattr(f, "always_fits", None) is not None and f.always_fits(width, height):
                continue  # a paragraph that splits by lines, a table surely short enough: not laid out
            try:
                w, h = f.wrapOn(canvas, width, height)
                bad = (h > height + 0.01 or w > width + 0.01) and not f.split(width, height)
            except Exception:
                bad = True
            if bad:
                problems.extend(layout_error(RuntimeError(f"{type(f).__name__} of {h / 72 * 25.4:.0f} mm"),
                                             f, canvas, width, height).problems)
    return problems

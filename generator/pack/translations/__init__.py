"""Translations of a pack, as data beside it: `translations/<lang>.po` (gettext PO, read and
written with Babel, the `translations` extra) holds every player-visible string of the pack,
each with where it comes from. The loader reads the source pack, then replaces those strings by
the language's translations (`load_pack(root, lang="de")`); everything downstream sees an
ordinary pack. Layouts and rulebook templates look up their own words at display time through
`_()` / `pgettext()`, and choice values through `pgettext(field, value)`.

sources.py: which strings a pack's files hold (game.yaml, cards, presets, maps); chapters.py:
a rules chapter by paragraph; layouts.py: the words the layouts and rulebook templates mark;
table.py: a translation as the loaded pack carries it; markup.py: what must survive a
translation (keywords, `:icons:`, Jinja values, `{placeholders}`); catalog.py: the PO file
made, updated and read (Babel); sheet.py: the same as a spreadsheet; status.py: done, stale,
missing per language; apply.py: a translated pack's documents; fallback.py: what prints in
the source language, said; numbers.py: numbers a person reads as the language writes them.

May import: generator.core, generator.grids (it is part of generator.pack)."""

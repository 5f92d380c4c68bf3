"""What a translation must keep of its source: the pack's keywords (as the translation names
them: a card that says Immobilised in English says the German keyword in German), the
`:icons:`, the Jinja values and statements (`{{ rules.deck_size }}`, `{% if ... %}`), and a
rule message's `{placeholders}`. A translation may move them, never drop, rename or add one:
a dropped keyword loses its styling and its rule, a renamed icon prints as text, and a
translation file is input from strangers, so it adds no code of its own."""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

from generator.pack.icon_names import ICON_MARK

JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
# a rule message's {character}, a template's %(cost)s (`_('expend %(cost)s') % {...}`)
PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}|%\([A-Za-z_][A-Za-z0-9_]*\)[-#0 +]*\d*(?:\.\d+)?[sdif]")


def _normal(tag: str) -> str:
    return re.sub(r"\s+", " ", tag[2:-2].strip())


@lru_cache(maxsize=1024)  # every entry of a catalog asks again for each keyword
def keyword_pattern(name: str) -> re.Pattern[str]:
    """A keyword as the card text styler finds it: the whole words, case and all."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


@lru_cache(maxsize=1024)
def kept_keyword(name: str) -> re.Pattern[str]:
    """A keyword as a translation must keep it: whole at its start, then the word may go on.
    Languages inflect and compound (German `Angriff`: `Angriffe`, `Angriffskarte`); the card
    still colours the keyword where it stands alone, as the source does."""
    return re.compile(rf"(?<![\w-]){re.escape(name)}")


def _listed(items: list[str]) -> str:
    return ", ".join(items)


def lost_markup(source: str, translated: str, keywords: dict[str, str]) -> list[str]:
    """What `translated` drops, renames or adds of `source`'s markup, in words (empty: all kept).
    `keywords`: each keyword's name in the source language and in the translation's."""
    out = []
    # most strings hold no markup at all: each kind is looked for only where its first character
    # is (a template value and a placeholder start with { or %, an icon with :), the same answers
    # at a fraction of the cost (a catalog checks every entry on each load)
    src_plain, new_plain = source, translated
    if "{" in source or "{" in translated:
        src_tags = Counter(_normal(t) for t in JINJA.findall(source))
        new_tags = Counter(_normal(t) for t in JINJA.findall(translated))
        if src_tags - new_tags:
            out.append("drops the template value " + _listed([f"`{{{{ {t} }}}}`" if not t.startswith("%") else t
                                                              for t in sorted(src_tags - new_tags)]))
        if new_tags - src_tags:
            out.append("adds the template code " + _listed([f"`{t}`" for t in sorted(new_tags - src_tags)])
                       + " (a translation may only move the source's)")
        src_plain, new_plain = JINJA.sub(" ", source), JINJA.sub(" ", translated)
    if ":" in src_plain or ":" in new_plain:
        src_icons, new_icons = set(ICON_MARK.findall(src_plain)), set(ICON_MARK.findall(new_plain))
        if src_icons - new_icons:
            out.append("drops the icon " + _listed([f":{n}:" for n in sorted(src_icons - new_icons)]))
        if new_icons - src_icons:
            out.append("adds the icon " + _listed([f":{n}:" for n in sorted(new_icons - src_icons)])
                       + " (keep the source's icons, named as in the source)")
    if "{" in src_plain or "{" in new_plain or "%" in src_plain or "%" in new_plain:
        src_holes, new_holes = set(PLACEHOLDER.findall(src_plain)), set(PLACEHOLDER.findall(new_plain))
        if src_holes - new_holes:
            out.append("drops the placeholder " + _listed(sorted(src_holes - new_holes)))
        if new_holes - src_holes:
            out.append("adds the placeholder " + _listed(sorted(new_holes - src_holes))
                       + " (only the source's names are filled in)")
    dropped = [f"{name} (as {keywords[name]})" if keywords[name] != name else name
               for name in sorted(keywords) if name in src_plain and keyword_pattern(name).search(src_plain)
               and not kept_keyword(keywords[name]).search(new_plain)]
    if dropped:
        out.append("drops the keyword " + _listed(dropped))
    return out

"""Counted words: "3 cards", "1 card", never "card(s)". A message written with `(s)` (a pack's
own rule message, "{count} Upgrade card(s)", or one of ours) is put right by the number before
the word, so every report, page and console reads as a person would write it."""

from __future__ import annotations

import re

# a number, up to four words, the last one ending in "(s)": "2 free slot(s)", "1 Torva Greymantle card(s)"
_COUNTED = re.compile(r"(?<![\w.])(-?\d+)((?:\s+[^\s\d()]+?){1,4}?)\(s\)")


def plural(word: str, count: int) -> str:
    """`word` for `count` of it: "card" / "cards" (a regular plural: the one rule our messages need)."""
    return word if count == 1 else word + "s"


def counted(text: str) -> str:
    """`text` with each "N word(s)" as "N word" or "N words"; an `(s)` with no number before it
    ("http(s)") is left as it is."""
    if "(s)" not in text:
        return text
    return _COUNTED.sub(lambda m: m.group(1) + m.group(2) + ("" if m.group(1) in ("1", "-1") else "s"), text)

"""The smallest type a player can read at the table, in points: one home for the sizes the
cards' layout check (preflight/layout.py, `type.min-size`), the play pieces and the tests hold
every pack to. PRINT-SPECS.md asks for 6-7 pt at least for body text; a label (a caption over
a number, a tag, a counter's name, the collation line) is a word or two read at a glance."""

from __future__ import annotations

from typing import Literal, get_args

RULES_PT = 6.0       # rules text: a sentence a player reads to know what a card or piece does
LABEL_PT = 5.0       # a label: a caption, a tag, a number's name, a counter's name
UNREADABLE_PT = 4.0  # below this nothing prints legibly on a home printer: an error
Role = Literal["rules", "label"]
ROLES: tuple[str, ...] = get_args(Role)


def floor_pt(role: str) -> float:
    """The smallest size text of this role may print at."""
    return LABEL_PT if role == "label" else RULES_PT

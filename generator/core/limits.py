"""Hard bounds on hostile input: the one home of limits that no game sets.

A game's own limits are pack data (game.yaml: a side's `characters: {min, max}`, a card
type's `deck_limit`, the points limits), checked by the rules with their own messages. The
bounds here only keep a hostile or broken file from costing unbounded memory or time; no
real game comes near them, and every face (loader, command line, web builder) uses these
same names rather than its own numbers.
"""

from __future__ import annotations

# Characters in one build. A party has no maximum of its own (as many heroes as the points
# allow, unless the pack's side or the table sets one); this bound is far beyond any table.
MAX_CHARACTERS = 200

# The rest of a build's bounds, for the loader's build model, the web builder's page document,
# share codes and the `--points` option alike.
# A points limit written as a number (a build's `points_limit`, `--points`, the builder's box).
MAX_POINTS = 99999
# Copies of one card in one deck (a build's `deck:` counts, share codes, the builder's +).
MAX_COPIES = 999
# Characters a share code carries and the web builder's page holds: a code is typed or pasted,
# a page is edited by hand, so both stop far below MAX_CHARACTERS.
MAX_SHARED_CHARACTERS = 50
# Entries of one list of a build (a character's base cards, equipment, abilities, deck lines).
MAX_ITEMS = 200
# A card id as a build names it (a real id is at most 64 characters: pack/strict.py; a longer one
# is still read, so the validator can say which card is unknown, up to this bound).
MAX_ID_TEXT = 100
# A build's notes, plain text.
MAX_NOTES = 2000
# A build's or a character's name as the web builder's page holds it while it is edited (a build
# file's names are at most 80 characters, and the validator says so for a longer one).
MAX_PAGE_NAME = 200
# A card search (pack/query.py: the card browser, the picker, the published builds' filter):
# its length, the terms it may hold and how deep its parentheses may nest.
MAX_QUERY_CHARS = 300
MAX_QUERY_TERMS = 24
MAX_QUERY_DEPTH = 6
# A comment on a published build (community/social.py): Markdown, shown sanitised.
MAX_COMMENT = 2000
# A published build's description (Markdown, shown sanitised).
MAX_DESCRIPTION = 5000
# A saved build's version number (versions are counted from 1 by each save; the database keeps
# them in a 32-bit column, so no version is ever above this).
MAX_VERSION = 2**31 - 1


class NotANumber(ValueError):
    """Text that is not a whole number in the range asked for; `expected` says the range."""

    def __init__(self, text: str, expected: str):
        super().__init__(f"expected {expected}, got `{text[:20]}`")
        self.expected = expected


def whole_number(text: str, at_most: int, at_least: int = 0) -> int:
    """`text` (a form field, a query value, a path segment, a header, a cell) as a whole number
    from `at_least` to `at_most`, else NotANumber. The one parser for such numbers: ASCII digits
    only, after an optional `-` when `at_least` is below 0. (`str.isdigit` is true for `²` and
    `٣`, which `int()` then refuses or reads as 3; an unbounded number overflows a database
    column.) At most as many digits as the bounds have (leading zeros aside), so no huge number
    is ever made."""
    expected = f"a whole number from {at_least} to {at_most}"
    word = text.strip() if isinstance(text, str) else ""
    digits = word[1:] if word.startswith("-") and at_least < 0 else word
    if not (digits.isascii() and digits.isdigit()) or len(digits.lstrip("0")) > len(str(max(at_most, -at_least))):
        raise NotANumber(word or str(text), expected)
    value = int(word)
    if not at_least <= value <= at_most:
        raise NotANumber(word, expected)
    return value

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

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

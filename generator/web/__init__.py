"""The deck builder in the browser (`pnp serve`): a FastAPI app over the same loader,
validator, share codes and renderers the CLI uses. Pages are Jinja templates rendered on
the server; a small script sends each change and shows the answer. Nothing here knows a
game: sides, places and rules come from the pack.

Modules: app (the app, errors), guard (what every request passes first: its Host, its
Origin, its size), jobs (PDFs: one per client, one per worker at a time), pages (templates
and responses), site (what is served), state (the build document and changes to it), view
and charts (what a page shows), fixes (one-click fixes, tried before they are offered),
picker (the card picker's cards, filters and copy limits), storage (the builds folder),
memo (a worker's recent editor answers, bounded, for a build that comes back),
common (card filters, presets), rulebook (the rules as HTML pages, their search, keyword links
in card text), routes_* (pages and the JSON API by area). The command
`pnp serve` is generator.cli.serve.

May import: every layer below the command line (core, grids, pack, rules, maps, share,
render, export, kit, build); never generator.cli.
"""

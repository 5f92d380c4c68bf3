"""A game's community on one server (`pnp serve` with a database): saved builds and every
version of them in SQLAlchemy tables (SQLite by default, PostgreSQL with `--db`), accounts
with roles, published builds anyone can browse and copy, and what the published builds say
about the cards (for the designer). The deck builder (generator.web) is unchanged for one
person; this package plugs a database store in under its save routes and mounts its own.

Modules: models (the tables), store (the database: migrations run on start, builds,
versions, publications), dbbuilds (the builds-folder interface of generator.web.storage over
the store, per signed-in player), accounts (passwords, signed session cookies, CSRF tokens,
the sign-in rate limit), middleware (who is asking, and CSRF on every write), stats (card
statistics), transfer (builds folder in and out), routes_* (pages), app (the app factory
with the store plugged in). Alembic migrations ship as package data in migrations/.

May import: generator.web and every layer below it (core, grids, pack, rules, maps, share,
render, export, kit, build); never generator.cli.
"""

"""Alembic migrations of the community database (run by generator.community.store on start).

May import: generator.community.models.
"""

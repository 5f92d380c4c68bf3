"""Alembic's environment: the connection comes from generator.community.store (config
attribute "connection"), so migrations run in the app's own process on start."""

from alembic import context

from generator.community.models import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata,
                  render_as_batch=connection.dialect.name == "sqlite")
with context.begin_transaction():
    context.run_migrations()

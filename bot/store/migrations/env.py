"""Alembic's environment: always run by `bot.store.connect` on a connection it holds."""

from alembic import context

from bot.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()

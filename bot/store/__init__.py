"""The trend store: a point per default-branch commit, kept across restarts.

SQLite is the embedded default (a file); PostgreSQL serves several replicas. Both are
driven by SQLAlchemy's async engine, and the schema by Alembic migrations that
`open_store` runs at start-up, once however many processes start at the same time.
"""

from bot.store.connect import StoreURLError, open_store, start_store, store_url, store_url_from_env
from bot.store.keeper import StoreUnavailable
from bot.store.points import Store
from bot.store.records import Overview, Point, Repository, Trend

__all__ = [
    "Overview",
    "Point",
    "Repository",
    "Store",
    "StoreURLError",
    "StoreUnavailable",
    "Trend",
    "open_store",
    "start_store",
    "store_url",
    "store_url_from_env",
]

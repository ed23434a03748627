"""The Storage interface in a PostgreSQL database, through an asyncpg connection pool.

    async with await open_storage("postgresql://bot@db/makruk") as storage:
        ...
"""

from .storage import POOL_SIZE, PostgresStorage, open_storage

__all__ = ["POOL_SIZE", "PostgresStorage", "open_storage"]

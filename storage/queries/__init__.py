"""The queries, written once for SQLite and PostgreSQL as plans (see storage/_plan.py): one
module per part of the schema. Nothing here touches a connection."""

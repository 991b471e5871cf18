"""The run store: one SQLite file per run (run_store.py's RunStore).

Its modules, lowest first (each imports only those before it, never this package):
format.py the file's format 2 tables and views and the upgrade from format 1; read.py every
row decoded, a damaged one named in one line; schema.py the tables, views and columns a
reader relies on; opening.py a store opened (read-only where it cannot be written) and
checked; stream.py dialogues one at a time; rows.py
records to rows and back; samples.py samples a page at a time and the jobs still to run;
run_store.py the RunStore's transactions and queries.
"""

from __future__ import annotations

from macrs_sim.store.read import StoredEvent
from macrs_sim.store.run_store import SCHEMA_VERSION, STORE_FILE, RunStore

__all__ = ["SCHEMA_VERSION", "STORE_FILE", "RunStore", "StoredEvent"]

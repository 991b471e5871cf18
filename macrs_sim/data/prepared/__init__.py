"""What every dataset loader shares: the prepared database's format (2), streaming reads
of the files publishers distribute (plain or .gz), and writing the database atomically."""

from macrs_sim.data.prepared.atomic import write_atomically
from macrs_sim.data.prepared.files import SourceLine, read_lines
from macrs_sim.data.prepared.result import Dropped, PrepareResult
from macrs_sim.data.prepared.writer import DATABASE_FORMAT, DatabaseWriter, Interaction

__all__ = [
    "DATABASE_FORMAT",
    "DatabaseWriter",
    "Dropped",
    "Interaction",
    "PrepareResult",
    "SourceLine",
    "read_lines",
    "write_atomically",
]

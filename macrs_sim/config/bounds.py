"""Upper bounds of the scenario's numbers, and `Strict`, the base of its closed tables."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

# Upper bounds no real study reaches: a typo such as max_turns = 1000000000 is an error,
# not a run that never ends.
MAX_TOKENS = 1_048_576  # context, reply and string sizes (1M tokens)
MAX_THREADS = 1024
MAX_CONCURRENCY = 10_000
MAX_RETRIES = 100
MAX_SAMPLES = 1_000_000
MAX_HISTORY = 10_000
DAY_S = 86_400.0  # timeouts, backoffs and latencies
MAX_NAME_CHARS = 100


class Strict(BaseModel):
    # nan and infinities are no numbers a scenario means (nan fails every bound silently).
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

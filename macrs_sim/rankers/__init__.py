"""Non-LLM item scorers behind one `ItemRanker` protocol, their trainers and checkpoint cache.

Torch models (BPR-MF, SASRec) need the `recsys` extra; importing this package does not.
"""

import os

# Before torch loads OpenMP: idle worker threads sleep instead of spinning. On a shared
# machine spinning made SASRec's small training steps ~10x slower with 2 threads than 1.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from macrs_sim.rankers.base import ItemRanker, top_items  # noqa: E402

__all__ = ["ItemRanker", "top_items"]

"""llama.cpp's states after earlier prompts, kept in RAM, so that a prompt that begins like
one of them is read from where they part.

llama-cpp-python already reuses what the previous call left in the context; the prompts of
a campaign alternate (MACRS's three responders, planner and reflector each open with their
own instructions; a dialogue's next turn repeats the one before), so the previous call is
rarely the best start. Measured on the embedded model: a one-turn MACRS dialogue (LLM
user) evaluates 6 % fewer tokens (2,865 instead of 3,062), RecMind's ToT none fewer, and
the quickstart's campaign takes as long (206 s); the fake server's prompts had promised 24 %
(one turn) to 35 % (three turns) fewer prompt characters, but a real model's replies change
the dialogues early. Hence off by default (`[model] prompt_cache_mb = 0`); a campaign whose
roles repeat long instructions over many turns may gain more.

`LlamaRAMCache` itself keeps each state's score matrix (n_batch x n_vocab floats: 311 MB for
Qwen2.5's vocabulary) and leaves it out of its size, so a 2 GB cache could hold 14 GB. This
one keeps one row of scores (a restored state evaluates at least one token before sampling,
which rewrites them) and counts every byte it keeps.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from llama_cpp.llama import LlamaState


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens `a` and `b` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def state_bytes(state: LlamaState) -> int:
    return int(state.llama_state_size) + int(state.scores.nbytes) + int(state.input_ids.nbytes)


class PrefixStateCache:
    """A bounded, least-recently-used map from a token sequence to llama.cpp's state after
    it, looked up by the longest shared prefix (llama-cpp-python's cache interface)."""

    def __init__(self, capacity_bytes: int) -> None:
        self.capacity_bytes = capacity_bytes
        self._states: OrderedDict[tuple[int, ...], LlamaState] = OrderedDict()
        self._bytes = 0

    @property
    def cache_size(self) -> int:
        return self._bytes

    def _longest(self, key: Sequence[int]) -> tuple[int, ...] | None:
        best, best_len = None, 0
        for stored in self._states:
            shared = common_prefix(stored, key)
            if shared > best_len:
                best, best_len = stored, shared
        return best

    def __getitem__(self, key: Sequence[int]) -> LlamaState:
        found = self._longest(key)
        if found is None:
            raise KeyError("no stored state shares a prefix")
        self._states.move_to_end(found)
        return self._states[found]

    def __contains__(self, key: Sequence[int]) -> bool:
        return self._longest(key) is not None

    def __setitem__(self, key: Sequence[int], state: LlamaState) -> None:
        # One row of scores: load_state broadcasts it, and the next decode replaces it.
        state.scores = state.scores[-1:, :].copy()
        size = state_bytes(state)
        if size > self.capacity_bytes:
            return
        stored = tuple(key)
        if stored in self._states:
            self._bytes -= state_bytes(self._states.pop(stored))
        self._states[stored] = state
        self._bytes += size
        while self._bytes > self.capacity_bytes:
            _, oldest = self._states.popitem(last=False)
            self._bytes -= state_bytes(oldest)

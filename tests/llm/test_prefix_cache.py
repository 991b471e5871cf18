"""The embedded backend's prompt-state cache (llm/prefix_cache.py): lookup by the longest
shared prefix, a bound that counts every byte kept, and, on the real model, a prompt that
begins like an earlier (not the previous) one read from where they part."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

from macrs_sim.config import EmbeddedModel
from macrs_sim.llm.prefix_cache import PrefixStateCache, common_prefix, state_bytes
from tests.cores import worker_cores


@dataclass
class FakeState:
    """LlamaState's fields the cache reads: 1,000 bytes of llama.cpp state, 4 rows of 10
    float32 scores (160 bytes) and a 16-token context (64 bytes)."""

    n_tokens: int
    llama_state_size: int = 1000
    scores: np.ndarray = None  # type: ignore[assignment]
    input_ids: np.ndarray = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.scores is None:
            self.scores = np.arange(40, dtype=np.float32).reshape(4, 10)
        if self.input_ids is None:
            self.input_ids = np.zeros(16, dtype=np.intc)


def test_common_prefix() -> None:
    assert common_prefix([1, 2, 3], [1, 2, 4, 5]) == 2
    assert common_prefix([1, 2], [1, 2, 3]) == 2
    assert common_prefix([], [1]) == 0
    assert common_prefix([9], [1, 9]) == 0


def test_a_stored_state_keeps_one_row_of_scores_and_is_counted_whole() -> None:
    cache = PrefixStateCache(capacity_bytes=10_000)
    state = FakeState(n_tokens=3)
    cache[[1, 2, 3]] = state  # type: ignore[assignment]
    # The last row only (40 bytes), the state (1,000) and the context's ids (64).
    assert state.scores.tolist() == [[30.0, 31.0, 32.0, 33.0, 34.0, 35.0, 36.0, 37.0, 38.0, 39.0]]
    assert state_bytes(state) == 1000 + 40 + 64  # type: ignore[arg-type]
    assert cache.cache_size == 1104


def test_lookup_takes_the_longest_shared_prefix_not_the_latest() -> None:
    cache = PrefixStateCache(capacity_bytes=10_000)
    a, b = FakeState(n_tokens=4), FakeState(n_tokens=3)
    cache[[5, 6, 7, 8]] = a  # type: ignore[assignment]
    cache[[5, 9, 9]] = b  # type: ignore[assignment]
    assert cache[[5, 6, 7, 1, 1]] is a  # shares 3 with a, 1 with b
    assert cache[[5, 9, 9, 9]] is b
    assert [5, 0] in cache and [4] not in cache
    with pytest.raises(KeyError):
        cache[[4, 5]]


def test_the_least_recently_used_state_goes_first_when_full() -> None:
    cache = PrefixStateCache(capacity_bytes=2 * 1104 + 10)  # room for two states
    first, second, third = FakeState(1), FakeState(1), FakeState(1)
    cache[[1]] = first  # type: ignore[assignment]
    cache[[2]] = second  # type: ignore[assignment]
    assert cache[[1, 7]] is first  # used: [2] is now the oldest
    cache[[3]] = third  # type: ignore[assignment]
    assert cache.cache_size == 2 * 1104
    assert cache[[1]] is first and cache[[3]] is third
    with pytest.raises(KeyError):
        cache[[2]]
    # The same key again replaces its state, counted once.
    cache[[3]] = FakeState(1)  # type: ignore[assignment]
    assert cache.cache_size == 2 * 1104


def test_a_state_larger_than_the_whole_cache_is_not_kept() -> None:
    cache = PrefixStateCache(capacity_bytes=500)
    cache[[1, 2]] = FakeState(2)  # type: ignore[assignment]
    assert cache.cache_size == 0 and [1] not in cache


def test_the_setting_is_bounded_and_off_by_default() -> None:
    assert EmbeddedModel().prompt_cache_mb == 0
    assert EmbeddedModel(prompt_cache_mb=512).prompt_cache_mb == 512
    with pytest.raises(ValueError, match="prompt_cache_mb"):
        EmbeddedModel(prompt_cache_mb=-1)


@pytest.mark.embedded
async def test_a_prompt_like_an_earlier_one_is_read_from_where_they_part() -> None:
    import llama_cpp
    from autogen_core.models import LLMMessage, SystemMessage, UserMessage

    from macrs_sim.llm import LlamaCppClient
    from macrs_sim.llm.gguf import default_gguf_path

    def prompt_tokens_read(client: LlamaCppClient) -> int:
        return int(llama_cpp.llama_perf_context(client._llm._ctx.ctx).n_p_eval)

    # Two roles' instructions, then the first role again: without the cache llama.cpp keeps
    # only what the previous call (the other role's) left, and reads the third prompt whole.
    role_a = SystemMessage(content="You recommend films to a user. " * 30)
    role_b = SystemMessage(content="You choose the next dialogue act. " * 30)
    calls: list[list[LLMMessage]] = [
        [role_a, UserMessage(content="Hello.", source="user")],
        [role_b, UserMessage(content="Choose.", source="user")],
        [role_a, UserMessage(content="Hello again, anything new?", source="user")],
    ]
    client = LlamaCppClient(
        default_gguf_path(), n_threads=worker_cores(), prompt_cache_mb=64, max_tokens=2
    )
    read = []
    for messages in calls:
        before = prompt_tokens_read(client)
        await client.create(messages)
        read.append(prompt_tokens_read(client) - before)
    await client.close()
    # Each role's prompt is ~200 tokens; the third reads its last words only.
    assert read[0] > 150 and read[1] > 150
    assert read[2] < 20

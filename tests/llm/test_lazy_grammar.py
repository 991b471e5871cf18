"""Lazy grammar checks for greedy decoding give the eager chain's tokens (lazy_grammar.py)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest
from autogen_core.models import UserMessage
from pydantic import BaseModel, Field

from macrs_sim.llm.embedded import LlamaCppClient, response_format
from macrs_sim.llm.gguf import default_gguf_path
from macrs_sim.llm.lazy_grammar import FAST, FULL, NEAR, mask_for_greedy

NEG = -np.inf


def run(logits: list[float], allowed: set[int], top: int) -> tuple[int, list[float], int]:
    """mask_for_greedy with a grammar that allows `allowed`: (step, masked logits, greedy)."""
    arr = np.array(logits, dtype=np.float32)

    def allows(at: npt.NDArray[np.intp]) -> npt.NDArray[np.bool_]:
        return np.array([int(i) in allowed for i in at], dtype=bool)

    def mask_all() -> None:
        arr[[i for i in range(arr.size) if i not in allowed]] = NEG

    step = mask_for_greedy(arr, allows, mask_all, top)
    return step, arr.tolist(), int(np.argmax(arr))


def test_greedy_choice_allowed_masks_nothing() -> None:
    # argmax is index 1 (the first of the two 5s); the grammar allows it.
    assert run([1, 5, 5, 2], {1, 3}, 64) == (FAST, [1, 5, 5, 2], 1)


def test_rejected_choice_masks_only_what_ranks_above_the_answer() -> None:
    # Ranked by logit, then index: 1 (5), 2 (5), 3 (2), 0 (1). 1 is rejected, 2 allowed: only
    # 1 is masked, and greedy then picks 2, the first allowed, as after a full pass.
    assert run([1, 5, 5, 2], {2, 3}, 3) == (NEAR, [1, NEG, 5, 2], 2)
    # 1 and 2 rejected, 3 allowed: 1 and 2 masked, 0 (logit 1) stays but ranks below 3.
    assert run([1, 5, 5, 2], {0, 3}, 3) == (NEAR, [1, NEG, NEG, 2], 3)


def test_none_of_the_top_allowed_runs_the_full_pass() -> None:
    # top 2 holds both 5s (1, 2), both rejected: the grammar runs over all four.
    assert run([1, 5, 5, 2], {0, 3}, 2) == (FULL, [1, NEG, NEG, 2], 3)
    # top 0 goes straight from the rejected argmax to the full pass.
    assert run([1, 5, 5, 2], {2, 3}, 0) == (FULL, [NEG, NEG, 5, 2], 2)
    # Nothing allowed: all -inf, and greedy takes index 0 as it does after the eager chain.
    assert run([1, 5, 5, 2], set(), 64) == (FULL, [NEG] * 4, 0)


def test_ties_at_the_edge_of_the_top_are_all_checked() -> None:
    # top 2: the 2nd highest logit is 4, held by 1, 2 and 3; all three are checked, in index
    # order: 3 is the answer, 1 and 2 masked, and 0 (logit 9, rejected) masked first.
    assert run([9, 4, 4, 4, 0], {3, 4}, 2) == (NEAR, [NEG, NEG, NEG, 4, 0], 3)


def test_same_choice_as_the_full_pass_everywhere() -> None:
    """Every 4-logit array over {0, 1, 2}, every allowed set, top 0, 2 and 64: greedy after the
    lazy mask picks what greedy picks after the grammar masks every rejected token."""
    cases = 0
    for logits in itertools.product([0.0, 1.0, 2.0], repeat=4):
        for n in range(5):
            for allowed in itertools.combinations(range(4), n):
                eager = [x if i in allowed else NEG for i, x in enumerate(logits)]
                for top in (0, 2, 64):
                    assert run(list(logits), set(allowed), top)[2] == int(np.argmax(eager))
                    cases += 1
    assert cases == 81 * 16 * 3


class Pick(BaseModel):
    action: Literal["ask", "recommend", "chat"]
    genre: str = Field(max_length=40)
    reason: str = Field(max_length=80)


# Prose first, then JSON: the model's argmax often breaks the grammar (fallbacks), and inside
# the strings it often does not (fast steps).
PROSE = (
    "Explain in a few sentences why you would recommend a sci-fi film to someone who liked "
    "Alien, then give your answer as JSON."
)


@pytest.fixture(scope="module")
def client() -> Iterator[LlamaCppClient]:
    c = LlamaCppClient(default_gguf_path(), n_ctx=512, n_threads=1, max_tokens=64)
    yield c
    c._llm.close()


async def reply(client: LlamaCppClient, lazy: bool) -> tuple[str, int]:
    llm: Any = client._llm
    llm.lazy_grammar = lazy
    llm.grammar_sampler = None
    llm.reset()  # no prompt reuse: both runs read the prompt in one batch, the same logits
    result = await client.create([UserMessage(content=PROSE, source="u")], json_output=Pick)
    assert isinstance(result.content, str)
    return result.content, result.usage.completion_tokens


@pytest.mark.embedded
async def test_lazy_gives_the_eager_reply(client: LlamaCppClient) -> None:
    eager = await reply(client, lazy=False)
    assert last_sampler(client._llm) is None
    lazy = await reply(client, lazy=True)
    assert lazy == eager
    Pick.model_validate_json(lazy[0])
    steps = last_sampler(client._llm).steps
    # One step a completion token, plus the end-of-text token that closes the reply.
    assert sum(steps) == lazy[1] + 1
    assert steps[FAST] > 0 and steps[NEAR] > 0 and steps[FULL] > 0


def last_sampler(llm: Any) -> Any:
    """The LazyGrammarSampler of the latest greedy grammar chain, None if there was none."""
    return llm.grammar_sampler


def chain_names(sampler: Any) -> list[bytes | None]:
    import llama_cpp

    chain = sampler.sampler
    custom = {i for i, _ in sampler.custom_samplers}
    # A Python custom sampler has no name function; asking would call a null pointer. The "?"
    # is in the names this llama.cpp build gives some samplers.
    return [
        None
        if i in custom
        else llama_cpp.llama_sampler_name(llama_cpp.llama_sampler_chain_get(chain, i))
        for i in range(llama_cpp.llama_sampler_chain_n(chain))
    ]


@pytest.mark.embedded
def test_sampling_keeps_llama_cpp_pythons_chain(client: LlamaCppClient) -> None:
    from llama_cpp.llama_grammar import LlamaGrammar

    llm: Any = client._llm
    llm.lazy_grammar, llm.grammar_sampler = True, None
    schema = response_format(Pick)["schema"]  # type: ignore[index]
    grammar = LlamaGrammar.from_json_schema(json.dumps(schema), verbose=False)
    sampled = llm._init_sampler(temp=0.7, grammar=grammar)
    assert last_sampler(llm) is None
    assert chain_names(sampled) == [
        b"?penalties",
        b"grammar",
        b"top-k",
        b"?typical",
        b"top-p",
        b"min-p",
        b"temp",
        b"dist",
    ]
    greedy = llm._init_sampler(temp=0.0, grammar=grammar)
    assert chain_names(greedy) == [b"?penalties", None, b"greedy"]
    assert last_sampler(llm).steps == [0, 0, 0]
    llm.lazy_grammar = False
    eager = llm._init_sampler(temp=0.0, grammar=grammar)
    assert chain_names(eager) == [b"?penalties", b"grammar", b"greedy"]
    for s in (sampled, greedy, eager):
        s.close()

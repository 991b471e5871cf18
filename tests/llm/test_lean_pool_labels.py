"""Both HTTP paths build their endpoint pool the same way: labels never carry credentials."""

from __future__ import annotations

import pytest

from macrs_sim.config import OpenAIModel
from macrs_sim.llm.lean.build import build_lean_client
from macrs_sim.llm.openai_backend import build_openai_client
from macrs_sim.llm.pool import EndpointPool


@pytest.mark.parametrize("build", [build_lean_client, build_openai_client])
def test_pool_labels_are_redacted(build: object) -> None:
    cfg = OpenAIModel(
        model="m",
        base_urls=("http://user:s3cret@127.0.0.1:9/v1", "http://127.0.0.1:10/v1"),
        api_key_env=None,
        structured_outputs="openai",
    )
    pool = build(cfg, temperature=0.0)  # type: ignore[operator]
    assert isinstance(pool, EndpointPool)
    assert [s.url for s in pool.stats()] == ["http://***@127.0.0.1:9/v1", "http://127.0.0.1:10/v1"]

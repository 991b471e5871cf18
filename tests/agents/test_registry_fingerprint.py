"""MACRS and single-LLM built through the registry reproduce the pre-registry results."""

from __future__ import annotations

import json
from pathlib import Path

from tests.agents.fingerprint import FIXTURE, campaign_fingerprints


async def test_registry_built_systems_reproduce_the_stored_fingerprint(tmp_path: Path) -> None:
    expected = json.loads(FIXTURE.read_text())
    got = json.loads(json.dumps(await campaign_fingerprints(tmp_path), sort_keys=True))
    assert len(got) == 32
    assert got.keys() == expected.keys()
    for dialogue_id, fingerprint in expected.items():
        assert got[dialogue_id] == fingerprint, dialogue_id

"""Every system on every server: each registered LLM system completes a short campaign, with
no dialogue stored as an error, through

(a) the scripted backend;
(b) the project's fake OpenAI server over HTTP, through the lean client and the SDK client;
(c) llama-cpp-python's own OpenAI-compatible server with the embedded GGUF, `auto` modes;
(d) the embedded model in-process.

(a) and (b) run every system in one campaign each, with the LLM user simulator. (c) and (d)
are real models on CPU (`embedded` mark, slow, still in CI): one dialogue of one turn per
system, with the agenda user, which costs no model call (the LLM user would add one slow call
per turn plus the sample's target profile and opening), and bounded steps (see
matrix_scenarios.SYSTEMS' `small`). (d)'s rows are shared with the dedicated real-model tests
of MACRS (with the LLM user), InteRecAgent (plan-first with its critic) and RecMind-CoT,
which check more of the same run (embedded_rows.py): each is run once a session.

Measured on 2 shared cores (load 2-3 from other jobs): (a) 20 s (training the small rankers
and embedding the catalog included), (b) 4-5 s per client; (c) 250-330 s and (d) 270-420 s
for the nine systems (the low end on a quiet machine, the high end with the rest of the
suite on the other core; (d) with the LLM user for MACRS and the critic for plan-first),
~12,000 prompt and ~1,200 completion tokens per row. llama.cpp read prompts
at 25-45 tokens/s there, so the prompts (InteRecAgent's and ToolRec's ~1,100 tokens each)
are most of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.agents.recmind.options import PLANNERS
from macrs_sim.agents.registry import registered_specs
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
from macrs_sim.llm.probe import forget_probes, known_mode
from tests.campaign.embedded_rows import EMBEDDED_MODEL_NAME, REAL_MAX_TOKENS, embedded_row
from tests.campaign.matrix_scenarios import (
    SYSTEMS,
    MatrixSystem,
    Stored,
    run_row,
)
from tests.campaign.matrix_scenarios import scenario as matrix_scenario
from tests.llama_server import LLAMA_ALIAS

pytestmark = pytest.mark.filterwarnings("ignore:Pydantic serializer warnings:UserWarning")

ALL = [s.options() for s in SYSTEMS]
BY_ID = [pytest.param(s, id=s.id) for s in SYSTEMS]


@pytest.fixture(scope="module", autouse=True)
def ranker_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The trained rankers' checkpoints (and RecMind's memory) in one folder for the module:
    each model is trained once, by the first row, and loaded by the others (the in-process
    rows keep their own: embedded_rows.py)."""
    cache = tmp_path_factory.mktemp("matrix-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(cache))
        yield cache


@pytest.fixture(autouse=True)
def _no_remembered_probes() -> Iterator[None]:
    """`auto` remembers each endpoint's mode per process: a port reused later must not
    inherit it."""
    forget_probes()
    yield
    forget_probes()


def test_the_matrix_names_every_registered_llm_system() -> None:
    llm_kinds = {spec.kind for spec in registered_specs() if spec.uses_llm}
    assert {s.kind for s in SYSTEMS} == llm_kinds
    recmind = [s.entry["planner"] for s in SYSTEMS if s.kind == "recmind"]
    assert sorted(recmind) == sorted(PLANNERS)
    interecagent = [s.entry["plan_first"] for s in SYSTEMS if s.kind == "interecagent"]
    assert sorted(interecagent) == [False, True]
    assert len({s.name for s in SYSTEMS}) == len({s.id for s in SYSTEMS}) == len(SYSTEMS)


# --- (a), (b): every system in one campaign per backend ----------------------------------


# One worker runs (a) and (b): the module's ranker cache is per worker, and the second and
# third rows load what the first trained (~17 s of training and embedding otherwise).
@pytest.mark.xdist_group("backend-matrix-fast")
async def test_every_system_on_the_scripted_backend(tmp_path: Path) -> None:
    sc = matrix_scenario(
        "matrix-scripted", {"backend": "scripted"}, ALL, simulator="llm", n_samples=2, max_turns=2
    )
    stored = await run_row(sc, tmp_path)
    assert all(c.ok and c.model == "scripted" for c in stored.calls)


@pytest.mark.xdist_group("backend-matrix-fast")
@pytest.mark.parametrize("client", ["lean", "sdk"])
async def test_every_system_through_the_fake_openai_server(tmp_path: Path, client: str) -> None:
    async with FakeOpenAIServer() as srv:
        model = {
            "backend": "openai",
            "model": "fake",
            "base_url": srv.base_url,  # structured_outputs "auto": probed at the start
            "api_key_env": None,
            "client": client,
        }
        sc = matrix_scenario(
            f"matrix-{client}", model, ALL, simulator="llm", n_samples=2, max_turns=2,
            concurrency=8,
        )  # fmt: skip
        stored = await run_row(sc, tmp_path)
        assert known_mode(srv.base_url, "fake") == "openai"
    assert all(c.ok and c.model == "fake" for c in stored.calls)
    # Every stored call went over HTTP (the cache is off); the one more is `auto`'s probe.
    bodies = srv.chat_bodies()
    assert len(bodies) == len(stored.calls) + 1
    # Through the client asked for: the openai SDK names itself in headers, aiohttp does not.
    # The first is `auto`'s probe, which may go through the SDK whichever client is asked for.
    chats = [r for r in srv.requests if r.path.endswith("/chat/completions")][1:]
    by_sdk = {"x-stainless-lang" in r.headers for r in chats}
    assert by_sdk == {client == "sdk"}
    assert all(b["model"] == "fake" for b in bodies)
    formats = [(b.get("response_format") or {}).get("type") for b in bodies]
    assert set(formats) == {"json_schema", None}  # structured calls, and plain text ones


# --- (c), (d): real models, one dialogue of one turn per system --------------------------


async def real_model_row(
    tmp_path: Path, row: str, model: dict[str, object], system: MatrixSystem
) -> Stored:
    """One dialogue of one turn, the agenda user, the system's bounded options."""
    sc = matrix_scenario(
        f"matrix-{row}-{system.id}", model, [system.options(small=True)], simulator="agenda",
        n_samples=1, max_turns=1, final_list_k=3, concurrency=1,
    )  # fmt: skip
    return await run_row(sc, tmp_path)


@pytest.mark.embedded
@pytest.mark.parametrize("system", BY_ID)
async def test_every_system_through_llama_cpp_python_server(
    llama_server: str, tmp_path: Path, system: MatrixSystem
) -> None:
    model: dict[str, object] = {
        "backend": "openai",
        "model": LLAMA_ALIAS,
        "base_url": llama_server,
        "api_key_env": None,
        "structured_outputs": "auto",
        "max_tokens": REAL_MAX_TOKENS,
        "max_concurrency": 1,  # the server answers one request at a time
        "timeout_s": 600,
    }
    stored = await real_model_row(tmp_path, "llama-server", model, system)
    # It refuses `json_schema` with HTTP 500: `auto` settles on `json_object`.
    assert known_mode(llama_server, LLAMA_ALIAS) == "json_object"
    assert all(c.model == LLAMA_ALIAS and c.completion_tokens > 0 for c in stored.calls if c.ok)


@pytest.mark.embedded
@pytest.mark.parametrize("system", BY_ID)
async def test_every_system_on_the_embedded_model(
    tmp_path_factory: pytest.TempPathFactory, system: MatrixSystem
) -> None:
    # Shared with the system's dedicated real-model test, if it has one (embedded_rows.py).
    stored = await embedded_row(system, tmp_path_factory)
    assert all(c.model == EMBEDDED_MODEL_NAME for c in stored.calls)
    assert all(c.completion_tokens > 0 for c in stored.calls if c.ok)

"""`backend = "openai"`: any OpenAI-compatible endpoint (llm/openai_backend.py, llm/lean/)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from macrs_sim.config import OpenAIModel
from macrs_sim.llm.backends.registry import BackendContext, BackendSpec, Notify
from macrs_sim.redact import redact_url, split_userinfo

if TYPE_CHECKING:  # the client stack (openai, aiohttp: about 1 s) is imported on first use
    from autogen_core.models import ChatCompletionClient


def build(cfg: OpenAIModel, ctx: BackendContext) -> ChatCompletionClient:
    from macrs_sim.llm.lean import build_lean_client
    from macrs_sim.llm.openai_backend import build_openai_client

    make = build_lean_client if cfg.client == "lean" else build_openai_client
    return make(cfg, temperature=ctx.temperature)


def identity(cfg: OpenAIModel, ctx: BackendContext) -> str:
    """Replicas of one model (other base URLs) share cache entries."""
    return f"openai:{cfg.model}"


def label(cfg: OpenAIModel, ctx: BackendContext) -> str:
    return cfg.model


def retry_policy(cfg: OpenAIModel, faulty: bool) -> dict[str, Any]:
    return {
        "attempts": cfg.max_retries + 1,
        "base_delay_s": cfg.backoff_base_s,
        "max_delay_s": cfg.backoff_max_s,
        "seed": cfg.seed or 0,
    }


async def preflight(cfg: OpenAIModel, notify: Notify | None) -> OpenAIModel:
    """The endpoint answers, its context window is what its model list says (else
    `n_ctx`, else a guess: `notify` hears which), and `structured_outputs = "auto"`
    becomes the mode it accepts."""
    from macrs_sim.llm.lean.build import lean_probe_client
    from macrs_sim.llm.openai_backend import (
        check_endpoint,
        resolve_structured_outputs,
        sdk_probe_client,
    )

    listings = await check_endpoint(cfg)
    probe = lean_probe_client if cfg.client == "lean" else sdk_probe_client
    resolved = await resolve_structured_outputs(cfg, notify, probe_client=probe)
    return served_window(resolved, listings, notify)  # said once the server took a request


def served_window(
    cfg: OpenAIModel, listings: Sequence[bytes], notify: Notify | None
) -> OpenAIModel:
    """`cfg` with `n_ctx` the window the endpoints' model lists name, when smaller than the
    setting (so every process of the run, and its resolved scenario, holds it)."""
    from macrs_sim.llm.context_window import learn, listed_window, window_of
    from macrs_sim.llm.openai_backend import DEFAULT_BASE_URL
    from macrs_sim.textfile import loads_json

    urls = [split_userinfo(url or DEFAULT_BASE_URL)[0] for url in cfg.endpoints()]
    for url, body in zip(urls, listings, strict=False):
        try:
            listed = listed_window(loads_json(body), cfg.model)
        except ValueError:  # not JSON: the server lists nothing we can read
            listed = None
        if listed is not None:
            learn(url, cfg.model, listed, "the server's model list: max_model_len")
    window = min((window_of(u, cfg.model, cfg.n_ctx) for u in urls), key=lambda w: w.tokens)
    if notify is not None:
        first = redact_url(cfg.endpoints()[0] or DEFAULT_BASE_URL)
        where = first + (f" (of {len(urls)} endpoints)" if len(urls) > 1 else "")
        notify(f"model {cfg.model} at {where}: context window {window.describe()}")
    if cfg.n_ctx is not None and window.tokens >= cfg.n_ctx or window.source.startswith("a guess"):
        return cfg
    return cfg.model_copy(update={"n_ctx": window.tokens})


def describe(model: Mapping[str, Any]) -> str:
    """`openai <model> at <redacted base URLs>`: the server's address, never a key."""
    urls = [model["base_url"]] if model.get("base_url") else list(model.get("base_urls", ()))
    where = f" at {', '.join(redact_url(str(u)) for u in urls)}" if urls else ""
    return f"openai {model.get('model', '?')}{where}"


SPEC = BackendSpec(
    name="openai",
    options=OpenAIModel,
    build=build,
    identity=identity,
    sampling_fields=frozenset({"max_tokens", "seed", "structured_outputs"}),
    label=label,
    retry_policy=retry_policy,
    preflight=preflight,
    remote=True,
    connection_fields=frozenset({"structured_outputs", "n_ctx"}),
    describe=describe,
)

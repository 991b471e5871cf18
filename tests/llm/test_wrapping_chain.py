import asyncio
from collections.abc import Awaitable, Callable

from autogen_core.models import CreateResult, RequestUsage, UserMessage

from macrs_sim.llm.base import CreateRequest, SimpleChatClient, WrappingClient

RESULT = CreateResult(
    finish_reason="stop", content="ok", usage=RequestUsage(prompt_tokens=1, completion_tokens=2),
    cached=False,
)  # fmt: skip


class Backend(SimpleChatClient):
    async def _complete(self, messages, *, json_output, extra_create_args):  # type: ignore[no-untyped-def]
        return RESULT


class Recording(WrappingClient):
    def __init__(self, inner, seen: list[CreateRequest]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(inner)
        self.seen = seen

    async def _handle(self, request: CreateRequest) -> CreateResult:
        self.seen.append(request)
        return await super()._handle(request)


def test_a_wrapper_hands_its_request_to_the_next_wrapper_unchanged() -> None:
    seen: list[CreateRequest] = []
    chain = Recording(Recording(Backend(), seen), seen)
    message = UserMessage(content="hi ", source="u")
    result = asyncio.run(chain.create([message], json_output=True, extra_create_args={"seed": 3}))
    assert result is RESULT
    assert len(seen) == 2 and seen[0] is seen[1]
    assert seen[0] == CreateRequest([message], [], "auto", True, {"seed": 3}, None)
    assert chain.inner.inner.total_usage().completion_tokens == 2  # type: ignore[attr-defined]


def test_a_create_patched_on_an_inner_wrapper_is_still_called() -> None:
    seen: list[CreateRequest] = []
    inner = Recording(Backend(), seen)
    calls: list[str] = []
    original: Callable[..., Awaitable[CreateResult]] = inner.create

    async def patched(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append("patched")
        return await original(*args, **kwargs)

    inner.create = patched  # type: ignore[method-assign]
    asyncio.run(WrappingClient(inner).create([UserMessage(content="x", source="u")]))
    assert calls == ["patched"] and len(seen) == 1

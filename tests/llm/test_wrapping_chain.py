import asyncio
from collections.abc import Awaitable, Callable
from types import CoroutineType

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


class Around(WrappingClient):
    """A wrapper whose concern is the call only: it logs around it."""

    def __init__(self, inner, log: list[str]) -> None:  # type: ignore[no-untyped-def]
        super().__init__(inner)
        self.log = log

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        self.log.append("before")
        try:
            return await call()
        finally:
            self.log.append("after")


class Failing(SimpleChatClient):
    async def _complete(self, messages, *, json_output, extra_create_args):  # type: ignore[no-untyped-def]
        raise TimeoutError("slow ✓ ")


def test_a_plain_wrapper_s_handle_is_its_around_itself_with_results_and_errors_unchanged() -> None:
    # No coroutine of _handle's own around _around's: a frame fewer per wrapper on every
    # resume of a call in flight.
    log: list[str] = []
    request = CreateRequest([UserMessage(content="hi", source="u")])
    handled = Around(Backend(), log)._handle(request)
    assert isinstance(handled, CoroutineType) and handled.cr_code is Around._around.__code__
    assert asyncio.run(handled) is RESULT
    chain = Around(Around(Failing(), log), log)
    try:
        asyncio.run(chain.create([UserMessage(content="hi", source="u")]))
    except TimeoutError as err:
        assert err.args == ("slow ✓ ",)
    else:
        raise AssertionError("the backend's error was lost")
    assert log == ["before", "after", "before", "before", "after", "after"]

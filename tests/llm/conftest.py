"""A real OpenAI-compatible HTTP server on 127.0.0.1, scriptable per request."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


@dataclass
class Reply:
    """A scripted answer to the next chat request (used before the default reply)."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


def completion(model: str, content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": "stop",
            }
        ],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
    }


class FakeOpenAI:
    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.script: list[Reply] = []
        self.content = "Hello from the fake server."
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def queue(
        self,
        status: int,
        body: dict[str, Any],
        headers: dict[str, str] | None = None,
        delay_s: float = 0.0,
    ) -> None:
        """Answer the next chat request with this instead of the default completion."""
        with self._lock:
            self.script.append(Reply(status, body, headers or {}, delay_s))

    def chat_bodies(self) -> list[dict[str, Any]]:
        return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            if self.script:
                return self.script.pop(0)
        return Reply(200, completion(body.get("model", "?"), self.content))

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def _headers(handler: BaseHTTPRequestHandler) -> dict[str, str]:
    return {k.lower(): v for k, v in handler.headers.items()}


def _handler(fake: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def _send(self, reply: Reply) -> None:
            data = json.dumps(reply.body).encode()
            try:
                self.send_response(reply.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in reply.headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (timeout test)

        def do_GET(self) -> None:
            fake.requests.append({"path": self.path, "headers": _headers(self), "body": None})
            if self.path.rstrip("/").endswith("/models"):
                model = {"id": "fake-model", "object": "model", "created": 0, "owned_by": "t"}
                self._send(Reply(200, {"object": "list", "data": [model]}))
            else:
                self._send(Reply(404, {"error": {"message": "not found"}}))

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = json.loads(self.rfile.read(length) or b"{}")
            fake.requests.append({"path": self.path, "headers": _headers(self), "body": body})
            reply = fake.next_reply(body)
            if reply.delay_s:
                time.sleep(reply.delay_s)
            self._send(reply)

    return Handler


@pytest.fixture
def fake_openai() -> Iterator[FakeOpenAI]:
    server = FakeOpenAI()
    server.start()
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def _no_remembered_probes() -> Iterator[None]:
    """`auto` remembers each endpoint's answer per process; a port reused by a later test
    must not inherit it."""
    from macrs_sim.llm.probe import forget_probes

    forget_probes()
    yield
    forget_probes()

"""Request-set files: the one-turn task's requests, written once by a named model and reused.

DESIGN.md §3 "A fair contest": the requests a model writes are test inputs, so every system
compared on them must answer the same ones. `macrs-sim eval interecagent requests` writes
them once; `eval interecagent one-turn --requests FILE` asks every brain those requests.

JSON lines: a header (the generator model, dataset and fingerprint, task, n, k, seed,
history length, how many requests), then one `SavedRequest` per line: the case (user,
history, held-out target, candidates) and its request (the dialogue, the instruction
appended; or the error that left it out). Written whole or not at all (temp + rename);
results name the file by its path and the SHA-256 of its bytes.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from macrs_sim.analysis.atomic import write_text_atomic
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, OneTurnRequest, Task
from macrs_sim.protocol import Record, Utterance
from macrs_sim.textfile import loads_json, not_regular

REQUEST_SET_FORMAT = "macrs-sim/interecagent-requests"
REQUEST_SET_VERSION = 1
MAKE_ONE = "make one with `macrs-sim eval interecagent requests`"


class RequestSetHeader(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str = REQUEST_SET_FORMAT
    version: int = REQUEST_SET_VERSION
    # The model that wrote the requests: one line, and its [model] section (URLs redacted).
    generator: str
    generator_model: dict[str, Any]
    temperature: float
    dataset: str
    dataset_fingerprint: str
    task: Task
    n: int
    k: int
    seed: int
    history_len: int
    # `n` lines follow, one per case drawn; `failed` of them hold an error, not a request.
    failed: int
    created_at: str = ""


class SavedRequest(Record):
    """One line: a case and the request every system is asked for it."""

    case_id: str
    user_id: str
    history: tuple[str, ...]
    target_id: str
    candidates: tuple[str, ...] = ()
    utterances: tuple[Utterance, ...] = ()
    redacted: bool = False
    error: str | None = None

    @classmethod
    def of(cls, case: OneTurnCase, request: OneTurnRequest) -> SavedRequest:
        return cls(**case.model_dump(), **request.model_dump(exclude={"case_id"}))

    def case(self) -> OneTurnCase:
        return OneTurnCase.model_validate(self.model_dump(include=set(OneTurnCase.model_fields)))

    def request(self) -> OneTurnRequest:
        fields = set(OneTurnRequest.model_fields)
        return OneTurnRequest.model_validate(self.model_dump(include=fields))


@dataclass(frozen=True)
class Generator:
    """The model that writes a request set: its name in one line, its [model] section as
    written to files (URLs redacted), and the temperature it ran at."""

    name: str
    model: dict[str, Any]
    temperature: float


@dataclass(frozen=True)
class RequestSet:
    """A request set as read: where it is, the hash of its bytes, and its contents."""

    path: Path
    sha256: str
    header: RequestSetHeader
    cases: list[OneTurnCase]
    requests: list[OneTurnRequest]


def request_set_text(
    header: RequestSetHeader, cases: Sequence[OneTurnCase], requests: Sequence[OneTurnRequest]
) -> str:
    lines = [header.model_dump_json()]
    lines += [SavedRequest.of(c, r).model_dump_json() for c, r in zip(cases, requests, strict=True)]
    return "\n".join(lines) + "\n"


def write_request_set(
    path: Path,
    header: RequestSetHeader,
    cases: Sequence[OneTurnCase],
    requests: Sequence[OneTurnRequest],
) -> str:
    """Atomic: the file appears complete or not at all. Returns the SHA-256 of its bytes."""
    if not header.created_at:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        header = header.model_copy(update={"created_at": stamp})
    text = request_set_text(header, cases, requests)
    write_text_atomic(path, text)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _header(path: Path, first: str) -> RequestSetHeader:
    try:
        raw = loads_json(first)
    except json.JSONDecodeError:
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != REQUEST_SET_FORMAT:
        raise DataError(
            f"{path}:1: not a request-set header; expected a JSON object with "
            f'"format": "{REQUEST_SET_FORMAT}" ({MAKE_ONE})'
        )
    if raw.get("version") != REQUEST_SET_VERSION:
        raise DataError(
            f"{path}:1: request-set version {raw.get('version')!r}; expected"
            f" {REQUEST_SET_VERSION} ({MAKE_ONE})"
        )
    try:
        return RequestSetHeader.model_validate(raw)
    except ValidationError as err:
        raise DataError(f"{path}:1: bad request-set header ({_first_error(err)}); expected the"
                        f" header `eval interecagent requests` writes") from None  # fmt: skip


def _first_error(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else first["msg"]


def _alternates(utterances: Sequence[Utterance]) -> bool:
    """User first and last, user and system in turn: the dialogue a system's `respond` takes."""
    speakers = [u.speaker for u in utterances]
    expected = ["user" if i % 2 == 0 else "system" for i in range(len(speakers))]
    return bool(speakers) and speakers == expected and speakers[-1] == "user"


def _problem(saved: SavedRequest, header: RequestSetHeader, catalog: Catalog) -> str | None:
    """What is wrong with a well-formed line (None if nothing), and what was expected."""
    items = (*saved.history, saved.target_id, *saved.candidates)
    missing = [i for i in items if i not in catalog]
    if missing:
        return f"item {missing[0]!r} is not in the dataset's catalog; expected its item ids"
    if header.task == "ranking" and saved.target_id not in saved.candidates:
        return f"case {saved.case_id!r}: the target is not among the candidates; expected it there"
    if header.task == "retrieval" and saved.candidates:
        return f"case {saved.case_id!r} has candidates; expected none for the retrieval task"
    if saved.error is None and not _alternates(saved.utterances):
        return (f"case {saved.case_id!r}: the request's utterances do not alternate; expected"
                " user, system, ..., user")  # fmt: skip
    return None


def _saved(
    path: Path, lineno: int, line: str, header: RequestSetHeader, catalog: Catalog
) -> SavedRequest:
    try:
        saved = SavedRequest.model_validate_json(line)
    except ValidationError as err:
        raise DataError(
            f"{path}:{lineno}: bad request ({_first_error(err)}); expected one request a line,"
            " as `eval interecagent requests` writes"
        ) from None
    problem = _problem(saved, header, catalog)
    if problem is not None:
        raise DataError(f"{path}:{lineno}: {problem}")
    return saved


def check_dataset(path: Path, header: RequestSetHeader, dataset: tuple[str, str]) -> None:
    if header.dataset_fingerprint != dataset[1]:
        raise DataError(
            f"{path}:1: written for dataset {header.dataset!r} ({header.dataset_fingerprint});"
            f" expected the dataset evaluated, {dataset[0]!r} ({dataset[1]})"
        )


def _check_count(path: Path, n: int, linenos: Sequence[int]) -> None:
    """`linenos`: the header's line, then each request's."""
    found = len(linenos) - 1
    if found < n:
        raise DataError(f"{path}:{linenos[-1] + 1}: the file ends after {found} requests;"
                        f" expected {n}, as its header says (truncated?)")  # fmt: skip
    if found > n:
        raise DataError(f"{path}:{linenos[n + 1]}: request {n + 1} of {found}; expected {n},"
                        " as its header says (edited?)")  # fmt: skip


def read_request_set(path: Path, catalog: Catalog, dataset: tuple[str, str]) -> RequestSet:
    """Read and check a request set; `dataset` = (name, fingerprint) it must have been made for."""
    problem = not_regular(path)
    if problem is not None:
        raise DataError(f"{path}: {problem} ({MAKE_ONE})")
    if not path.is_file():
        raise DataError(f"{path}: no such file; expected a request set ({MAKE_ONE})")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise DataError(f"{path}:1: not UTF-8 text; expected a request set ({MAKE_ONE})") from None
    lines = [(n, ln) for n, ln in enumerate(text.splitlines(), 1) if ln.strip()]
    if not lines:
        raise DataError(f"{path}:1: empty file; expected a request-set header and requests")
    header = _header(path, lines[0][1])
    check_dataset(path, header, dataset)
    saved = [_saved(path, n, ln, header, catalog) for n, ln in lines[1:]]
    _check_count(path, header.n, [n for n, _ in lines])
    seen: set[str] = set()
    for (lineno, _), one in zip(lines[1:], saved, strict=True):
        if one.case_id in seen:
            raise DataError(f"{path}:{lineno}: case {one.case_id!r} again; expected each case once")
        seen.add(one.case_id)
    return RequestSet(path, hashlib.sha256(data).hexdigest(), header,
                      [s.case() for s in saved], [s.request() for s in saved])  # fmt: skip

"""`macrs-sim serve vllm MODEL [options] [-- extra vllm args]`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


class _PassThroughParser(argparse.ArgumentParser):
    """Everything after `--` goes to vllm untouched (argparse alone mishandles
    `--` after options when a positional comes first)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        args = list(sys.argv[1:] if args is None else args)
        extra: list[str] = []
        if "--" in args:
            cut = args.index("--")
            args, extra = args[:cut], args[cut + 1 :]
        parsed, rest = super().parse_known_args(args, namespace)
        parsed.extra = extra
        return parsed, rest


def _serve_vllm(args: argparse.Namespace) -> int:
    from macrs_sim.serve.vllm import VllmServer, serve

    return serve(
        VllmServer(
            model=args.model,
            host=args.host,
            port=args.port,
            max_num_seqs=args.max_num_seqs,
            gpu_memory_utilization=args.gpu_memory_utilization,
            max_model_len=args.max_model_len,
            api_key_env=args.api_key_env,
            executable=args.executable,
            timeout_s=args.timeout,
            extra=tuple(args.extra),
        )
    )


def add_serve_commands(sub: Any) -> None:
    serve = sub.add_parser("serve", help="start a model server for campaigns")
    servers = serve.add_subparsers(dest="serve_cmd", required=True, parser_class=_PassThroughParser)
    vllm = servers.add_parser(
        "vllm",
        help="start `vllm serve MODEL` and print the scenario's [model] table",
        usage="%(prog)s MODEL [options] [-- extra vllm args]",
    )
    vllm.add_argument("model", help="a Hugging Face model id or a local model folder")
    vllm.add_argument("--host", default="127.0.0.1")
    vllm.add_argument("--port", type=int, default=8000)
    vllm.add_argument(
        "--max-num-seqs", type=int, default=256, help="requests served at once (concurrency)"
    )
    vllm.add_argument("--gpu-memory-utilization", type=float, default=0.9)
    vllm.add_argument("--max-model-len", type=int, default=None)
    vllm.add_argument(
        "--api-key-env", default=None, help="name of the environment variable with the API key"
    )
    vllm.add_argument("--executable", default="vllm", help="the vllm command (default: vllm)")
    vllm.add_argument(
        "--timeout", type=float, default=900.0, help="seconds to wait for the server to be ready"
    )
    vllm.set_defaults(func=_serve_vllm)

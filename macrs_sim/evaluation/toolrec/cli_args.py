"""`eval toolrec`'s arguments into typed settings: the evaluation's, ToolRec's options
(pydantic, one-line errors), each ranker's hyperparameters, the model backend."""

from __future__ import annotations

import argparse
from typing import Any

from macrs_sim.agents.toolrec.options import Variant
from macrs_sim.errors import ConfigError


def _ints(text: str, what: str, low: int) -> list[int]:
    try:
        values = [int(t) for t in text.split(",") if t.strip()]
    except ValueError:
        values = []
    if not values or min(values) < low or len(set(values)) != len(values):
        raise ConfigError(f"{what} {text!r}: expected distinct integers >= {low}, like 0,1,2")
    return values


def model_of(args: argparse.Namespace) -> Any:
    from macrs_sim.config import EmbeddedModel, OpenAIModel, ScriptedModel

    if args.backend == "scripted":
        return ScriptedModel()
    if args.backend == "embedded":
        return EmbeddedModel(path=args.model)
    if not args.model:
        raise ConfigError("--backend openai needs --model NAME (and --base-url for own servers)")
    return OpenAIModel(model=args.model, base_url=args.base_url)


def settings_of(args: argparse.Namespace) -> tuple[Any, Any]:
    from macrs_sim.evaluation.toolrec.run import EvalSettings
    from macrs_sim.rankers.train import check_kind

    users = _ints(args.users, "--users", 1)
    if len(users) != 1:
        raise ConfigError(f"--users {args.users!r}: expected one integer >= 1, like 200")
    rankers = tuple(check_kind(k.strip()) for k in args.rankers.split(",") if k.strip())
    if not rankers:
        raise ConfigError("--rankers: empty list (expected e.g. popularity,itemcf,bpr,sasrec)")
    if not 1 <= args.max_rounds <= 20:
        raise ConfigError(f"--max-rounds {args.max_rounds}: expected an integer from 1 to 20")
    if not 0.0 <= args.temperature <= 2.0:
        raise ConfigError(f"--temperature {args.temperature}: expected a number from 0 to 2")
    if args.concurrency < 1:
        raise ConfigError(f"--concurrency {args.concurrency}: expected an integer >= 1")
    tools: dict[str, str] = {}
    for pair in args.set:  # `--set toolrec.KEY=VALUE`: the retrieval tools' stage 2
        key, sep, value = pair.partition("=")
        if sep and key.startswith("toolrec."):
            tools[key.removeprefix("toolrec.")] = value
    options = _options("toolrec options", {
        "base_ranker": check_kind(args.base), "max_rounds": args.max_rounds,
        "retriever": args.retriever, "retriever_params": tools, "candidates": args.candidates,
    })  # fmt: skip
    variants = _variants(args.variants)
    settings = EvalSettings(users=users[0], seeds=tuple(_ints(args.seeds, "--seeds", 0)),
                            rankers=rankers, concurrency=args.concurrency, variants=variants,
                            llmrank=args.llmrank)  # fmt: skip
    return settings, options


def _options(source: str, values: dict[str, Any]) -> Any:
    from pydantic import ValidationError

    from macrs_sim.agents.toolrec.options import ToolRecOptions
    from macrs_sim.config import describe_validation_error

    try:
        return ToolRecOptions.model_validate(values)
    except ValidationError as err:
        raise ConfigError(describe_validation_error(source, err)) from None


def _variants(text: str) -> tuple[Variant, ...]:
    """`--variants single,multi,plan` (or `all`): the paper's Fig. 4 ablations, validated."""
    names = [t.strip() for t in text.split(",") if t.strip()]
    names = ["single", "multi", "plan"] if names == ["all"] else names
    checked: tuple[Variant, ...] = tuple(
        _options(f"--variants {text!r}", {"variant": n}).variant for n in names
    )
    if "toolrec" in checked or len(set(checked)) != len(checked):
        raise ConfigError(
            f"--variants {text!r}: expected distinct ablations of single, multi, plan"
        )
    return checked


def params_of(args: argparse.Namespace, kinds: list[str], skip: str) -> dict[str, Any]:
    """Each ranker's hyperparameters: `--set MODEL.KEY=VALUE` over the defaults, the seed."""
    from macrs_sim.rankers.train import make_params, params_model

    sets: dict[str, dict[str, str]] = {k: {} for k in kinds}
    for pair in (p for p in args.set if not p.startswith(skip)):
        key, sep, value = pair.partition("=")
        model, _, name = key.partition(".")
        if not sep or not name or model not in sets:
            known = ", ".join(sets)
            raise ConfigError(f"--set {pair!r}: expected MODEL.KEY=VALUE with MODEL one of {known}")
        sets[model][name] = value
    for kind in kinds:
        if args.model_seed is not None and "seed" in params_model(kind).model_fields:
            sets[kind].setdefault("seed", str(args.model_seed))
    return {kind: make_params(kind, sets[kind]) for kind in sets}

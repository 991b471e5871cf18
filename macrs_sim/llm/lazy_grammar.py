"""Lazy grammar checks for greedy decoding, like llama.cpp's own common sampler's (which checks
greedy's choice, then every token), with a step between: the 64 highest logits.

llama-cpp-python puts the grammar sampler in the chain before greedy, so llama.cpp checks every
one of the model's ~152k tokens against the grammar at each step (about 36 ms a token for
Qwen2.5 on this CPU, more than the model itself). Greedy only needs to know whether its
choice, the first highest logit, is allowed: if it is, it is also the first highest among the
allowed tokens, so the reply is token for token the one the full check gives. When it is
rejected, the next highest few are checked, and only if none is allowed does the grammar run
over all candidates. Sampling at temperature > 0 keeps llama-cpp-python's chain unchanged.

llama-cpp-python is imported only when a model is loaded (the embedded backend is an extra).
"""

from __future__ import annotations

import ctypes
import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from llama_cpp import Llama
    from llama_cpp._internals import LlamaSampler

# llama_token_data as numpy sees it: int32 id, float32 logit, float32 p (12 bytes, no padding).
TOKEN_DATA = np.dtype([("id", "<i4"), ("logit", "<f4"), ("p", "<f4")])

FAST, NEAR, FULL = 0, 1, 2  # how mask_for_greedy settled a step


def mask_for_greedy(
    logits: npt.NDArray[np.float32],
    allowed: Callable[[npt.NDArray[np.intp]], npt.NDArray[np.bool_]],
    mask_all: Callable[[], None],
    top: int = 64,
) -> int:
    """Masks `logits` in place just enough that greedy's pick is the grammar's: the first of
    the highest logits that `allowed` accepts, the token the full grammar pass leads to.

    FAST: greedy's own choice is allowed, nothing masked. NEAR: the answer is among the `top`
    highest logits (ties at the edge included), ranked by logit then index as greedy ranks
    them; only the rejected ones above it get -inf. FULL: `mask_all` (the grammar over every
    candidate) as llama-cpp-python's chain does. np.argmax, like llama.cpp's greedy, takes
    the first of equal logits.
    """
    best = int(np.argmax(logits))
    if allowed(np.array([best], dtype=np.intp))[0]:
        return FAST
    if top > 1:
        k = min(top, logits.size)
        edge = np.partition(logits, logits.size - k)[logits.size - k]
        near = np.flatnonzero(logits >= edge)
        near = near[np.lexsort((near, -logits[near]))]
        ok = allowed(near)
        if ok.any():
            logits[near[: int(np.argmax(ok))]] = -np.inf
            return NEAR
    mask_all()
    return FULL


class LazyGrammarSampler:
    """A chain member placed just before greedy: it holds the grammar and masks lazily.

    Built on llama-cpp-python's CustomSampler (apply only) with accept and reset added, so the
    chain's accept advances this grammar once per token. `steps` counts how each step was
    settled: [FAST, NEAR, FULL] (see mask_for_greedy).
    """

    top = 64  # candidates checked before the full pass; 0 or 1 goes straight to it

    def __init__(self, vocab: Any, grammar: str, root: str) -> None:
        import llama_cpp
        from llama_cpp._internals import CustomSampler

        self._lib = llama_cpp
        # numpy reads llama.cpp's candidate array through TOKEN_DATA: a changed struct would
        # be misread in silence.
        if ctypes.sizeof(llama_cpp.llama_token_data) != TOKEN_DATA.itemsize:
            raise RuntimeError("llama_token_data is not (int32 id, float logit, float p)")
        self.grammar = llama_cpp.llama_sampler_init_grammar(
            vocab, grammar.encode("utf-8"), root.encode("utf-8")
        )
        if not self.grammar:
            raise ValueError("llama.cpp could not compile the grammar")
        self.steps = [0, 0, 0]
        self.custom = CustomSampler(self._apply)
        iface = self.custom.sampler.iface.contents
        # The C function objects must outlive the chain: kept here, not only in `iface`.
        self._callbacks = (
            llama_cpp.llama_sampler_i_accept(lambda _smpl, token: self._accept(token)),
            llama_cpp.llama_sampler_i_reset(lambda _smpl: self._reset()),
        )
        iface.accept, iface.reset = self._callbacks

    def _allowed(self, ids: npt.NDArray[np.int32]) -> npt.NDArray[np.bool_]:
        # A copy with logit 0: the verdict is the grammar's alone (-inf marks a rejection).
        probe = np.zeros(ids.size, dtype=TOKEN_DATA)
        probe["id"] = ids
        lib = self._lib
        array = lib.llama_token_data_array(
            probe.ctypes.data_as(ctypes.POINTER(lib.llama_token_data)), ids.size, -1, False
        )
        lib.llama_sampler_apply(self.grammar, ctypes.byref(array))
        return np.asarray(probe["logit"] != -np.inf)

    def _apply(self, cur_p: Any) -> None:
        def mask_all() -> None:
            self._lib.llama_sampler_apply(self.grammar, cur_p)

        try:
            array = cur_p.contents
            address = ctypes.cast(array.data, ctypes.c_void_p).value
            buffer = (ctypes.c_char * (array.size * TOKEN_DATA.itemsize)).from_address(address)
            data = np.frombuffer(buffer, dtype=TOKEN_DATA)
            step = mask_for_greedy(
                data["logit"], lambda at: self._allowed(data["id"][at]), mask_all, self.top
            )
        except Exception:
            # ctypes would print and drop an error raised here, and greedy would then pick
            # from an unmasked array: check every candidate instead, as the eager chain does.
            mask_all()
            step = FULL
        self.steps[step] += 1

    def _accept(self, token: int) -> None:
        if self.grammar:
            self._lib.llama_sampler_accept(self.grammar, token)

    def _reset(self) -> None:
        if self.grammar:
            self._lib.llama_sampler_reset(self.grammar)

    def close(self) -> None:
        if self.grammar:
            self._lib.llama_sampler_free(self.grammar)
            self.grammar = None


def insert_before_greedy(chain: LlamaSampler, lazy: LazyGrammarSampler) -> bool:
    """Puts `lazy` just before the chain's last sampler if that is greedy; False otherwise."""
    lib = lazy._lib
    last = lib.llama_sampler_chain_n(chain.sampler) - 1
    if last < 0 or lib.llama_sampler_name(lib.llama_sampler_chain_get(chain.sampler, last)) != (
        b"greedy"
    ):
        return False
    greedy = lib.llama_sampler_chain_remove(chain.sampler, last)
    lib.llama_sampler_chain_add(chain.sampler, lazy.custom.get_sampler())
    # llama-cpp-python takes its custom samplers out of the chain before freeing it.
    chain.custom_samplers.append((last, lazy.custom))
    lib.llama_sampler_chain_add(chain.sampler, greedy)
    chain._exit_stack.callback(lazy.close)
    return True


@functools.cache
def lazy_llama_class(base: type[Llama]) -> type[Llama]:
    """`base` (llama_cpp.Llama) with lazy greedy grammar decoding; `lazy_grammar = False` on an
    instance makes it eager again. The caller imports llama_cpp, so a missing one fails there."""

    class LazyGrammarLlama(base):  # type: ignore[valid-type,misc]
        lazy_grammar = True
        grammar_sampler: LazyGrammarSampler | None = None  # the latest one, for its counters

        def _init_sampler(self, *args: Any, **kwargs: Any) -> Any:
            grammar = kwargs.get("grammar")
            greedy = kwargs.get("temp", 0.8) == 0.0 and kwargs.get("logits_processor") is None
            if args or grammar is None or not greedy or not self.lazy_grammar:
                return super()._init_sampler(*args, **kwargs)
            chain = super()._init_sampler(**{**kwargs, "grammar": None})
            lazy = LazyGrammarSampler(self._model.vocab, grammar._grammar, grammar._root)
            if not insert_before_greedy(chain, lazy):
                lazy.close()
                chain.close()
                return super()._init_sampler(**kwargs)
            self.grammar_sampler = lazy
            return chain

    return LazyGrammarLlama

"""Does one turn's text show a model that is not playing its part? Pure tests on strings.

Each test reads a typed turn record's `text` (never a rendered transcript) and is small
enough to audit by hand; benchmarks/bench_behaviour_checks.py measures them on a labelled
set of adversarial turns. The thresholds:

- echo / repeat: both texts have at least MIN_WORDS words and, after `normalise`, are equal
  or have a rapidfuzz `fuzz.ratio` (normalised Indel similarity, 0-100; the grounder's
  library, already a dependency) of at least SIMILARITY. A short "No." twice, or "Yes,
  I'd like that" after "Would you like that?", is too short or too different to count.
- instruction echo: the turn shares a run of INSTRUCTION_NGRAM consecutive words with the
  literal text of a simulator prompt (placeholders cut the runs: the profile's keywords
  are not instructions), a run that holds one of INSTRUCTION_WORDS, words only instructions
  use ("what kind of movie you are" is how people talk too).
- profile dump: the turn states at least DUMP_MIN features of the target profile and more
  than DUMP_SHARE of them (the prompts ask for one or two at a time; half of a six-entry
  profile, "a tense action movie with Arnold Schwarzenegger", is how people talk too); a
  feature named within NEGATION_WINDOW words after a negation ("nothing too dark") is not
  stated.
- refusal: one of REFUSALS, the phrasings chat models use to decline.
- truncated: at least TRUNCATED_MIN_WORDS words and no closing punctuation (the store keeps
  no finish reason, so a reply cut at max_tokens is recognised by how it ends).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from rapidfuzz import fuzz

from macrs_sim.data.attributes import (
    ItemAttributes,
    content_words,
    mentions_any_genre,
    mentions_decade,
    mentions_genre,
    question_slots,
)

MIN_WORDS = 4
SIMILARITY = 90.0
INSTRUCTION_NGRAM = 6
DUMP_MIN = 3
DUMP_SHARE = 0.5
TRUNCATED_MIN_WORDS = 8
_CLOSING = ".!?…\"')]}*:;»”’"
ANSWER_WORDS = frozenset(
    {"yes", "yeah", "yep", "sure", "no", "nope", "ok", "okay", "absolutely", "definitely"}
)
INSTRUCTION_WORDS = frozenset({
    "target", "recommender", "recommender's", "assistant", "user", "user's", "refuse", "write",
    "message", "browsing", "history", "told", "output", "sentence", "sentences", "decline",
    "hint", "naming", "rules", "respond", "instruction", "instructions", "conditions",
    "simulator", "persona", "pretend", "never", "title",
})  # fmt: skip
NEGATION_WINDOW = 3
_NEGATIONS = frozenset({
    "no", "not", "nothing", "without", "never", "none", "nor", "avoid", "hate", "except",
    "neither", "dislike",
})  # fmt: skip
_PLACEHOLDER = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")
_ERA = re.compile(r"(?<![0-9])(?:(?:19|20)\d\d|'?\d0s)(?![0-9])")
_PROFILE_ENTRY = re.compile(r"^\s*[A-Za-z][A-Za-z ]{0,24}?\s*:\s*(\S.*?)\s*$")

# How chat models decline (OpenAI, Llama, Qwen, Mistral phrasings), lower case, apostrophes
# straight. A user who cannot remember a title, or is sorry a film is not the one, is no
# refusal: every pattern names assisting, helping or complying (with "that", "this", a
# request, or nothing more: "I can't help you there, I don't remember who directed it" is a
# person), providing a recommendation or an answer (not "the title"), or the model's nature.
_CANT = r"(?:can't|cannot|can not|won't|am unable to|'m unable to|am not able to|'m not able to)"
_WITH_THAT = r"(?: you)?(?: with (?:that|this|your|such)\b| on (?:that|this)\b|[.!]|$)"
_PROVIDE = (
    r"(?:provide|share|give|offer) (?:you )?(?:recommendations|a recommendation|that|this"
    r"|information|assistance|help|personal|an? (?:answer|opinion|response|recommendation))"
)
REFUSALS = tuple(
    re.compile(p)
    for p in (
        rf"\bi(?:'m| am) (?:sorry|afraid),? (?:but )?i {_CANT} (?:(?:assist|help|comply)"
        rf"{_WITH_THAT}|{_PROVIDE}|do that(?:[.!]|$| for you)|fulfil|fulfill|engage|continue)",
        rf"\bi {_CANT} (?:assist|help|comply){_WITH_THAT}",
        rf"\bi(?:'m| am) (?:unable|not able) to (?:(?:assist|help|comply){_WITH_THAT}|fulfil"
        r"|fulfill)",
        r"\bas an ai(?: language model| assistant| model)?,? i (?:can't|cannot|don't|do not"
        r"|am not|'m not)",
        r"\bi must (?:respectfully )?decline\b",
        rf"\bi(?:'m| am) not (?:able|allowed|permitted) to (?:{_PROVIDE}|(?:help|assist)"
        rf"{_WITH_THAT})",
        r"\bsorry,? (?:but )?i can't (?:assist|help) with (?:that|this)",
    )
)


@lru_cache(maxsize=4096)  # a turn's text is compared with every earlier one of its dialogue
def normalise(text: str) -> str:
    """NFKC, lower case, curly apostrophes straight, punctuation gone, spaces collapsed."""
    text = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("‘", "'")
    return " ".join(re.findall(r"[a-z0-9']+", text))


def words(text: str) -> list[str]:
    return normalise(text).split()


def is_empty(text: str) -> bool:
    return not text.strip()


def is_truncated(text: str) -> bool:
    stripped = text.rstrip()
    return len(words(stripped)) >= TRUNCATED_MIN_WORDS and stripped[-1] not in _CLOSING


# One search for all of them: a turn is checked once, not once per phrasing.
_ANY_REFUSAL = re.compile("|".join(f"(?:{p.pattern})" for p in REFUSALS))


def is_refusal(text: str) -> bool:
    flat = unicodedata.normalize("NFKC", text).lower().replace("’", "'")
    flat = " ".join(flat.split())
    return _ANY_REFUSAL.search(flat) is not None


@lru_cache(maxsize=4096)
def _word_count(text: str) -> int:
    return len(normalise(text).split())


def similar(text: str, other: str) -> bool:
    """The same words, or near enough (see the module's thresholds)."""
    if _word_count(text) < MIN_WORDS or _word_count(other) < MIN_WORDS:
        return False
    a, b = normalise(text), normalise(other)
    if a.split()[0] in ANSWER_WORDS and _asks(other) and not _asks(text):
        return False  # "Yes, I would like a ..." after "Would you like a ...?"
    return a == b or fuzz.ratio(a, b) >= SIMILARITY


def _asks(text: str) -> bool:
    return text.rstrip().rstrip("!.\"')*").endswith("?")


def instruction_ngrams(texts: Iterable[str]) -> frozenset[tuple[str, ...]]:
    """Every run of INSTRUCTION_NGRAM words of the texts' literal parts."""
    grams: set[tuple[str, ...]] = set()
    for text in texts:
        for chunk in _PLACEHOLDER.split(text):
            ws = words(chunk)
            n = INSTRUCTION_NGRAM
            runs = (tuple(ws[i : i + n]) for i in range(len(ws) - n + 1))
            grams.update(g for g in runs if not INSTRUCTION_WORDS.isdisjoint(g))
    return frozenset(grams)


def copies_instructions(text: str, grams: frozenset[tuple[str, ...]]) -> bool:
    ws, n = words(text), INSTRUCTION_NGRAM
    return any(tuple(ws[i : i + n]) in grams for i in range(len(ws) - n + 1))


def profile_values(profile: Iterable[str]) -> list[str]:
    """'director: Chuck Russell' -> 'Chuck Russell'; a plain keyword stays as it is."""
    values = []
    for entry in profile:
        m = _PROFILE_ENTRY.match(entry)
        values.append(m.group(1) if m else entry.strip())
    return [v for v in values if v]


@lru_cache(maxsize=1024)  # a dialogue's user turns all share its target's profile
def _profile_values(profile: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(profile_values(profile))


@lru_cache(maxsize=1024)
def _profile_words(profile: tuple[str, ...]) -> tuple[frozenset[str], ...]:
    """Each value's content words (mentions_keyword's test), values without any left out."""
    return tuple(ws for ws in map(content_words, _profile_values(profile)) if ws)


_TOKEN = re.compile(r"[a-z0-9]+|[.,;:!?]")


@lru_cache(maxsize=4096)
def affirmed_words(text: str) -> frozenset[str]:
    """The text's whole words (text_words) less those within NEGATION_WINDOW words after a
    negation, up to the next punctuation: "nothing too dark" affirms neither "too" nor
    "dark", "no, a drama" affirms "drama"."""
    flat = unicodedata.normalize("NFKC", text).lower().replace("’", "'").replace("n't", " not")
    kept: set[str] = set()
    left = 0
    for token in _TOKEN.findall(flat):
        if not token[0].isalnum():
            left = 0
        elif token in _NEGATIONS:
            left = NEGATION_WINDOW
        elif left:
            left -= 1
        else:
            kept.add(token)
    return frozenset(kept)


def features_stated(text: str, profile: Iterable[str]) -> int:
    """Profile values whose content words the text affirms (mentions_keyword's test, less
    negated words)."""
    found = affirmed_words(text)
    return sum(ws <= found for ws in _profile_words(tuple(profile)))


def is_profile_dump(text: str, profile: tuple[str, ...]) -> bool:
    total = len(_profile_values(profile))
    stated = features_stated(text, profile)
    return stated >= DUMP_MIN and stated > DUMP_SHARE * total


def is_off_profile(question: str, answer: str, target: ItemAttributes) -> bool:
    """Asked about genre (or era), the answer names genres (or a decade or year) and none of
    the target's: it describes some other film."""
    slots = question_slots(question)
    named = "genre" in slots and mentions_any_genre(answer)
    if named and not any(mentions_genre(answer, g) for g in target.genres):
        return True
    if "era" in slots and target.year is not None and _ERA.search(answer):
        return not mentions_decade(answer, target.year)
    return False

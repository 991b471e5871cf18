"""Numbers in a title, read the same way on both sides of a match.

Every number a title states (digits, roman numerals where they can only be numbers,
spelled-out numbers, "Part Two", "Shrek the Third") is taken out of its words, so
matching compares the words (spelling may be repaired) and the numbers (never
edited) separately. Keys then drop a 1 (keys.title_key): a first film has no number,
so "Rocky", "Kill Bill: Vol. 1" and "Toy Story 1" carry none. Numbers that are part of a title
("12 Angry Men", "Apollo 13") are read the same way on both sides, so they agree
with themselves and with nothing else.
"""

from __future__ import annotations

# Words that introduce an instalment number: "Part II", "Vol. 2", "Episode IV".
MARKERS = frozenset({"part", "pt", "vol", "volume", "chapter", "episode"})

SPELLED = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    "twenty": 20,
}  # fmt: skip
# "one" is a number only after a marker ("Part One"): elsewhere it is a word ("Rogue One").
AFTER_MARKER = {"one": 1, "first": 1, "second": 2, "third": 3, "i": 1} | SPELLED
ORDINALS = {
    "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
    "eighth": 8, "ninth": 9, "tenth": 10,
}  # fmt: skip
ROMAN = {
    "ii": 2, "iii": 3, "iv": 4, "vi": 6, "vii": 7, "viii": 8, "ix": 9, "xi": 11,
    "xii": 12, "xiii": 13, "xiv": 14, "xv": 15, "xvi": 16, "xvii": 17, "xviii": 18,
    "xix": 19, "xx": 20,
}  # fmt: skip
# One-letter numerals are numbers only at the end of a title part ("Rocky V", "Malcolm X").
ROMAN_FINAL = {"v": 5, "x": 10}


def _plain_number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return SPELLED.get(token, ROMAN.get(token))


def _after_marker(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return AFTER_MARKER.get(token, ROMAN.get(token, ROMAN_FINAL.get(token)))


def split_numbers(tokens: list[str]) -> tuple[list[str], list[int]]:
    """Tokens of one title part -> (its words, its numbers in order)."""
    words: list[str] = []
    numbers: list[int] = []
    i, last = 0, len(tokens) - 1
    while i <= last:
        token = tokens[i]
        if token in MARKERS and i < last and (value := _after_marker(tokens[i + 1])) is not None:
            numbers.append(value)
            i += 2
            continue
        if token == "the" and 0 < i == last - 1 and tokens[last] in ORDINALS:
            numbers.append(ORDINALS[tokens[last]])  # "Shrek the Third"
            break
        value = _plain_number(token)
        if value is None and i == last and i > 0:
            value = ROMAN_FINAL.get(token)
        if value is None:
            words.append(token)
        else:
            numbers.append(value)
        i += 1
    return words, numbers

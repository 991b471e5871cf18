"""Text from outside (a model, a server, a dataset) as data: never markup, never control codes.

Four targets, one function each (and `terminal_data` for a JSON-like structure; and
`page_text`, the Markdown rule's visible marks alone, for a page whose template engine
escapes HTML itself):

- `markdown_paragraph`: lines of a Markdown paragraph or quote. Line breaks are kept.
- `markdown_cell`: one line inside Markdown (a table cell, a bullet's text, a heading's tail).
- `terminal_text`: lines printed to a terminal. Line breaks and tabs are kept.
- `terminal_line`: one line printed to a terminal (an `error:` line).

The rule for Markdown: the text shows as typed, and nothing in it is markup. Control
characters (C0 but tab and line breaks, DEL, C1) and the characters that reorder or hide
text (bidi overrides and isolates, marks) become visible: a control picture (ESC is ␛) or
⟨U+202E⟩. `<` and `>` become `&lt;` `&gt;` (no HTML tag, no autolink), an `&` that would
start an entity becomes `&amp;`, and the Markdown specials \\ ` * | ~ get a backslash, as
do a `_` not inside a word and a `]` before ( [ or : (no emphasis, no link). In a
paragraph, a line starting with # + - = or "1." / "1)" has that mark escaped too (no
heading, list or rule). Ordinary prose and titles ("Heat (1995)", "Fast & Furious") are
unchanged.

The rule for a terminal: escape sequences (CSI, OSC, DCS and the rest, 7- and 8-bit) are
dropped whole, and every other control and reordering character is dropped, so nothing
printed moves the cursor, clears the screen, sets the title or turns text around.
"""

from __future__ import annotations

import re
from typing import TypeVar, cast

T = TypeVar("T")

# Bidi embeddings, overrides and isolates, the marks, and the Arabic letter mark.
_BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"
_BREAKS = "\u2028\u2029"  # line and paragraph separator
# Every character shown as its code point in Markdown and dropped on a terminal.
_HIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{_BIDI}{_BREAKS}]")
_NEWLINE = re.compile(r"\r\n?")
_SEPARATOR = re.compile(f"[{_BREAKS}]")

# Escape sequences: a string command (OSC, DCS, SOS, PM, APC) up to its terminator, a
# line end or the end; a control sequence (CSI); any other two-character escape.
_ESCAPE_SEQUENCE = re.compile(
    r"(?:\x1b[\]PX^_]|[\x9d\x90\x98\x9e\x9f])[^\x07\x1b\x9c\n]*(?:\x07|\x1b\\|\x9c)?"
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"
    r"|\x1b[ -/]*[0-~]?"
)

_ENTITY = re.compile(r"&(?=#?[0-9A-Za-z]+;)")
_SPECIAL = re.compile(r"([\\`*|~])")
# `_` between two letters or digits opens no emphasis (snake_case stays as typed).
_UNDERSCORE = re.compile(r"(?<![^\W_])_|_(?![^\W_])")
# A link or a reference definition needs `](`, `][` or `]:`.
_LINK_CLOSE = re.compile(r"\](?=[(\[:])")
# What can open an HTML tag, comment or autolink ("<0.001" cannot).
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
_BARE_PIPE = re.compile(r"(?<!\\)\|")
_LINK_OPEN = re.compile(r"(?<!\\)\]\(")
_LINE_START = re.compile(r"^([ \t]*)(?:([#+=-])|(\d+)([.)]))")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ ... ␟, ESC is ␛
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"\u27e8U+{code:04X}\u27e9"


def _markdown_line(line: str) -> str:
    line = _HIDDEN.sub(_visible, line)
    line = _ENTITY.sub("&amp;", line)
    line = line.replace("<", "&lt;").replace(">", "&gt;")
    line = _SPECIAL.sub(r"\\\1", line)
    return _LINK_CLOSE.sub(r"\\]", _UNDERSCORE.sub(r"\\_", line))


def markdown_table_guard(cell: str) -> str:
    """What every table cell gets, whoever built it: one line, no control character, no
    HTML tag, no cell break, no inline link. Ordinary cells ("0.55 [0.45, 0.64]", "<0.001")
    and cells already made by `markdown_cell` are unchanged (it is idempotent)."""
    cell = _HIDDEN.sub(_visible, _NEWLINE.sub("\n", cell).replace("\n", " "))
    cell = _TAG_OPEN.sub("&lt;", cell)
    return _LINK_OPEN.sub(r"]\\(", _BARE_PIPE.sub(r"\\|", cell))


def _block_start(line: str) -> str:
    match = _LINE_START.match(line)
    if match is None:
        return line
    indent, mark, number, dot = match.groups()
    head = f"{indent}\\{mark}" if mark else f"{indent}{number}\\{dot}"
    return head + line[match.end() :]


def markdown_paragraph(text: str) -> str:
    """Lines of Markdown text that show `text` as typed (see the module for the rule)."""
    lines = _NEWLINE.sub("\n", text).split("\n")
    return "\n".join(_block_start(_markdown_line(line)) for line in lines)


def page_text(text: str) -> str:
    """`text` for an HTML page whose engine escapes `<`, `>`, `&` and quotes itself (the
    viewer's templates): line breaks normalised to LF, and every control and reordering
    character made visible as in Markdown (ESC is ␛, U+202E is ⟨U+202E⟩)."""
    return _HIDDEN.sub(_visible, _NEWLINE.sub("\n", text))


def markdown_cell(text: str) -> str:
    """One line of Markdown inside a line (a table cell, a bullet): line breaks are spaces."""
    return _markdown_line(_NEWLINE.sub("\n", text).replace("\n", " "))


def markdown_code(text: str) -> str:
    """`text` as an inline code span (shown literally), or as `markdown_cell` where a code
    span cannot hold it (a backtick, a pipe, a line break or a hidden character in it)."""
    if "`" in text or "|" in text or "\n" in text or _HIDDEN.search(text):
        return markdown_cell(text)
    return f"`{text}`"


def terminal_text(text: str) -> str:
    """`text` safe to print: escape sequences and control characters dropped, line breaks
    kept (CR LF, a lone CR, U+2028 and U+2029 become LF), tabs kept."""
    text = _ESCAPE_SEQUENCE.sub("", _NEWLINE.sub("\n", text))
    return _HIDDEN.sub("", _SEPARATOR.sub("\n", text))


def terminal_line(text: str) -> str:
    """`text` as one safe terminal line: as `terminal_text`, with line breaks and tabs as
    spaces."""
    return terminal_text(text).replace("\n", " ").replace("\t", " ")


def terminal_data(value: T) -> T:
    """`value` with every string in it (keys too, at any depth) passed through
    `terminal_text`: a system's `explain` payload made safe to lay out on a terminal."""
    return cast(T, _terminal_data(value))


def _terminal_data(value: object) -> object:
    if isinstance(value, str):
        return terminal_text(value)
    if isinstance(value, dict):
        return {_terminal_data(k): _terminal_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_terminal_data(v) for v in value)
    return value

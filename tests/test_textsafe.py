"""Outside text as data (macrs_sim/textsafe.py): each target's rule, worked out by hand."""

from __future__ import annotations

import pytest

from macrs_sim.textsafe import (
    markdown_cell,
    markdown_paragraph,
    markdown_table_guard,
    terminal_data,
    terminal_line,
    terminal_text,
)

OSC_TITLE = "\x1b]0;pwned\x07"
CLEAR = "\x1b[2J"
RLO = "\u202e"
# Text any report or screen shows today: each function leaves it as it is.
ORDINARY = [
    "Heat (1995)",
    "Fast & Furious",
    "Star Wars: Episode IV - A New Hope (1977)",
    "Amélie — 2001, 4.5/5!",
    "I'd like a Family movie. Something with aspiring musician.",
    "current_demand: genre = noir",
    "p <0.001 -> fine",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_text_is_unchanged_in_terminal_and_table(text: str) -> None:
    assert terminal_text(text) == text
    assert terminal_line(text) == text
    assert markdown_table_guard(text) == text


@pytest.mark.parametrize("text", ORDINARY[:6])
def test_ordinary_text_is_unchanged_in_markdown(text: str) -> None:
    assert markdown_cell(text) == text
    assert markdown_paragraph(text) == text


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("| a | b |", "\\| a \\| b \\|"),
        ("[x](javascript:alert(1))", "[x\\](javascript:alert(1))"),
        (
            "![i](http://x/p.png) [r][1] [d]: http://x",
            "![i\\](http://x/p.png) [r\\][1] [d\\]: http://x",
        ),
        (OSC_TITLE, "␛]0;pwned␇"),
        (CLEAR + "Up", "␛[2JUp"),
        (f"evil{RLO}txt.exe", "evil⟨U+202E⟩txt.exe"),
        ("a\x9b31mb\x7f", "a⟨U+009B⟩31mb␡"),
        ("*bold* `code` ~~gone~~ \\", "\\*bold\\* \\`code\\` \\~\\~gone\\~\\~ \\\\"),
        ("_em_ snake_case __init__", "\\_em\\_ snake_case \\_\\_init\\_\\_"),
        ("&lt; &#60; & ;", "&amp;lt; &amp;#60; & ;"),
        ("one\r\ntwo\nthree", "one two three"),
        ("# not a heading", "# not a heading"),
    ],
)
def test_markdown_cell(raw: str, shown: str) -> None:
    assert markdown_cell(raw) == shown
    assert markdown_table_guard(shown) == shown  # a cell made safe passes the guard as is


def test_markdown_paragraph_keeps_lines_and_escapes_block_starts() -> None:
    raw = "# h1\r\n  - item\n+ plus\n===\n1. first\n12) twelve\n> quote\nplain - text"
    assert markdown_paragraph(raw) == (
        "\\# h1\n  \\- item\n\\+ plus\n\\===\n1\\. first\n12\\) twelve\n&gt; quote\nplain - text"
    )
    assert markdown_paragraph("a\u2028b") == "a⟨U+2028⟩b"


def test_table_guard_keeps_one_cell_and_no_tag_or_link() -> None:
    assert markdown_table_guard("a|b") == "a\\|b"
    assert markdown_table_guard("a\\|b") == "a\\|b"
    assert markdown_table_guard("x\ny") == "x y"
    assert markdown_table_guard("<b>x</b> <0.001") == "&lt;b>x&lt;/b> <0.001"
    assert markdown_table_guard("[x](javascript:alert(1))") == "[x]\\(javascript:alert(1))"
    assert markdown_table_guard(CLEAR) == "␛[2J"
    assert markdown_table_guard("0.55 [0.45, 0.64]†") == "0.55 [0.45, 0.64]†"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"{OSC_TITLE}Hello", "Hello"),
        (f"a{CLEAR}b", "ab"),
        ("\x1b]8;;http://evil\x1b\\link\x1b]8;;\x1b\\", "link"),  # OSC 8 hyperlink, ST-ended
        ("\x1b[1;31mred\x1b[0m \x1bc reset", "red  reset"),
        ("\x9b2J8-bit\x9d0;t\x9c!", "8-bit!"),
        (f"evil{RLO}txt\u2066.exe\u200f", "eviltxt.exe"),
        ("bell\x07 bs\x08 del\x7f nul\x00", "bell bs del nul"),
        ("line1\r\nline2\rline3\u2028line4", "line1\nline2\nline3\nline4"),
        ("tab\there\n", "tab\there\n"),
        ("unterminated \x1b]0;title\nnext line", "unterminated \nnext line"),
        ("trailing ESC \x1b", "trailing ESC "),
    ],
)
def test_terminal_text(raw: str, shown: str) -> None:
    assert terminal_text(raw) == shown
    assert "\x1b" not in terminal_text(raw)


def test_terminal_line_is_one_line() -> None:
    assert terminal_line(f"HTTP 400 model {OSC_TITLE}not\r\nfound\t{CLEAR}!") == (
        "HTTP 400 model not found !"
    )


def test_terminal_data_cleans_every_string_at_any_depth() -> None:
    explain = {
        "candidates": {f"ask{CLEAR}": {"text": f"{OSC_TITLE}Which era?", "n": 3}},
        "experiences": [f"x{RLO}y", 1.5, None],
        "pair": ("a\x1b[0m", True),
    }
    assert terminal_data(explain) == {
        "candidates": {"ask": {"text": "Which era?", "n": 3}},
        "experiences": ["xy", 1.5, None],
        "pair": ("a", True),
    }

"""The masks applied to outputs before they are pinned: exactly what varied between two
generations of the golden outputs into different folders (and nothing else).

- the work folder's absolute path -> `<RUN>`: `view` prints it, and its index.html, its
  data/export/*.json and the runs' scenario.resolved.toml hold it;
- `view`'s "built in 0.7 s" -> "built in <S> s": a wall-clock duration;
- timestamps such as "2026-11-26 20:40:02 UTC" -> `<TIME>`: `view`'s data/index.js
  `generated_at`;
- latencies -> `<S>`: per-call `"latency_s": 0.0000747` in the site's JSON data, and the
  `latency_s` / `mean_latency_s` columns of the cost tables (report.md and the site's index.html
  tables, tables/cost_by_system*.csv): wall time per scripted call, different at every run.
  Only those cells are masked; the calls, tokens and every other cell stay pinned.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from pathlib import Path

_DURATION = re.compile(r"built in \d+(?:\.\d+)? s")
_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?: ?UTC|Z|[+-]\d{2}:?\d{2})?")
_JSON_LATENCY = re.compile(r'("[a-z_]*latency_s"\s*:\s*)(?:-?[0-9][0-9.eE+-]*|null)')
_HTML_CELL = re.compile(r"(<t[hd][^>]*>)(.*?)(</t[hd]>)")
LATENCY = "latency_s"  # a column whose name ends with it is masked
MASKED = "<S>"


def _is_latency(name: str) -> bool:
    return name.strip().endswith(LATENCY)


def _markdown(text: str) -> str:
    """Latency cells of markdown tables (`| a | b |` rows under a header and `| --- |`)."""
    lines = text.split("\n")
    columns: set[int] = set()
    width = 0
    for n, line in enumerate(lines):
        if not line.startswith("|"):
            columns = set()
            continue
        cells = line.split("|")
        following = lines[n + 1] if n + 1 < len(lines) else ""
        if following.startswith("| ---") or following.startswith("| :--"):
            columns = {i for i, c in enumerate(cells) if _is_latency(c)}
            width = len(cells)
        elif columns and len(cells) == width and not line.startswith("| ---"):
            lines[n] = "|".join(f" {MASKED} " if i in columns else c for i, c in enumerate(cells))
    return "\n".join(lines)


def _html_row(line: str, columns: set[int]) -> str:
    parts = _HTML_CELL.split(line)  # text, open, body, close, text, ...
    for i in columns:
        if 4 * i + 2 < len(parts):
            parts[4 * i + 2] = MASKED
    return "".join(parts)


def _html(text: str) -> str:
    """Latency cells of HTML tables: a `<th>` row names the columns, `<td>` rows follow."""
    out = []
    columns: set[int] = set()
    for line in text.split("\n"):
        cells = _HTML_CELL.findall(line)
        if cells and "<th" in line:
            columns = {i for i, (_, body, _) in enumerate(cells) if _is_latency(body)}
        elif cells and columns:
            line = _html_row(line, columns)
        elif "</table>" in line:
            columns = set()
        out.append(line)
    return "\n".join(out)


def _csv(text: str) -> str:
    """Latency columns of a CSV file; a file without one is left exactly as it is."""
    rows = list(csv.reader(io.StringIO(text, newline="")))
    columns = {i for i, name in enumerate(rows[0] if rows else []) if _is_latency(name)}
    if not columns:
        return text
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\r\n" if "\r\n" in text else "\n")
    writer.writerow(rows[0])
    writer.writerows([MASKED if i in columns else c for i, c in enumerate(r)] for r in rows[1:])
    return buf.getvalue()


_BY_SUFFIX: dict[str, Callable[[str], str]] = {".md": _markdown, ".html": _html, ".csv": _csv}


def mask(text: str, work: Path, suffix: str = "") -> str:
    """`text` (from a file with `suffix`, or stdout/stderr) with what varies masked."""
    text = re.sub(re.escape(str(work)) + r"(?![\w.-])", "<RUN>", text)  # not /tmp/w in /tmp/work
    text = _TIME.sub("<TIME>", _DURATION.sub("built in <S> s", text))
    text = _JSON_LATENCY.sub(lambda m: m.group(1) + f'"{MASKED}"', text)
    by_format = _BY_SUFFIX.get(suffix)
    return text if by_format is None else by_format(text)

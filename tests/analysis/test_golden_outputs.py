"""`report`, `compare` (refused, paired, `--split`) and `view` write today exactly what
tests/analysis/golden/golden.json pinned (issue 28): the reading path may be rebuilt, its
outputs may not move. Regenerate the pins only for an intended change of output:
`python -m tests.analysis.golden.regen` (see its docstring).
"""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from tests.analysis.golden.masks import mask
from tests.analysis.golden.outputs import Output, from_json, generate
from tests.analysis.golden.regen import GOLDEN


def differences(pinned: dict[str, Output], now: dict[str, Output]) -> list[tuple[str, str]]:
    """(command, what differs) for each exit status, stream or file that is not as pinned."""
    found: list[tuple[str, str]] = []
    for key in sorted(pinned.keys() | now.keys()):
        if key not in pinned or key not in now:
            found.append((key, "command " + ("not pinned" if key not in pinned else "not run")))
            continue
        old, new = pinned[key], now[key]
        if old.rc != new.rc:
            found.append((key, f"exit status {old.rc} pinned, {new.rc} now"))
        for name in sorted(old.hashes.keys() | new.hashes.keys()):
            if name not in new.hashes:
                found.append((key, f"{name}: pinned, no longer written"))
            elif name not in old.hashes:
                found.append((key, f"{name}: written now, not pinned"))
            elif old.hashes[name] != new.hashes[name]:
                found.append((key, f"{name}: differs"))
    return found


def first_diff(pinned: dict[str, Output], now: dict[str, Output]) -> str:
    """A unified diff of the first differing output whose pinned text golden.json keeps."""
    for key in sorted(pinned.keys() & now.keys()):
        old, new = pinned[key], now[key]
        for name in sorted(old.texts.keys() & new.texts.keys()):
            if old.texts[name] != new.texts[name]:
                lines = difflib.unified_diff(
                    old.texts[name].splitlines(keepends=True),
                    new.texts[name].splitlines(keepends=True),
                    fromfile=f"pinned {key}: {name}", tofile=f"now {key}: {name}",
                )  # fmt: skip
                return "".join(list(lines)[:200])
    return "(no differing output has its text pinned: only hashes differ)"


def test_outputs_are_as_pinned(tmp_path: Path) -> None:
    pinned = from_json(json.loads(GOLDEN.read_text(encoding="utf-8")))
    now = generate(tmp_path)
    found = differences(pinned, now)
    listing = "\n".join(f"  {key}: {what}" for key, what in found)
    assert not found, f"outputs differ from {GOLDEN.name}:\n{listing}\n\n{first_diff(pinned, now)}"


def test_masks_hide_only_what_varies() -> None:
    work = Path("/tmp/w")
    md = "| s | tokens | latency_s |\n| --- | ---: | ---: |\n| a | 7 | 0.014 |\n\n| a | 7 | 0.2 |\n"
    assert mask(md, work, ".md") == (
        "| s | tokens | latency_s |\n| --- | ---: | ---: |\n| a | 7 | <S> |\n\n| a | 7 | 0.2 |\n"
    )  # a row outside the table keeps its number
    html = "<tr><th>s</th><th>mean_latency_s</th></tr>\n<tr><td>a</td><td>0.1</td></tr>\n</table>"
    assert mask(html, work, ".html") == html.replace("0.1", "<S>")
    assert mask("s,latency_s,n\na,0.5,3\n", work, ".csv") == "s,latency_s,n\na,<S>,3\n"
    assert mask("a,b\n1,2\n", work, ".csv") == "a,b\n1,2\n"
    assert mask('{"latency_s":7.4e-05,"turn":2}', work) == '{"latency_s":"<S>","turn":2}'
    text = "/tmp/w/view/index.html built in 0.7 s at 2026-11-26 20:40:02 UTC; /tmp/work stays"
    assert mask(text, work) == "<RUN>/view/index.html built in <S> s at <TIME>; /tmp/work stays"

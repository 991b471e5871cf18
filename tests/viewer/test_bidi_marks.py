"""The viewer shows bidi controls from a model or a server as marks, as the report does
(textsafe), instead of letting them reverse the text after them. Runs core.js in Node."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib import resources

import pytest

from macrs_sim.textsafe import markdown_paragraph

NODE = shutil.which("node")
SAMPLES = ["evil\u202etxt", "a\u2066b\u2069c", "\u200fx\u061c", "plain & ordinary <text>"]


@pytest.mark.skipif(NODE is None, reason="needs Node.js to run the viewer's core.js")
def test_core_js_marks_bidi_controls_like_the_report() -> None:
    core = (resources.files("macrs_sim") / "viewer" / "static" / "core.js").read_text()
    script = (
        "global.window = {};\n" + core
        + f"\nprocess.stdout.write(JSON.stringify({json.dumps(SAMPLES)}.map(MV.shown)));"
    )  # fmt: skip
    assert NODE is not None
    out = subprocess.run([NODE, "-e", script], capture_output=True, text=True, check=True)
    shown = json.loads(out.stdout)
    assert shown == [
        "evil\u27e8U+202E\u27e9txt",
        "a\u27e8U+2066\u27e9b\u27e8U+2069\u27e9c",
        "\u27e8U+200F\u27e9x\u27e8U+061C\u27e9",
        "plain & ordinary <text>",
    ]
    # The same marks as report.md's (its other escapes are Markdown's, not the page's).
    assert markdown_paragraph(SAMPLES[0]) == shown[0]

"""Rewrite golden.json: `python -m tests.analysis.golden.regen` from the repository root.

golden.json pins, byte for byte (after outputs.py's masks), what `macrs-sim report`,
`compare` (also refused, and `--split`) and `view` write for the runs golden_runs.py builds;
tests/analysis/test_golden_outputs.py checks the code still writes exactly that.

Regenerate ONLY when a change of output is intended, and say so in the commit message (which
outputs change and why): a refactor that should not change outputs must pass the test
against the old golden.json unchanged. Check the result: `git diff` shows the kept texts.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import macrs_sim
from tests.analysis.golden.outputs import generate, to_json

GOLDEN = Path(__file__).with_name("golden.json")


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="macrs-golden-") as tmp:
        data = to_json(generate(Path(tmp)))
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {GOLDEN} from {Path(macrs_sim.__file__).parent}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

# Sourced by the scripts here: creates .venv and installs macrs-sim with the extras in $1.
# Idempotent: re-installs only when pyproject.toml changed, so a second call is fast.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
extras="$1"
stamp="$VENV/.installed-${extras//,/-}"
want=$(sha256sum "$ROOT/pyproject.toml" | cut -c1-16)
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV"
  python3 -m venv "$VENV"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing macrs-sim[$extras] (the first time builds llama.cpp: about 9 minutes on 2 cores)"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[$extras]"
  echo "$want" > "$stamp"
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"

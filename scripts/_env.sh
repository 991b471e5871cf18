# Sourced by the scripts here: creates .venv and installs macrs-sim with the extras in $1.
# Idempotent: re-installs only when pyproject.toml, this file or the CPU's llama.cpp variant
# changed, so a second call is fast.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"
extras="$1"
stamp="$VENV/.installed-${extras//,/-}"

# llama.cpp for this CPU's vector units, built once per machine into a wheel folder of our
# own. Not llama.cpp's default -march=native: some virtual machines advertise AMX without
# enabling it, and a native build then dies of SIGILL on its first prompt. On x86-64 it
# targets x86-64-v3 (AVX2, FMA, F16C, BMI2), and AVX-512 with VNNI, VBMI and BF16 where the
# kernel lists them all (it lists only what it enabled): prompts read 1.4x faster, measured
# on this project's 2-core machine. Elsewhere, the compiler's defaults.
AVX512_FLAGS=(avx512f avx512cd avx512dq avx512bw avx512vl avx512vbmi avx512_vnni avx512_bf16)
has_cpu_flags() {
  local flags flag
  flags=" $(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2) "
  for flag in "$@"; do [[ $flags == *" $flag "* ]] || return 1; done
}
llama_variant() {
  if [ "$(uname -m)" = x86_64 ] && has_cpu_flags "${AVX512_FLAGS[@]}"; then
    echo avx512
  else
    echo portable
  fi
}
llama_wheel_dir() {
  local version dir variant args=(-DGGML_NATIVE=OFF)
  version=$(grep -o 'llama-cpp-python\[server\]==[0-9.]*' "$ROOT/pyproject.toml" | cut -d= -f3)
  variant=$(llama_variant)
  if [ "$(uname -m)" = x86_64 ]; then
    args+=(-DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON)
  fi
  if [ "$variant" = avx512 ]; then
    args+=(-DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON)
  fi
  dir="${XDG_CACHE_HOME:-$HOME/.cache}/macrs-sim/wheels/llama-cpp-$version-$(uname -m)-$variant"
  if ! compgen -G "$dir/llama_cpp_python-$version-*.whl" >/dev/null; then
    echo "building llama-cpp-python $version for this CPU ($variant) into $dir" >&2
    CMAKE_ARGS="${args[*]}" "$VENV/bin/python" -m pip wheel -q --disable-pip-version-check \
      --no-deps --no-cache-dir "llama-cpp-python==$version" -w "$dir" >&2
  fi
  echo "$dir"
}
# This file and the CPU's variant are in the stamp too: a change to how llama.cpp is built, or
# a .venv carried to a machine without AVX-512, re-installs.
want=$({ cat "$ROOT/pyproject.toml" "${BASH_SOURCE[0]}"; llama_variant; } | sha256sum | cut -c1-16)
if [ ! -x "$VENV/bin/python" ]; then
  echo "creating $VENV"
  python3 -m venv "$VENV"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  echo "installing macrs-sim[$extras] (the first time builds llama.cpp: about 9 minutes on 2 cores)"
  if [[ $extras == *embedded* ]]; then  # first, so the project's install finds it there
    wheel_dir=$(llama_wheel_dir)
    "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
      --force-reinstall "$wheel_dir"/llama_cpp_python-*.whl
  fi
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -e "$ROOT[$extras]"
  echo "$want" > "$stamp"
fi
export PATH="$VENV/bin:$PATH"
cd "$ROOT"

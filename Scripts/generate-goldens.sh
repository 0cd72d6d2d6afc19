#!/usr/bin/env bash
# Regenerates every golden fixture under Tests/Fixtures/ from the reference runtime.
# Usage: Scripts/generate-goldens.sh [module ...]   (default: every Scripts/goldens/ops_*.py and models.py)
# Needs Python with ai-edge-litert, tensorflow and numpy; set PYTHON to choose the interpreter
# (default: a venv at .venv-goldens created on first use).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${PYTHON:-}" ]; then
  if [ ! -x .venv-goldens/bin/python ]; then
    python3 -m venv .venv-goldens
    .venv-goldens/bin/pip install -q ai-edge-litert tensorflow numpy tflite flatbuffers
  fi
  PYTHON=.venv-goldens/bin/python
fi
export TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH="$root/Scripts/goldens${PYTHONPATH:+:$PYTHONPATH}"
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  for f in Scripts/goldens/ops_*.py Scripts/goldens/models.py; do [ -f "$f" ] && modules+=("$(basename "$f" .py)"); done
fi
for m in "${modules[@]}"; do
  echo "generate-goldens: $m"
  "$PYTHON" -m "$m"
done

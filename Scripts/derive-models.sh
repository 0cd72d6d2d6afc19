#!/usr/bin/env bash
# Derives the test detectors of the `yolov5` and `yolo-nms` layouts from the real
# ../shared/models/yolov8n_int8_640.tflite, and ssd_pets_with_labelmap.tflite (the real
# ../shared/models/ssd_pets_uint8.tflite with its label map packed as TFLITE_METADATA and an
# appended ZIP, as the Metadata Writer packs SSD/EfficientDet exports), with
# Scripts/goldens/derived_detectors.py into Models/derived/, verifying them against
# Scripts/derived-models.sha256. They are derived from third-party models, so they are made
# here, never committed. A fast no-op when all are present and verified. Needs python3 with numpy; flatbuffers and the TFLite schema module come from
# pinned wheels, unpacked into a temporary folder (nothing is installed) unless the Python in
# use already has flatbuffers and ai-edge-litert of the pinned versions.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
models="$root/Models"
manifest="$root/Scripts/derived-models.sha256"
shared="$root/../shared/models"
source_model="$shared/yolov8n_int8_640.tflite"
flatbuffers_version=25.12.19
litert_version=2.3.0

verify_all() {
  (cd "$models" 2>/dev/null && grep -v '^#' "$manifest" | sha256sum --quiet -c - >/dev/null 2>&1)
}

if verify_all; then
  echo "derive-models: derived models present and verified"
  exit 0
fi
[ -f "$source_model" ] || { echo "derive-models: $source_model is absent (../shared/models not installed)" >&2; exit 1; }
echo "5469a1079dfd35ab4ee681806542ea2668b85aa4b31a2b96a971543fe1ed9414  $source_model" | sha256sum --quiet -c - \
  || { echo "derive-models: $source_model is not the pinned yolov8n_int8_640" >&2; exit 1; }
for f in ssd_pets_uint8.tflite ssd_pets_labels.txt; do
  [ -f "$shared/$f" ] || { echo "derive-models: $shared/$f is absent" >&2; exit 1; }
done
(cd "$shared" && sha256sum --quiet -c - <<'SUMS'
c6f9425c06358457ec3235613e56ebe157d0404b2b60338d6d1c6c53bb00c126  ssd_pets_uint8.tflite
7663bd0ea06a7bb5d98f256146563632e2aa0bf872bbc41e8d6cf4f3a60ff34b  ssd_pets_labels.txt
SUMS
) || { echo "derive-models: ssd_pets_uint8.tflite or ssd_pets_labels.txt in $shared is not the pinned one" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if python3 -c "
import importlib.metadata as m, sys
sys.exit(0 if (m.version('flatbuffers'), m.version('ai-edge-litert')) == ('$flatbuffers_version', '$litert_version') else 1)
" 2>/dev/null; then
  pythonpath=""
else
  python3 -m pip download -q --no-deps --only-binary=:all: -d "$work/dl" \
    "flatbuffers==$flatbuffers_version" "ai-edge-litert==$litert_version"
  python3 - "$work" <<'PY'
import glob, os, sys, zipfile
work = sys.argv[1]
lib = os.path.join(work, "lib")
with zipfile.ZipFile(glob.glob(os.path.join(work, "dl", "flatbuffers-*.whl"))[0]) as z:
    z.extractall(lib, [n for n in z.namelist() if n.startswith("flatbuffers/")])
# Only the generated schema module (pure Python): the runtime itself is not needed here.
with zipfile.ZipFile(glob.glob(os.path.join(work, "dl", "ai_edge_litert-*.whl"))[0]) as z:
    with open(os.path.join(lib, "schema_py_generated.py"), "wb") as f:
        f.write(z.read("ai_edge_litert/schema_py_generated.py"))
PY
  pythonpath="$work/lib"
fi
PYTHONPATH="$pythonpath" python3 "$root/Scripts/goldens/derived_detectors.py" "$models/derived"
verify_all || { echo "derive-models: the derived models differ from Scripts/derived-models.sha256" >&2; exit 1; }
echo "derive-models: derived and verified $(grep -vc '^#' "$manifest") models into Models/derived/"

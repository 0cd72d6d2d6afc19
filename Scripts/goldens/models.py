"""Conformance sweep goldens: every model in Models/ and ../shared/models, and the mediapipe wheel's
models not among them (Models/mediapipe), on three inputs — a
real photo, a constant image and seeded random input — run by the reference runtime's
reference kernels (ai-edge-litert BUILTIN_REF). Whole outputs are stored, never samples.

Writes Tests/Fixtures/models/:
    images/<photo>_<W>x<H>x<C>.npy   a photo resized to the model input (uint8, HWC)
    <model>/<case>/case.json         {"model": "Models/x.tflite" | "shared/x.tflite",
                                      "input": {"kind": "photo", "image": "images/...npy"}
                                             | {"kind": "constant", "value": v}
                                             | {"kind": "random", "seed": s},
                                      "scale": s, "offset": o, "tolerance": "float"|"exact",
                                      "outputs": [{"name", "dtype", "shape", "max_abs",
                                                   "step": q | null, "delta_axes": [a, ...]}]}
    <model>/<case>/outputs.zip       output_<k>.npy per output, deflated

Model input. "photo": `pixels × scale + offset` in float32 (pixels: the stored image);
"random": the same with pixels drawn by SplitMix64 from `seed` — element i takes the i-th
64-bit draw r and becomes `(r >> 40) / 2^24 × 256` (uniform in [0, 256), exact in float32;
`random_pixels` below, `SeededGenerator` in Tests/TestSupport); "constant": every element is
`value`. Integer inputs are then rounded half to even and clamped to the type's range.

Run: Scripts/generate-goldens.sh models (everything; the reference kernels take tens of
minutes), or `PYTHONPATH=Scripts/goldens python -m models NAME ...` with model stems or
`model/case` names to regenerate only those.

Outputs. Integer outputs are stored as they are (compared bit-exact). Float outputs of
"exact" cases (models ending in TFLite_Detection_PostProcess: detection outputs must be
identical) are stored as float32. Other float outputs are compared within
2e-3 × max(1, max|reference|) (`max_abs`); to keep fixtures small they are stored as integer
multiples k of `step` = that allowance / 8, so the stored value is within step/2 of the
reference: the Swift test allows `allowance − step/2` around it, which keeps the check at least
as strict as the float rule on the reference itself. The k are difference-coded along the
output's `delta_axes` (each element minus its predecessor along each listed axis, in order;
undone by running sums) and stored as int16 when every coded value fits, else int32.
"""
import io
import json
import os
import shutil
import zipfile
import zlib

import numpy as np

from common import ROOT, reference_interpreter, run_reference

OUT = os.path.join(ROOT, "Tests", "Fixtures", "models")
FLOAT_TOLERANCE = 2e-3
RANDOM_SEED = 20261124

# model file, photo, (scale, offset) from pixel values to model input values, constant value
# (in model input units: mid-grey for integer inputs, 0.5 — an exact half — for float inputs).
# A reference abort (a crash, not an exception) stops the run with the case's name printed last.
MODELS = [
    ("Models/deeplabv3.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    # Mid-grey 127 or 128 aborts the reference runtime on this model (an internal check fails).
    ("Models/efficientnet_lite0.tflite", "coffee", (1.0, 0.0), 100),
    ("Models/face_detection_short_range.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/face_detection_full_range.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/face_detection_full_range_sparse.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/face_detection_back.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/face_landmark.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/iris_landmark.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("shared/classifier_mobilenet_v2_uint8.tflite", "coffee", (1.0, 0.0), 128),
    ("shared/classifier_utensils_float.tflite", "coffee", (1 / 127.5, -1.0), 0.5),
    ("shared/classifier_nonsquare_float.tflite", "rocket", (1 / 255.0, 0.0), 0.5),
    ("shared/classifier_stopsign_int8.tflite", "camera", (1.0, -128.0), 0),
    ("shared/ssd_fish_uint8.tflite", "chelsea", (1.0, 0.0), 128),
    ("shared/ssd_pets_uint8.tflite", "chelsea", (1.0, 0.0), 128),
    ("shared/yolov8n_int8_640.tflite", "motorcycle", (1 / (255.0 * 0.01865844801068306), -14.0), 0),
    ("shared/yolov8n_dynamic_range_640.tflite", "motorcycle", (1 / 255.0, 0.0), 0.5),
    # Models from the wild: the mediapipe 0.10.14 wheel's (Scripts/fetch-mediapipe-models.sh), those
    # not already above. MediaPipe's custom operators (attention mesh, selfie segmentation's
    # transposed convolution) run on MediaPipe's own kernels (mediapipe_kernels.py).
    ("Models/mediapipe/face_landmark_with_attention.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/hand_landmark_full.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/hand_landmark_lite.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/hand_recrop.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/palm_detection_full.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/palm_detection_lite.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    ("Models/mediapipe/pose_detection.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/mediapipe/pose_landmark_full.tflite", "astronaut", (1 / 255.0, 0.0), 0.5),
    # Inputs in [-1, 1]: with [0, 1] random pixels, like a constant, give a mask below 1e-5
    # everywhere (no person), which the float goldens could not tell from the constant's.
    ("Models/mediapipe/selfie_segmentation.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
    ("Models/mediapipe/selfie_segmentation_landscape.tflite", "astronaut", (1 / 127.5, -1.0), 0.5),
]

# Models whose whole output is the same for every input tried, so no choice of input can
# discriminate: the check below is waived for them, with the reason recorded in case.json.
SATURATED = {
    "classifier_mobilenet_v2_uint8": "its uint8 softmax output is [0, 255, 0, 0, 0] for all six "
                                     "photos, constants 0, 60, 128, 200, 255 and random input",
    "ssd_fish_uint8": "its box and class predictor outputs are quantized with scale 1.0 and zero point "
                      "0, so its box encodings round to 0 and its fish logit to 0 (score 0.5) for all "
                      "six photos, constants 0, 128, 255, half-white, random and binary noise input: "
                      "the post-processed detections never change (only the background logit does). "
                      "The post-process on activations that vary is checked by "
                      "ops/detection/postprocess_cut_ssd_fish_uint8_synthetic",
}


def model_path(rel):
    if rel.startswith("shared/"):
        return os.path.join(ROOT, "..", "shared", "models", rel[len("shared/"):])
    return os.path.join(ROOT, rel)


def load_photo(name, channels):
    from PIL import Image  # reading the PNG only; the resize below is ours
    img = Image.open(os.path.join(ROOT, "Models", "images", name + ".png"))
    img = img.convert("L" if channels == 1 else "RGB")
    a = np.asarray(img, dtype=np.float32)
    return a[:, :, None] if a.ndim == 2 else a


def resize_bilinear(a, h, w):
    """Half-pixel-centre bilinear resize of an HWC float image, rounded to uint8."""
    H, W = a.shape[:2]
    ys = np.clip((np.arange(h) + 0.5) * H / h - 0.5, 0, H - 1)
    xs = np.clip((np.arange(w) + 0.5) * W / w - 0.5, 0, W - 1)
    y0 = np.floor(ys).astype(int); x0 = np.floor(xs).astype(int)
    y1 = np.minimum(y0 + 1, H - 1); x1 = np.minimum(x0 + 1, W - 1)
    fy = (ys - y0)[:, None, None]; fx = (xs - x0)[None, :, None]
    top = a[y0][:, x0] * (1 - fx) + a[y0][:, x1] * fx
    bottom = a[y1][:, x0] * (1 - fx) + a[y1][:, x1] * fx
    return np.clip(np.rint(top * (1 - fy) + bottom * fy), 0, 255).astype(np.uint8)


def photo_image(photo, h, w, c):
    name = f"{photo}_{w}x{h}x{c}.npy"
    path = os.path.join(OUT, "images", name)
    if not os.path.exists(path):
        np.save(path, np.ascontiguousarray(resize_bilinear(load_photo(photo, c), h, w)))
    return "images/" + name, np.load(path)


def random_pixels(seed, count):
    """SplitMix64 draws (TestSupport's SeededGenerator) mapped to float32 pixels in [0, 256)."""
    with np.errstate(over="ignore"):
        state = np.uint64(seed) + np.arange(1, count + 1, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        z = state
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return ((z >> np.uint64(40)).astype(np.float32) / np.float32(1 << 24)) * np.float32(256)


def to_input(pixels, scale, offset, dtype, shape):
    x = pixels.astype(np.float32).reshape(-1) * np.float32(scale) + np.float32(offset)
    return cast_input(x, dtype, shape)


def cast_input(x, dtype, shape):
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        x = np.clip(np.rint(x), info.min, info.max)
    return x.astype(dtype).reshape(shape)


def delta_encode(k_values):
    """The integer array and the axes along which it is difference-coded (each element minus
    its predecessor along the axis): whichever choice of up to two axes deflates smallest.
    Smooth outputs (segmentation logits, box coordinates) shrink several times."""
    candidates = [()]
    axes = [a for a in range(k_values.ndim) if k_values.shape[a] > 1]
    candidates += [(a,) for a in axes] + [(a, b) for i, a in enumerate(axes) for b in axes[i + 1:]]
    best = None
    for choice in candidates:
        coded = k_values.astype(np.int64)
        for a in choice:
            coded = np.diff(coded, axis=a, prepend=0)
        small = np.abs(coded).max(initial=0) < 32767
        coded = coded.astype(np.int16 if small else np.int32)
        size = len(zlib.compress(coded.tobytes(), 6))
        if best is None or size < best[0]:
            best = (size, coded, list(choice))
    return best[1], best[2]


def store_outputs(directory, outputs, exact):
    """Writes outputs.zip and returns the outputs' metadata for case.json."""
    meta = []
    with zipfile.ZipFile(os.path.join(directory, "outputs.zip"), "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for k, y in enumerate(outputs):
            flat = y.reshape(-1)
            finite = flat[np.isfinite(flat)] if flat.dtype.kind == "f" else flat
            max_abs = float(np.max(np.abs(finite.astype(np.float64)))) if finite.size else 0.0
            step, delta_axes, stored = None, [], y
            if y.dtype.kind == "f" and not exact and np.all(np.isfinite(flat)):
                step = FLOAT_TOLERANCE * max(1.0, max_abs) / 8
                stored, delta_axes = delta_encode(np.rint(y.astype(np.float64) / step))
            buffer = io.BytesIO()
            np.save(buffer, np.ascontiguousarray(stored))
            z.writestr(f"output_{k}.npy", buffer.getvalue())
            meta.append({"dtype": str(y.dtype), "shape": list(y.shape), "max_abs": max_abs, "step": step,
                         "delta_axes": delta_axes})
    return meta


def main(selection=()):
    """Regenerates everything, or only the `model` / `model/case` names in `selection`."""
    if not selection:
        shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "images"), exist_ok=True)

    def selected(stem, name=None):
        return not selection or stem in selection or (name is not None and f"{stem}/{name}" in selection)

    for rel, photo, (scale, offset), constant in MODELS:
        path = model_path(rel)
        if not os.path.exists(path):
            print(f"  skip {rel}: not present"); continue
        model_bytes = open(path, "rb").read()
        probe = reference_interpreter(model_bytes)
        det = probe.get_input_details()[0]
        shape = tuple(det["shape"])
        _, h, w, c = shape
        dtype = det["dtype"]
        ops = {op["op_name"] for op in probe._get_ops_details()}
        exact = dtype != np.float32 or "TFLite_Detection_PostProcess" in ops
        stem = os.path.splitext(os.path.basename(rel))[0]
        if not any(selected(stem, name) for name in ("photo", "constant", "random")):
            continue
        image_rel, img = photo_image(photo, h, w, c)
        count = int(np.prod(shape))
        cases = [
            ("photo", {"kind": "photo", "image": image_rel}, to_input(img, scale, offset, dtype, shape)),
            ("constant", {"kind": "constant", "value": constant},
             cast_input(np.full(count, constant, np.float32), dtype, shape)),
            ("random", {"kind": "random", "seed": RANDOM_SEED},
             to_input(random_pixels(RANDOM_SEED, count), scale, offset, dtype, shape)),
        ]
        results = []
        for name, spec, x in cases:
            d = os.path.join(OUT, stem, name)
            if not selected(stem, name):
                results.append(None)
                continue
            print(f"  {stem}/{name} ...", flush=True)
            outputs = run_reference(model_bytes, [x])
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            meta = store_outputs(d, outputs, exact)
            case = {"model": rel, "input": spec, "scale": scale, "offset": offset,
                    "tolerance": "exact" if exact else "float", "outputs": meta}
            if stem in SATURATED:
                case["saturated"] = SATURATED[stem]
            with open(os.path.join(d, "case.json"), "w") as f:
                json.dump(case, f, indent=1)
            results.append(outputs)
            print(f"  {stem}/{name}: {len(outputs)} outputs, {os.path.getsize(os.path.join(d, 'outputs.zip'))} bytes")
        for i in range(3):
            for j in range(i + 1, 3):
                if stem not in SATURATED and results[i] is not None and results[j] is not None and all(np.array_equal(p, q) for p, q in zip(results[i], results[j])):
                    raise SystemExit(f"{stem}: the {cases[i][0]} and {cases[j][0]} outputs are identical: "
                                     "the goldens would not tell a run that ignores its input")

if __name__ == "__main__":
    import sys
    main(tuple(sys.argv[1:]))

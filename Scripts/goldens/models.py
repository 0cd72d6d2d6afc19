"""Model-level goldens: every reference model on real photos (and seeded random images),
run by the reference runtime's reference kernels (ai-edge-litert BUILTIN_REF).

Writes Tests/Fixtures/models/:
    images/<photo>_<W>x<H>x<C>.npy        the photo resized to the model input (uint8, HWC)
    <model>/<case>/case.json              {"model": "Models/x.tflite" | "shared/x.tflite",
                                           "image": "images/...npy", "scale": s, "offset": o,
                                           "tolerance": "float"|"exact",
                                           "outputs": [{"stride": k, "count": n, "max_abs": m}]}
    <model>/<case>/output_<k>.npy         reference output k, flattened and subsampled every
                                          `stride` elements when it is large (stride 1 = whole)
The model input is `image * scale + offset` computed in float32, then cast (rounded) to the
input dtype. Resizing is plain bilinear (half-pixel centres) done here in numpy: the stored
image is the model input, so the Swift side needs no resizer to reproduce it.
"""
import json
import os
import shutil

import numpy as np

from common import ROOT, run_reference

OUT = os.path.join(ROOT, "Tests", "Fixtures", "models")
MAX_STORED = 40_000  # elements per output beyond which the golden is subsampled

# model file, photos, (scale, offset) from uint8 pixels to the model's input values.
MODELS = [
    ("Models/deeplabv3.tflite", ["astronaut", "motorcycle"], (1 / 127.5, -1.0)),
    ("Models/efficientnet_lite0.tflite", ["chelsea", "coffee", "random"], (1.0, 0.0)),
    ("Models/face_detection_short_range.tflite", ["astronaut"], (1 / 127.5, -1.0)),
    ("Models/face_detection_full_range.tflite", ["astronaut"], (1 / 127.5, -1.0)),
    ("Models/face_detection_full_range_sparse.tflite", ["astronaut"], (1 / 127.5, -1.0)),
    ("Models/face_detection_back.tflite", ["astronaut"], (1 / 127.5, -1.0)),
    ("Models/face_landmark.tflite", ["astronaut"], (1 / 255.0, 0.0)),
    ("Models/iris_landmark.tflite", ["astronaut"], (1 / 255.0, 0.0)),
    ("shared/classifier_mobilenet_v2_uint8.tflite", ["coffee", "random"], (1.0, 0.0)),
    ("shared/classifier_utensils_float.tflite", ["coffee"], (1 / 127.5, -1.0)),
    ("shared/classifier_nonsquare_float.tflite", ["rocket"], (1 / 255.0, 0.0)),
    ("shared/classifier_stopsign_int8.tflite", ["camera", "random"], (1.0, -128.0)),
    ("shared/ssd_fish_uint8.tflite", ["chelsea", "random"], (1.0, 0.0)),
    ("shared/ssd_pets_uint8.tflite", ["chelsea", "astronaut"], (1.0, 0.0)),
    ("shared/yolov8n_int8_640.tflite", ["motorcycle"], (1 / (255.0 * 0.01865844801068306), -14.0)),
    ("shared/yolov8n_dynamic_range_640.tflite", ["motorcycle"], (1 / 255.0, 0.0)),
]


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


def image_for(photo, h, w, c, rng):
    name = f"{photo}_{w}x{h}x{c}.npy"
    path = os.path.join(OUT, "images", name)
    if not os.path.exists(path):
        if photo == "random":
            img = rng.integers(0, 256, size=(h, w, c), dtype=np.uint8)
        else:
            img = resize_bilinear(load_photo(photo, c), h, w)
        np.save(path, np.ascontiguousarray(img))
    return "images/" + name, np.load(path)


def to_input(img, scale, offset, dtype):
    x = img.astype(np.float32) * np.float32(scale) + np.float32(offset)
    if np.dtype(dtype).kind in "iu":
        info = np.iinfo(dtype)
        x = np.clip(np.rint(x), info.min, info.max)
    return x.astype(dtype)[None]


def main():
    from ai_edge_litert import interpreter as litert
    shutil.rmtree(OUT, ignore_errors=True)
    os.makedirs(os.path.join(OUT, "images"))
    rng = np.random.default_rng(20261121)
    for rel, photos, (scale, offset) in MODELS:
        path = model_path(rel)
        if not os.path.exists(path):
            print(f"  skip {rel}: not present"); continue
        model_bytes = open(path, "rb").read()
        probe = litert.Interpreter(model_content=model_bytes)
        det = probe.get_input_details()[0]
        _, h, w, c = det["shape"]
        dtype = det["dtype"]
        quantized = dtype != np.float32 and "dynamic_range" not in rel
        stem = os.path.splitext(os.path.basename(rel))[0]
        for photo in photos:
            image_rel, img = image_for(photo, h, w, c, rng)
            outputs = run_reference(model_bytes, [to_input(img, scale, offset, dtype)])
            d = os.path.join(OUT, stem, photo)
            os.makedirs(d)
            meta = []
            for k, y in enumerate(outputs):
                flat = y.reshape(-1)
                stride = max(1, -(-flat.size // MAX_STORED))
                np.save(os.path.join(d, f"output_{k}.npy"), flat[::stride])
                meta.append({"stride": stride, "count": int(flat.size), "shape": list(y.shape),
                             "max_abs": float(np.max(np.abs(flat.astype(np.float64)))) if flat.size else 0.0})
            case = {"model": rel, "image": image_rel, "scale": scale, "offset": offset,
                    "tolerance": "exact" if quantized else "float", "outputs": meta}
            with open(os.path.join(d, "case.json"), "w") as f:
                json.dump(case, f, indent=1)
            print(f"  {stem}/{photo}: {len(outputs)} outputs")


if __name__ == "__main__":
    main()

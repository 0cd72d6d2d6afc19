"""Writes Tests/Fixtures/tracking/photo_crops.json: small RGB crops of the objects in the
sample photos (Models/images), used by the tracking benchmark in Tests/ObjectTrackingTests
as the appearance of simulated detections (the Swift test turns each crop into a color
histogram with AppearanceDescriptor.colorHistogram).

Per object: the object's box in its photo (picked by eye) and 12 jittered crops of it
(shifted by up to 8 % and scaled by 0.85-1.15, as a detector's boxes wander), each resized
to 16x16 RGB. Also 12 background crops (random windows of the photos) for false positives.
Deterministic (seeded). Run (python3 with numpy and tflite; Scripts/generate-goldens.sh runs it): python3 Scripts/tracking_appearance.py
"""
import base64
import json
import os

import numpy as np
from PIL import Image

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
IMAGES = os.path.join(ROOT, "Models", "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "tracking", "photo_crops.json")
SIDE = 16
JITTERS = 12

# name: (photo, x, y, width, height) in the photo's pixels.
OBJECTS = {
    "astronaut": ("astronaut.png", 20, 10, 320, 490),
    "cameraman": ("camera.png", 0, 60, 260, 390),
    "cat": ("chelsea.png", 90, 0, 320, 300),
    "cup": ("coffee.png", 170, 25, 250, 290),
    "motorcycle": ("motorcycle.png", 120, 150, 560, 325),
    "rocket": ("rocket.png", 295, 130, 50, 295),
}


def crop(image, x, y, w, h):
    W, H = image.size
    x0, y0 = max(0, int(round(x))), max(0, int(round(y)))
    x1, y1 = min(W, int(round(x + w))), min(H, int(round(y + h)))
    patch = image.crop((x0, y0, x1, y1)).resize((SIDE, SIDE), Image.BILINEAR)
    return base64.b64encode(np.asarray(patch, dtype=np.uint8).tobytes()).decode("ascii")


def main():
    rng = np.random.default_rng(20261121)
    photos = {}
    result = {"side": SIDE, "objects": [], "background": []}
    for name, (photo, x, y, w, h) in OBJECTS.items():
        image = photos.setdefault(photo, Image.open(os.path.join(IMAGES, photo)).convert("RGB"))
        crops = []
        for _ in range(JITTERS):
            s = rng.uniform(0.85, 1.15)
            cw, ch = w * s, h * s
            cx = x + w / 2 + rng.uniform(-0.08, 0.08) * w
            cy = y + h / 2 + rng.uniform(-0.08, 0.08) * h
            crops.append(crop(image, cx - cw / 2, cy - ch / 2, cw, ch))
        result["objects"].append({"name": name, "photo": photo, "box": [x, y, w, h], "crops": crops})
    names = sorted(photos)
    for _ in range(JITTERS):
        image = photos[names[rng.integers(len(names))]]
        W, H = image.size
        w, h = rng.uniform(0.15, 0.4) * W, rng.uniform(0.15, 0.4) * H
        result["background"].append(crop(image, rng.uniform(0, W - w), rng.uniform(0, H - h), w, h))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()

"""Independent oracle for the detector families' end-to-end boxes (issue 13).

For each case below, this script takes a sample photo, preprocesses it as the model family
documents, runs the raw model in the reference runtime (ai-edge-litert, BUILTIN_REF
kernels), decodes the outputs with plain NumPy written from the exporters' documented
formats (not from the Swift decoders), maps the boxes back to the photo and writes them to
Tests/Fixtures/detector_oracle/<case>.json. DetectorOracleTests runs the public
`ObjectDetector` on the same photo and model and compares.

Regenerate (numpy, Pillow and ai-edge-litert; no TensorFlow):

    python3 Scripts/oracle/detector_oracle.py [CASE ...]

Models: ../shared/models (yolov8n_int8_640, ssd_pets_uint8 and its label file), Models/
(face_detection_short_range, face_detection_full_range) and Models/derived (the YOLOv5 and
NMS-in-graph layouts derived from yolov8n_int8_640 by Scripts/derive-models.sh); photos:
Models/images.

Formats, as the exporters document them, and the policies our detector states:

  Preprocessing (all families): half-pixel-centre bilinear resampling without antialiasing
    (OpenCV INTER_LINEAR, TensorFlow resize_bilinear(half_pixel_centers=True)); source
    coordinates outside the image clamp to the border pixel; each channel rounded to 8 bits
    (half up), then normalised and quantised with the input tensor's scale and zero point
    (half away from zero). uint8 inputs take the raw pixels (TFLite Task Library convention:
    their quantisation already encodes the normalisation).
  YOLOv8 (Ultralytics export, raw head): input letterboxed as Ultralytics' LetterBox does
    (scale r = min(640/h, 640/w), content round(w r) x round(h r), centred, padding
    floor((640 - content) / 2) on the left/top, gray 114), pixels / 255. Output
    [1, 4 + C, N]: cx, cy, w, h, then C class scores (no objectness); the TFLite export
    normalises the box values by the input size inside the graph (Ultralytics' Detect head
    does so for the tflite and edgetpu formats), so they are multiplied by 640 here. A
    candidate's class is its best class; kept when that score >= 0.25; then class-wise hard
    NMS (IoU > 0.45 suppresses the lower-scored box of the same class), at most 100 boxes
    (our YOLOv8Family's documented defaults). Boxes back to the photo: subtract the padding
    and divide by the content scale of each axis (content / original size -- the scale the
    resize really applied; Ultralytics' scale_boxes divides by r instead, which differs by at
    most 0.5 / content, < 0.1 %).
  YOLOv5 (Ultralytics' TFLite export) and YOLO with NMS inside the graph (Ultralytics
    `nms=True`): the same letterbox and [0, 1] input; see `yolov5` and `yolo_nms` below for
    their output rows. Boxes normalized to the input, so multiplied by 640.
  SSD with TFLite_Detection_PostProcess (TF Object Detection API export): input stretched to
    300 x 300. The graph's own post-processing outputs boxes [ymin, xmin, ymax, xmax]
    normalised to the input, classes (0 = first real class), scores, count; kept when
    score >= 0.5 (our PostProcessedSSDFamily's default). A label map whose first line is
    `???` has a background slot, so class c is label line c + 1.
  BlazeFace (MediaPipe face detection graphs, face_detection_{short,full}_range_cpu.pbtxt):
    ImageToTensorCalculator with keep_aspect_ratio and BORDER_ZERO: the image scaled by
    r = min(S/w, S/h) (S the input size), centred, the rest of the tensor black (pixel 0,
    so -1 after normalisation), values (p - 127.5) / 127.5. MediaPipe's letterbox geometry is
    fractional; the photos used here are chosen so that content (w r, h r) and padding are
    whole pixels (512 x 512, 512 x 288 -> 128 x 72 padded 28 above, 288 x 512 -> 108 x 192
    padded 42 left), where it is the same as Ultralytics' rounded letterbox above. Anchors from MediaPipe's SsdAnchorsCalculator options
    (short range: 4 layers, strides 8, 16, 16, 16, 128 x 128, interpolated scale aspect ratio
    1, 896 anchors; full range: 1 layer, stride 4, 192 x 192, no interpolated anchor, 2304
    anchors; both fixed anchor size, offset 0.5). TensorsToDetectionsCalculator: x, y, w, h
    (reverse_output_order) divided by the input size, times the anchor size, plus the anchor
    centre; score = sigmoid(clip(logit, +-100)), kept when >= min_score_thresh (0.5 short
    range, 0.6 full range); then MediaPipe's weighted NMS (IoU > 0.3 joins the cluster of the
    best remaining box; the output box is the score-weighted mean of the cluster's corners,
    with the best box's score); DetectionProjectionCalculator maps the boxes back to the
    photo (minus the padding, divided by the content scale).

Some cases crop the photo first (`crop`: x, y, width, height in the photo's pixels) to get a
non-square real photo; the test crops the same pixels.

Boxes in the fixtures are [x, y, width, height] in the photo's pixels, clipped to the photo,
best score first.
"""
import json
import os

import numpy as np
from PIL import Image
from ai_edge_litert import interpreter as litert

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SHARED = os.path.abspath(os.path.join(ROOT, "..", "shared", "models"))
MODELS = os.path.join(ROOT, "Models")
DERIVED = os.path.join(MODELS, "derived")
IMAGES = os.path.join(MODELS, "images")
OUT = os.path.join(ROOT, "Tests", "Fixtures", "detector_oracle")


# ---------------------------------------------------------------- preprocessing

def load_rgb(name):
    """The photo's pixels; `name` may be (file, (x, y, width, height)) to crop it."""
    name, crop = name if isinstance(name, tuple) else (name, None)
    img = np.asarray(Image.open(os.path.join(IMAGES, name)).convert("RGB"), dtype=np.uint8)
    if crop:
        x, y, w, h = crop
        img = img[y:y + h, x:x + w]
    return img


def axis_samples(start, length, out_count, src_count):
    """Half-pixel-centre sample positions of `out_count` outputs over [start, start+length)."""
    pos = start + (np.arange(out_count, dtype=np.float64) + 0.5) * (length / out_count) - 0.5
    pos = np.clip(pos, 0, src_count - 1)
    low = np.floor(pos).astype(np.int64)
    high = np.minimum(low + 1, src_count - 1)
    return low, high, pos - low


PRECISION = [np.float32]


def resize_bilinear(img, out_w, out_h, precision=None):
    """Bilinear resize of the whole image to out_w x out_h, rounded to uint8 (half up).

    `precision=np.float32` evaluates the interpolation in single precision, as
    `upper = a + (b - a) fx`, `lower = c + (d - c) fx`, `upper + (lower - upper) fy`, the
    arithmetic our preprocessing documents; np.float64 is closer to the exact value. The two
    differ only where the exact value lies within float32 rounding of a .5 edge (a handful of
    values per photo), but the quantized models amplify even that: each fixture records, under
    `float64_resampling`, how many input values differ and what the oracle finds then."""
    precision = precision or PRECISION[0]
    h, w, _ = img.shape
    x0, x1, fx = axis_samples(0.0, w, out_w, w)
    y0, y1, fy = axis_samples(0.0, h, out_h, h)
    f = img.astype(precision)
    fx, fy = fx.astype(precision)[None, :, None], fy.astype(precision)[:, None, None]
    a, b = f[y0][:, x0], f[y0][:, x1]
    c, d = f[y1][:, x0], f[y1][:, x1]
    upper = (b - a) * fx + a
    lower = (d - c) * fx + c
    value = (lower - upper) * fy + upper + precision(0.5)
    return np.floor(value).clip(0, 255).astype(np.uint8)


def letterbox(img, size, fill=114):
    """Ultralytics LetterBox: returns the padded image, content size and padding."""
    h, w, _ = img.shape
    r = min(size / h, size / w)
    cw, ch = int(round(w * r)), int(round(h * r))
    pad_x, pad_y = (size - cw) // 2, (size - ch) // 2
    out = np.full((size, size, 3), fill, dtype=np.uint8)
    out[pad_y:pad_y + ch, pad_x:pad_x + cw] = resize_bilinear(img, cw, ch)
    return out, (cw, ch), (pad_x, pad_y)


def quantize(real, detail):
    scale, zero = detail["quantization"]
    q = np.sign(real) * np.floor(np.abs(real / np.float32(scale)) + 0.5) + zero
    info = np.iinfo(detail["dtype"])
    return q.clip(info.min, info.max).astype(detail["dtype"])


def run(model_path, pixels, normalize):
    """Runs the model on 8-bit `pixels` (H x W x 3); returns dequantized outputs."""
    interp = litert.Interpreter(model_path=model_path, num_threads=1,
                                experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    detail = interp.get_input_details()[0]
    if detail["dtype"] == np.float32:
        tensor = normalize(pixels.astype(np.float32))
    elif detail["dtype"] == np.uint8:
        tensor = pixels
    else:
        tensor = quantize(normalize(pixels.astype(np.float32)), detail)
    interp.set_tensor(detail["index"], tensor[None].astype(detail["dtype"]))
    interp.invoke()
    outputs = []
    for d in interp.get_output_details():
        value = interp.get_tensor(d["index"])
        scale, zero = d["quantization"]
        if value.dtype != np.float32 and scale:
            value = (value.astype(np.float32) - np.float32(zero)) * np.float32(scale)
        outputs.append(value.astype(np.float32))
    return outputs


# ---------------------------------------------------------------- boxes

def iou(box, boxes):
    """IoU of corner box [x0, y0, x1, y1] with each row of `boxes`."""
    ix = np.clip(np.minimum(box[2], boxes[:, 2]) - np.maximum(box[0], boxes[:, 0]), 0, None)
    iy = np.clip(np.minimum(box[3], boxes[:, 3]) - np.maximum(box[1], boxes[:, 1]), 0, None)
    inter = ix * iy
    area = lambda b: (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
    union = area(box) + area(boxes) - inter
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0)


def hard_nms(boxes, scores, classes, iou_threshold, max_count):
    """Greedy class-wise NMS; indices kept, best score first (stable for ties)."""
    order = np.argsort(-scores, kind="stable")
    kept = []
    suppressed = np.zeros(len(scores), dtype=bool)
    for i in order:
        if suppressed[i]:
            continue
        kept.append(i)
        if len(kept) == max_count:
            break
        same = classes == classes[i]
        suppressed |= same & (iou(boxes[i], boxes) > iou_threshold)
    return kept


def to_photo(corners, photo_w, photo_h):
    """Clips corner boxes to the photo and returns [x, y, w, h] rows."""
    c = corners.copy()
    c[:, [0, 2]] = c[:, [0, 2]].clip(0, photo_w)
    c[:, [1, 3]] = c[:, [1, 3]].clip(0, photo_h)
    return np.stack([c[:, 0], c[:, 1], c[:, 2] - c[:, 0], c[:, 3] - c[:, 1]], axis=1)


# ---------------------------------------------------------------- YOLOv8

def yolo_letterboxed(model, image, size=640):
    """The photo letterboxed as Ultralytics does, run; returns (photo, the single output,
    a function mapping corner boxes in input pixels back to clipped [x, y, w, h] photo rows)."""
    img = load_rgb(image)
    h, w, _ = img.shape
    padded, (cw, ch), (px, py) = letterbox(img, size)
    (out,) = run(model, padded, lambda p: p / np.float32(255))

    def back(corners):
        photo = np.empty_like(corners)
        photo[:, [0, 2]] = (corners[:, [0, 2]] - px) * (w / cw)
        photo[:, [1, 3]] = (corners[:, [1, 3]] - py) * (h / ch)
        return to_photo(photo, w, h)
    return img, out, back


def yolov8(model, image, score_threshold=0.25, iou_threshold=0.45, max_count=100):
    size = 640
    img, out, back = yolo_letterboxed(model, image, size)
    pred = out[0]                      # [4 + C, N]
    scores_all = pred[4:]
    classes = scores_all.argmax(axis=0)
    scores = scores_all.max(axis=0)
    keep = scores >= score_threshold
    # Ultralytics' TFLite export divides the boxes by the input size inside the graph
    # (Detect head, `format in {"tflite", "edgetpu"}`), so they come out in [0, 1].
    cx, cy, bw, bh = (pred[i, keep].astype(np.float64) * size for i in range(4))
    corners = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1).astype(np.float64)
    scores, classes = scores[keep], classes[keep]
    kept = hard_nms(corners, scores, classes, iou_threshold, max_count)
    return img, back(corners[kept]), scores[kept], classes[kept]


def yolov5(model, image, score_threshold=0.25, iou_threshold=0.45, max_count=100):
    """YOLOv5 TFLite export (Ultralytics): output [1, N, 5 + C] of rows cx, cy, w, h
    (normalized to the input), objectness, C class probabilities; score = objectness x best
    class probability, kept when objectness and score are >= 0.25; class-wise hard NMS as
    YOLOv8 above (our YOLOv5Family's documented defaults)."""
    size = 640
    img, out, back = yolo_letterboxed(model, image, size)
    pred = out[0]                      # [N, 5 + C]
    classes = pred[:, 5:].argmax(axis=1)
    scores = pred[:, 4] * pred[:, 5:].max(axis=1)
    keep = (pred[:, 4] >= score_threshold) & (scores >= score_threshold)
    cx, cy, bw, bh = (pred[keep, i].astype(np.float64) * size for i in range(4))
    corners = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
    scores, classes = scores[keep], classes[keep]
    kept = hard_nms(corners, scores, classes, iou_threshold, max_count)
    return img, back(corners[kept]), scores[kept], classes[kept]


def yolo_nms(model, image, score_threshold=0.25):
    """YOLO export with NMS inside the graph (Ultralytics `nms=True`): output [1, N, 6] of rows
    x1, y1, x2, y2 (normalized to the input), score, class; rows kept when score >= 0.25 (the
    padding rows have score 0), best first."""
    size = 640
    img, out, back = yolo_letterboxed(model, image, size)
    rows = out[0]
    rows = rows[rows[:, 4] >= score_threshold]
    rows = rows[np.argsort(-rows[:, 4], kind="stable")]
    corners = rows[:, :4].astype(np.float64) * size
    return img, back(corners), rows[:, 4], rows[:, 5].astype(int)


# ---------------------------------------------------------------- SSD post-processed

def ssd_postprocessed(model, image, score_threshold=0.5):
    img = load_rgb(image)
    h, w, _ = img.shape
    boxes, classes, scores, count = run(model, resize_bilinear(img, 300, 300), None)
    n = int(count.reshape(-1)[0])
    boxes, classes, scores = boxes[0, :n], classes[0, :n].astype(int), scores[0, :n]
    keep = scores >= score_threshold
    boxes, classes, scores = boxes[keep].clip(0, 1), classes[keep], scores[keep]
    corners = np.stack([boxes[:, 1] * w, boxes[:, 0] * h, boxes[:, 3] * w, boxes[:, 2] * h], axis=1)
    order = np.argsort(-scores, kind="stable")
    return img, to_photo(corners[order].astype(np.float64), w, h), scores[order], classes[order]


# ---------------------------------------------------------------- BlazeFace

def mediapipe_anchors(num_layers, min_scale, max_scale, size, strides, interpolated_ratio,
                      aspect_ratios=(1.0,), offset=0.5, fixed_size=True):
    """SsdAnchorsCalculator: [N, 4] anchors as (x_center, y_center, w, h), normalized."""
    def scale(i):
        return (min_scale + max_scale) / 2 if num_layers == 1 else \
            min_scale + (max_scale - min_scale) * i / (num_layers - 1)
    anchors = []
    layer = 0
    while layer < num_layers:
        heights, widths = [], []
        last = layer
        while last < len(strides) and strides[last] == strides[layer]:
            s = scale(last)
            for ratio in aspect_ratios:
                heights.append(s / np.sqrt(ratio))
                widths.append(s * np.sqrt(ratio))
            if interpolated_ratio > 0:
                s_next = 1.0 if last == len(strides) - 1 else scale(last + 1)
                si = np.sqrt(s * s_next)
                heights.append(si / np.sqrt(interpolated_ratio))
                widths.append(si * np.sqrt(interpolated_ratio))
            last += 1
        fm = int(np.ceil(size / strides[layer]))
        for y in range(fm):
            for x in range(fm):
                for k in range(len(heights)):
                    anchors.append(((x + offset) / fm, (y + offset) / fm,
                                    1.0 if fixed_size else widths[k], 1.0 if fixed_size else heights[k]))
        layer = last
    return np.array(anchors, dtype=np.float64)


FACE_ANCHORS = {
    128: dict(num_layers=4, min_scale=0.1484375, max_scale=0.75, size=128, strides=[8, 16, 16, 16],
              interpolated_ratio=1.0),
    192: dict(num_layers=1, min_scale=0.1484375, max_scale=0.75, size=192, strides=[4],
              interpolated_ratio=0.0),
}
# min_score_thresh of TensorsToDetectionsCalculator in MediaPipe's graph for each input size.
FACE_SCORE_THRESHOLD = {128: 0.5, 192: 0.6}


def weighted_nms(corners, scores, iou_threshold):
    """MediaPipe WeightedNonMaxSuppression (no score floor, no count limit)."""
    remaining = list(np.argsort(-scores, kind="stable"))
    out_boxes, out_scores = [], []
    while remaining:
        best = remaining[0]
        sims = iou(corners[best], corners[remaining])
        cluster = [r for r, s in zip(remaining, sims) if s > iou_threshold or r == best]
        rest = [r for r, s in zip(remaining, sims) if not (s > iou_threshold or r == best)]
        weights = scores[cluster].astype(np.float64)
        out_boxes.append((corners[cluster] * weights[:, None]).sum(axis=0) / weights.sum())
        out_scores.append(scores[best])
        remaining = rest
    return np.array(out_boxes).reshape(-1, 4), np.array(out_scores, dtype=np.float32)


def blazeface(model, image, iou_threshold=0.3):
    img = load_rgb(image)
    h, w, _ = img.shape
    interp = litert.Interpreter(model_path=model)
    size = int(interp.get_input_details()[0]["shape"][1])
    r = min(size / w, size / h)
    assert (w * r).is_integer() and (h * r).is_integer() and ((size - w * r) / 2).is_integer() \
        and ((size - h * r) / 2).is_integer(), "pick a photo whose letterbox is whole pixels (see above)"
    padded, (cw, ch), (px, py) = letterbox(img, size, fill=0)
    raw, logits = run(model, padded, lambda p: (p - np.float32(127.5)) / np.float32(127.5))
    score_threshold = FACE_SCORE_THRESHOLD[size]
    anchors = mediapipe_anchors(**FACE_ANCHORS[size])
    raw = raw[0].astype(np.float64)
    assert len(anchors) == raw.shape[0]
    scores = (1 / (1 + np.exp(-np.clip(logits[0, :, 0].astype(np.float64), -100, 100)))).astype(np.float32)
    keep = scores >= score_threshold
    a, r = anchors[keep], raw[keep]
    cx = r[:, 0] / size * a[:, 2] + a[:, 0]
    cy = r[:, 1] / size * a[:, 3] + a[:, 1]
    bw = r[:, 2] / size * a[:, 2]
    bh = r[:, 3] / size * a[:, 3]
    corners = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1)
    merged, merged_scores = weighted_nms(corners, scores[keep], iou_threshold)
    photo = (merged * size - np.array([px, py, px, py])) * np.array([w / cw, h / ch, w / cw, h / ch])
    return img, to_photo(photo, w, h), merged_scores, np.zeros(len(merged_scores), dtype=int)


# ---------------------------------------------------------------- cases

def labels_from(path):
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


CASES = [
    # name, family, model (root, file), photo, label file (root, file) or None
    ("yolov8n_motorcycle", yolov8, (SHARED, "yolov8n_int8_640.tflite"), "motorcycle.png", (SHARED, "coco_labels.txt")),
    ("yolov8n_astronaut", yolov8, (SHARED, "yolov8n_int8_640.tflite"), "astronaut.png", (SHARED, "coco_labels.txt")),
    ("yolov8n_chelsea", yolov8, (SHARED, "yolov8n_int8_640.tflite"), "chelsea.png", (SHARED, "coco_labels.txt")),
    # The two YOLO layouts derived from the same YOLOv8n (Scripts/goldens/derived_detectors.py,
    # Models/derived, written by Scripts/derive-models.sh; never committed).
    ("yolov5_derived_motorcycle", yolov5, (DERIVED, "yolov5_from_yolov8n.tflite"), "motorcycle.png", (SHARED, "coco_labels.txt")),
    ("yolov5_derived_astronaut", yolov5, (DERIVED, "yolov5_from_yolov8n.tflite"), "astronaut.png", (SHARED, "coco_labels.txt")),
    ("yolov5_derived_chelsea", yolov5, (DERIVED, "yolov5_from_yolov8n.tflite"), "chelsea.png", (SHARED, "coco_labels.txt")),
    ("yolo_nms_derived_motorcycle", yolo_nms, (DERIVED, "yolo_nms_from_yolov8n.tflite"), "motorcycle.png", (SHARED, "coco_labels.txt")),
    ("yolo_nms_derived_astronaut", yolo_nms, (DERIVED, "yolo_nms_from_yolov8n.tflite"), "astronaut.png", (SHARED, "coco_labels.txt")),
    ("yolo_nms_derived_chelsea", yolo_nms, (DERIVED, "yolo_nms_from_yolov8n.tflite"), "chelsea.png", (SHARED, "coco_labels.txt")),
    ("ssd_pets_chelsea", ssd_postprocessed, (SHARED, "ssd_pets_uint8.tflite"), "chelsea.png", (SHARED, "ssd_pets_labels.txt")),
    ("face_short_range_astronaut", blazeface, (MODELS, "face_detection_short_range.tflite"), "astronaut.png", None),
    ("face_full_range_astronaut", blazeface, (MODELS, "face_detection_full_range.tflite"), "astronaut.png", None),
    # Non-square crops of the astronaut: a stretched input squeezes the face and moves its box.
    ("face_short_range_astronaut_landscape", blazeface, (MODELS, "face_detection_short_range.tflite"),
     ("astronaut.png", (0, 0, 512, 288)), None),
    ("face_full_range_astronaut_portrait", blazeface, (MODELS, "face_detection_full_range.tflite"),
     ("astronaut.png", (80, 0, 288, 512)), None),
]


def float64_note(family, model_path, photo, boxes, scores, classes):
    """How many input values float64 resampling changes, and the objects the oracle then finds
    (informational: not compared by the tests)."""
    img = load_rgb(photo)
    interp = litert.Interpreter(model_path=model_path)
    size = interp.get_input_details()[0]["shape"][1:3]
    if family in (yolov8, yolov5, yolo_nms, blazeface):
        content = letterbox(img, int(size[1]))[1]
        a, b = (resize_bilinear(img, *content, precision=p) for p in (np.float32, np.float64))
    else:
        a, b = (resize_bilinear(img, int(size[1]), int(size[0]), precision=p) for p in (np.float32, np.float64))
    return {"input_values_differing": int((a != b).sum()),
            "objects": [[round(float(v), 1) for v in box] + [round(float(s), 4), int(c)]
                        for box, s, c in zip(boxes, scores, classes)]}


def main(selection=()):
    """Writes every case's fixture, or only those named in `selection`."""
    os.makedirs(OUT, exist_ok=True)
    for name, family, (model_root, model_file), photo, label_file in CASES:
        if selection and name not in selection:
            continue
        model_path = os.path.join(model_root, model_file)
        PRECISION[0] = np.float64
        _, boxes64, scores64, classes64 = family(model_path, photo)
        PRECISION[0] = np.float32
        _, boxes, scores, classes = family(model_path, photo)
        labels = labels_from(os.path.join(*label_file)) if label_file else ["Face"]
        offset = 1 if labels[0].lower() in ("???", "background") else 0
        objects = [{"box": [round(float(v), 4) for v in box], "score": round(float(s), 6),
                    "class": int(c) + offset, "label": labels[int(c) + offset]}
                   for box, s, c in zip(boxes, scores, classes)]
        fixture = {
            "model": {SHARED: "shared/", MODELS: "Models/", DERIVED: "Models/derived/"}[model_root] + model_file,
            "labels": ("shared/" + label_file[1]) if label_file else None,
            "photo": photo[0] if isinstance(photo, tuple) else photo,
            "family": family.__name__,
            "objects": objects,
            "float64_resampling": float64_note(family, model_path, photo, boxes64, scores64, classes64),
        }
        # One line per object keeps the fixtures short and their diffs readable.
        note = fixture.pop("float64_resampling")
        text = json.dumps({**fixture, "objects": []}, indent=1)
        text = text[:-2] + ',\n "float64_resampling": ' + json.dumps(note) + "\n}"
        if isinstance(photo, tuple):
            text = text.replace('"photo": ' + json.dumps(photo[0]) + ",",
                                '"photo": ' + json.dumps(photo[0]) + ',\n "crop": ' + json.dumps(list(photo[1])) + ",")
        rows = ",\n".join("  " + json.dumps(o) for o in objects)
        text = text.replace('"objects": []', '"objects": [\n' + rows + "\n ]" if rows else '"objects": []')
        with open(os.path.join(OUT, name + ".json"), "w") as f:
            f.write(text + "\n")
        print(name, [(o["label"], o["score"], o["box"]) for o in objects])


if __name__ == "__main__":
    import sys
    main(tuple(sys.argv[1:]))

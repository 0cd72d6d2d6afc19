"""Golden cases for the `yolov5` and `yolo-nms` detector families (issue 14): no exported model
of either layout is among the test models, so this script builds one small model of each
with seeded weights (a few KB, no weights fetched) and records what the reference runtime
gives on a letterboxed sample photo, decoded here independently of the Swift decoders.

  yolov5    input [1, 64, 64, 3] float in [0, 1]; per stride 8, 16, 32: average pool, a 3x3
            convolution to 3 anchors x (4 + 1 + 3 classes), sigmoid, and YOLOv5's box
            decoding inside the graph (xy = (2s - 0.5 + cell) * stride, wh = (2s)^2 * anchor,
            normalized by the input size, as Ultralytics' TFLite exports give them); output
            [1, 252, 8] (252 = 3 anchors x 84 cells).
  yolo-nms  the same input; stride 8, one box per cell (sigmoid, boxes in input pixels),
            best class and its score, NON_MAX_SUPPRESSION_V5 inside the graph (IoU 0.45,
            score 0.25, at most 20), then gathered rows [x1, y1, x2, y2, score, class];
            output [1, 20, 6] (rows past the kept boxes have score 0).

Writes Tests/Fixtures/families/<family>/{model.tflite, input_0.npy, output_0.npy,
expected.json}: the reference runtime's raw output (ai-edge-litert, reference kernels) and
the boxes a decoder must return, normalized to the model input, best first:
[x, y, width, height, score, class]. Seeds whose scores or IoUs lie within a margin of the
thresholds are skipped, so a last-bit difference cannot flip a box in or out; so are seeds
whose YOLOv5 NMS has no decision within 0.05 of the IoU threshold on either side, so the
golden pins that threshold too.
Only used to generate test data.
"""
import json
import os
import shutil

import numpy as np
import tflite

from common import ROOT, run_reference
from hostile_models import G, options
from models import load_photo, resize_bilinear

OUT = os.path.join(ROOT, "Tests", "Fixtures", "families")
Op = tflite.BuiltinOperator
Opts = tflite.BuiltinOptions
SIZE = 64
CLASSES = 3
SCORE_THRESHOLD = 0.25
IOU_THRESHOLD = 0.45
MARGIN = 1e-3
F32 = np.float32

Pool2DOptions, Conv2DOptions, ReshapeOptions, ConcatenationOptions, ReducerOptions, ArgMaxOptions, \
    GatherOptions, NonMaxSuppressionV5Options = (
        __import__(f"tflite.{m}", fromlist=[m]) for m in
        ["Pool2DOptions", "Conv2DOptions", "ReshapeOptions", "ConcatenationOptions", "ReducerOptions",
         "ArgMaxOptions", "GatherOptions", "NonMaxSuppressionV5Options"])


def letterboxed_photo(name):
    """`name` fitted into SIZE x SIZE (aspect kept, bilinear), padded with gray 114, in [0, 1]."""
    photo = load_photo(name, 3)
    h, w = photo.shape[:2]
    scale = SIZE / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    canvas = np.full((SIZE, SIZE, 3), 114, np.uint8)
    top, left = (SIZE - nh) // 2, (SIZE - nw) // 2
    canvas[top:top + nh, left:left + nw] = resize_bilinear(photo, nh, nw)
    return (canvas.astype(F32) / 255)[None]


class Net:
    """Graph-building helpers over hostile_models.G for float tensors."""

    def __init__(self):
        self.g = G()

    def const(self, values, dtype=F32):
        values = np.asarray(values, dtype=dtype)
        return self.g.tensor(values.shape, dtype, data=values)

    def op(self, code, inputs, shape, dtype=F32, opts=None):
        out = self.g.tensor(shape, dtype)
        self.g.op(code, inputs, [out], opts)
        return out

    def features(self, x, stride, channels, rng):
        """Average pool by `stride`, then a 3x3 SAME convolution to `channels`: [1, g, g, channels]."""
        g = SIZE // stride
        pooled = self.op(Op.AVERAGE_POOL_2D, [x], [1, g, g, 3], opts=(Opts.Pool2DOptions, options(
            Pool2DOptions, Padding=1, StrideW=stride, StrideH=stride, FilterWidth=stride, FilterHeight=stride)))
        weights = self.const(rng.normal(0, 1.5, (channels, 3, 3, 3)))
        bias = self.const(rng.normal(-1.5, 0.5, channels))   # most candidates below the threshold
        return self.op(Op.CONV_2D, [pooled, weights, bias], [1, g, g, channels], opts=(Opts.Conv2DOptions, options(
            Conv2DOptions, Padding=0, StrideW=1, StrideH=1, DilationWFactor=1, DilationHFactor=1)))

    def reshape(self, x, shape):
        return self.op(Op.RESHAPE, [x, self.const(shape, np.int32)], shape,
                       opts=(Opts.ReshapeOptions, options(ReshapeOptions)))

    def columns(self, x, rows, start, count):
        return self.op(Op.SLICE, [x, self.const([0, start], np.int32), self.const([rows, count], np.int32)],
                       [rows, count])

    def binary(self, code, a, b, shape):
        return self.op(code, [a, b], shape)

    def concat(self, xs, axis, shape):
        return self.op(Op.CONCATENATION, xs, shape,
                       opts=(Opts.ConcatenationOptions, options(ConcatenationOptions, Axis=axis)))


def cells(g, per_cell):
    """(x, y) of each row's cell, rows ordered cell by cell, `per_cell` rows per cell."""
    return np.array([(x, y) for y in range(g) for x in range(g) for _ in range(per_cell)], F32)


def yolov5_model(rng):
    n = Net()
    x = n.g.tensor([1, SIZE, SIZE, 3], F32)
    anchors = {8: [(4, 5), (8, 10), (12, 9)], 16: [(16, 12), (12, 20), (22, 18)], 32: [(26, 20), (20, 28), (28, 28)]}
    scales = []
    for stride in (8, 16, 32):
        g = SIZE // stride
        rows = g * g * 3
        raw = n.reshape(n.features(x, stride, 3 * (5 + CLASSES), rng), [rows, 5 + CLASSES])
        s = n.op(Op.LOGISTIC, [raw], [rows, 5 + CLASSES])
        two = n.const([2.0])
        xy = n.binary(Op.MUL, n.columns(s, rows, 0, 2), two, [rows, 2])
        xy = n.binary(Op.ADD, xy, n.const(cells(g, 3) - 0.5), [rows, 2])
        xy = n.binary(Op.MUL, xy, n.const([stride / SIZE]), [rows, 2])
        wh = n.binary(Op.MUL, n.columns(s, rows, 2, 2), two, [rows, 2])
        wh = n.binary(Op.MUL, wh, wh, [rows, 2])
        wh = n.binary(Op.MUL, wh, n.const(np.tile(np.array(anchors[stride], F32) / SIZE, (g * g, 1))), [rows, 2])
        scales.append((n.concat([xy, wh, n.columns(s, rows, 4, 1 + CLASSES)], 1, [rows, 5 + CLASSES]), rows))
    total = sum(r for _, r in scales)
    out = n.reshape(n.concat([t for t, _ in scales], 0, [total, 5 + CLASSES]), [1, total, 5 + CLASSES])
    return n.g.build([x], [out], description="yolov5-style detector, seeded weights (issue 14 golden)"), None, None


def yolo_nms_model(rng, max_boxes=20):
    n = Net()
    x = n.g.tensor([1, SIZE, SIZE, 3], F32)
    g, stride = SIZE // 8, 8
    rows = g * g
    raw = n.reshape(n.features(x, stride, 4 + CLASSES, rng), [rows, 4 + CLASSES])
    s = n.op(Op.LOGISTIC, [raw], [rows, 4 + CLASSES])
    centre = n.binary(Op.MUL, n.binary(Op.ADD, n.columns(s, rows, 0, 2), n.const(cells(g, 1)), [rows, 2]),
                      n.const([float(stride)]), [rows, 2])
    half = n.binary(Op.MUL, n.columns(s, rows, 2, 2), n.const([16.0]), [rows, 2])   # wh = 32 s, half = 16 s
    boxes = n.concat([n.binary(Op.SUB, centre, half, [rows, 2]), n.binary(Op.ADD, centre, half, [rows, 2])],
                     1, [rows, 4])
    classes = n.columns(s, rows, 4, CLASSES)
    score = n.op(Op.REDUCE_MAX, [classes, n.const([1], np.int32)], [rows],
                 opts=(Opts.ReducerOptions, options(ReducerOptions, KeepDims=False)))
    best = n.op(Op.ARG_MAX, [classes, n.const([1], np.int32)], [rows], np.int32,
                opts=(Opts.ArgMaxOptions, options(ArgMaxOptions, OutputType=tflite.TensorType.INT32)))
    best = n.op(Op.CAST, [best], [rows])
    index = n.g.tensor([max_boxes], np.int32)
    kept_scores = n.g.tensor([max_boxes], F32)
    valid = n.g.tensor([], np.int32)
    n.g.op(Op.NON_MAX_SUPPRESSION_V5,
           [boxes, score, n.const(max_boxes, np.int32), n.const(IOU_THRESHOLD), n.const(SCORE_THRESHOLD), n.const(0.0)],
           [index, kept_scores, valid], (Opts.NonMaxSuppressionV5Options, options(NonMaxSuppressionV5Options)))
    gather = (Opts.GatherOptions, options(GatherOptions, Axis=0))
    kept_boxes = n.op(Op.GATHER, [boxes, index], [max_boxes, 4], opts=gather)
    kept_classes = n.op(Op.GATHER, [best, index], [max_boxes], opts=gather)
    rows_out = n.concat([kept_boxes, n.reshape(kept_scores, [max_boxes, 1]), n.reshape(kept_classes, [max_boxes, 1])],
                        1, [max_boxes, 6])
    out = n.reshape(rows_out, [1, max_boxes, 6])
    model = n.g.build([x], [out], description="YOLO export with NMS in the graph, seeded weights (issue 14 golden)")
    return model, boxes, score


def iou(a, b):
    """IoU of corner boxes (x1, y1, x2, y2)."""
    w = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    h = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def decode_yolov5(out, max_count=100):
    """Rows [cx, cy, w, h, objectness, classes...] (normalized): score = objectness x best class,
    greedy class-aware NMS. Returns (candidates, near-threshold problems)."""
    rows = out[0].astype(np.float64)
    problems = []
    found = []
    for i, r in enumerate(rows):
        cls = int(np.argmax(r[5:]))
        score = r[4] * r[5 + cls]
        for v in (r[4], score):
            if abs(v - SCORE_THRESHOLD) < MARGIN:
                problems.append(f"row {i}: {v} near the score threshold")
        if np.sort(r[5:])[-2] > r[5 + cls] - MARGIN:
            if score >= SCORE_THRESHOLD:
                problems.append(f"row {i}: two classes within the margin")
        if r[4] >= SCORE_THRESHOLD and score >= SCORE_THRESHOLD:
            assert max(r[2], r[3]) <= 2, "normalized extents stay at most 2 (the decoders' unit rule)"
            box = (r[0] - r[2] / 2, r[1] - r[3] / 2, r[0] + r[2] / 2, r[1] + r[3] / 2)
            found.append((score, i, box, cls))
    decisive = []
    kept = nms(found, problems, max_count, decisive)
    pins_threshold(decisive, problems, "class-aware NMS")
    return kept, problems


def nms(found, problems, max_count, decisive=None):
    """Greedy NMS, best first: a box is dropped when its IoU with a kept box of its class
    exceeds the threshold. `decisive` collects each decision's largest IoU."""
    found.sort(key=lambda f: (-f[0], f[1]))
    kept = []
    for score, i, box, cls in found:
        same = [k for k in kept if k[3] == cls]
        overlaps = [iou(box, k[2]) for k in same]
        if any(abs(o - IOU_THRESHOLD) < MARGIN for o in overlaps):
            problems.append(f"row {i}: an IoU near the NMS threshold")
        if decisive is not None and overlaps:
            decisive.append(max(overlaps))
        if all(o <= IOU_THRESHOLD for o in overlaps):
            kept.append((score, i, box, cls))
        if len(kept) == max_count:
            break
    return [[b[0], b[1], b[2] - b[0], b[3] - b[1], s, c] for s, _, b, c in kept]


def pins_threshold(decisive, problems, what):
    """Requires a box dropped with an IoU just above the threshold and one kept with an IoU just
    below it, so a decoder with another IoU threshold (0.4 or 0.5) gives other boxes."""
    if not any(IOU_THRESHOLD < o < IOU_THRESHOLD + 0.05 for o in decisive) \
            or not any(IOU_THRESHOLD - 0.05 < o <= IOU_THRESHOLD for o in decisive):
        problems.append(f"{what}: no NMS decision within 0.05 of the threshold on both sides")


def decode_yolo_nms(out):
    """Rows [x1, y1, x2, y2, score, class] in input pixels: kept when score >= threshold."""
    rows = out[0].astype(np.float64)
    problems = []
    kept = []
    for i, r in enumerate(rows):
        if abs(r[4] - SCORE_THRESHOLD) < MARGIN:
            problems.append(f"row {i}: score near the threshold")
        if r[4] >= SCORE_THRESHOLD:
            x1, y1, x2, y2 = (v / SIZE for v in r[:4])
            kept.append((r[4], i, [x1, y1, x2 - x1, y2 - y1, r[4], int(r[5])]))
    kept.sort(key=lambda k: (-k[0], k[1]))
    return [k[2] for k in kept], problems


def in_graph_nms_problems(model_bytes, image, boxes_index, score_index):
    """The in-graph NMS's decisions, checked for margins on its inputs (the boxes and scores
    before NMS, read from a reference run that keeps every intermediate tensor)."""
    from ai_edge_litert import interpreter as litert
    interp = litert.Interpreter(model_content=model_bytes, experimental_preserve_all_tensors=True,
                                experimental_op_resolver_type=litert.OpResolverType.BUILTIN_REF)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], image)
    interp.invoke()
    boxes = interp.get_tensor(boxes_index).astype(np.float64)
    scores = interp.get_tensor(score_index).astype(np.float64)
    problems = [f"candidate {i}: score near the threshold" for i, v in enumerate(scores)
                if abs(v - SCORE_THRESHOLD) < MARGIN]
    found = [(v, i, tuple(boxes[i]), 0) for i, v in enumerate(scores) if v >= SCORE_THRESHOLD]
    nms(found, problems, 20)   # class-agnostic, as NON_MAX_SUPPRESSION_V5
    return problems


def save(family, model_bytes, image, output, expected, description):
    directory = os.path.join(OUT, family)
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    with open(os.path.join(directory, "model.tflite"), "wb") as f:
        f.write(model_bytes)
    np.save(os.path.join(directory, "input_0.npy"), image)
    np.save(os.path.join(directory, "output_0.npy"), output)
    rows = [json.dumps([float(v) for v in row[:5]] + [int(row[5])]) for row in expected]
    with open(os.path.join(directory, "expected.json"), "w") as f:
        f.write("{\"description\": " + json.dumps(description) + ",\n \"scoreThreshold\": " + json.dumps(SCORE_THRESHOLD)
                + ",\n \"boxes\": [\n  " + ",\n  ".join(rows) + "\n ]\n}\n")


def main():
    image = letterboxed_photo("motorcycle")
    for family, build, decode in [("yolov5", yolov5_model, decode_yolov5), ("yolo-nms", yolo_nms_model, decode_yolo_nms)]:
        for seed in range(500):
            model, boxes_index, score_index = build(np.random.default_rng(seed))
            output = run_reference(model, [image])[0]
            expected, problems = decode(output)
            if boxes_index is not None:
                problems += in_graph_nms_problems(model, image, boxes_index, score_index)
            if not problems and 3 <= len(expected) < (100 if family == "yolov5" else 20):
                break
        else:
            raise SystemExit(f"{family}: no seed without near-threshold values")
        print(f"{family}: seed {seed}, output {list(output.shape)}, {len(expected)} boxes, model {len(model)} bytes")
        save(family, model, image, output, expected,
             f"{family} model with seeded weights (seed {seed}) on the letterboxed motorcycle photo; "
             "boxes decoded in Python from the reference runtime's output")


if __name__ == "__main__":
    main()

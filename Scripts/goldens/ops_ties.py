"""Golden cases for tie-breaking and on-the-fly quantization edge cases (Tests/Fixtures/ops/ties/).

Inputs that real photos never produce: exact ties (many equal quantized scores, equal boxes),
constant and one-sided activations, all-zero rows, extreme zero points and scales, NaN and
infinities where the reference defines the result. Outputs come from the reference kernels
(common.save_case), compared bit-exact (float outputs of the hybrid kernels within the float
rule). Cases:
- TOPK_V2: int8 / uint8 / int32 / float rows full of ties, k = row size, k = 1, constant rows,
  infinities; the reference orders by value, then lower index first;
- ARG_MAX / ARG_MIN: all-equal rows, ties at both ends, int8 extreme values, float with repeated
  infinities and ±0. No NaN: the reference's result for NaN depends on the row length (a
  leading NaN wins in rows of 4 and loses in rows of 12: its long rows take a vector path), so
  it defines none to match;
- NON_MAX_SUPPRESSION_V4 / V5: every score equal, equal boxes, quantized-score grids;
- a YOLO-style graph (int8): class max and ARG_MAX over 80 scores, TOPK_V2 of the scores,
  GATHER, NON_MAX_SUPPRESSION_V4 with class offsets, padded to 300 × 6 — random int8 scores tie
  everywhere after quantization;
- hybrid FULLY_CONNECTED / CONV_2D / DEPTHWISE_CONV_2D (int8 weights, float activations) on
  constant, one-sided, all-zero and exact-half inputs, per-tensor (symmetric) and per-channel
  (asymmetric) weight scales, asymmetric_quantize_inputs on and off.
Run: Scripts/generate-goldens.sh ops_ties
"""
import numpy as np

from common import clear_family, convert_int8, save_case
from ops_detection import nms_model
from single_op_model import T, build, const, options, options_type

FAMILY = "ties"
rng = np.random.default_rng(20261124)
TOPK_V2, ARG_MAX, ARG_MIN = 48, 56, 79
FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D = 9, 3, 4


def opt(name, **fields):
    return dict(options_type=options_type(name), options_fn=options(name, **fields))


def case(name, op, inputs, outputs, feeds, tolerance="exact", description="", **kw):
    save_case(FAMILY, name, build(op, inputs, outputs, **kw), feeds, tolerance=tolerance, description=description)


def topk():
    ties8 = rng.integers(-3, 3, size=(4, 40)).astype(np.int8)
    ties8[1] = 7                                           # a constant row
    ties8[2, ::3] = 127; ties8[2, 1::3] = -128             # both extremes, many of each
    case("topk_int8_ties", TOPK_V2, [T([4, 40], np.int8, (0.5, -128)), const(17, shape=[])],
         [T([1], np.int8, (0.5, -128)), T([1], np.int32)], [ties8],
         description="TOPK_V2 int8 rows of six values, a constant row, extremes: equal values in index order")
    u8 = np.full((2, 300), 200, np.uint8); u8[0, 150:] = 255; u8[1, rng.permutation(300)[:40]] = 201
    case("topk_uint8_k_equals_row", TOPK_V2, [T([2, 300], np.uint8, (1.0, 0)), const(300, shape=[])],
         [T([1], np.uint8, (1.0, 0)), T([1], np.int32)], [u8], description="k = row size, 3 distinct values")
    case("topk_int32_k1_constant", TOPK_V2, [T([3, 9], np.int32), const(1, shape=[])],
         [T([1], np.int32), T([1], np.int32)], [np.full((3, 9), -5, np.int32)], description="k = 1 on constant rows")
    f = np.round(rng.uniform(-2, 2, size=(3, 64)) * 2).astype(np.float32) / 2
    f[0, [5, 9, 40]] = np.inf; f[0, [6, 33]] = -np.inf
    f[1] = 0.0; f[1, ::2] = -0.0                           # +0 and -0 are equal
    case("topk_float_ties_infinities", TOPK_V2, [T([3, 64], np.float32), const(20, shape=[])],
         [T([1], np.float32), T([1], np.int32)], [f], description="half-step grid, ±inf, ±0 ties")


def arg_min_max():
    x8 = rng.integers(-2, 2, size=(3, 16, 5)).astype(np.int8)
    x8[0] = -128; x8[1, :, 0] = 127; x8[1, 3:, 0] = 127; x8[2, [0, 15], :] = 127
    for op, name in ((ARG_MAX, "arg_max"), (ARG_MIN, "arg_min")):
        options_name = "ArgMaxOptions" if op == ARG_MAX else "ArgMinOptions"
        case(f"{name}_int8_ties", op, [T([3, 16, 5], np.int8, (0.1, 0)), const([1])], [T([3, 5], np.int32)],
             [x8], description=f"{name.upper()} int8 axis 1: constant planes, ties at both ends",
             **opt(options_name, OutputType=2))
        xf = np.round(rng.uniform(-1, 1, size=(4, 12))).astype(np.float32)
        xf[1] = 1.0; xf[2, 4] = np.inf; xf[2, 9] = np.inf; xf[2, 1] = -np.inf; xf[2, 7] = -np.inf
        xf[3] = 0.0; xf[3, ::3] = -0.0
        case(f"{name}_float_ties_inf", op, [T([4, 12], np.float32), const([1])], [T([4], np.int64)],
             [xf], description=f"{name.upper()} float: equal rows, repeated ±inf, +0 and -0 ties",
             **opt(options_name, OutputType=4))


def nms():
    n = 64
    y, x = rng.uniform(0, 1, size=(2, n)); h, w = rng.uniform(0.05, 0.3, size=(2, n))
    boxes = np.stack([y, x, y + h, x + w], axis=1).astype(np.float32)
    boxes[20:30] = boxes[20]                               # ten equal boxes
    equal = np.full(n, 0.5, np.float32)
    save_case(FAMILY, "nms_v4_all_scores_equal", nms_model(n, 40, 0.5, 0.1), [boxes, equal], tolerance="exact",
              description="NON_MAX_SUPPRESSION_V4: every score 0.5, ten equal boxes")
    grid = (np.round(rng.uniform(0, 1, size=n) * 3) / 3).astype(np.float32)
    save_case(FAMILY, "nms_v4_three_score_levels", nms_model(n, 64, 0.3, 0.0), [boxes, grid], tolerance="exact",
              description="NON_MAX_SUPPRESSION_V4: scores on four levels, zero score threshold, max = n")
    save_case(FAMILY, "nms_v5_soft_all_scores_equal", nms_model(n, 30, 0.9, 0.05, 0.4), [boxes, equal],
              tolerance="exact", description="NON_MAX_SUPPRESSION_V5 soft: every score equal")


def yolo_graph():
    """YOLOv8-style post-processing inside an int8 graph: ARG_MAX / REDUCE_MAX over classes,
    TOPK_V2 of the scores, GATHER, NMS V4 with per-class box offsets, padded output."""
    import tensorflow as tf
    n, classes, k, max_det = 840, 80, 150, 30

    def graph(x):
        p = tf.transpose(x[0], [1, 0])
        boxes, scores = p[:, :4], p[:, 4:]
        score = tf.reduce_max(scores, axis=-1)
        cls = tf.cast(tf.argmax(scores, axis=-1), tf.float32)
        score = score * tf.cast(score > 0.25, tf.float32)
        top = tf.math.top_k(score, k=k).indices
        b, s, c = tf.gather(boxes, top), tf.gather(score, top), tf.gather(cls, top)
        corners = tf.concat([b[:, :2] - b[:, 2:] / 2, b[:, :2] + b[:, 2:] / 2], axis=-1) + c[:, None]
        keep, count = tf.raw_ops.NonMaxSuppressionV4(boxes=corners, scores=s, max_output_size=max_det,
                                                     iou_threshold=0.45, score_threshold=0.0,
                                                     pad_to_max_output_size=True)
        dets = tf.concat([tf.gather(b, keep), tf.gather(s, keep)[:, None], tf.gather(c, keep)[:, None]], axis=-1)
        return (dets * tf.cast(tf.range(max_det) < count, tf.float32)[:, None])[None]

    model = convert_int8(graph, [[1, 4 + classes, n]], rng, io_type="int8", low=0.0, high=1.0)
    x = rng.integers(-128, 128, size=(1, 4 + classes, n)).astype(np.int8)
    save_case(FAMILY, "yolo_nms_graph_int8_random", model, [x], tolerance="exact",
              description="YOLO-style int8 graph with NMS inside: random scores tie after quantization")
    low = x.copy(); low[0, 4:] = rng.integers(-128, -100, size=(classes, n))
    low[0, 4:, rng.permutation(n)[:60]] = rng.integers(-20, -16, size=(60, classes)).T.astype(np.int8).T
    save_case(FAMILY, "yolo_nms_graph_int8_few_candidates", model, [low], tolerance="exact",
              description="the same graph with 60 candidates above the threshold on four score levels")


def hybrid():
    """Hybrid kernels: int8 weights, float activations quantized on the fly."""
    def weights(shape, per_channel_axis=None):
        w = rng.integers(-127, 128, size=shape).astype(np.int8)
        if per_channel_axis is None:
            return w, (0.02, 0)
        count = shape[per_channel_axis]
        scales = list(np.round(rng.uniform(0.005, 0.05, size=count), 6).astype(float))
        return w, (scales, [0] * count, per_channel_axis)

    inputs = {
        "constant_half": lambda s: np.full(s, 0.5, np.float32),
        "one_sided_positive": lambda s: rng.uniform(0.0, 3.0, size=s).astype(np.float32),
        "one_sided_negative": lambda s: -rng.uniform(0.0, 3.0, size=s).astype(np.float32),
        "all_zero": lambda s: np.zeros(s, np.float32),
        "exact_halves": lambda s: (rng.integers(-254, 255, size=s) / 2).astype(np.float32),
        "tiny": lambda s: rng.uniform(-1e-30, 1e-30, size=s).astype(np.float32),
    }
    for asymmetric in (False, True):
        w, q = weights((6, 24))
        for name, make in inputs.items():
            x = make((3, 24))
            x[1] = 0.0                                       # an all-zero row among others
            case(f"hybrid_fc_{'asym' if asymmetric else 'sym'}_{name}", FULLY_CONNECTED,
                 [T([3, 24], np.float32), T([6, 24], np.int8, q, data=w), const(rng.uniform(-1, 1, 6), np.float32)],
                 [T([3, 6], np.float32)], [x], tolerance="exact",
                 description=f"hybrid FULLY_CONNECTED, asymmetric_quantize_inputs={asymmetric}, {name} input",
                 **opt("FullyConnectedOptions", AsymmetricQuantizeInputs=asymmetric))
    for per_channel in (False, True):
        w, q = weights((5, 3, 3, 4), 0 if per_channel else None)
        for name, make in inputs.items():
            case(f"hybrid_conv_{'per_channel' if per_channel else 'per_tensor'}_{name}", CONV_2D,
                 [T([1, 6, 7, 4], np.float32), T([5, 3, 3, 4], np.int8, q, data=w),
                  const(rng.uniform(-1, 1, 5), np.float32)],
                 [T([1, 6, 7, 5], np.float32)], [make((1, 6, 7, 4))], tolerance="exact",
                 description=f"hybrid CONV_2D SAME, {'per-channel (asymmetric inputs)' if per_channel else 'per-tensor (symmetric inputs)'}, {name} input",
                 **opt("Conv2DOptions", Padding=0, StrideW=1, StrideH=1))
    w, q = weights((1, 3, 3, 6), 3)
    for name, make in inputs.items():
        case(f"hybrid_depthwise_{name}", DEPTHWISE_CONV_2D,
             [T([1, 5, 5, 6], np.float32), T([1, 3, 3, 6], np.int8, q, data=w), const(rng.uniform(-1, 1, 6), np.float32)],
             [T([1, 5, 5, 6], np.float32)], [make((1, 5, 5, 6))], tolerance="exact",
             description=f"hybrid DEPTHWISE_CONV_2D per-channel, {name} input",
             **opt("DepthwiseConv2DOptions", Padding=0, StrideW=1, StrideH=1, DepthMultiplier=1))


def main():
    clear_family(FAMILY)
    for section in (topk, arg_min_max, nms, yolo_graph, hybrid):
        section()


if __name__ == "__main__":
    main()

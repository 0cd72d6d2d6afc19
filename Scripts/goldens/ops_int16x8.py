"""Golden cases for int16x8 quantized operators (int16 activations with zero point 0, int8
per-channel weights, int64 bias: the converter's 16x8 mode), hand-built with the `tflite`
package's FlatBuffers builders so scales, bias types and options are chosen exactly, with
outputs from the reference runtime's reference kernels, on adversarial inputs: the full int16
range (both extremes), a constant input, a one-sided (non-negative) input.
LOGISTIC, TANH, SOFTMAX and RSQRT on int16, and the broadcasting power-of-two SUB, are checked
against the reference runtime's default kernels (resolver BUILTIN): for LOGISTIC and TANH at
the power-of-two input scales 2^-12 (and 2^-11 for TANH) those run gemmlowp fixed point where
the reference kernels run the interpolated sigmoid table; elsewhere the two agree.
Run: PYTHON=... Scripts/generate-goldens.sh ops_int16x8
"""
import numpy as np

import common
from single_op_model import T, build, options, options_type

FAMILY = "int16x8"
AVERAGE_POOL_2D, CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED, MAX_POOL_2D = 1, 3, 4, 9, 17


def adversarial_inputs(rng, shape):
    """Full-range int16 with both extremes, a constant input, and a one-sided (non-negative) input."""
    full = rng.integers(-32768, 32767, size=shape, endpoint=True).astype(np.int16)
    flat = full.reshape(-1)
    flat[0], flat[-1] = -32768, 32767
    constant = np.full(shape, 12345, np.int16)
    one_sided = rng.integers(0, 32767, size=shape, endpoint=True).astype(np.int16)
    return [("full", full), ("constant", constant), ("nonnegative", one_sided)]


def weights(rng, shape, axis):
    """int8 weights with one scale per slice along `axis` (extremes included) and zero points 0."""
    w = rng.integers(-127, 127, size=shape, endpoint=True).astype(np.int8)
    w.reshape(-1)[:2] = [-127, 127]
    channels = shape[axis]
    scales = list(rng.uniform(0.002, 0.02, size=channels).astype(np.float32))
    return w, scales, [0] * channels


def bias(rng, n, input_scale, filter_scales, dtype=np.int64):
    b = rng.integers(-40000, 40000, size=n).astype(dtype)
    return T([n], dtype, quant=([input_scale * s for s in filter_scales], [0] * n, 0), data=b)


def conv_case(rng, in_shape, cout, k, stride, padding, activation, in_scale, out_scale, bias_type=np.int64):
    cin = in_shape[3]
    w, ws, wz = weights(rng, [cout, k, k, cin], 0)
    tensors = [T(in_shape, np.int16, quant=(in_scale, 0)),
               T([cout, k, k, cin], np.int8, quant=(ws, wz, 0), data=w)]
    if bias_type is not None:
        tensors.append(bias(rng, cout, in_scale, ws, bias_type))
    h = (in_shape[1] + stride - 1) // stride if padding == 0 else (in_shape[1] - k) // stride + 1
    wd = (in_shape[2] + stride - 1) // stride if padding == 0 else (in_shape[2] - k) // stride + 1
    out = [T([in_shape[0], h, wd, cout], np.int16, quant=(out_scale, 0))]
    opts = options("Conv2DOptions", Padding=padding, StrideW=stride, StrideH=stride,
                   FusedActivationFunction=activation, DilationWFactor=1, DilationHFactor=1)
    return build(CONV_2D, tensors, out, options_type("Conv2DOptions"), opts, version=4)


def depthwise_case(rng, in_shape, multiplier, k, stride, padding, activation, in_scale, out_scale):
    cin = in_shape[3]
    cout = cin * multiplier
    w, ws, wz = weights(rng, [1, k, k, cout], 3)
    tensors = [T(in_shape, np.int16, quant=(in_scale, 0)),
               T([1, k, k, cout], np.int8, quant=(ws, wz, 3), data=w),
               bias(rng, cout, in_scale, ws)]
    h = (in_shape[1] + stride - 1) // stride if padding == 0 else (in_shape[1] - k) // stride + 1
    wd = (in_shape[2] + stride - 1) // stride if padding == 0 else (in_shape[2] - k) // stride + 1
    out = [T([in_shape[0], h, wd, cout], np.int16, quant=(out_scale, 0))]
    opts = options("DepthwiseConv2DOptions", Padding=padding, StrideW=stride, StrideH=stride,
                   DepthMultiplier=multiplier, FusedActivationFunction=activation,
                   DilationWFactor=1, DilationHFactor=1)
    return build(DEPTHWISE_CONV_2D, tensors, out, options_type("DepthwiseConv2DOptions"), opts, version=5)


def fc_case(rng, batches, inputs, units, activation, in_scale, out_scale, per_channel):
    w, ws, wz = weights(rng, [units, inputs], 0)
    if not per_channel:
        ws, wz = [ws[0]], [0]
    tensors = [T([batches, inputs], np.int16, quant=(in_scale, 0)),
               T([units, inputs], np.int8, quant=(ws, wz, 0), data=w),
               bias(rng, units, in_scale, ws * (units if not per_channel else 1))]
    out = [T([batches, units], np.int16, quant=(out_scale, 0))]
    opts = options("FullyConnectedOptions", FusedActivationFunction=activation)
    return build(FULLY_CONNECTED, tensors, out, options_type("FullyConnectedOptions"), opts, version=7)


def pool_case(op, in_shape, k, stride, padding, activation, scale):
    h = (in_shape[1] + stride - 1) // stride if padding == 0 else (in_shape[1] - k) // stride + 1
    wd = (in_shape[2] + stride - 1) // stride if padding == 0 else (in_shape[2] - k) // stride + 1
    opts = options("Pool2DOptions", Padding=padding, StrideW=stride, StrideH=stride, FilterWidth=k,
                   FilterHeight=k, FusedActivationFunction=activation)
    return build(op, [T(in_shape, np.int16, quant=(scale, 0))], [T([in_shape[0], h, wd, in_shape[3]], np.int16,
                                                                  quant=(scale, 0))],
                 options_type("Pool2DOptions"), opts, version=3)


ADD, SUB = 0, 41


def add_pot_case(s1, s2, so, activation=0, pot=True, op="Add"):
    """ADD (or SUB) on int16 with zero points 0 and the given scales (powers of two take the pot path)."""
    opts = options(f"{op}Options", FusedActivationFunction=activation, PotScaleInt16=pot)
    shape = [2, 3, 37]
    return build(ADD if op == "Add" else SUB, [T(shape, np.int16, quant=(s1, 0)), T(shape, np.int16, quant=(s2, 0))],
                 [T(shape, np.int16, quant=(so, 0))], options_type(f"{op}Options"), opts, version=3)


def models(rng):
    return [
        ("add_pot_same_scale", add_pot_case(2 ** -12, 2 ** -12, 2 ** -12), None),
        ("add_pot_input2_finer_relu", add_pot_case(2 ** -10, 2 ** -13, 2 ** -10, activation=1), None),
        ("add_pot_input1_finer", add_pot_case(2 ** -15, 2 ** -8, 2 ** -8), None),
        ("add_pot_shift_20", add_pot_case(2 ** -30, 2 ** -10, 2 ** -10), None),
        ("add_pot_option_off", add_pot_case(2 ** -10, 2 ** -13, 2 ** -10, pot=False), None),
        ("sub_pot_input2_finer", add_pot_case(2 ** -10, 2 ** -13, 2 ** -10, op="Sub"), None),
        ("sub_pot_input1_finer_relu", add_pot_case(2 ** -14, 2 ** -9, 2 ** -9, activation=1, op="Sub"), None),
        ("conv_3x3_same_relu", conv_case(rng, [1, 6, 7, 5], 7, 3, 1, 0, 1, 0.0005, 0.002), [1, 6, 7, 5]),
        ("conv_3x3_stride2_valid", conv_case(rng, [2, 7, 8, 5], 6, 3, 2, 1, 0, 0.001, 0.004), [2, 7, 8, 5]),
        ("conv_1x1_relu6_saturating", conv_case(rng, [1, 4, 4, 9], 4, 1, 1, 0, 3, 0.01, 0.0002), [1, 4, 4, 9]),
        ("conv_valid_relu_n1_to_1", conv_case(rng, [1, 5, 5, 3], 4, 3, 1, 1, 2, 0.0005, 0.00003), [1, 5, 5, 3]),
        ("depthwise_3x3_mult2_relu", depthwise_case(rng, [1, 6, 5, 5], 2, 3, 1, 0, 1, 0.0005, 0.001), [1, 6, 5, 5]),
        ("depthwise_3x3_stride2_valid", depthwise_case(rng, [1, 7, 7, 4], 1, 3, 2, 1, 0, 0.002, 0.0005), [1, 7, 7, 4]),
        ("average_pool_3x3_same", pool_case(AVERAGE_POOL_2D, [1, 7, 6, 3], 3, 2, 0, 0, 0.001), [1, 7, 6, 3]),
        ("average_pool_2x2_valid_relu6", pool_case(AVERAGE_POOL_2D, [2, 6, 6, 4], 2, 2, 1, 3, 0.0002), [2, 6, 6, 4]),
        ("max_pool_3x3_same", pool_case(MAX_POOL_2D, [1, 7, 6, 3], 3, 2, 0, 0, 0.001), [1, 7, 6, 3]),
        ("max_pool_2x2_relu", pool_case(MAX_POOL_2D, [1, 6, 6, 4], 2, 1, 1, 1, 0.001), [1, 6, 6, 4]),
        ("fully_connected_per_tensor", fc_case(rng, 3, 20, 6, 0, 0.0005, 0.003, False), [3, 20]),
        ("fully_connected_per_channel_relu", fc_case(rng, 2, 33, 5, 1, 0.001, 0.002, True), [2, 33]),
    ]


MUL, CONCATENATION, RESIZE_BILINEAR, RESIZE_NEAREST, QUANTIZE, DEQUANTIZE = 18, 2, 23, 97, 114, 6


def explicit_cases(rng):
    """int16 paths of operators with other activation types too: MUL, CONCATENATION, RESIZE,
    QUANTIZE and DEQUANTIZE, as (name, model, inputs)."""
    full = lambda shape: adversarial_inputs(rng, shape)[0][1]
    cases = []
    shape = [2, 3, 37]
    for name, s1, s2, so, act in (("mul_general", 0.0003, 0.0007, 0.0001, 0), ("mul_relu_saturating", 0.001, 0.001, 1e-5, 1)):
        model = build(MUL, [T(shape, np.int16, quant=(s1, 0)), T(shape, np.int16, quant=(s2, 0))],
                      [T(shape, np.int16, quant=(so, 0))], options_type("MulOptions"),
                      options("MulOptions", FusedActivationFunction=act), version=5)
        cases.append((name, model, [full(shape), full(shape)]))
    model = build(CONCATENATION, [T([1, 3, 4, 5], np.int16, quant=(0.001, 0)), T([1, 3, 4, 2], np.int16, quant=(0.001, 0))],
                  [T([1, 3, 4, 7], np.int16, quant=(0.001, 0))], options_type("ConcatenationOptions"),
                  options("ConcatenationOptions", Axis=3), version=3)
    cases.append(("concatenation_axis3", model, [full([1, 3, 4, 5]), full([1, 3, 4, 2])]))
    for name, op, opt, fields in (("resize_bilinear_half_pixel", RESIZE_BILINEAR, "ResizeBilinearOptions", {"HalfPixelCenters": True}),
                                  ("resize_bilinear_align_corners", RESIZE_BILINEAR, "ResizeBilinearOptions", {"AlignCorners": True}),
                                  ("resize_nearest", RESIZE_NEAREST, "ResizeNearestNeighborOptions", {})):
        model = build(op, [T([1, 4, 5, 3], np.int16, quant=(0.001, 0)), T([2], np.int32, data=np.array([7, 9], np.int32))],
                      [T([1, 7, 9, 3], np.int16, quant=(0.001, 0))], options_type(opt), options(opt, **fields), version=4)
        cases.append((name, model, [full([1, 4, 5, 3])]))
    # QUANTIZE float -> int16: exact ties (k + 0.5 steps), saturation, negative zero.
    scale = 0.01
    ties = (np.arange(-40, 40) + 0.5) * scale
    x = np.concatenate([ties, [-1e6, 1e6, -0.0, 0.0, 327.67, 327.675, -327.68, -327.685]]).astype(np.float32).reshape(1, -1)
    model = build(QUANTIZE, [T(list(x.shape), np.float32)], [T(list(x.shape), np.int16, quant=(scale, 0))], version=1)
    cases.append(("quantize_float_ties_saturation", model, [x]))
    for name, (si, zi), (so, zo), dt in (("requantize_int16_to_int16", (0.001, 0), (0.0003, 0), np.int16),
                                         ("requantize_int16_to_int8", (0.001, 0), (0.05, -3), np.int8)):
        model = build(QUANTIZE, [T(shape, np.int16, quant=(si, zi))], [T(shape, dt, quant=(so, zo))], version=3)
        cases.append((name, model, [full(shape)]))
    model = build(DEQUANTIZE, [T(shape, np.int16, quant=(0.00037, 0))], [T(shape, np.float32)], version=4)
    cases.append(("dequantize_int16", model, [full(shape)]))
    return cases


LOGISTIC, TANH, SOFTMAX, RSQRT = 14, 28, 25, 76


def sweep():
    """Every int16 code once, as a [256, 256] tensor."""
    return np.arange(-32768, 32768, dtype=np.int16).reshape(256, 256)


def sampled(rng):
    """4,096 int16 codes: both extremes, 0, ±1, every 32nd code and random codes, [64, 64]."""
    fixed = np.array([-32768, 32767, 0, 1, -1, -32767, 2, -2], np.int16)
    strided = np.arange(-32768, 32768, 32, dtype=np.int16)
    rest = rng.integers(-32768, 32767, size=4096 - fixed.size - strided.size, endpoint=True).astype(np.int16)
    return np.concatenate([fixed, strided, rest]).reshape(64, 64)


def unary_model(op, shape, in_scale, out_scale, version=3, opts=None):
    if opts is None:
        return build(op, [T(shape, np.int16, quant=(in_scale, 0))], [T(shape, np.int16, quant=(out_scale, 0))], version=version)
    return build(op, [T(shape, np.int16, quant=(in_scale, 0))], [T(shape, np.int16, quant=(out_scale, 0))],
                 options_type(opts[0]), options(opts[0], **opts[1]), version=version)


def softmax_rows(rng, depth):
    """Rows that stress SOFTMAX: all equal (mid, minimum, maximum), a two-way tie for the maximum,
    one maximum among minima, alternating extremes, then full-range random rows."""
    rows = [np.full(depth, 12345), np.full(depth, -32768), np.full(depth, 32767)]
    tie = rng.integers(-32768, 0, size=depth); tie[0] = tie[-1] = 1000; rows.append(tie)
    lone = np.full(depth, -32768); lone[depth // 2] = 32767; rows.append(lone)
    rows.append(np.where(np.arange(depth) % 2 == 0, 32767, -32768))
    rows.append(np.zeros(depth))
    for _ in range(5):
        rows.append(rng.integers(-32768, 32767, size=depth, endpoint=True))
    return np.array(rows).astype(np.int16)


def activation_cases(rng):
    """int16 LOGISTIC, TANH, SOFTMAX and RSQRT, as (name, model, inputs)."""
    cases = []
    out_scale = 1 / 32768
    # Power-of-two scales the default kernels run in gemmlowp fixed point, power-of-two scales
    # they run on the table (shift outside 0 / 0...1), and general scales (table, rescaled).
    for name, op, scale, full in (("logistic_scale_2e-12", LOGISTIC, 2 ** -12, True),
                                  ("logistic_scale_0.0003", LOGISTIC, 0.0003, True),
                                  ("logistic_scale_2e-10", LOGISTIC, 2 ** -10, False),
                                  ("logistic_scale_2e-11", LOGISTIC, 2 ** -11, False),
                                  ("logistic_scale_0.05", LOGISTIC, 0.05, False),
                                  ("logistic_scale_1e-6", LOGISTIC, 1e-6, False),
                                  ("tanh_scale_2e-12", TANH, 2 ** -12, False),
                                  ("tanh_scale_2e-11", TANH, 2 ** -11, True),
                                  ("tanh_scale_2e-13", TANH, 2 ** -13, False),
                                  ("tanh_scale_1_over_3000", TANH, 1 / 3000, True),
                                  ("tanh_scale_0.002", TANH, 0.002, False),
                                  ("tanh_scale_0.7", TANH, 0.7, False)):
        x = sweep() if full else sampled(rng)
        cases.append((name, unary_model(op, list(x.shape), scale, out_scale), [x]))
    for name, shape, scale, beta in (("softmax_rows_scale_0.001", [12, 33], 0.001, 1.0),
                                     ("softmax_rows_scale_2e-12_beta_0.5", [12, 40], 2 ** -12, 0.5),
                                     ("softmax_rows_scale_0.05", [12, 17], 0.05, 1.0),
                                     ("softmax_rows_scale_1e-5", [12, 9], 1e-5, 1.0)):
        x = softmax_rows(rng, shape[1])
        cases.append((name, unary_model(SOFTMAX, shape, scale, out_scale, version=3,
                                        opts=("SoftmaxOptions", {"Beta": beta})), [x]))
    x = rng.integers(-32768, 32767, size=(2, 3, 4, 10), endpoint=True).astype(np.int16)
    x[0, 0, 0, :] = 77
    cases.append(("softmax_rank4_depth10", unary_model(SOFTMAX, [2, 3, 4, 10], 0.0007, out_scale,
                                                       opts=("SoftmaxOptions", {"Beta": 1.0})), [x]))
    x1 = np.zeros((1, 1), np.int16) + 5
    cases.append(("softmax_depth1", unary_model(SOFTMAX, [1, 1], 0.001, out_scale, opts=("SoftmaxOptions", {"Beta": 1.0})), [x1]))
    # RSQRT on every non-negative code (negative codes are an error in the reference).
    nonnegative = np.arange(0, 32768, dtype=np.int16).reshape(128, 256)
    for name, si, so in (("rsqrt_scale_0.001_out_0.002", 0.001, 0.002), ("rsqrt_scale_2e-10_out_2e-6", 2 ** -10, 2 ** -6),
                         ("rsqrt_saturating_out_0.0001", 0.1, 0.0001)):
        cases.append((name, unary_model(RSQRT, [128, 256], si, so, version=3), [nonnegative]))
    return cases


def sub_broadcast_cases(rng):
    """Power-of-two int16 SUB with broadcasting (the reference's BroadcastSub16POTSlow)."""
    cases = []
    full = lambda shape: rng.integers(-32768, 32767, size=shape, endpoint=True).astype(np.int16)
    for name, sa, sb, s1, s2, so, act in (("sub_pot_broadcast_row_input2_finer", [2, 3, 37], [1, 1, 37], 2 ** -10, 2 ** -13, 2 ** -10, 0),
                                          ("sub_pot_broadcast_both_input1_finer_relu", [1, 3, 1], [2, 1, 37], 2 ** -14, 2 ** -9, 2 ** -9, 1),
                                          ("sub_pot_broadcast_scalar_same_scale", [2, 3, 37], [1], 2 ** -12, 2 ** -12, 2 ** -12, 0),
                                          ("sub_pot_broadcast_scalar_first_shift_20", [1], [4, 37], 2 ** -30, 2 ** -10, 2 ** -10, 0)):
        rank = max(len(sa), len(sb))
        pa, pb = [1] * (rank - len(sa)) + sa, [1] * (rank - len(sb)) + sb
        shape = [max(a, b) for a, b in zip(pa, pb)]
        model = build(SUB, [T(sa, np.int16, quant=(s1, 0)), T(sb, np.int16, quant=(s2, 0))],
                      [T(shape, np.int16, quant=(so, 0))], options_type("SubOptions"),
                      options("SubOptions", FusedActivationFunction=act, PotScaleInt16=True), version=3)
        a, b = full(sa), full(sb)
        a.reshape(-1)[0], b.reshape(-1)[-1] = -32768, 32767
        cases.append((name, model, [a, b]))
    return cases


def large_scale_cases(rng):
    """LOGISTIC / TANH at input scales whose table multiplier stays above 32767 (no doubling,
    shift 0): products of nearly 2^31."""
    return [(name, unary_model(op, [64, 64], scale, 1 / 32768), [sampled(rng)])
            for name, op, scale in (("logistic_scale_5", LOGISTIC, 5.0), ("tanh_scale_3", TANH, 3.0))]


def main():
    common.clear_family(FAMILY)
    rng = np.random.default_rng(1608)
    for name, model, shape in models(rng):
        if shape is None:   # two-input ADD: full-range pairs, then one input constant
            a = adversarial_inputs(rng, [2, 3, 37])
            for kind, x, y in (("full", a[0][1], a[2][1]), ("constant", a[1][1], a[0][1])):
                common.save_case(FAMILY, f"{name}_{kind}", model, [x, y], tolerance="exact",
                                 description=f"16x8 {name}, {kind}")
                print("  ", f"{name}_{kind}")
            continue
        for kind, x in adversarial_inputs(rng, shape):
            common.save_case(FAMILY, f"{name}_{kind}", model, [x], tolerance="exact",
                             description=f"16x8 {name}, {kind} int16 input")
            print("  ", f"{name}_{kind}")
    for name, model, inputs in explicit_cases(rng):
        common.save_case(FAMILY, name, model, inputs, tolerance="exact", description=f"int16 {name}")
        print("  ", name)
    for name, model, inputs in activation_cases(rng) + sub_broadcast_cases(rng) + large_scale_cases(rng):
        common.save_case(FAMILY, name, model, inputs, tolerance="exact", resolver="BUILTIN",
                         description=f"int16 {name} (reference runtime, default kernels)")
        print("  ", name)


if __name__ == "__main__":
    main()

"""Golden cases for the convolution family: CONV_2D, DEPTHWISE_CONV_2D, FULLY_CONNECTED,
TRANSPOSE_CONV, AVERAGE_POOL_2D, MAX_POOL_2D in float32, uint8 (per-tensor), int8
(per-channel weights) and hybrid (float activations, int8 weights).

Every case is a one-operator model written directly with the TFLite schema's object API, so
padding, strides, dilation, fused activation and quantization parameters are exactly the
ones under test (the TF converter would choose its own). Outputs come from the reference
kernels (see common.save_case). Run via `Scripts/generate-goldens.sh ops_convolution`.
"""
import numpy as np
from tensorflow.lite.python import schema_py_generated as fb
import flatbuffers

import common

FAMILY = "convolution"
F32, I32, U8, I8 = 0, 2, 3, 9
NP = {F32: np.float32, I32: np.int32, U8: np.uint8, I8: np.int8}
ACT = {"none": 0, "relu": 1, "relu_n1_to_1": 2, "relu6": 3}
SAME, VALID = 0, 1


class T:
    """A tensor of the one-op model: shape, type, optional constant data and quantization."""

    def __init__(self, shape, ttype, data=None, scales=None, zps=None, qdim=0):
        self.shape, self.ttype, self.data = list(shape), ttype, data
        self.scales, self.zps, self.qdim = scales, zps, qdim


def build(op, options_type, options, inputs, output, custom_name=None):
    """A .tflite with one operator; `inputs` may contain None for an omitted optional input."""
    model = fb.ModelT()
    model.version = 3
    model.buffers = [fb.BufferT()]
    sub = fb.SubGraphT()
    sub.tensors, sub.inputs = [], []
    ins = []
    for k, t in enumerate(inputs + [output]):
        if t is None:
            ins.append(-1)
            continue
        ft = fb.TensorT()
        ft.shape = t.shape
        ft.type = t.ttype
        ft.name = f"t{k}"
        ft.buffer = 0
        if t.data is not None:
            b = fb.BufferT()
            b.data = np.ascontiguousarray(t.data.astype(NP[t.ttype])).tobytes()
            model.buffers.append(b)
            ft.buffer = len(model.buffers) - 1
        if t.scales is not None:
            q = fb.QuantizationParametersT()
            q.scale = [float(s) for s in t.scales]
            q.zeroPoint = [int(z) for z in t.zps]
            q.quantizedDimension = t.qdim
            ft.quantization = q
        sub.tensors.append(ft)
        idx = len(sub.tensors) - 1
        if t is output:
            sub.outputs = [idx]
        else:
            ins.append(idx)
            if t.data is None:
                sub.inputs.append(idx)
    o = fb.OperatorT()
    o.opcodeIndex = 0
    o.inputs = ins
    o.outputs = sub.outputs
    if options is not None:
        o.builtinOptionsType = options_type
        o.builtinOptions = options
    code = fb.OperatorCodeT()
    code.builtinCode = op
    code.deprecatedBuiltinCode = min(op, 127)
    code.version = 1
    if custom_name:
        code.customCode = custom_name
    model.operatorCodes = [code]
    sub.operators = [o]
    model.subgraphs = [sub]
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def out_size(n, f, s, d, pad):
    eff = (f - 1) * d + 1
    return (n + s - 1) // s if pad == SAME else (n + s - eff) // s


def conv_options(pad, sw, sh, act, dw=1, dh=1):
    o = fb.Conv2DOptionsT()
    o.padding, o.strideW, o.strideH, o.fusedActivationFunction = pad, sw, sh, ACT[act]
    o.dilationWFactor, o.dilationHFactor = dw, dh
    return o


def dw_options(pad, sw, sh, mult, act, dw=1, dh=1):
    o = fb.DepthwiseConv2DOptionsT()
    o.padding, o.strideW, o.strideH, o.depthMultiplier = pad, sw, sh, mult
    o.fusedActivationFunction, o.dilationWFactor, o.dilationHFactor = ACT[act], dw, dh
    return o


def fc_options(act, keep=False, asym=False):
    o = fb.FullyConnectedOptionsT()
    o.fusedActivationFunction, o.keepNumDims, o.asymmetricQuantizeInputs = ACT[act], keep, asym
    return o


def pool_options(pad, sw, sh, fw, fh, act):
    o = fb.Pool2DOptionsT()
    o.padding, o.strideW, o.strideH, o.filterWidth, o.filterHeight = pad, sw, sh, fw, fh
    o.fusedActivationFunction = ACT[act]
    return o


def tconv_options(pad, sw, sh, act):
    o = fb.TransposeConvOptionsT()
    o.padding, o.strideW, o.strideH, o.fusedActivationFunction = pad, sw, sh, ACT[act]
    return o


class Q:
    """Quantization choices of one quantized case."""

    def __init__(self, ttype, in_scale, in_zp, w_zp=0, out_zp=0, saturate=False, per_channel=False,
                 scale_spread=1.0):
        self.ttype, self.in_scale, self.in_zp, self.w_zp = ttype, in_scale, in_zp, w_zp
        self.out_zp, self.saturate, self.per_channel = out_zp, saturate, per_channel
        self.scale_spread = scale_spread


def weight_scales(rng, q, channels):
    if not q.per_channel:
        return [0.02]
    # Per-channel scales spread over `scale_spread` orders of magnitude.
    return list(0.02 * 10.0 ** (-rng.uniform(0, q.scale_spread, size=channels)))


def quantized_weights(rng, q, shape):
    if q.ttype == U8:
        return rng.integers(0, 256, size=shape).astype(np.uint8)
    return rng.integers(-127, 128, size=shape).astype(np.int8)


def output_scale(q, taps, w_scales):
    # Roughly 4 standard deviations of the accumulator over the output range.
    std = q.in_scale * float(np.median(w_scales)) * 74 * 73 * np.sqrt(taps)
    s = 4 * std / 255
    return s / 16 if q.saturate else s


def qtensor(shape, ttype, scales, zps, data=None, qdim=0):
    return T(shape, ttype, data=data, scales=scales, zps=zps, qdim=qdim)


def random_q_input(rng, shape, ttype):
    info = np.iinfo(NP[ttype])
    return rng.integers(info.min, info.max, size=shape, endpoint=True).astype(NP[ttype])


# ----------------------------------------------------------------------------- CONV_2D

def conv_case(rng, name, n, h, w, cin, cout, fh, fw, pad, sw, sh, act, dil=(1, 1), q=None,
              hybrid=None, groups=1, desc=""):
    dh, dw = dil
    oh, ow = out_size(h, fh, sh, dh, pad), out_size(w, fw, sw, dw, pad)
    fshape = [cout, fh, fw, cin // groups]
    opts = conv_options(pad, sw, sh, act, dw, dh)
    if q is None and hybrid is None:
        filt = rng.uniform(-1, 1, size=fshape).astype(np.float32)
        bias = rng.uniform(-1, 1, size=[cout]).astype(np.float32)
        model = build(fb.BuiltinOperator.CONV_2D, fb.BuiltinOptions.Conv2DOptions, opts,
                      [T([n, h, w, cin], F32), T(fshape, F32, filt), T([cout], F32, bias)],
                      T([n, oh, ow, cout], F32))
        x = rng.uniform(-1, 1, size=[n, h, w, cin]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    if hybrid is not None:
        per_channel, spread = hybrid
        scales = list(0.01 * 10.0 ** (-rng.uniform(0, spread, size=cout))) if per_channel else [0.01]
        filt = rng.integers(-127, 128, size=fshape).astype(np.int8)
        bias = rng.uniform(-1, 1, size=[cout]).astype(np.float32)
        model = build(fb.BuiltinOperator.CONV_2D, fb.BuiltinOptions.Conv2DOptions, opts,
                      [T([n, h, w, cin], F32), qtensor(fshape, I8, scales, [0] * len(scales), filt),
                       T([cout], F32, bias)],
                      T([n, oh, ow, cout], F32))
        x = rng.uniform(-2, 3, size=[n, h, w, cin]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    ws = weight_scales(rng, q, cout)
    filt = quantized_weights(rng, q, fshape)
    bias_scales = [np.float32(q.in_scale * s) for s in ws]
    bias = rng.integers(-3000, 3000, size=[cout]).astype(np.int32)
    out_scale = output_scale(q, fh * fw * cin // groups, ws)
    model = build(fb.BuiltinOperator.CONV_2D, fb.BuiltinOptions.Conv2DOptions, opts,
                  [qtensor([n, h, w, cin], q.ttype, [q.in_scale], [q.in_zp]),
                   qtensor(fshape, q.ttype, ws, [q.w_zp] * len(ws), filt),
                   qtensor([cout], I32, bias_scales, [0] * len(ws), bias)],
                  qtensor([n, oh, ow, cout], q.ttype, [out_scale], [q.out_zp]))
    x = random_q_input(rng, [n, h, w, cin], q.ttype)
    common.save_case(FAMILY, name, model, [x], "exact", desc)


# ------------------------------------------------------------------- DEPTHWISE_CONV_2D

def dw_case(rng, name, n, h, w, cin, mult, fh, fw, pad, sw, sh, act, dil=(1, 1), q=None, hybrid=None, desc=""):
    dh, dw = dil
    cout = cin * mult
    oh, ow = out_size(h, fh, sh, dh, pad), out_size(w, fw, sw, dw, pad)
    fshape = [1, fh, fw, cout]
    opts = dw_options(pad, sw, sh, mult, act, dw, dh)
    op, ot = fb.BuiltinOperator.DEPTHWISE_CONV_2D, fb.BuiltinOptions.DepthwiseConv2DOptions
    if q is None and hybrid is None:
        filt = rng.uniform(-1, 1, size=fshape).astype(np.float32)
        bias = rng.uniform(-1, 1, size=[cout]).astype(np.float32)
        model = build(op, ot, opts, [T([n, h, w, cin], F32), T(fshape, F32, filt), T([cout], F32, bias)],
                      T([n, oh, ow, cout], F32))
        x = rng.uniform(-1, 1, size=[n, h, w, cin]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    if hybrid is not None:
        per_channel, spread = hybrid
        scales = list(0.01 * 10.0 ** (-rng.uniform(0, spread, size=cout))) if per_channel else [0.01] * cout
        filt = rng.integers(-127, 128, size=fshape).astype(np.int8)
        bias = rng.uniform(-1, 1, size=[cout]).astype(np.float32)
        model = build(op, ot, opts, [T([n, h, w, cin], F32), qtensor(fshape, I8, scales, [0] * cout, filt, qdim=3),
                                     T([cout], F32, bias)], T([n, oh, ow, cout], F32))
        x = rng.uniform(-2, 3, size=[n, h, w, cin]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    ws = weight_scales(rng, q, cout)
    filt = quantized_weights(rng, q, fshape)
    bias_scales = [np.float32(q.in_scale * s) for s in ws]
    bias = rng.integers(-3000, 3000, size=[cout]).astype(np.int32)
    out_scale = output_scale(q, fh * fw, ws)
    model = build(op, ot, opts,
                  [qtensor([n, h, w, cin], q.ttype, [q.in_scale], [q.in_zp]),
                   qtensor(fshape, q.ttype, ws, [q.w_zp] * len(ws), filt, qdim=3),
                   qtensor([cout], I32, bias_scales, [0] * len(ws), bias)],
                  qtensor([n, oh, ow, cout], q.ttype, [out_scale], [q.out_zp]))
    x = random_q_input(rng, [n, h, w, cin], q.ttype)
    common.save_case(FAMILY, name, model, [x], "exact", desc)


# ------------------------------------------------------------------------ FULLY_CONNECTED

def fc_case(rng, name, in_shape, units, act, keep=False, q=None, hybrid=None, bias_present=True, desc=""):
    depth = in_shape[-1]
    batches = int(np.prod(in_shape)) // depth
    out_shape = list(in_shape[:-1]) + [units] if keep else [batches, units]
    wshape = [units, depth]
    op, ot = fb.BuiltinOperator.FULLY_CONNECTED, fb.BuiltinOptions.FullyConnectedOptions
    if q is None and hybrid is None:
        wts = rng.uniform(-1, 1, size=wshape).astype(np.float32)
        bias = T([units], F32, rng.uniform(-1, 1, size=[units]).astype(np.float32)) if bias_present else None
        model = build(op, ot, fc_options(act, keep), [T(in_shape, F32), T(wshape, F32, wts), bias],
                      T(out_shape, F32))
        x = rng.uniform(-1, 1, size=in_shape).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    if hybrid is not None:
        per_channel, asym = hybrid
        scales = list(0.01 * 10.0 ** (-rng.uniform(0, 2, size=units))) if per_channel else [0.01]
        wts = rng.integers(-127, 128, size=wshape).astype(np.int8)
        bias = rng.uniform(-1, 1, size=[units]).astype(np.float32)
        model = build(op, ot, fc_options(act, keep, asym),
                      [T(in_shape, F32), qtensor(wshape, I8, scales, [0] * len(scales), wts), T([units], F32, bias)],
                      T(out_shape, F32))
        x = rng.uniform(-2, 3, size=in_shape).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    ws = weight_scales(rng, q, units)
    wts = quantized_weights(rng, q, wshape)
    bias_scales = [np.float32(q.in_scale * s) for s in ws]
    bias = rng.integers(-3000, 3000, size=[units]).astype(np.int32)
    out_scale = output_scale(q, depth, ws)
    model = build(op, ot, fc_options(act, keep),
                  [qtensor(in_shape, q.ttype, [q.in_scale], [q.in_zp]),
                   qtensor(wshape, q.ttype, ws, [q.w_zp] * len(ws), wts),
                   qtensor([units], I32, bias_scales, [0] * len(ws), bias) if bias_present else None],
                  qtensor(out_shape, q.ttype, [out_scale], [q.out_zp]))
    x = random_q_input(rng, in_shape, q.ttype)
    common.save_case(FAMILY, name, model, [x], "exact", desc)


# ------------------------------------------------------------------------- TRANSPOSE_CONV

def tconv_case(rng, name, n, h, w, cin, cout, fh, fw, pad, sw, sh, act, q=None, desc=""):
    oh = h * sh if pad == SAME else (h - 1) * sh + fh
    ow = w * sw if pad == SAME else (w - 1) * sw + fw
    fshape = [cout, fh, fw, cin]
    shape_t = T([4], I32, np.array([n, oh, ow, cout], dtype=np.int32))
    op, ot = fb.BuiltinOperator.TRANSPOSE_CONV, fb.BuiltinOptions.TransposeConvOptions
    opts = tconv_options(pad, sw, sh, act)
    if q is None:
        filt = rng.uniform(-1, 1, size=fshape).astype(np.float32)
        bias = rng.uniform(-1, 1, size=[cout]).astype(np.float32)
        model = build(op, ot, opts, [shape_t, T(fshape, F32, filt), T([n, h, w, cin], F32), T([cout], F32, bias)],
                      T([n, oh, ow, cout], F32))
        x = rng.uniform(-1, 1, size=[n, h, w, cin]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    ws = weight_scales(rng, q, cout)
    filt = quantized_weights(rng, q, fshape)
    bias_scales = [np.float32(q.in_scale * s) for s in ws]
    bias = rng.integers(-3000, 3000, size=[cout]).astype(np.int32)
    out_scale = output_scale(q, fh * fw * cin / (sh * sw), ws)
    model = build(op, ot, opts,
                  [shape_t, qtensor(fshape, q.ttype, ws, [q.w_zp] * len(ws), filt),
                   qtensor([n, h, w, cin], q.ttype, [q.in_scale], [q.in_zp]),
                   qtensor([cout], I32, bias_scales, [0] * len(ws), bias)],
                  qtensor([n, oh, ow, cout], q.ttype, [out_scale], [q.out_zp]))
    x = random_q_input(rng, [n, h, w, cin], q.ttype)
    common.save_case(FAMILY, name, model, [x], "exact", desc)


# ------------------------------------------------------------------------------ POOLING

def pool_case(rng, name, kind, n, h, w, c, fh, fw, pad, sw, sh, act, q=None, desc=""):
    oh, ow = out_size(h, fh, sh, 1, pad), out_size(w, fw, sw, 1, pad)
    op = fb.BuiltinOperator.AVERAGE_POOL_2D if kind == "avg" else fb.BuiltinOperator.MAX_POOL_2D
    opts = pool_options(pad, sw, sh, fw, fh, act)
    if q is None:
        model = build(op, fb.BuiltinOptions.Pool2DOptions, opts, [T([n, h, w, c], F32)], T([n, oh, ow, c], F32))
        x = rng.uniform(-8, 8, size=[n, h, w, c]).astype(np.float32)
        common.save_case(FAMILY, name, model, [x], "float", desc)
        return
    model = build(op, fb.BuiltinOptions.Pool2DOptions, opts,
                  [qtensor([n, h, w, c], q.ttype, [q.in_scale], [q.in_zp])],
                  qtensor([n, oh, ow, c], q.ttype, [q.in_scale], [q.in_zp]))
    x = random_q_input(rng, [n, h, w, c], q.ttype)
    common.save_case(FAMILY, name, model, [x], "exact", desc)


def multiplier_rounding_cases():
    """Per-tensor multipliers round the scale product to float first (GetQuantizedConvolutionMultipler):
    with these scales (from ssd_pets_uint8) an accumulator of 13163 gives 101, not the 102 that a
    double product would. Found by the real-model cuts (cuts_convolution.py)."""
    s_in, s_w = 0.0235297, 0.0077107116
    bias_scale = [np.float32(s_in) * np.float32(s_w)]
    acc = np.array([13160, 13161, 13162, 13163, 13164], dtype=np.int32)
    x = np.ones([1, 1, 5, 1], dtype=np.uint8)
    model = build(fb.BuiltinOperator.CONV_2D, fb.BuiltinOptions.Conv2DOptions, conv_options(VALID, 1, 1, "relu6"),
                  [qtensor([1, 1, 5, 1], U8, [s_in], [0]), qtensor([5, 1, 1, 1], U8, [s_w], [100],
                                                                    np.full([5, 1, 1, 1], 101, np.uint8)),
                   qtensor([5], I32, bias_scale, [0], acc - 1)],
                  qtensor([1, 1, 5, 5], U8, [s_in], [0]))
    common.save_case(FAMILY, "conv_u8_multiplier_float_product", model, [x], "exact",
                     "CONV_2D uint8 whose per-tensor multiplier depends on rounding the scale product to float")
    xi = np.ones([1, 5], dtype=np.int8)
    model = build(fb.BuiltinOperator.FULLY_CONNECTED, fb.BuiltinOptions.FullyConnectedOptions, fc_options("none"),
                  [qtensor([1, 5], I8, [s_in], [0]), qtensor([5, 5], I8, [s_w], [0], np.eye(5, dtype=np.int8)),
                   qtensor([5], I32, bias_scale, [0], acc - 1)],
                  qtensor([1, 5], I8, [s_in], [0]))
    common.save_case(FAMILY, "fc_i8_multiplier_float_product", model, [xi], "exact",
                     "FULLY_CONNECTED int8 per-tensor: multiplier from the float scale product")


def main():
    rng = np.random.default_rng(20261121)
    common.clear_family(FAMILY)
    u8 = lambda **k: Q(U8, k.pop("in_scale", 0.05), k.pop("in_zp", 128), **k)
    i8 = lambda **k: Q(I8, k.pop("in_scale", 0.05), k.pop("in_zp", -3), per_channel=True, **k)

    # CONV_2D
    geoms = [
        ("same_s1_3x3", dict(n=1, h=7, w=9, cin=3, cout=4, fh=3, fw=3, pad=SAME, sw=1, sh=1)),
        ("valid_s2_3x3", dict(n=1, h=9, w=8, cin=5, cout=6, fh=3, fw=3, pad=VALID, sw=2, sh=2)),
        ("same_dil2", dict(n=1, h=10, w=11, cin=2, cout=3, fh=3, fw=3, pad=SAME, sw=1, sh=1, dil=(2, 2))),
        ("batch2_1x1", dict(n=2, h=5, w=5, cin=8, cout=7, fh=1, fw=1, pad=VALID, sw=1, sh=1)),
        ("same_s2x1_5x4", dict(n=1, h=8, w=7, cin=3, cout=5, fh=5, fw=4, pad=SAME, sw=1, sh=2)),
    ]
    acts = ["relu", "relu6", "relu_n1_to_1", "none", "none"]
    for (g, kw), act in zip(geoms, acts):
        conv_case(rng, f"conv_f32_{g}_{act}", act=act, desc=f"CONV_2D float {g} {act}", **kw)
        conv_case(rng, f"conv_u8_{g}_{act}", act=act, q=u8(w_zp=119, out_zp=131),
                  desc=f"CONV_2D uint8 {g} {act}", **kw)
        conv_case(rng, f"conv_i8_{g}_{act}", act=act, q=i8(out_zp=5, scale_spread=3),
                  desc=f"CONV_2D int8 per-channel {g} {act}", **kw)
    conv_case(rng, "conv_f32_grouped", n=1, h=5, w=6, cin=6, cout=4, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="none", groups=2, desc="CONV_2D float grouped (2 groups)")
    conv_case(rng, "conv_u8_saturating_zp_extremes", n=1, h=6, w=6, cin=4, cout=3, fh=3, fw=3, pad=SAME,
              sw=1, sh=1, act="none", q=u8(in_zp=0, w_zp=255, out_zp=0, saturate=True),
              desc="CONV_2D uint8 saturating output, zero points 0/255")
    conv_case(rng, "conv_i8_saturating_relu6", n=1, h=6, w=5, cin=4, cout=6, fh=3, fw=3, pad=VALID, sw=1,
              sh=1, act="relu6", q=i8(in_zp=-128, out_zp=127, saturate=True, scale_spread=4),
              desc="CONV_2D int8 saturating, zero points -128/127, scales over 4 decades")
    conv_case(rng, "conv_i8_batch2_s2", n=2, h=7, w=7, cin=3, cout=5, fh=3, fw=3, pad=SAME, sw=2, sh=2,
              act="relu", q=i8(in_zp=10, out_zp=-128), desc="CONV_2D int8 batch 2 stride 2")
    conv_case(rng, "conv_hybrid_pc_same", n=1, h=7, w=6, cin=4, cout=5, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="relu", hybrid=(True, 3), desc="CONV_2D hybrid per-channel (asymmetric inputs)")
    conv_case(rng, "conv_hybrid_pc_batch2_s2", n=2, h=8, w=7, cin=3, cout=4, fh=3, fw=3, pad=VALID, sw=2,
              sh=2, act="relu6", hybrid=(True, 2), desc="CONV_2D hybrid per-channel batch 2")
    conv_case(rng, "conv_hybrid_pc_1x1", n=1, h=5, w=5, cin=8, cout=6, fh=1, fw=1, pad=VALID, sw=1, sh=1,
              act="none", hybrid=(True, 1), desc="CONV_2D hybrid per-channel 1x1")
    conv_case(rng, "conv_hybrid_pt", n=1, h=6, w=6, cin=3, cout=4, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="none", hybrid=(False, 0), desc="CONV_2D hybrid per-tensor (symmetric inputs)")

    # DEPTHWISE_CONV_2D
    dgeoms = [
        ("same_s1_m1", dict(n=1, h=7, w=9, cin=5, mult=1, fh=3, fw=3, pad=SAME, sw=1, sh=1)),
        ("valid_s2_m2", dict(n=1, h=9, w=8, cin=3, mult=2, fh=3, fw=3, pad=VALID, sw=2, sh=2)),
        ("same_dil2_m1", dict(n=1, h=10, w=11, cin=4, mult=1, fh=3, fw=3, pad=SAME, sw=1, sh=1, dil=(2, 2))),
        ("batch2_s2_m3", dict(n=2, h=6, w=7, cin=2, mult=3, fh=3, fw=3, pad=SAME, sw=2, sh=2)),
        ("same_5x5_s2", dict(n=1, h=11, w=10, cin=6, mult=1, fh=5, fw=5, pad=SAME, sw=2, sh=2)),
    ]
    for (g, kw), act in zip(dgeoms, ["relu6", "relu", "none", "relu_n1_to_1", "none"]):
        dw_case(rng, f"dw_f32_{g}_{act}", act=act, desc=f"DEPTHWISE_CONV_2D float {g} {act}", **kw)
        dw_case(rng, f"dw_u8_{g}_{act}", act=act, q=u8(w_zp=140, out_zp=120),
                desc=f"DEPTHWISE_CONV_2D uint8 {g} {act}", **kw)
        dw_case(rng, f"dw_i8_{g}_{act}", act=act, q=i8(out_zp=-7, scale_spread=3),
                desc=f"DEPTHWISE_CONV_2D int8 per-channel {g} {act}", **kw)
    dw_case(rng, "dw_u8_saturating", n=1, h=6, w=6, cin=4, mult=1, fh=3, fw=3, pad=SAME, sw=1, sh=1,
            act="none", q=u8(in_zp=255, w_zp=0, out_zp=255, saturate=True),
            desc="DEPTHWISE_CONV_2D uint8 saturating, zero points 255/0")
    dw_case(rng, "dw_hybrid_pc", n=1, h=7, w=6, cin=4, mult=2, fh=3, fw=3, pad=SAME, sw=1, sh=1,
            act="relu", hybrid=(True, 3), desc="DEPTHWISE_CONV_2D hybrid per-channel")

    # FULLY_CONNECTED
    fc_case(rng, "fc_f32_batch3_relu", [3, 10], 6, "relu", desc="FULLY_CONNECTED float batch 3 relu")
    fc_case(rng, "fc_f32_keepdims", [2, 3, 5], 4, "none", keep=True, desc="FULLY_CONNECTED float keep_num_dims")
    fc_case(rng, "fc_f32_flatten4d", [2, 2, 3, 4], 5, "relu6", desc="FULLY_CONNECTED float 4-D input flattened")
    fc_case(rng, "fc_f32_nobias", [1, 17], 9, "relu_n1_to_1", bias_present=False,
            desc="FULLY_CONNECTED float without bias")
    fc_case(rng, "fc_u8_batch2", [2, 33], 7, "none", q=u8(w_zp=128, out_zp=100), desc="FULLY_CONNECTED uint8")
    fc_case(rng, "fc_u8_relu6_saturating", [1, 20], 9, "relu6", q=u8(in_zp=3, w_zp=250, out_zp=10, saturate=True),
            desc="FULLY_CONNECTED uint8 relu6 saturating")
    fc_case(rng, "fc_i8_pt", [3, 19], 5, "relu", q=Q(I8, 0.04, -10, out_zp=-20),
            desc="FULLY_CONNECTED int8 per-tensor weights")
    fc_case(rng, "fc_i8_pc_keepdims", [2, 3, 12], 6, "none", keep=True, q=i8(out_zp=3, scale_spread=3),
            desc="FULLY_CONNECTED int8 per-channel keep_num_dims")
    fc_case(rng, "fc_hybrid_sym", [2, 24], 7, "relu", hybrid=(False, False),
            desc="FULLY_CONNECTED hybrid symmetric inputs")
    fc_case(rng, "fc_hybrid_asym", [3, 16], 5, "none", hybrid=(False, True),
            desc="FULLY_CONNECTED hybrid asymmetric_quantize_inputs")
    fc_case(rng, "fc_hybrid_pc_asym", [2, 20], 6, "relu6", hybrid=(True, True),
            desc="FULLY_CONNECTED hybrid per-channel asymmetric")

    # TRANSPOSE_CONV
    tconv_case(rng, "tconv_f32_same_s2", 1, 4, 5, 3, 4, 3, 3, SAME, 2, 2, "none", desc="TRANSPOSE_CONV float SAME s2")
    tconv_case(rng, "tconv_f32_valid_s2_relu", 2, 3, 3, 2, 3, 3, 3, VALID, 2, 2, "relu",
               desc="TRANSPOSE_CONV float VALID s2 relu batch 2")
    tconv_case(rng, "tconv_f32_same_s1_4x4", 1, 5, 4, 3, 2, 4, 4, SAME, 1, 1, "none",
               desc="TRANSPOSE_CONV float SAME s1 4x4")
    tconv_case(rng, "tconv_u8_same_s2", 1, 4, 5, 3, 4, 3, 3, SAME, 2, 2, "none", q=u8(w_zp=130, out_zp=128),
               desc="TRANSPOSE_CONV uint8 SAME s2")
    tconv_case(rng, "tconv_i8_valid_s2", 1, 3, 4, 3, 5, 2, 2, VALID, 2, 2, "none", q=i8(out_zp=0, scale_spread=2),
               desc="TRANSPOSE_CONV int8 per-channel VALID s2")

    multiplier_rounding_cases()

    # Sizes that exercise the optimized kernels' vector blocks and exact-sum flushes.
    conv_case(rng, "conv_i8_deep_3x3", n=1, h=6, w=5, cin=24, cout=20, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="relu6", q=i8(out_zp=-3, scale_spread=2), desc="CONV_2D int8, 216-deep dot products, 20 channels")
    conv_case(rng, "conv_u8_deep_3x3_s2", n=1, h=7, w=7, cin=33, cout=17, fh=3, fw=3, pad=SAME, sw=2, sh=2,
              act="none", q=u8(w_zp=128, out_zp=128), desc="CONV_2D uint8, 297-deep dot products, 17 channels")
    conv_case(rng, "conv_f32_deep_3x3", n=1, h=5, w=6, cin=40, cout=33, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="relu", desc="CONV_2D float, 33 output channels")
    conv_case(rng, "conv_hybrid_pc_dil2", n=1, h=9, w=8, cin=3, cout=4, fh=3, fw=3, pad=SAME, sw=1, sh=1,
              act="none", dil=(2, 2), hybrid=(True, 1), desc="CONV_2D hybrid per-channel with dilation")
    dw_case(rng, "dw_i8_wide_3x3", n=1, h=6, w=7, cin=20, mult=1, fh=3, fw=3, pad=SAME, sw=1, sh=1,
            act="relu6", q=i8(out_zp=0, scale_spread=3), desc="DEPTHWISE_CONV_2D int8, 20 channels")
    dw_case(rng, "dw_u8_wide_s2", n=1, h=9, w=8, cin=33, mult=1, fh=3, fw=3, pad=SAME, sw=2, sh=2,
            act="none", q=u8(w_zp=127, out_zp=128), desc="DEPTHWISE_CONV_2D uint8, 33 channels, stride 2")
    dw_case(rng, "dw_f32_wide_dil2", n=1, h=9, w=9, cin=35, mult=1, fh=3, fw=3, pad=SAME, sw=1, sh=1,
            act="relu6", dil=(2, 2), desc="DEPTHWISE_CONV_2D float, 35 channels, dilation 2")
    fc_case(rng, "fc_i8_pc_nobias_deep", [2, 300], 18, "none", q=i8(out_zp=1, scale_spread=2), bias_present=False,
            desc="FULLY_CONNECTED int8 per-channel, 300-deep, no bias")
    tconv_case(rng, "tconv_i8_same_s2_relu", 1, 3, 3, 4, 3, 3, 3, SAME, 2, 2, "relu", q=i8(out_zp=-10),
               desc="TRANSPOSE_CONV int8 SAME s2 relu")

    # Pooling
    pgeoms = [
        ("same_s2_3x3", dict(n=1, h=7, w=9, c=3, fh=3, fw=3, pad=SAME, sw=2, sh=2)),
        ("valid_s1_2x2", dict(n=2, h=5, w=6, c=4, fh=2, fw=2, pad=VALID, sw=1, sh=1)),
        ("same_s1_3x2", dict(n=1, h=6, w=5, c=5, fh=3, fw=2, pad=SAME, sw=1, sh=1)),
        ("valid_global", dict(n=1, h=7, w=7, c=6, fh=7, fw=7, pad=VALID, sw=1, sh=1)),
    ]
    for (g, kw), act in zip(pgeoms, ["none", "relu6", "relu", "relu_n1_to_1"]):
        for kind in ["avg", "max"]:
            pool_case(rng, f"{kind}pool_f32_{g}_{act}", kind, act=act, desc=f"{kind} pool float {g} {act}", **kw)
            pool_case(rng, f"{kind}pool_u8_{g}_{act}", kind, act=act, q=u8(in_scale=0.03, in_zp=100),
                      desc=f"{kind} pool uint8 {g} {act}", **kw)
            pool_case(rng, f"{kind}pool_i8_{g}_{act}", kind, act=act, q=Q(I8, 0.03, -5),
                      desc=f"{kind} pool int8 {g} {act}", **kw)


if __name__ == "__main__":
    main()

"""Golden cases for the elementwise operator family (arithmetic, activations, softmax,
reductions, comparisons, logic, selection).

Float cases come from TensorFlow's converter; int8 cases from full-integer conversion and
from hand-built single-operator models; uint8 cases (which the converter no longer emits)
are hand-built with the `tflite` package's FlatBuffers builders, so quantization
parameters (zero points at the extremes, unequal scales) are chosen exactly.
Run: PYTHON=... Scripts/generate-goldens.sh ops_elementwise
"""
import importlib

import flatbuffers
import numpy as np

import common

FAMILY = "elementwise"
TYPES = {"float32": 0, "int32": 2, "uint8": 3, "int64": 4, "bool": 6, "int16": 7, "int8": 9}
NP = {"float32": np.float32, "int32": np.int32, "uint8": np.uint8, "int64": np.int64,
      "bool": np.bool_, "int16": np.int16, "int8": np.int8}


def _m(name):
    return importlib.import_module("tflite." + name)


def _vec(b, start_fn, items, prepend):
    start_fn(b, len(items))
    for x in reversed(items):
        prepend(x)
    return b.EndVector()


def _options(b, kind, fields):
    """Builds a builtin-options table `kind` (e.g. "AddOptions") with `fields` {Name: value}."""
    mod = _m(kind)
    getattr(mod, kind + "Start")(b)
    for name, value in fields.items():
        getattr(mod, kind + "Add" + name)(b, value)
    return getattr(mod, kind + "End")(b)


def single_op_model(op, tensors, inputs, outputs, options=None):
    """A one-operator model.

    tensors: list of dicts {name, type, shape, scale?, zero_point?, data? (np array for constants)}
    inputs / outputs: tensor indices of the operator; graph inputs are the non-constant inputs.
    options: (kind, {Field: value}) such as ("AddOptions", {"FusedActivationFunction": 1}).
    """
    import tflite
    b = flatbuffers.Builder(4096)
    T, Q, O, OC, S, B, M = (_m(n) for n in ("Tensor", "QuantizationParameters", "Operator", "OperatorCode",
                                           "SubGraph", "Buffer", "Model"))
    # Buffers: 0 is the empty sentinel; each constant gets its own.
    buffer_offsets = []
    datas = [None] + [t.get("data") for t in tensors if t.get("data") is not None]
    for d in datas:
        if d is None:
            B.BufferStart(b)
            buffer_offsets.append(B.BufferEnd(b))
            continue
        raw = np.ascontiguousarray(d).tobytes()
        vec = b.CreateByteVector(raw)
        B.BufferStart(b)
        B.BufferAddData(b, vec)
        buffer_offsets.append(B.BufferEnd(b))
    tensor_offsets = []
    next_buffer = 1
    for t in tensors:
        name = b.CreateString(t["name"])
        shape = _vec(b, T.TensorStartShapeVector, list(t["shape"]), b.PrependInt32)
        quant = None
        if "scale" in t:
            sc = _vec(b, Q.QuantizationParametersStartScaleVector, [float(t["scale"])], b.PrependFloat32)
            zp = _vec(b, Q.QuantizationParametersStartZeroPointVector, [int(t["zero_point"])], b.PrependInt64)
            Q.QuantizationParametersStart(b)
            Q.QuantizationParametersAddScale(b, sc)
            Q.QuantizationParametersAddZeroPoint(b, zp)
            quant = Q.QuantizationParametersEnd(b)
        T.TensorStart(b)
        T.TensorAddShape(b, shape)
        T.TensorAddType(b, TYPES[t["type"]])
        if t.get("data") is not None:
            T.TensorAddBuffer(b, next_buffer)
            next_buffer += 1
        else:
            T.TensorAddBuffer(b, 0)
        T.TensorAddName(b, name)
        if quant is not None:
            T.TensorAddQuantization(b, quant)
        tensor_offsets.append(T.TensorEnd(b))
    opt = None
    if options is not None:
        opt = _options(b, options[0], options[1])
    op_in = _vec(b, O.OperatorStartInputsVector, inputs, b.PrependInt32)
    op_out = _vec(b, O.OperatorStartOutputsVector, outputs, b.PrependInt32)
    O.OperatorStart(b)
    O.OperatorAddOpcodeIndex(b, 0)
    O.OperatorAddInputs(b, op_in)
    O.OperatorAddOutputs(b, op_out)
    if opt is not None:
        O.OperatorAddBuiltinOptionsType(b, getattr(tflite.BuiltinOptions, options[0]))
        O.OperatorAddBuiltinOptions(b, opt)
    operator = O.OperatorEnd(b)
    code = getattr(tflite.BuiltinOperator, op)
    OC.OperatorCodeStart(b)
    OC.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
    OC.OperatorCodeAddBuiltinCode(b, code)
    OC.OperatorCodeAddVersion(b, 1)
    opcode = OC.OperatorCodeEnd(b)
    graph_inputs = [i for i in inputs if tensors[i].get("data") is None]
    tv = _vec(b, S.SubGraphStartTensorsVector, tensor_offsets, b.PrependUOffsetTRelative)
    gi = _vec(b, S.SubGraphStartInputsVector, graph_inputs, b.PrependInt32)
    go = _vec(b, S.SubGraphStartOutputsVector, outputs, b.PrependInt32)
    ov = _vec(b, S.SubGraphStartOperatorsVector, [operator], b.PrependUOffsetTRelative)
    sname = b.CreateString("main")
    S.SubGraphStart(b)
    S.SubGraphAddTensors(b, tv)
    S.SubGraphAddInputs(b, gi)
    S.SubGraphAddOutputs(b, go)
    S.SubGraphAddOperators(b, ov)
    S.SubGraphAddName(b, sname)
    subgraph = S.SubGraphEnd(b)
    codes = _vec(b, M.ModelStartOperatorCodesVector, [opcode], b.PrependUOffsetTRelative)
    subs = _vec(b, M.ModelStartSubgraphsVector, [subgraph], b.PrependUOffsetTRelative)
    bufs = _vec(b, M.ModelStartBuffersVector, buffer_offsets, b.PrependUOffsetTRelative)
    desc = b.CreateString("ops_elementwise single-op case")
    M.ModelStart(b)
    M.ModelAddVersion(b, 3)
    M.ModelAddOperatorCodes(b, codes)
    M.ModelAddSubgraphs(b, subs)
    M.ModelAddDescription(b, desc)
    M.ModelAddBuffers(b, bufs)
    b.Finish(M.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def q(name, dtype, shape, scale, zp):
    return {"name": name, "type": dtype, "shape": shape, "scale": scale, "zero_point": zp}


def t(name, dtype, shape, data=None):
    d = {"name": name, "type": dtype, "shape": shape}
    if data is not None:
        d["data"] = np.asarray(data, dtype=NP[dtype])
    return d


def full_range(rng, dtype, shape):
    info = np.iinfo(NP[dtype])
    x = rng.integers(info.min, info.max, size=shape, endpoint=True).astype(NP[dtype])
    flat = x.reshape(-1)
    if flat.size >= 2:          # make sure both extremes occur
        flat[0], flat[-1] = info.min, info.max
    return x


# --------------------------------------------------------------------------- quantized
def quantized_cases(rng):
    cases = []
    for dt in ("uint8", "int8"):
        lo, hi = (0, 255) if dt == "uint8" else (-128, 127)
        mid = (lo + hi + 1) // 2
        # ADD / SUB / MUL: unequal scales, broadcasting, fused activations, extreme zero points.
        for op, opt in (("ADD", "AddOptions"), ("SUB", "SubOptions"), ("MUL", "MulOptions")):
            for act, name in ((0, "none"), (1, "relu"), (3, "relu6")):
                shape_a, shape_b = [1, 5, 3, 7], ([7] if act != 1 else [1, 5, 1, 1])
                zps = (mid + 3, lo if act == 3 else hi - 5, mid - 7)
                scales = (0.05, 0.021, 0.04) if op != "MUL" else (0.05, 0.021, 0.006)
                tensors = [q("a", dt, shape_a, scales[0], zps[0]), q("b", dt, shape_b, scales[1], zps[1]),
                           q("y", dt, [1, 5, 3, 7], scales[2], zps[2])]
                model = single_op_model(op, tensors, [0, 1], [2], (opt, {"FusedActivationFunction": act}))
                cases.append((f"{op.lower()}_{dt}_{name}", model,
                              [full_range(rng, dt, shape_a), full_range(rng, dt, shape_b)], "exact",
                              f"{op} {dt} broadcast {shape_a}x{shape_b}, activation {name}"))
        # Saturating ADD (output scale much smaller than inputs).
        tensors = [q("a", dt, [2, 9], 0.1, lo), q("b", dt, [2, 9], 0.1, hi), q("y", dt, [2, 9], 0.01, mid)]
        model = single_op_model("ADD", tensors, [0, 1], [2], ("AddOptions", {"FusedActivationFunction": 0}))
        cases.append((f"add_{dt}_saturating", model, [full_range(rng, dt, [2, 9]), full_range(rng, dt, [2, 9])],
                      "exact", "ADD saturating the output range; zero points at the extremes"))
        # Same-shape ADD with a scalar second input.
        tensors = [q("a", dt, [3, 11], 0.02, mid), q("b", dt, [], 0.03, mid + 1), q("y", dt, [3, 11], 0.035, mid - 2)]
        model = single_op_model("ADD", tensors, [0, 1], [2], ("AddOptions", {"FusedActivationFunction": 0}))
        cases.append((f"add_{dt}_scalar", model, [full_range(rng, dt, [3, 11]), full_range(rng, dt, [])],
                      "exact", "ADD with a rank-0 operand"))
        # LOGISTIC / TANH lookup tables.
        for op, oscale, ozp in (("LOGISTIC", 1 / 256, lo), ("TANH", 1 / 128, mid)):
            for iscale, izp in ((0.08, mid + 10), (0.5, lo)):
                tensors = [q("x", dt, [2, 3, 43], iscale, izp), q("y", dt, [2, 3, 43], oscale, ozp)]
                model = single_op_model(op, tensors, [0], [1])
                x = np.arange(lo, hi + 1).astype(NP[dt])
                x = np.concatenate([x, full_range(rng, dt, [258 - 256])]).reshape(2, 3, 43)
                cases.append((f"{op.lower()}_{dt}_s{iscale}", model, [x], "exact", f"{op} {dt} every input code"))
        # SOFTMAX with beta.
        for beta, iscale, depth in ((1.0, 0.1, 10), (0.5, 0.25, 33), (2.0, 0.02, 5)):
            tensors = [q("x", dt, [3, depth], iscale, mid - 3), q("y", dt, [3, depth], 1 / 256, lo)]
            model = single_op_model("SOFTMAX", tensors, [0], [1], ("SoftmaxOptions", {"Beta": beta}))
            cases.append((f"softmax_{dt}_b{beta}_d{depth}", model, [full_range(rng, dt, [3, depth])], "exact",
                          f"SOFTMAX {dt} beta {beta} depth {depth}"))
        # RELU family with requantization.
        for op in ("RELU", "RELU6", "RELU_N1_TO_1"):
            tensors = [q("x", dt, [4, 17], 0.05, mid + 5), q("y", dt, [4, 17], 0.03, lo + 2)]
            model = single_op_model(op, tensors, [0], [1])
            cases.append((f"{op.lower()}_{dt}", model, [full_range(rng, dt, [4, 17])], "exact", f"{op} {dt}"))
        # LEAKY_RELU, HARD_SWISH.
        tensors = [q("x", dt, [4, 17], 0.05, mid + 5), q("y", dt, [4, 17], 0.04, mid - 20)]
        model = single_op_model("LEAKY_RELU", tensors, [0], [1], ("LeakyReluOptions", {"Alpha": 0.15}))
        cases.append((f"leaky_relu_{dt}", model, [full_range(rng, dt, [4, 17])], "exact", "LEAKY_RELU alpha 0.15"))
        for iscale, oscale in ((0.05, 0.03), (0.2, 0.1), (0.01, 0.02)):
            tensors = [q("x", dt, [2, 256], iscale, mid + 5), q("y", dt, [2, 256], oscale, mid - 40)]
            model = single_op_model("HARD_SWISH", tensors, [0], [1])
            x = np.concatenate([np.arange(lo, hi + 1), np.arange(lo, hi + 1)[::-1]]).astype(NP[dt]).reshape(2, 256)
            cases.append((f"hard_swish_{dt}_s{iscale}", model, [x], "exact", "HARD_SWISH every input code"))
        # PRELU with per-channel alpha.
        alpha = rng.integers(lo, hi, size=[5], endpoint=True)
        tensors = [q("x", dt, [1, 3, 4, 5], 0.05, mid + 1), q("alpha", dt, [1, 1, 5], 0.01, mid - 4),
                   q("y", dt, [1, 3, 4, 5], 0.04, mid)]
        tensors[1]["data"] = alpha.astype(NP[dt])
        model = single_op_model("PRELU", tensors, [0, 1], [2])
        cases.append((f"prelu_{dt}", model, [full_range(rng, dt, [1, 3, 4, 5])], "exact", "PRELU broadcast alpha"))
        # MEAN: spatial path, general path with rescale, same-quantization path.
        axes = t("axes", "int32", [2], [1, 2])
        tensors = [q("x", dt, [2, 5, 6, 3], 0.05, mid + 4), axes, q("y", dt, [2, 1, 1, 3], 0.03, mid - 9)]
        model = single_op_model("MEAN", tensors, [0, 1], [2], ("ReducerOptions", {"KeepDims": True}))
        cases.append((f"mean_{dt}_spatial", model, [full_range(rng, dt, [2, 5, 6, 3])], "exact", "MEAN 4D axes 1,2 keep_dims"))
        axes = t("axes", "int32", [1], [-1])
        tensors = [q("x", dt, [3, 4, 9], 0.05, mid + 4), axes, q("y", dt, [3, 4], 0.02, mid - 9)]
        model = single_op_model("MEAN", tensors, [0, 1], [2], ("ReducerOptions", {"KeepDims": False}))
        cases.append((f"mean_{dt}_last_axis", model, [full_range(rng, dt, [3, 4, 9])], "exact", "MEAN axis -1 rescaled"))
        axes = t("axes", "int32", [2], [0, 2])
        tensors = [q("x", dt, [3, 4, 5], 0.05, mid + 4), axes, q("y", dt, [1, 4, 1], 0.05, mid + 4)]
        model = single_op_model("MEAN", tensors, [0, 1], [2], ("ReducerOptions", {"KeepDims": True}))
        cases.append((f"mean_{dt}_same_quant", model, [full_range(rng, dt, [3, 4, 5])], "exact", "MEAN same quantization"))
        # SUM rescaled, REDUCE_MAX raw.
        axes = t("axes", "int32", [1], [1])
        tensors = [q("x", dt, [3, 6, 2], 0.01, mid + 4), axes, q("y", dt, [3, 2], 0.08, mid - 9)]
        model = single_op_model("SUM", tensors, [0, 1], [2], ("ReducerOptions", {"KeepDims": False}))
        # ai-edge-litert 2.3.0's *reference* int8 SUM reads int8 data as uint8 (a bug in
        # its reduce.cc); our kernel follows the correct semantics, which the reference
        # runtime's built-in optimized kernel computes. Those goldens come from there.
        cases.append((f"sum_{dt}", model, [full_range(rng, dt, [3, 6, 2])], "exact",
                      "SUM rescaled" + ("; golden from the built-in optimized kernel (the reference int8 SUM "
                                        "misreads int8 data as uint8)" if dt == "int8" else "")))
        axes = t("axes", "int32", [1], [0])
        tensors = [q("x", dt, [4, 6], 0.05, mid), axes, q("y", dt, [6], 0.05, mid)]
        model = single_op_model("REDUCE_MAX", tensors, [0, 1], [2], ("ReducerOptions", {"KeepDims": False}))
        cases.append((f"reduce_max_{dt}", model, [full_range(rng, dt, [4, 6])], "exact", "REDUCE_MAX raw"))
        # MAXIMUM / MINIMUM, GREATER with unequal scales, ARG_MAX.
        for op in ("MAXIMUM", "MINIMUM"):
            tensors = [q("a", dt, [2, 3, 4], 0.05, mid), q("b", dt, [4], 0.05, mid), q("y", dt, [2, 3, 4], 0.05, mid)]
            model = single_op_model(op, tensors, [0, 1], [2])
            cases.append((f"{op.lower()}_{dt}", model, [full_range(rng, dt, [2, 3, 4]), full_range(rng, dt, [4])],
                          "exact", f"{op} {dt} broadcast"))
        tensors = [q("a", dt, [2, 3, 4], 0.05, mid + 3), q("b", dt, [3, 1], 0.11, mid - 5), t("y", "bool", [2, 3, 4])]
        model = single_op_model("GREATER", tensors, [0, 1], [2])
        cases.append((f"greater_{dt}", model, [full_range(rng, dt, [2, 3, 4]), full_range(rng, dt, [3, 1])],
                      "exact", "GREATER with unequal scales"))
        tensors = [q("x", dt, [3, 7, 5], 0.05, mid), t("axis", "int32", [1], [1]), t("y", "int32", [3, 5])]
        model = single_op_model("ARG_MAX", tensors, [0, 1], [2], ("ArgMaxOptions", {"OutputType": 2}))
        cases.append((f"arg_max_{dt}", model, [full_range(rng, dt, [3, 7, 5])], "exact", "ARG_MAX axis 1"))
    # EXP and ABS (requantizing) through the reference's tables; SQUARED_DIFFERENCE int8.
    for dt in ("int8",):     # the reference runtime has EXP and ABS for int8, not uint8
        lo, hi = (0, 255) if dt == "uint8" else (-128, 127)
        mid = (lo + hi + 1) // 2
        x = np.arange(lo, hi + 1).astype(NP[dt]).reshape(4, 64)
        tensors = [q("x", dt, [4, 64], 0.03, mid + 20), q("y", dt, [4, 64], 0.09, lo)]
        if dt == "int8":
            cases.append((f"exp_{dt}", single_op_model("EXP", tensors, [0], [1]), [x], "exact", "EXP every input code"))
        tensors = [q("x", dt, [4, 64], 0.03, mid - 6), q("y", dt, [4, 64], 0.02, lo + 1)]
        cases.append((f"abs_{dt}", single_op_model("ABS", tensors, [0], [1]), [x], "exact", "ABS with requantization"))
    tensors = [q("a", "int8", [3, 1, 9], 0.05, 3), q("b", "int8", [4, 9], 0.02, -7), q("y", "int8", [3, 4, 9], 0.1, -100)]
    cases.append(("squared_difference_int8", single_op_model("SQUARED_DIFFERENCE", tensors, [0, 1], [2]),
                  [full_range(rng, "int8", [3, 1, 9]), full_range(rng, "int8", [4, 9])], "exact",
                  "SQUARED_DIFFERENCE int8 broadcast"))
    # LOG_SOFTMAX int8 (output fixed at scale 16/256, zero point 127).
    for iscale, depth in ((0.1, 10), (0.02, 33), (0.4, 7)):
        tensors = [q("x", "int8", [3, depth], iscale, 5), q("y", "int8", [3, depth], 16 / 256, 127)]
        cases.append((f"log_softmax_int8_s{iscale}", single_op_model("LOG_SOFTMAX", tensors, [0], [1]),
                      [full_range(rng, "int8", [3, depth])], "exact", f"LOG_SOFTMAX int8 depth {depth}"))
    # int16 general-scale ADD and MUL.
    tensors = [q("a", "int16", [3, 10], 0.0007, 0), q("b", "int16", [10], 0.0011, 0), q("y", "int16", [3, 10], 0.0013, 0)]
    model = single_op_model("ADD", tensors, [0, 1], [2], ("AddOptions", {"FusedActivationFunction": 0, "PotScaleInt16": False}))
    cases.append(("add_int16_general", model, [full_range(rng, "int16", [3, 10]), full_range(rng, "int16", [10])],
                  "exact", "ADD int16 general scales"))
    tensors = [q("a", "int16", [3, 10], 0.0007, 0), q("b", "int16", [10], 0.0011, 0), q("y", "int16", [3, 10], 0.00002, 0)]
    model = single_op_model("MUL", tensors, [0, 1], [2], ("MulOptions", {"FusedActivationFunction": 0}))
    cases.append(("mul_int16", model, [full_range(rng, "int16", [3, 10]), full_range(rng, "int16", [10])],
                  "exact", "MUL int16"))
    return cases


# --------------------------------------------------------------------------- float (converter)
def float_cases(rng):
    import tensorflow as tf
    cases = []

    def add(name, fn, shapes, low=-3.0, high=3.0, dtypes=None, inputs=None, desc=""):
        model = common.convert_float(fn, shapes, dtypes)
        try:
            xs = inputs if inputs is not None else common.inputs_for(model, rng, low, high)
        except ValueError as e:     # the reference resolver lacks a few builtins (CEIL, ROUND)
            print(f"ops_elementwise: skipping {name}: {str(e).splitlines()[0]}")
            return
        cases.append((name, model, xs, "float", desc or name))

    add("add_broadcast_relu_f32", lambda a, b: tf.nn.relu(a + b), [[1, 4, 5, 3], [3]])
    add("add_6d_f32", lambda a, b: a + b, [[2, 1, 3, 1, 2, 3], [1, 2, 1, 4, 1, 3]])
    add("sub_broadcast_relu6_f32", lambda a, b: tf.nn.relu6(a - b), [[2, 1, 3], [1, 4, 1]], low=-8, high=8)
    add("mul_scalar_f32", lambda a: a * 0.37, [[3, 7]])
    add("mul_broadcast_f32", lambda a, b: a * b, [[2, 5, 1], [5, 7]])
    add("div_f32", lambda a, b: a / b, [[2, 9], [9]], low=0.5, high=4.0)
    add("squared_difference_f32", lambda a, b: tf.math.squared_difference(a, b), [[3, 4], [1, 4]])
    add("maximum_f32", lambda a, b: tf.maximum(a, b), [[3, 1, 5], [4, 1]])
    add("minimum_f32", lambda a, b: tf.minimum(a, b), [[3, 4, 5], [5]])
    add("pow_f32", lambda a, b: tf.pow(a, b), [[2, 6], [6]], low=0.2, high=2.5)
    add("floor_div_f32", lambda a, b: tf.math.floordiv(a, b), [[3, 8], [8]], low=-6, high=6)
    add("floor_mod_f32", lambda a, b: tf.math.floormod(a, b), [[3, 8], [8]], low=-6, high=6)
    add("relu_f32", tf.nn.relu, [[2, 3, 9]])
    add("relu6_f32", tf.nn.relu6, [[2, 3, 9]], low=-9, high=9)
    add("leaky_relu_f32", lambda x: tf.nn.leaky_relu(x, alpha=0.12), [[2, 3, 9]])
    add("hard_swish_f32", lambda x: x * tf.nn.relu6(x + 3.0) / 6.0, [[2, 3, 9]], low=-5, high=5)
    add("logistic_f32", tf.math.sigmoid, [[4, 25]], low=-12, high=20)
    add("tanh_f32", tf.math.tanh, [[4, 25]], low=-4, high=4)
    add("exp_f32", tf.math.exp, [[3, 7]])
    add("log_f32", tf.math.log, [[3, 7]], low=0.01, high=9)
    add("sqrt_f32", tf.math.sqrt, [[3, 7]], low=0.0, high=9)
    add("rsqrt_f32", tf.math.rsqrt, [[3, 7]], low=0.1, high=9)
    add("abs_neg_square_f32", lambda x: tf.square(-tf.abs(x)) + tf.abs(x), [[3, 7]])
    add("floor_f32", lambda x: tf.floor(x) * 0.5, [[3, 7]])
    add("round_f32", tf.math.round, [[4, 8]], low=-4, high=4)
    add("softmax_f32", lambda x: tf.nn.softmax(x), [[3, 10]])
    add("softmax_beta_f32", lambda x: tf.nn.softmax(x * 0.5), [[2, 3, 7]])
    add("log_softmax_f32", tf.nn.log_softmax, [[3, 10]])
    add("mean_spatial_f32", lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True), [[2, 5, 4, 3]])
    add("mean_last_f32", lambda x: tf.reduce_mean(x, axis=-1), [[2, 5, 4]])
    add("sum_f32", lambda x: tf.reduce_sum(x, axis=[0, 2]), [[2, 5, 4]])
    add("reduce_max_f32", lambda x: tf.reduce_max(x, axis=1, keepdims=True), [[2, 5, 4]])
    add("reduce_min_f32", lambda x: tf.reduce_min(x, axis=[-1, 0]), [[2, 5, 4]])
    add("reduce_prod_f32", lambda x: tf.reduce_prod(x, axis=1), [[3, 4, 2]], low=0.5, high=1.5)
    add("arg_max_f32", lambda x: tf.math.argmax(x, axis=-1, output_type=tf.int32), [[3, 4, 9]])
    add("arg_min_f32", lambda x: tf.math.argmin(x, axis=1), [[3, 4, 9]])
    for name, f in (("greater", tf.greater), ("greater_equal", tf.greater_equal), ("less", tf.less),
                    ("less_equal", tf.less_equal), ("equal", tf.equal), ("not_equal", tf.not_equal)):
        a = np.round(rng.uniform(-2, 2, size=[3, 5])).astype(np.float32)
        b = np.round(rng.uniform(-2, 2, size=[5])).astype(np.float32)
        add(f"{name}_f32", f, [[3, 5], [5]], inputs=[a, b])
    add("select_v2_f32", lambda c, x, y: tf.where(c > 0.0, x, y), [[3, 1], [3, 4], [4]])
    add("logical_f32", lambda a, b: tf.logical_or(tf.logical_and(a > 0.0, b > 0.0), tf.logical_not(a > 0.5)),
        [[3, 5], [5]])
    add("int32_arith", lambda a, b: tf.math.floormod(a * b - a, b) + tf.maximum(a, b) + tf.math.floordiv(a, b),
        [[3, 6], [6]], dtypes=[tf.int32, tf.int32],
        inputs=[rng.integers(-50, 50, size=[3, 6]).astype(np.int32),
                np.array([3, -4, 5, 7, -2, 9], dtype=np.int32)])
    # PReLU as Keras exports it (alpha shared over spatial axes).
    prelu = tf.keras.layers.PReLU(shared_axes=[1, 2], alpha_initializer=tf.keras.initializers.RandomUniform(0.05, 0.4, seed=1))
    prelu.build([1, 4, 5, 6])
    add("prelu_f32", lambda x: prelu(x), [[1, 4, 5, 6]])
    return cases


# --------------------------------------------------------------------------- int8 (converter)
def int8_converted_cases(rng):
    import tensorflow as tf
    cases = []

    def add(name, fn, shapes, low=-1.0, high=1.0, desc=""):
        model = common.convert_int8(fn, shapes, rng, "int8", low, high)
        xs = common.inputs_for(model, rng)
        cases.append((name, model, xs, "exact", desc or name))

    add("conv_add_mul_logistic_int8", lambda a, b: tf.math.sigmoid(a * b + a) * a, [[1, 6, 6, 4], [1, 6, 6, 4]], -3, 3,
        "YOLO-style x·sigmoid(x) chain, full-integer converter output")
    add("softmax_int8", lambda x: tf.nn.softmax(x * 3.0), [[2, 12]], -3, 3)
    add("mean_spatial_int8", lambda x: tf.reduce_mean(x, axis=[1, 2], keepdims=True), [[1, 7, 7, 8]], -2, 2)
    add("hard_swish_int8", lambda x: x * tf.nn.relu6(x + 3.0) / 6.0, [[1, 5, 5, 8]], -6, 6)
    add("sub_tanh_int8", lambda a, b: tf.math.tanh(a - b), [[2, 8], [8]], -2, 2)
    return cases


def save_case_with_builtin_kernels(name, model, inputs, tolerance, description):
    """Like common.save_case, but the golden comes from the built-in optimized kernels."""
    import json
    import os
    from ai_edge_litert import interpreter as litert
    interp = litert.Interpreter(model_content=model,
                                experimental_op_resolver_type=litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interp.allocate_tensors()
    for d, x in zip(interp.get_input_details(), inputs):
        interp.set_tensor(d["index"], x)
    interp.invoke()
    outputs = [interp.get_tensor(d["index"]).copy() for d in interp.get_output_details()]
    d = os.path.join(common.OPS_DIR, FAMILY, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.tflite"), "wb") as f:
        f.write(model)
    for k, x in enumerate(inputs):
        np.save(os.path.join(d, f"input_{k}.npy"), x)
    for k, y in enumerate(outputs):
        np.save(os.path.join(d, f"output_{k}.npy"), y)
    with open(os.path.join(d, "case.json"), "w") as f:
        json.dump({"tolerance": tolerance, "description": description}, f, indent=1)


# Cases whose BUILTIN_REF output is known wrong; their goldens use the built-in kernels.
BUILTIN_KERNEL_GOLDENS = {"sum_int8"}


def main():
    rng = np.random.default_rng(20261121)
    common.clear_family(FAMILY)
    all_cases = quantized_cases(rng) + float_cases(rng) + int8_converted_cases(rng)
    for name, model, inputs, tol, desc in all_cases:
        if name in BUILTIN_KERNEL_GOLDENS:
            save_case_with_builtin_kernels(name, model, inputs, tol, desc)
        else:
            common.save_case(FAMILY, name, model, inputs, tolerance=tol, description=desc)
    print(f"ops_elementwise: wrote {len(all_cases)} cases")


if __name__ == "__main__":
    main()

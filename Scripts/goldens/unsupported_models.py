"""Hand-made models holding operators the engine cannot run, for `Model.checkSupport` and
`tflite-dump --check` tests. Writes Tests/Fixtures/unsupported/*.tflite.

    mixed.tflite   seven operators in one subgraph: ADD (runs), EMBEDDING_LOOKUP (no kernel),
                   MUL with a fused TANH (unsupported option), TANH on bool (unsupported type),
                   a custom operator nobody implements, RELU (runs), int8 DIV by a constant
                   that holds a real 0 (rejected at load, as the reference rejects it at invoke)
    add_int16_pot_broadcast.tflite
                   int16 ADD on the power-of-two path (pot_scale_int16, scales 2^-10, 2^-13,
                   2^-10) with broadcasting ([2, 3, 37] + [1, 1, 37]): the reference runtime
                   has no broadcasting form of that path and aborts on it, so it is unsupported
"""
import os

import flatbuffers
import numpy as np
import tflite

from common import ROOT
from single_op_model import TYPE_CODES, T, _offsets, _vector, build, options, options_type

OUT = os.path.join(ROOT, "Tests", "Fixtures", "unsupported")
M = tflite


def graph_model(tensors, codes, ops, inputs, outputs):
    """A one-subgraph model. tensors: (name, dtype, shape, quant or None, data or None);
    codes: builtin code (int) or custom name (str); ops: (code index, inputs, outputs,
    options module name or None, option fields)."""
    b = flatbuffers.Builder(2048)
    buffers = [None] + [t[4] for t in tensors if t[4] is not None]
    buffer_offsets = []
    for data in buffers:
        vec = b.CreateNumpyVector(np.frombuffer(np.ascontiguousarray(data).tobytes(), np.uint8)) if data is not None else None
        M.BufferStart(b)
        if vec is not None:
            M.BufferAddData(b, vec)
        buffer_offsets.append(M.BufferEnd(b))
    tensor_offsets, next_buffer = [], 1
    for name, dtype, shape, quant, data in tensors:
        n = b.CreateString(name)
        s = _vector(b, shape, np.int32)
        qo = None
        if quant is not None:
            sc, zp = _vector(b, [quant[0]], np.float32), _vector(b, [quant[1]], np.int64)
            M.QuantizationParametersStart(b)
            M.QuantizationParametersAddScale(b, sc)
            M.QuantizationParametersAddZeroPoint(b, zp)
            qo = M.QuantizationParametersEnd(b)
        M.TensorStart(b)
        M.TensorAddShape(b, s)
        M.TensorAddType(b, TYPE_CODES[np.dtype(dtype)])
        M.TensorAddBuffer(b, next_buffer if data is not None else 0)
        next_buffer += data is not None
        M.TensorAddName(b, n)
        if qo is not None:
            M.TensorAddQuantization(b, qo)
        tensor_offsets.append(M.TensorEnd(b))
    op_offsets = []
    for code_index, op_in, op_out, opt_name, fields in ops:
        i, o = _vector(b, op_in, np.int32), _vector(b, op_out, np.int32)
        opt = options(opt_name, **fields)(b) if opt_name else None
        M.OperatorStart(b)
        M.OperatorAddOpcodeIndex(b, code_index)
        M.OperatorAddInputs(b, i)
        M.OperatorAddOutputs(b, o)
        if opt is not None:
            M.OperatorAddBuiltinOptionsType(b, options_type(opt_name))
            M.OperatorAddBuiltinOptions(b, opt)
        op_offsets.append(M.OperatorEnd(b))
    code_offsets = []
    for code in codes:
        custom = b.CreateString(code) if isinstance(code, str) else None
        builtin = 32 if custom is not None else code
        M.OperatorCodeStart(b)
        M.OperatorCodeAddDeprecatedBuiltinCode(b, min(builtin, 127))
        M.OperatorCodeAddBuiltinCode(b, builtin)
        if custom is not None:
            M.OperatorCodeAddCustomCode(b, custom)
        M.OperatorCodeAddVersion(b, 1)
        code_offsets.append(M.OperatorCodeEnd(b))
    tv = _offsets(b, M.SubGraphStartTensorsVector, tensor_offsets)
    ov = _offsets(b, M.SubGraphStartOperatorsVector, op_offsets)
    gi, go = _vector(b, inputs, np.int32), _vector(b, outputs, np.int32)
    M.SubGraphStart(b)
    M.SubGraphAddTensors(b, tv)
    M.SubGraphAddInputs(b, gi)
    M.SubGraphAddOutputs(b, go)
    M.SubGraphAddOperators(b, ov)
    sg = M.SubGraphEnd(b)
    cv = _offsets(b, M.ModelStartOperatorCodesVector, code_offsets)
    sv = _offsets(b, M.ModelStartSubgraphsVector, [sg])
    bv = _offsets(b, M.ModelStartBuffersVector, buffer_offsets)
    M.ModelStart(b)
    M.ModelAddVersion(b, 3)
    M.ModelAddOperatorCodes(b, cv)
    M.ModelAddSubgraphs(b, sv)
    M.ModelAddBuffers(b, bv)
    b.Finish(M.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def mixed():
    BO = tflite.BuiltinOperator
    f, q8 = np.float32, (0.1, 3)
    tensors = [
        ("x", f, [1, 4], None, None), ("y", f, [1, 4], None, None), ("sum", f, [1, 4], None, None),
        ("ids", np.int32, [2], None, None), ("embedded", f, [2, 4], None, None),
        ("product", f, [1, 4], None, None), ("flags", np.bool_, [1, 4], None, None),
        ("flags_tanh", np.bool_, [1, 4], None, None), ("custom_out", f, [1, 4], None, None),
        ("relu", f, [1, 4], None, None), ("a8", np.int8, [1, 4], q8, None),
        ("divisor", np.int8, [1, 4], (0.05, -2), np.array([[5, -2, 7, 9]], np.int8)),
        ("quotient", np.int8, [1, 4], q8, None),
    ]
    codes = [BO.ADD, BO.EMBEDDING_LOOKUP, BO.MUL, BO.TANH, "NotARealOp", BO.RELU, BO.DIV]
    ops = [
        (0, [0, 1], [2], "AddOptions", {}),
        (1, [3, 0], [4], None, {}),
        (2, [2, 1], [5], "MulOptions", {"FusedActivationFunction": 4}),
        (3, [6], [7], None, {}),
        (4, [2], [8], None, {}),
        (5, [2], [9], None, {}),
        (6, [10, 11], [12], "DivOptions", {}),
    ]
    return graph_model(tensors, codes, ops, inputs=[0, 1, 3, 6, 10], outputs=[4, 5, 7, 8, 9, 12])


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "mixed.tflite"), "wb") as fh:
        fh.write(mixed())
    print("  mixed.tflite")
    add = build(0, [T([2, 3, 37], np.int16, quant=(2 ** -10, 0)), T([1, 1, 37], np.int16, quant=(2 ** -13, 0))],
                [T([2, 3, 37], np.int16, quant=(2 ** -10, 0))], options_type("AddOptions"),
                options("AddOptions", FusedActivationFunction=0, PotScaleInt16=True), version=3)
    with open(os.path.join(OUT, "add_int16_pot_broadcast.tflite"), "wb") as fh:
        fh.write(add)
    print("  add_int16_pot_broadcast.tflite")


if __name__ == "__main__":
    main()

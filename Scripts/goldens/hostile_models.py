"""Hand-made hostile models from the catalogue of issue #17: each one is a small .tflite that
once crashed, hung or exhausted memory, or was accepted though invalid. The Swift regression
tests (Tests/TFLiteInterpreterTests/HostileInputTests.swift) check that each gives a typed
error naming the problem, or runs. Writes Tests/Fixtures/hostile/*.tflite (a few hundred bytes
each). Only used to generate test data.
"""
import os

import importlib

import flatbuffers
import numpy as np
import tflite

from common import ROOT
from single_op_model import TYPE_CODES, _offsets, _vector

OUT = os.path.join(ROOT, "Tests", "Fixtures", "hostile")
Op = tflite.BuiltinOperator
Opts = tflite.BuiltinOptions
(Buffer, Model, Operator, OperatorCode, QuantizationParameters, SubGraph, Tensor, SoftmaxOptions, LeakyReluOptions,
 Conv2DOptions, DepthwiseConv2DOptions) = (
    importlib.import_module(f"tflite.{m}") for m in
    ["Buffer", "Model", "Operator", "OperatorCode", "QuantizationParameters", "SubGraph", "Tensor", "SoftmaxOptions",
     "LeakyReluOptions", "Conv2DOptions", "DepthwiseConv2DOptions"])


class G:
    """A graph under construction: tensors (shape, dtype, quant, data, signature) and operators
    (code, inputs, outputs, options) in the order given (which may be deliberately wrong)."""

    def __init__(self):
        self.tensors = []
        self.ops = []

    def tensor(self, shape, dtype=np.float32, quant=None, data=None, signature=None):
        self.tensors.append((list(shape), np.dtype(dtype), quant,
                             None if data is None else np.asarray(data, dtype=dtype), signature))
        return len(self.tensors) - 1

    def op(self, code, inputs, outputs, options=None):
        self.ops.append((code, inputs, outputs, options))

    def build(self, inputs, outputs, description="hostile input (issue 17)"):
        b = flatbuffers.Builder(1024)
        codes = sorted({op[0] for op in self.ops})
        buffers = [None] + [t[3].tobytes() for t in self.tensors if t[3] is not None]
        buffer_offsets = []
        for data in buffers:
            d = b.CreateNumpyVector(np.frombuffer(data, dtype=np.uint8)) if data else None
            Buffer.BufferStart(b)
            if d is not None:
                Buffer.BufferAddData(b, d)
            buffer_offsets.append(Buffer.BufferEnd(b))
        tensor_offsets, next_buffer = [], 1
        for i, (shape, dtype, quant, data, signature) in enumerate(self.tensors):
            name = b.CreateString(f"t{i}")
            shape_vec = _vector(b, shape, np.int32)
            signature_vec = _vector(b, signature, np.int32) if signature is not None else None
            q = None
            if quant is not None:
                s = _vector(b, [quant[0]], np.float32)
                z = _vector(b, [quant[1]], np.int64)
                QuantizationParameters.QuantizationParametersStart(b)
                QuantizationParameters.QuantizationParametersAddScale(b, s)
                QuantizationParameters.QuantizationParametersAddZeroPoint(b, z)
                q = QuantizationParameters.QuantizationParametersEnd(b)
            Tensor.TensorStart(b)
            Tensor.TensorAddShape(b, shape_vec)
            if signature_vec is not None:
                Tensor.TensorAddShapeSignature(b, signature_vec)
            Tensor.TensorAddType(b, TYPE_CODES[dtype])
            if data is not None:
                Tensor.TensorAddBuffer(b, next_buffer)
                next_buffer += 1
            else:
                Tensor.TensorAddBuffer(b, 0)
            Tensor.TensorAddName(b, name)
            if q is not None:
                Tensor.TensorAddQuantization(b, q)
            tensor_offsets.append(Tensor.TensorEnd(b))
        op_offsets = []
        for code, op_inputs, op_outputs, options in self.ops:
            i = _vector(b, op_inputs, np.int32)
            o = _vector(b, op_outputs, np.int32)
            opts = options[1](b) if options else None
            Operator.OperatorStart(b)
            Operator.OperatorAddOpcodeIndex(b, codes.index(code))
            Operator.OperatorAddInputs(b, i)
            Operator.OperatorAddOutputs(b, o)
            if opts is not None:
                Operator.OperatorAddBuiltinOptionsType(b, options[0])
                Operator.OperatorAddBuiltinOptions(b, opts)
            op_offsets.append(Operator.OperatorEnd(b))
        graph_inputs = _vector(b, inputs, np.int32)
        graph_outputs = _vector(b, outputs, np.int32)
        tensors_vec = _offsets(b, SubGraph.SubGraphStartTensorsVector, tensor_offsets)
        ops_vec = _offsets(b, SubGraph.SubGraphStartOperatorsVector, op_offsets)
        SubGraph.SubGraphStart(b)
        SubGraph.SubGraphAddTensors(b, tensors_vec)
        SubGraph.SubGraphAddInputs(b, graph_inputs)
        SubGraph.SubGraphAddOutputs(b, graph_outputs)
        SubGraph.SubGraphAddOperators(b, ops_vec)
        subgraph = SubGraph.SubGraphEnd(b)
        code_offsets = []
        for code in codes:
            OperatorCode.OperatorCodeStart(b)
            OperatorCode.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
            OperatorCode.OperatorCodeAddBuiltinCode(b, code)
            OperatorCode.OperatorCodeAddVersion(b, 1)
            code_offsets.append(OperatorCode.OperatorCodeEnd(b))
        codes_vec = _offsets(b, Model.ModelStartOperatorCodesVector, code_offsets)
        subgraphs_vec = _offsets(b, Model.ModelStartSubgraphsVector, [subgraph])
        buffers_vec = _offsets(b, Model.ModelStartBuffersVector, buffer_offsets)
        desc = b.CreateString(description)
        Model.ModelStart(b)
        Model.ModelAddVersion(b, 3)
        Model.ModelAddOperatorCodes(b, codes_vec)
        Model.ModelAddSubgraphs(b, subgraphs_vec)
        Model.ModelAddDescription(b, desc)
        Model.ModelAddBuffers(b, buffers_vec)
        b.Finish(Model.ModelEnd(b), file_identifier=b"TFL3")
        return bytes(b.Output())


def options(module, **fields):
    def fn(b):
        getattr(module, f"{module.__name__.split('.')[-1]}Start")(b)
        for key, value in fields.items():
            getattr(module, f"{module.__name__.split('.')[-1]}Add{key}")(b, value)
        return getattr(module, f"{module.__name__.split('.')[-1]}End")(b)
    return fn


def unary(code, in_quant, out_quant, opts=None):
    g = G()
    x = g.tensor([1, 4], np.uint8, quant=in_quant)
    y = g.tensor([1, 4], np.uint8, quant=out_quant)
    g.op(code, [x], [y], opts)
    return g.build([x], [y])


def models():
    nan = float("nan")
    out = {}
    # Quantization parameters outside QuantizeMultiplier's contract.
    out["relu_scale_ratio_overflow"] = unary(Op.RELU, (3e38, 0), (1e-38, 0))
    out["softmax_nan_beta"] = unary(Op.SOFTMAX, (0.1, 0), (1 / 256, 0),
                                    (Opts.SoftmaxOptions, options(SoftmaxOptions, Beta=nan)))
    out["leaky_relu_nan_alpha"] = unary(Op.LEAKY_RELU, (0.1, 128), (0.1, 128),
                                        (Opts.LeakyReluOptions, options(LeakyReluOptions, Alpha=nan)))
    g = G()
    a = g.tensor([1, 4], np.uint8, quant=(1e30, 0))
    c = g.tensor([1, 4], np.uint8, quant=(1e30, 0))
    y = g.tensor([1, 4], np.uint8, quant=(1.0, 0))
    g.op(Op.MUL, [a, c], [y])
    out["mul_scale_product_overflow"] = g.build([a, c], [y])
    g = G()
    x = g.tensor([1, 3, 3, 1], np.uint8, quant=(1e30, 0))
    w = g.tensor([1, 1, 1, 1], np.uint8, quant=(1e30, 0), data=[1])
    bias = g.tensor([1], np.int32, quant=(1e38, 0), data=[0])
    y = g.tensor([1, 3, 3, 1], np.uint8, quant=(1.0, 0))
    g.op(Op.CONV_2D, [x, w, bias], [y], (Opts.Conv2DOptions, options(Conv2DOptions, Padding=1, StrideW=1, StrideH=1)))
    out["conv_scale_product_overflow"] = g.build([x], [y])
    # A depthwise convolution with a resizable input (zero-element inputs with huge rows).
    g = G()
    x = g.tensor([1, 8, 8, 3], signature=[1, -1, -1, 3])
    w = g.tensor([1, 3, 3, 3], data=np.full([1, 3, 3, 3], 0.5, np.float32))
    bias = g.tensor([3], data=np.zeros(3, np.float32))
    y = g.tensor([1, 8, 8, 3])
    g.op(Op.DEPTHWISE_CONV_2D, [x, w, bias], [y],
         (Opts.DepthwiseConv2DOptions, options(DepthwiseConv2DOptions, Padding=0, StrideW=1, StrideH=1, DepthMultiplier=1)))
    out["depthwise_resizable"] = g.build([x], [y])
    # Kernel scratch far beyond the arena: a uint8 depthwise convolution dilated by 1000 with SAME
    # padding on an 8x8x4 input (256 B in, 256 B out) pads its input, as exact floats, to
    # 2008x2008x4 (64 MB); a uint8 3x3 CONV_2D on one channel gathers 9-tap patch rows for the
    # integer GEMM (about 12 bytes per output pixel against 2 in the arena).
    g = G()
    x = g.tensor([1, 8, 8, 4], np.uint8, quant=(1 / 255, 0))
    w = g.tensor([1, 3, 3, 4], np.uint8, quant=(1 / 255, 128), data=np.full([1, 3, 3, 4], 150, np.uint8))
    bias = g.tensor([4], np.int32, quant=(1 / 255 / 255, 0), data=np.zeros(4, np.int32))
    y = g.tensor([1, 8, 8, 4], np.uint8, quant=(1 / 64, 0))
    g.op(Op.DEPTHWISE_CONV_2D, [x, w, bias], [y],
         (Opts.DepthwiseConv2DOptions, options(DepthwiseConv2DOptions, Padding=0, StrideW=1, StrideH=1, DepthMultiplier=1,
                                                DilationWFactor=1000, DilationHFactor=1000)))
    out["depthwise_dilated_scratch"] = g.build([x], [y])
    g = G()
    x = g.tensor([1, 256, 256, 1], np.uint8, quant=(1 / 255, 0))
    w = g.tensor([1, 3, 3, 1], np.uint8, quant=(1 / 255, 128), data=np.full([1, 3, 3, 1], 150, np.uint8))
    bias = g.tensor([1], np.int32, quant=(1 / 255 / 255, 0), data=[0])
    y = g.tensor([1, 256, 256, 1], np.uint8, quant=(1 / 64, 0))
    g.op(Op.CONV_2D, [x, w, bias], [y], (Opts.Conv2DOptions, options(Conv2DOptions, Padding=0, StrideW=1, StrideH=1)))
    out["conv_patch_scratch"] = g.build([x], [y])
    # Four FILL operators of 1 GiB each whose outputs nothing reads, beside a tiny RELU.
    g = G()
    x = g.tensor([4])
    y = g.tensor([4])
    g.op(Op.RELU, [x], [y])
    for _ in range(4):
        dims = g.tensor([1], np.int32, data=[1 << 28])
        value = g.tensor([], np.float32, data=1.0)
        filled = g.tensor([1 << 28])
        g.op(Op.FILL, [dims, value], [filled])
    out["unused_gigabyte_fills"] = g.build([x], [y])
    # Four FILL outputs of 256 KiB that are graph outputs (folded at load: 1 MiB in total).
    g = G()
    outs = []
    for _ in range(4):
        dims = g.tensor([1], np.int32, data=[1 << 16])
        value = g.tensor([], np.float32, data=2.0)
        filled = g.tensor([1 << 16])
        g.op(Op.FILL, [dims, value], [filled])
        outs.append(filled)
    out["four_quarter_mebibyte_fills"] = g.build([], outs)
    # The same four 1 GiB FILLs as graph outputs: too large to fold, they run at invoke, and
    # their 4 GiB arena is refused before anything is allocated.
    g = G()
    outs = []
    for _ in range(4):
        dims = g.tensor([1], np.int32, data=[1 << 28])
        value = g.tensor([], np.float32, data=1.0)
        filled = g.tensor([1 << 28])
        g.op(Op.FILL, [dims, value], [filled])
        outs.append(filled)
    out["four_gigabyte_fill_outputs"] = g.build([], outs)
    # An operator that reads a tensor a later operator writes (a cycle).
    g = G()
    x = g.tensor([4])
    t1 = g.tensor([4])
    t2 = g.tensor([4])
    g.op(Op.ADD, [x, t2], [t1])
    g.op(Op.RELU, [t1], [t2])
    out["cycle"] = g.build([x], [t2])
    # An operator that reads its own output.
    g = G()
    x = g.tensor([4])
    t1 = g.tensor([4])
    g.op(Op.ADD, [x, t1], [t1])
    out["self_loop"] = g.build([x], [t1])
    return out


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, data in models().items():
        with open(os.path.join(OUT, f"{name}.tflite"), "wb") as f:
            f.write(data)
        print(f"  hostile/{name}.tflite ({len(data)} bytes)")


if __name__ == "__main__":
    main()

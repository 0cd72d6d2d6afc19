"""Cuts every convolution-family operator out of real models into one-operator cases
(real weights, real quantization, random inputs) with reference outputs, in the golden
fixture format. Used to check the convolution kernels layer by layer on real networks.

    PYTHONPATH=Scripts/goldens python Scripts/goldens/cuts_convolution.py OUT_DIR MODEL.tflite...

The cases are large (real weights), so they are written to OUT_DIR, not committed;
`CONV_GOLDEN_DIR=OUT_DIR swift test --filter ConvolutionOperatorGoldenTests` runs them.
"""
import copy
import os
import sys

import flatbuffers
import numpy as np
from tensorflow.lite.python import schema_py_generated as fb

import common

FAMILY_OPS = {fb.BuiltinOperator.CONV_2D, fb.BuiltinOperator.DEPTHWISE_CONV_2D,
              fb.BuiltinOperator.FULLY_CONNECTED, fb.BuiltinOperator.TRANSPOSE_CONV,
              fb.BuiltinOperator.AVERAGE_POOL_2D, fb.BuiltinOperator.MAX_POOL_2D}
NP = {0: np.float32, 1: np.float16, 2: np.int32, 3: np.uint8, 9: np.int8}


def cut(model, op_index, rng):
    sub = model.subgraphs[0]
    op = sub.operators[op_index]
    producers = {o: p for p in sub.operators for o in p.outputs}
    new = fb.ModelT()
    new.version = 3
    new.buffers = [fb.BufferT()]
    code = copy.deepcopy(model.operatorCodes[op.opcodeIndex])
    new.operatorCodes = [code]
    ns = fb.SubGraphT()
    ns.tensors, ns.inputs = [], []
    mapping = {}
    inputs = []

    def add(index, data=None, as_input=False):
        t = copy.deepcopy(sub.tensors[index])
        t.buffer = 0
        if data is not None:
            b = fb.BufferT()
            b.data = np.ascontiguousarray(data).tobytes()
            new.buffers.append(b)
            t.buffer = len(new.buffers) - 1
        t.shapeSignature = None
        ns.tensors.append(t)
        mapping[index] = len(ns.tensors) - 1
        if as_input:
            ns.inputs.append(mapping[index])
        return t

    for i in op.inputs:
        if i < 0:
            inputs.append(-1)
            continue
        t = sub.tensors[i]
        buf = model.buffers[t.buffer].data if t.buffer < len(model.buffers) else None
        if buf is not None and len(buf) > 0:
            add(i, np.frombuffer(bytes(buf), dtype=NP[t.type]))
        elif i in producers and model.operatorCodes[producers[i].opcodeIndex].builtinCode == fb.BuiltinOperator.DEQUANTIZE:
            src = sub.tensors[producers[i].inputs[0]]
            raw = np.frombuffer(bytes(model.buffers[src.buffer].data), dtype=NP[src.type])
            add(i, raw.astype(np.float32))
        else:
            add(i, as_input=True)
        inputs.append(mapping[i])
    for o in op.outputs:
        add(o)
    nop = copy.deepcopy(op)
    nop.opcodeIndex = 0
    nop.inputs = inputs
    nop.outputs = [mapping[o] for o in op.outputs]
    ns.operators = [nop]
    ns.outputs = nop.outputs
    new.subgraphs = [ns]
    b = flatbuffers.Builder(1 << 20)
    b.Finish(new.Pack(b), file_identifier=b"TFL3")
    model_bytes = bytes(b.Output())
    xs = []
    for k in ns.inputs:
        t = ns.tensors[k]
        dtype = NP[t.type]
        if dtype == np.float32:
            xs.append(rng.uniform(-2, 2, size=list(t.shape)).astype(np.float32))
        else:
            info = np.iinfo(dtype)
            xs.append(rng.integers(info.min, info.max, size=list(t.shape), endpoint=True).astype(dtype))
    return model_bytes, xs


def main():
    out_dir = sys.argv[1]
    common.OPS_DIR = out_dir
    rng = np.random.default_rng(7)
    names = {v: k for k, v in fb.BuiltinOperator.__dict__.items() if not k.startswith("_")}
    for path in sys.argv[2:]:
        model = fb.ModelT.InitFromPackedBuf(open(path, "rb").read(), 0)
        stem = os.path.splitext(os.path.basename(path))[0]
        for i, op in enumerate(model.subgraphs[0].operators):
            code = model.operatorCodes[op.opcodeIndex]
            b = max(code.builtinCode, code.deprecatedBuiltinCode)
            if b not in FAMILY_OPS:
                continue
            model_bytes, xs = cut(model, i, rng)
            tol = "float" if any(x.dtype == np.float32 for x in xs) else "exact"
            common.save_case("cuts", f"{stem}_{i:03d}_{names[b].lower()}", model_bytes, xs, tol,
                             f"{names[b]} #{i} cut from {stem}")
        print(stem, "done", flush=True)


if __name__ == "__main__":
    main()

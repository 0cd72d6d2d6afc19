"""Builds .tflite models with several subgraphs (control flow: IF, WHILE, CALL_ONCE, and
resource variables) with the `tflite` package's FlatBuffers builders, for the golden and
hostile-input fixtures of ops_control_flow.py. Only used to generate test data.

    g = Graph()
    x = g.input([4], np.float32)
    c = g.const(np.ones(4, np.float32))
    y = g.tensor([4], np.float32)
    g.op(BuiltinOperator.ADD, [x, c], [y])
    g.outputs = [y]
    model_bytes = build([g])           # subgraph 0 is the main graph
"""
import importlib

import flatbuffers
import numpy as np

import single_op_model as som

Buffer, Model, Operator, OperatorCode, SubGraph, Tensor = (
    importlib.import_module(f"tflite.{m}") for m in
    ["Buffer", "Model", "Operator", "OperatorCode", "SubGraph", "Tensor"])

RESOURCE = "resource"  # dtype marker for VAR_HANDLE outputs (TensorType RESOURCE = 13)


class Graph:
    """One subgraph: tensors (shape, dtype, constant data), operators, inputs and outputs."""

    def __init__(self, name="main"):
        self.name = name
        self.tensors = []   # (shape, dtype or RESOURCE, data or None, name)
        self.ops = []       # (builtin code, inputs, outputs, options type, options fn)
        self.inputs = []
        self.outputs = []

    def tensor(self, shape, dtype, data=None, name=None):
        self.tensors.append((list(shape), dtype, data, name or f"t{len(self.tensors)}"))
        return len(self.tensors) - 1

    def input(self, shape, dtype, name=None):
        index = self.tensor(shape, dtype, name=name)
        self.inputs.append(index)
        return index

    def const(self, values, dtype=None):
        arr = np.asarray(values, dtype=dtype)
        return self.tensor(arr.shape, arr.dtype, data=arr)

    def op(self, code, inputs, outputs, options_type=0, options_fn=None):
        self.ops.append((code, list(inputs), list(outputs), options_type, options_fn))


def subgraph_options(module_name, **fields):
    """Options with integer fields only, e.g. subgraph_options("IfOptions", ThenSubgraphIndex=1)."""
    return som.options_type(module_name), som.options(module_name, **fields)


def var_handle_options(shared_name, container=""):
    V = importlib.import_module("tflite.VarHandleOptions")

    def fn(b):
        name = b.CreateString(shared_name)
        cont = b.CreateString(container)
        V.VarHandleOptionsStart(b)
        V.VarHandleOptionsAddContainer(b, cont)
        V.VarHandleOptionsAddSharedName(b, name)
        return V.VarHandleOptionsEnd(b)
    return som.options_type("VarHandleOptions"), fn


def _signature(b, key, subgraph_index, inputs, outputs):
    SignatureDef, TensorMap = (importlib.import_module(f"tflite.{m}") for m in ["SignatureDef", "TensorMap"])

    def maps(entries):
        offsets = []
        for name, index in entries:
            n = b.CreateString(name)
            TensorMap.TensorMapStart(b)
            TensorMap.TensorMapAddName(b, n)
            TensorMap.TensorMapAddTensorIndex(b, index)
            offsets.append(TensorMap.TensorMapEnd(b))
        return offsets
    ins = som._offsets(b, SignatureDef.SignatureDefStartInputsVector, maps(inputs))
    outs = som._offsets(b, SignatureDef.SignatureDefStartOutputsVector, maps(outputs))
    k = b.CreateString(key)
    SignatureDef.SignatureDefStart(b)
    SignatureDef.SignatureDefAddInputs(b, ins)
    SignatureDef.SignatureDefAddOutputs(b, outs)
    SignatureDef.SignatureDefAddSignatureKey(b, k)
    SignatureDef.SignatureDefAddSubgraphIndex(b, subgraph_index)
    return SignatureDef.SignatureDefEnd(b)


def build(graphs, description="multi-subgraph golden", signatures=()):
    """The model bytes of `graphs` (subgraph 0 first). `signatures`: (key, subgraph index,
    [(input name, tensor index)], [(output name, tensor index)])."""
    b = flatbuffers.Builder(4096)
    codes = sorted({op[0] for g in graphs for op in g.ops})
    code_index = {c: i for i, c in enumerate(codes)}
    buffer_data = [None]
    subgraph_offsets = []
    for g in graphs:
        tensor_offsets = []
        for shape, dtype, data, name in g.tensors:
            buffer = 0
            if data is not None:
                buffer = len(buffer_data)
                buffer_data.append(np.asarray(data).tobytes())
            n = b.CreateString(name)
            s = som._vector(b, shape, np.int32)
            Tensor.TensorStart(b)
            Tensor.TensorAddShape(b, s)
            Tensor.TensorAddType(b, 13 if dtype is RESOURCE else som.TYPE_CODES[np.dtype(dtype)])
            Tensor.TensorAddBuffer(b, buffer)
            Tensor.TensorAddName(b, n)
            tensor_offsets.append(Tensor.TensorEnd(b))
        op_offsets = []
        for code, inputs, outputs, options_type, options_fn in g.ops:
            i = som._vector(b, inputs, np.int32)
            o = som._vector(b, outputs, np.int32)
            opts = options_fn(b) if options_fn else None
            Operator.OperatorStart(b)
            Operator.OperatorAddOpcodeIndex(b, code_index[code])
            Operator.OperatorAddInputs(b, i)
            Operator.OperatorAddOutputs(b, o)
            if opts is not None:
                Operator.OperatorAddBuiltinOptionsType(b, options_type)
                Operator.OperatorAddBuiltinOptions(b, opts)
            op_offsets.append(Operator.OperatorEnd(b))
        t = som._offsets(b, SubGraph.SubGraphStartTensorsVector, tensor_offsets)
        ops = som._offsets(b, SubGraph.SubGraphStartOperatorsVector, op_offsets)
        ins = som._vector(b, g.inputs, np.int32)
        outs = som._vector(b, g.outputs, np.int32)
        name = b.CreateString(g.name)
        SubGraph.SubGraphStart(b)
        SubGraph.SubGraphAddTensors(b, t)
        SubGraph.SubGraphAddInputs(b, ins)
        SubGraph.SubGraphAddOutputs(b, outs)
        SubGraph.SubGraphAddOperators(b, ops)
        SubGraph.SubGraphAddName(b, name)
        subgraph_offsets.append(SubGraph.SubGraphEnd(b))
    buffer_offsets = []
    for data in buffer_data:
        d = b.CreateNumpyVector(np.frombuffer(data, dtype=np.uint8)) if data else None
        Buffer.BufferStart(b)
        if d is not None:
            Buffer.BufferAddData(b, d)
        buffer_offsets.append(Buffer.BufferEnd(b))
    code_offsets = []
    for code in codes:
        OperatorCode.OperatorCodeStart(b)
        OperatorCode.OperatorCodeAddDeprecatedBuiltinCode(b, min(code, 127))
        OperatorCode.OperatorCodeAddBuiltinCode(b, code)
        OperatorCode.OperatorCodeAddVersion(b, 1)
        code_offsets.append(OperatorCode.OperatorCodeEnd(b))
    codes_vec = som._offsets(b, Model.ModelStartOperatorCodesVector, code_offsets)
    subgraphs_vec = som._offsets(b, Model.ModelStartSubgraphsVector, subgraph_offsets)
    buffers_vec = som._offsets(b, Model.ModelStartBuffersVector, buffer_offsets)
    signature_offsets = [_signature(b, *sig) for sig in signatures]
    signatures_vec = som._offsets(b, Model.ModelStartSignatureDefsVector, signature_offsets) if signatures else None
    desc = b.CreateString(description)
    Model.ModelStart(b)
    if signatures_vec is not None:
        Model.ModelAddSignatureDefs(b, signatures_vec)
    Model.ModelAddVersion(b, 3)
    Model.ModelAddOperatorCodes(b, codes_vec)
    Model.ModelAddSubgraphs(b, subgraphs_vec)
    Model.ModelAddDescription(b, desc)
    Model.ModelAddBuffers(b, buffers_vec)
    b.Finish(Model.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())

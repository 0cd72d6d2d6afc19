"""Builds one-operator .tflite models with the `tflite` package's FlatBuffers builders.

Used by the op golden generators when the TF converter cannot produce the exact case
(uint8 activations, requantizing inputs, explicit option combinations, constant inputs of
any type). Only used to generate test data.
"""
import flatbuffers
import numpy as np
import importlib

import tflite

Buffer, Model, Operator, OperatorCode, QuantizationParameters, SubGraph, Tensor = (
    importlib.import_module(f"tflite.{m}") for m in
    ["Buffer", "Model", "Operator", "OperatorCode", "QuantizationParameters", "SubGraph", "Tensor"])
SparsityParameters, DimensionMetadata = (
    importlib.import_module(f"tflite.{m}") for m in ["SparsityParameters", "DimensionMetadata"])
# SparseIndexVector union members: (type code, module, numpy dtype).
INDEX_VECTORS = {"int32": (1, "Int32Vector", np.int32), "uint16": (2, "Uint16Vector", np.uint16),
                 "uint8": (3, "Uint8Vector", np.uint8)}

TYPE_CODES = {np.dtype(np.float32): 0, np.dtype(np.float16): 1, np.dtype(np.int32): 2,
              np.dtype(np.uint8): 3, np.dtype(np.int64): 4, np.dtype(np.bool_): 6,
              np.dtype(np.int16): 7, np.dtype(np.int8): 9}


class T:
    """A tensor of the model: shape, dtype, optional (scale, zero_point) or per-channel
    ([scales], [zero_points], axis) quantization, and data for constants."""

    def __init__(self, shape, dtype, quant=None, data=None, name=None, sparsity=None):
        """`sparsity`: (traversal_order, block_map, [dims]) where a dim is ("dense", size) or
        ("csr", segments, indices, index_type) with index_type "int32", "uint16" or "uint8";
        `data` then holds the stored values only."""
        self.sparsity = sparsity
        self.shape = list(shape)
        self.dtype = np.dtype(dtype)
        self.quant = quant
        self.data = None if data is None else np.asarray(data, dtype=self.dtype)
        if self.data is not None and sparsity is None:
            self.data = self.data.reshape(self.shape)
        self.name = name


def const(values, dtype=np.int32, shape=None, quant=None):
    """A constant tensor holding `values`."""
    arr = np.asarray(values, dtype=dtype)
    if shape is not None:
        arr = arr.reshape(shape)
    return T(arr.shape, dtype, quant=quant, data=arr)


def _vector(builder, values, dtype):
    return builder.CreateNumpyVector(np.asarray(values, dtype=dtype))


def _offsets(builder, start_fn, offsets):
    start_fn(builder, len(offsets))
    for o in reversed(offsets):
        builder.PrependUOffsetTRelative(o)
    return builder.EndVector()


def _index_vector(b, values, kind):
    code, module_name, dtype = INDEX_VECTORS[kind]
    module = importlib.import_module(f"tflite.{module_name}")
    vec = _vector(b, values, dtype)
    getattr(module, f"{module_name}Start")(b)
    getattr(module, f"{module_name}AddValues")(b, vec)
    return code, getattr(module, f"{module_name}End")(b)


def _sparsity(b, sparsity):
    traversal, block_map, dims = sparsity
    dim_offsets = []
    for dim in dims:
        if dim[0] == "dense":
            DimensionMetadata.DimensionMetadataStart(b)
            DimensionMetadata.DimensionMetadataAddFormat(b, 0)
            DimensionMetadata.DimensionMetadataAddDenseSize(b, dim[1])
        else:
            _, segments, indices, kind = dim
            seg_type, seg = _index_vector(b, segments, kind)
            idx_type, idx = _index_vector(b, indices, kind)
            DimensionMetadata.DimensionMetadataStart(b)
            DimensionMetadata.DimensionMetadataAddFormat(b, 1)
            DimensionMetadata.DimensionMetadataAddArraySegmentsType(b, seg_type)
            DimensionMetadata.DimensionMetadataAddArraySegments(b, seg)
            DimensionMetadata.DimensionMetadataAddArrayIndicesType(b, idx_type)
            DimensionMetadata.DimensionMetadataAddArrayIndices(b, idx)
        dim_offsets.append(DimensionMetadata.DimensionMetadataEnd(b))
    t = _vector(b, traversal, np.int32)
    m = _vector(b, block_map, np.int32) if block_map else None
    dm = _offsets(b, SparsityParameters.SparsityParametersStartDimMetadataVector, dim_offsets)
    SparsityParameters.SparsityParametersStart(b)
    SparsityParameters.SparsityParametersAddTraversalOrder(b, t)
    if m is not None:
        SparsityParameters.SparsityParametersAddBlockMap(b, m)
    SparsityParameters.SparsityParametersAddDimMetadata(b, dm)
    return SparsityParameters.SparsityParametersEnd(b)


def build(op_code, inputs, outputs, options_type=0, options_fn=None, version=1):
    """A model with one operator `op_code` (BuiltinOperator value). Non-constant inputs become
    model inputs in order; `options_fn(builder)` returns the builtin options table offset."""
    b = flatbuffers.Builder(1024)
    tensors = list(inputs) + list(outputs)
    # Buffers: 0 is the empty sentinel, then one per constant.
    buffer_data = [None]
    buffer_index = []
    for t in tensors:
        if t.data is not None:
            buffer_index.append(len(buffer_data))
            buffer_data.append(t.data.tobytes())
        else:
            buffer_index.append(0)
    buffer_offsets = []
    for data in buffer_data:
        d = b.CreateNumpyVector(np.frombuffer(data, dtype=np.uint8)) if data else None
        Buffer.BufferStart(b)
        if d is not None:
            Buffer.BufferAddData(b, d)
        buffer_offsets.append(Buffer.BufferEnd(b))

    tensor_offsets = []
    for i, t in enumerate(tensors):
        name = b.CreateString(t.name or f"t{i}")
        shape = _vector(b, t.shape, np.int32)
        q = None
        if t.quant is not None:
            if isinstance(t.quant[0], (list, tuple, np.ndarray)):
                scales, zeros, axis = t.quant
            else:
                scales, zeros, axis = [t.quant[0]], [t.quant[1]], 0
            s = _vector(b, scales, np.float32)
            z = _vector(b, zeros, np.int64)
            QuantizationParameters.QuantizationParametersStart(b)
            QuantizationParameters.QuantizationParametersAddScale(b, s)
            QuantizationParameters.QuantizationParametersAddZeroPoint(b, z)
            QuantizationParameters.QuantizationParametersAddQuantizedDimension(b, axis)
            q = QuantizationParameters.QuantizationParametersEnd(b)
        sp = _sparsity(b, t.sparsity) if t.sparsity is not None else None
        Tensor.TensorStart(b)
        if sp is not None:
            Tensor.TensorAddSparsity(b, sp)
        Tensor.TensorAddShape(b, shape)
        Tensor.TensorAddType(b, TYPE_CODES[t.dtype])
        Tensor.TensorAddBuffer(b, buffer_index[i])
        Tensor.TensorAddName(b, name)
        if q is not None:
            Tensor.TensorAddQuantization(b, q)
        tensor_offsets.append(Tensor.TensorEnd(b))

    n_in = len(inputs)
    op_inputs = _vector(b, list(range(n_in)), np.int32)
    op_outputs = _vector(b, list(range(n_in, len(tensors))), np.int32)
    opts = options_fn(b) if options_fn else None
    Operator.OperatorStart(b)
    Operator.OperatorAddOpcodeIndex(b, 0)
    Operator.OperatorAddInputs(b, op_inputs)
    Operator.OperatorAddOutputs(b, op_outputs)
    if opts is not None:
        Operator.OperatorAddBuiltinOptionsType(b, options_type)
        Operator.OperatorAddBuiltinOptions(b, opts)
    op = Operator.OperatorEnd(b)

    graph_inputs = _vector(b, [i for i, t in enumerate(inputs) if t.data is None], np.int32)
    graph_outputs = _vector(b, list(range(n_in, len(tensors))), np.int32)
    tensors_vec = _offsets(b, SubGraph.SubGraphStartTensorsVector, tensor_offsets)
    ops_vec = _offsets(b, SubGraph.SubGraphStartOperatorsVector, [op])
    SubGraph.SubGraphStart(b)
    SubGraph.SubGraphAddTensors(b, tensors_vec)
    SubGraph.SubGraphAddInputs(b, graph_inputs)
    SubGraph.SubGraphAddOutputs(b, graph_outputs)
    SubGraph.SubGraphAddOperators(b, ops_vec)
    subgraph = SubGraph.SubGraphEnd(b)

    OperatorCode.OperatorCodeStart(b)
    OperatorCode.OperatorCodeAddDeprecatedBuiltinCode(b, min(op_code, 127))
    OperatorCode.OperatorCodeAddBuiltinCode(b, op_code)
    OperatorCode.OperatorCodeAddVersion(b, version)
    code = OperatorCode.OperatorCodeEnd(b)

    codes_vec = _offsets(b, Model.ModelStartOperatorCodesVector, [code])
    subgraphs_vec = _offsets(b, Model.ModelStartSubgraphsVector, [subgraph])
    buffers_vec = _offsets(b, Model.ModelStartBuffersVector, buffer_offsets)
    desc = b.CreateString("single-op golden")
    Model.ModelStart(b)
    Model.ModelAddVersion(b, 3)
    Model.ModelAddOperatorCodes(b, codes_vec)
    Model.ModelAddSubgraphs(b, subgraphs_vec)
    Model.ModelAddDescription(b, desc)
    Model.ModelAddBuffers(b, buffers_vec)
    b.Finish(Model.ModelEnd(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def options(module_name, **fields):
    """An options-table builder: options("StridedSliceOptions", BeginMask=1, Offset=True)."""
    module = importlib.import_module(f"tflite.{module_name}")

    def fn(b):
        # Vector fields (lists) must be written before the table starts.
        values = {k: (_vector(b, v, np.int32) if isinstance(v, (list, tuple)) else v) for k, v in fields.items()}
        getattr(module, f"{module_name}Start")(b)
        for key, value in values.items():
            getattr(module, f"{module_name}Add{key}")(b, value)
        return getattr(module, f"{module_name}End")(b)
    return fn


def options_type(module_name):
    """The BuiltinOptions union code of `module_name`."""
    return getattr(tflite.BuiltinOptions, module_name)

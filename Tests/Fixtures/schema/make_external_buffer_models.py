"""Writes two tiny ADD models whose constant operand lives outside the FlatBuffer
(Buffer.offset/size, as the converter writes for models over 2 GiB):

- external_buffer.tflite: the 16 data bytes (floats 1, 2, 3, 4) appended after the FlatBuffer.
- external_buffer_past_eof.tflite: the same, but the offset points past the end of the file.

Run (python3 with numpy and tflite; Scripts/generate-goldens.sh runs it): python3 Tests/Fixtures/schema/make_external_buffer_models.py
"""
import importlib, os, struct
import flatbuffers

# The generated modules (the package namespace re-exports the classes under the same names).
Buffer, Model, Operator, OperatorCode, SubGraph, Tensor = (
    importlib.import_module(f"tflite.{name}") for name in ("Buffer", "Model", "Operator", "OperatorCode", "SubGraph", "Tensor"))

HERE = os.path.dirname(__file__)


def build(data_offset):
    b = flatbuffers.Builder(1024)
    names = [b.CreateString(n) for n in ("input", "constant", "output")]
    tensors = []
    for i, name in enumerate(names):
        Tensor.StartShapeVector(b, 2); b.PrependInt32(4); b.PrependInt32(1); shape = b.EndVector()
        Tensor.Start(b)
        Tensor.AddShape(b, shape); Tensor.AddType(b, 0); Tensor.AddBuffer(b, 1 if i == 1 else 0)
        Tensor.AddName(b, name)
        tensors.append(Tensor.End(b))
    SubGraph.StartTensorsVector(b, 3)
    for t in reversed(tensors): b.PrependUOffsetTRelative(t)
    tensor_vec = b.EndVector()
    Operator.StartInputsVector(b, 2); b.PrependInt32(1); b.PrependInt32(0); op_inputs = b.EndVector()
    Operator.StartOutputsVector(b, 1); b.PrependInt32(2); op_outputs = b.EndVector()
    Operator.Start(b); Operator.AddOpcodeIndex(b, 0); Operator.AddInputs(b, op_inputs); Operator.AddOutputs(b, op_outputs)
    op = Operator.End(b)
    SubGraph.StartOperatorsVector(b, 1); b.PrependUOffsetTRelative(op); ops = b.EndVector()
    SubGraph.StartInputsVector(b, 1); b.PrependInt32(0); sg_in = b.EndVector()
    SubGraph.StartOutputsVector(b, 1); b.PrependInt32(2); sg_out = b.EndVector()
    SubGraph.Start(b); SubGraph.AddTensors(b, tensor_vec); SubGraph.AddInputs(b, sg_in)
    SubGraph.AddOutputs(b, sg_out); SubGraph.AddOperators(b, ops)
    subgraph = SubGraph.End(b)
    OperatorCode.Start(b); OperatorCode.AddDeprecatedBuiltinCode(b, 0); OperatorCode.AddBuiltinCode(b, 0)
    OperatorCode.AddVersion(b, 1); code = OperatorCode.End(b)
    Buffer.Start(b); empty = Buffer.End(b)
    Buffer.Start(b); Buffer.AddOffset(b, data_offset); Buffer.AddSize(b, 16); external = Buffer.End(b)
    Model.StartBuffersVector(b, 2); b.PrependUOffsetTRelative(external); b.PrependUOffsetTRelative(empty)
    buffers = b.EndVector()
    Model.StartSubgraphsVector(b, 1); b.PrependUOffsetTRelative(subgraph); subgraphs = b.EndVector()
    Model.StartOperatorCodesVector(b, 1); b.PrependUOffsetTRelative(code); codes = b.EndVector()
    Model.Start(b); Model.AddVersion(b, 3); Model.AddOperatorCodes(b, codes); Model.AddSubgraphs(b, subgraphs)
    Model.AddBuffers(b, buffers)
    b.Finish(Model.End(b), file_identifier=b"TFL3")
    return bytes(b.Output())


def main():
    # The FlatBuffer's size does not depend on the offset value (a fixed 8-byte field).
    size = len(build(1 << 20))
    offset = (size + 15) // 16 * 16
    flat = build(offset)
    assert len(flat) == size
    data = struct.pack("<4f", 1, 2, 3, 4)
    with open(os.path.join(HERE, "external_buffer.tflite"), "wb") as f:
        f.write(flat + bytes(offset - size) + data)
    with open(os.path.join(HERE, "external_buffer_past_eof.tflite"), "wb") as f:
        f.write(build(offset + 16) + bytes(offset - size) + data)


if __name__ == "__main__":
    main()

"""Writes model_summaries.json: facts about every reference model, read with the python
`tflite` flatbuffer classes (an independent reader), for TFLiteSchemaTests to compare with.

Run (python3 with numpy and tflite; Scripts/generate-goldens.sh runs it): python3 Tests/Fixtures/schema/make_model_summaries.py
"""
import glob, json, os, sys
import tflite

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
NAMES = {v: k for k, v in tflite.BuiltinOperator.__dict__.items() if not k.startswith("_")}


def summarize(path):
    data = open(path, "rb").read()
    model = tflite.Model.GetRootAsModel(data, 0)
    codes = []
    for i in range(model.OperatorCodesLength()):
        oc = model.OperatorCodes(i)
        code = max(oc.DeprecatedBuiltinCode(), oc.BuiltinCode())
        codes.append(oc.CustomCode().decode() if code == 32 else NAMES.get(code, f"BUILTIN_{code}"))
    subgraphs = []
    for s in range(model.SubgraphsLength()):
        sg = model.Subgraphs(s)
        histogram = {}
        for o in range(sg.OperatorsLength()):
            name = codes[sg.Operators(o).OpcodeIndex()]
            histogram[name] = histogram.get(name, 0) + 1
        per_axis = 0
        sparse = 0
        for t in range(sg.TensorsLength()):
            tensor = sg.Tensors(t)
            q = tensor.Quantization()
            if q is not None and q.ScaleLength() > 1:
                per_axis += 1
            if tensor.Sparsity() is not None:
                sparse += 1
        subgraphs.append({
            "tensors": sg.TensorsLength(),
            "operators": sg.OperatorsLength(),
            "inputs": [int(x) for x in sg.InputsAsNumpy()] if sg.InputsLength() else [],
            "outputs": [int(x) for x in sg.OutputsAsNumpy()] if sg.OutputsLength() else [],
            "operatorHistogram": histogram,
            "perAxisTensors": per_axis,
            "sparseTensors": sparse,
        })
    total = 0
    for b in range(model.BuffersLength()):
        buf = model.Buffers(b)
        total += buf.Size() if buf.Offset() > 1 else buf.DataLength()
    return {
        "version": model.Version(),
        "operatorCodes": codes,
        "subgraphs": subgraphs,
        "buffers": model.BuffersLength(),
        "totalBufferBytes": total,
        "metadataNames": [model.Metadata(i).Name().decode() for i in range(model.MetadataLength())],
        "signatureKeys": [model.SignatureDefs(i).SignatureKey().decode() for i in range(model.SignatureDefsLength())],
    }


def main():
    paths = sorted(glob.glob(os.path.join(ROOT, "Models", "*.tflite")))
    paths += sorted(glob.glob(os.path.join(ROOT, "..", "shared", "models", "*.tflite")))
    out = {os.path.basename(p): summarize(p) for p in paths}
    target = os.path.join(os.path.dirname(__file__), "model_summaries.json")
    with open(target, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {len(out)} summaries to {target}", file=sys.stderr)


if __name__ == "__main__":
    main()

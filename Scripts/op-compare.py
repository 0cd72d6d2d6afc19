#!/usr/bin/env python3
"""Per-operator comparison with the reference runtime: which layers of a model are slower than
XNNPACK's, one at a time.

    python3 Scripts/op-compare.py MODEL [--top N | --op K ...] [--bench PATH] [--threads T]

Profiles MODEL with LiteVision's `bench` (release build), takes its N slowest operators (or the
operators K given), writes each as a model of its own into a temporary folder (the operator,
the DEQUANTIZE operators that make its weights from constants, its constant tensors; its other
inputs become the model's inputs), then runs `bench --compare` on those models and prints, per
operator, our median, XNNPACK's and the ratio. The one-operator models are derived from the
given model, so they live in the temporary folder only and are removed at exit.

Caveat: an operator alone runs with its input and output hot in the cache, unlike inside the
model, so its time can differ from the profile's; the host's run-to-run noise (10-30% on shared
vCPUs) applies to each row, so repeat a run before trusting a single ratio.

Needs the PyPI packages ai-edge-litert (its generated schema module and the runtime) and
flatbuffers, as Scripts/reference-bench.py does.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

import flatbuffers
from ai_edge_litert import schema_py_generated as schema

DEQUANTIZE = 6


def one_operator_model(model, index):
    """The flatbuffer bytes of a model holding only operator `index` of subgraph 0 (and the
    DEQUANTIZE operators of constants that feed it)."""
    graph = model.subgraphs[0]

    def constant(t):
        data = model.buffers[graph.tensors[t].buffer].data
        return data is not None and len(data) > 0

    operator = graph.operators[index]
    needed = set(operator.inputs)
    dequantized = [o for o in graph.operators
                   if model.operatorCodes[o.opcodeIndex].builtinCode == DEQUANTIZE
                   and all(constant(t) for t in o.inputs) and o.outputs[0] in needed]
    operators = dequantized + [operator]
    produced, inputs = set(), []
    for o in operators:
        for t in o.inputs:
            if t >= 0 and t not in produced and t not in inputs and not constant(t):
                inputs.append(t)
        produced.update(o.outputs)
    graph.operators, graph.inputs, graph.outputs = operators, inputs, list(operator.outputs)
    model.subgraphs = [graph]
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def bench_json(bench, arguments):
    result = subprocess.run([bench, "--json"] + arguments, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model")
    parser.add_argument("--top", type=int, default=12, help="the N slowest operators of the profile (default 12)")
    parser.add_argument("--op", type=int, action="append", help="an operator index (repeatable; instead of --top)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--bench", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "bench"))
    options = parser.parse_args()
    if not os.path.exists(options.bench):
        sys.exit(f"op-compare: no bench at {options.bench}: run `swift build -c release` first")

    indices = options.op
    if not indices:
        rows = bench_json(options.bench, ["--no-compare", "--profile", "--profile-top", str(options.top),
                                          "--threads", str(options.threads), "--model", options.model])
        indices = [row["position"] for row in rows[0]["slowest_operators"]]

    with open(options.model, "rb") as f:
        source = f.read()
    with tempfile.TemporaryDirectory(prefix="op-compare-") as folder:
        paths = {}
        for index in indices:
            model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(source, 0))
            if not 0 <= index < len(model.subgraphs[0].operators):
                sys.exit(f"op-compare: the model has no operator {index}")
            paths[index] = os.path.join(folder, f"op{index}.tflite")
            with open(paths[index], "wb") as f:
                f.write(one_operator_model(model, index))
        arguments = ["--threads", str(options.threads)]
        for index in indices:
            arguments += ["--model", paths[index]]
        rows = {row["path"]: row for row in bench_json(options.bench, arguments)}
    print(f"{'op':>5}  {'ours ms':>9}  {'XNNPACK ms':>10}  {'ours/XNNPACK':>12}")
    for index in indices:
        row = rows.get(paths[index])
        if row is None:
            continue
        xnnpack = (row.get("reference_xnnpack") or {}).get("median_ms", float("nan"))
        ratio = row.get("ratio_to_xnnpack") or float("nan")
        print(f"{index:>5}  {row['median_ms']:>9.3f}  {xnnpack:>10.3f}  {ratio:>12.2f}")


if __name__ == "__main__":
    main()

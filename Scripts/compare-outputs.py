#!/usr/bin/env python3
"""Conformance of LiteVision's outputs with the reference runtime's, model by model.

    python3 Scripts/compare-outputs.py MODEL... [--float-arithmetic MODE] [--threads T] [--seed S] [--litevision PATH]

For each model: random inputs of the right type (floats uniform in [-1, 1), 8-bit integers over
their whole range, as `bench`), the outputs of the reference runtime's reference kernels
(`BUILTIN_REF`, TFLite's exact arithmetic: our oracle), of its optimized built-in kernels and of
its XNNPACK path, and ours from `litevision run` (release build) on the same inputs saved as .npy.
Prints per model whether every output is bit-exact with the reference kernels, else the largest
difference relative to the output's largest magnitude, with the built-in kernels' and XNNPACK's
for scale (quantized models: the optimized built-in kernels and XNNPACK round some steps
differently from the reference kernels; float models: fused multiply-adds, on every engine but
the reference kernels). Ours run with `--float-arithmetic reference` unless told otherwise (each
float product and sum rounded as the reference kernels do), so every model should be bit-exact;
`--float-arithmetic automatic` checks the default instead (fused multiply-adds in float
convolutions unless the model quantizes float activations). MediaPipe's custom operators run,
in all three reference configurations, on MediaPipe's own kernels from its wheel
(Scripts/goldens/mediapipe_kernels.py). A model the reference cannot run otherwise is reported
as such. Our failure
to run a model is reported with our error. Run it under LITEVISION_ISA or LITEVISION_JIT=0 to
check another level's kernels. `Scripts/fetch-mediapipe-models.sh` fetches models from the wild.

Needs the PyPI packages ai-edge-litert and numpy.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np
from ai_edge_litert.interpreter import InterpreterWithCustomOps, OpResolverType

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens"))
import mediapipe_kernels  # noqa: E402  MediaPipe's kernels for its custom operators


def random_input(rng, detail):
    shape, dtype = detail["shape"], np.dtype(detail["dtype"])
    if dtype.kind == "f":
        return rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
    if dtype in (np.uint8, np.int8):
        return rng.integers(0, 256, size=shape, dtype=np.uint8).view(dtype)
    return np.zeros(shape, dtype=dtype)


def interpreter_for(path, threads, resolver):
    """The reference runtime with `resolver`; MediaPipe's kernels added for its custom operators."""
    with open(path, "rb") as f:
        registerers = [mediapipe_kernels.custom_op_registerer()] if mediapipe_kernels.uses_custom_kernels(f.read()) else []
    return InterpreterWithCustomOps(model_path=path, num_threads=threads, custom_op_registerers=registerers,
                                    experimental_op_resolver_type=resolver)


def reference_outputs(path, inputs, threads, resolver):
    interpreter = interpreter_for(path, threads, resolver)
    interpreter.allocate_tensors()
    for detail, value in zip(interpreter.get_input_details(), inputs):
        interpreter.set_tensor(detail["index"], value)
    interpreter.invoke()
    return [interpreter.get_tensor(detail["index"]) for detail in interpreter.get_output_details()]


def relative_difference(a, b):
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    a, b = a.astype(np.float64), b.astype(np.float64)
    return float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-30))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="+")
    parser.add_argument("--float-arithmetic", default="reference", choices=["reference", "automatic", "fused"],
                        help="our float rounding (litevision run --float-arithmetic; default reference)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--litevision", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "litevision"))
    options = parser.parse_args()
    if not os.path.exists(options.litevision):
        sys.exit(f"compare-outputs: no litevision at {options.litevision}: run `swift build -c release` first")
    for path in options.models:
        name = os.path.basename(path)
        try:
            probe = interpreter_for(path, 1, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
            probe.allocate_tensors()
        except Exception as error:  # custom operators the reference lacks
            print(f"{name:42} the reference cannot run it: {str(error).splitlines()[0][:120]}")
            continue
        rng = np.random.default_rng(options.seed)
        inputs = [random_input(rng, detail) for detail in probe.get_input_details()]
        reference = reference_outputs(path, inputs, options.threads, OpResolverType.BUILTIN_REF)
        builtin = reference_outputs(path, inputs, options.threads, OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        xnnpack = reference_outputs(path, inputs, options.threads, OpResolverType.AUTO)
        with tempfile.TemporaryDirectory(prefix="compare-outputs-") as folder:
            arguments = []
            for k, value in enumerate(inputs):
                np.save(os.path.join(folder, f"input_{k}.npy"), value)
                arguments += ["--input", os.path.join(folder, f"input_{k}.npy")]
            run = subprocess.run([options.litevision, "run", path, *arguments, "--output-dir", folder,
                                  "--threads", str(options.threads), "--float-arithmetic", options.float_arithmetic],
                                 capture_output=True, text=True)
            if run.returncode != 0:
                print(f"{name:42} ours failed: {run.stderr.strip().splitlines()[-1][:160] if run.stderr.strip() else run.returncode}")
                continue
            ours = [np.load(os.path.join(folder, f"output_{k}.npy")) for k in range(len(reference))]
        exact = all(a.shape == b.shape and np.array_equal(a, b) for a, b in zip(reference, ours))

        def worst(outputs):
            return max(relative_difference(a, b) for a, b in zip(reference, outputs))
        verdict = "bit-exact" if exact else f"max relative difference {worst(ours):.2e}"
        print(f"{name:42} {len(reference)} outputs: {verdict} (built-in {worst(builtin):.2e}, XNNPACK {worst(xnnpack):.2e})")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Latency of the reference runtime (ai-edge-litert) on TFLite models, for `swift run bench --compare`.

Measures each model at each --threads count with two op resolvers:
  builtin  OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES (the runtime's built-in optimized kernels)
  xnnpack  the default resolver, which applies the XNNPACK delegate
with the bench's iteration policy: --warmup runs, then exactly --iterations runs, or (time-boxed)
runs until --seconds of measured time with at least --min-iterations and at most --max-iterations.
Inputs are random of the right dtype, as the bench's own runs: floats uniform in [-1, 1),
8-bit integers over their whole range, booleans 0/1, wider integers 0.

Prints a JSON array of {model, threads, runtime, iterations, median_ms, p90_ms, min_ms, cold_start_ms}
(or `error`) on stdout; cold_start_ms is interpreter creation from the file, allocation, inputs and the first invoke.
Per model and thread count the built-in kernels run first, so XNNPACK's cold start is that of a
process whose runtime has already made an interpreter; `--xnnpack-first` runs XNNPACK first, so
that its first cold start is the process's first interpreter, as `bench` is for its first model
(code generation included).
`--cap-isa LEVEL` (sse2|avx2|avxvnni|avx512|avx512vnni) first caps the instruction sets the runtime's
kernels may use (Scripts/reference_isa_cap.py); each entry then carries "isa_cap", or the error
saying why the cap failed.
Models with MediaPipe's custom operators run them on MediaPipe's own kernels (from its wheel,
Scripts/goldens/mediapipe_kernels.py), prepared before any timing, beside either resolver's kernels.
`--check` only verifies that ai_edge_litert and numpy import (exit status 3 when not).
Install the runtime with: python3 -m pip install ai-edge-litert
"""
import argparse
import json
import math
import os
import sys
import time


sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "goldens"))
import mediapipe_kernels  # noqa: E402  MediaPipe's kernels for its custom operators


def load_runtime():
    try:
        import numpy as np
        from ai_edge_litert import interpreter as litert
    except ImportError as error:
        print(f"{sys.executable} cannot import the reference runtime ({error}); "
              "install it with: python3 -m pip install ai-edge-litert", file=sys.stderr)
        sys.exit(3)
    return np, litert


def random_inputs(np, interpreter, rng):
    for detail in interpreter.get_input_details():
        shape, dtype = detail["shape"], np.dtype(detail["dtype"])
        if dtype.kind == "f":
            value = rng.uniform(-1.0, 1.0, size=shape).astype(dtype)
        elif dtype == np.uint8 or dtype == np.int8:
            value = rng.integers(0, 256, size=shape, dtype=np.uint8).view(dtype)
        elif dtype == np.bool_:
            value = rng.integers(0, 2, size=shape).astype(np.bool_)
        else:
            value = np.zeros(shape, dtype=dtype)
        interpreter.set_tensor(detail["index"], value)


def measure(invoke, args):
    for k in range(args.warmup):
        start = time.perf_counter()
        invoke()
        if args.iterations is None and (time.perf_counter() - start) > args.seconds / 2:
            break
    samples, elapsed = [], 0.0
    while True:
        if args.iterations is not None:
            if len(samples) >= args.iterations:
                break
        elif len(samples) >= args.max_iterations or (
                len(samples) >= args.min_iterations and elapsed >= args.seconds * 1000):
            break
        start = time.perf_counter()
        invoke()
        milliseconds = (time.perf_counter() - start) * 1000
        samples.append(milliseconds)
        elapsed += milliseconds
    return samples


def summarize(samples):
    ordered = sorted(samples)
    n, middle = len(ordered), len(ordered) // 2
    median = ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2
    rank = math.ceil(0.9 * n)
    return {"iterations": n, "median_ms": median, "p90_ms": ordered[max(0, min(n - 1, rank - 1))],
            "min_ms": ordered[0]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only check that the runtime imports")
    parser.add_argument("--model", action="append", default=[], help="a .tflite model (repeatable)")
    parser.add_argument("--threads", action="append", type=int, default=[], help="thread count (repeatable)")
    parser.add_argument("--warmup", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=None, help="exact measured runs")
    parser.add_argument("--min-iterations", type=int, default=5)
    parser.add_argument("--max-iterations", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=1.5, help="time budget of the measured runs")
    parser.add_argument("--runtime", action="append", choices=["builtin", "xnnpack"], default=[])
    parser.add_argument("--xnnpack-first", action="store_true",
                        help="run XNNPACK before the built-in kernels (its cold start then the process's first)")
    parser.add_argument("--cap-isa", help="run the kernels at this instruction-set level (LITEVISION_ISA's names)")
    args = parser.parse_args()
    np, litert = load_runtime()
    if args.check:
        return
    cap_error = None
    if args.cap_isa:
        import reference_isa_cap
        try:
            reference_isa_cap.cap(args.cap_isa)
        except reference_isa_cap.CapError as error:
            cap_error = f"cannot cap the reference runtime at {args.cap_isa}: {error}"
    resolvers = {"builtin": litert.OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES,
                 "xnnpack": litert.OpResolverType.AUTO}
    results = []
    for model in args.model:
        registerers = []  # MediaPipe's own kernels for its custom operators, prepared before timing
        with open(model, "rb") as f:
            needs_mediapipe = mediapipe_kernels.uses_custom_kernels(f.read())
        if needs_mediapipe:
            try:
                registerers = [mediapipe_kernels.custom_op_registerer()]
            except Exception as error:  # no wheel (offline) or an unknown layout: the runtime reports the ops
                print(f"reference-bench: MediaPipe's kernels unavailable: {error}", file=sys.stderr)
        for threads in args.threads or [1]:
            for runtime in args.runtime or (["xnnpack", "builtin"] if args.xnnpack_first else ["builtin", "xnnpack"]):
                entry = {"model": model, "threads": threads, "runtime": runtime}
                if args.cap_isa:
                    entry["isa_cap"] = args.cap_isa
                if cap_error:
                    entry["error"] = cap_error
                    results.append(entry)
                    continue
                try:
                    start = time.perf_counter()
                    interpreter = litert.InterpreterWithCustomOps(model_path=model, num_threads=threads,
                                                                  custom_op_registerers=registerers,
                                                                  experimental_op_resolver_type=resolvers[runtime])
                    interpreter.allocate_tensors()
                    random_inputs(np, interpreter, np.random.default_rng(0x5EED))
                    interpreter.invoke()
                    cold = (time.perf_counter() - start) * 1000
                    entry.update(summarize(measure(interpreter.invoke, args)))
                    entry["cold_start_ms"] = cold
                except Exception as error:  # a model the runtime rejects is reported, not fatal
                    entry["error"] = f"{type(error).__name__}: {error}".strip()[:500]
                results.append(entry)
    json.dump(results, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Markdown table for Benchmarks/RESULTS.md from `bench --compare --json` outputs.

usage: bench-results-table.py DEFAULT.json [TUNED.json]

One line per model and thread count: our median (default build, and tuned build when given),
the reference runtime's built-in kernels and XNNPACK medians (from the default-build run; the
tuned ratios use the tuned run's own reference measurements when it has them),
our/built-in and our/XNNPACK ratios, the 2-thread speedup (median at 1 thread / median at N),
and the arena size. Ratios below 1.0 mean we are faster.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return {(r["model"], r["threads"]): r for r in json.load(f)}


def ms(value):
    if value is None:
        return "-"
    return f"{value:.3f}" if value < 10 else f"{value:.2f}" if value < 100 else f"{value:.1f}"


def ratio(ours, theirs):
    return f"{ours / theirs:.2f}" if ours and theirs else "-"


def reference(row, key):
    entry = row.get(key)
    return entry.get("median_ms") if entry and "error" not in entry else None


def main():
    default = load(sys.argv[1])
    tuned = load(sys.argv[2]) if len(sys.argv) > 2 else {}
    columns = ["model", "thr", "ours ms", "built-in ms", "XNNPACK ms", "ours/built-in", "ours/XNNPACK",
               "2-thr speedup"]
    if tuned:
        columns = ["model", "thr", "ours ms", "tuned ms", "built-in ms", "XNNPACK ms", "ours/built-in",
                   "ours/XNNPACK", "tuned/built-in", "tuned/XNNPACK", "2-thr speedup"]
    columns += ["min ms (ours/built-in/XNNPACK)", "arena MB"]
    print("| " + " | ".join(columns) + " |")
    print("|" + "|".join("---" if k == 0 else "---:" for k in range(len(columns))) + "|")
    for (model, threads), row in default.items():
        ours = row.get("median_ms")
        builtin, xnnpack = reference(row, "reference_builtin"), reference(row, "reference_xnnpack")
        single = default.get((model, 1), {}).get("median_ms")
        speedup = f"{single / ours:.2f}x" if threads > 1 and single and ours else ""
        tuned_row = tuned.get((model, threads), {})
        tuned_ms = tuned_row.get("median_ms")
        if tuned:
            tuned_single = tuned.get((model, 1), {}).get("median_ms")
            if threads > 1 and tuned_single and tuned_ms:
                speedup += f" (tuned {tuned_single / tuned_ms:.2f}x)"
        name = model.removesuffix(".tflite")
        cells = [name, str(threads), ms(ours) if row.get("error") is None else "failed"]
        if tuned:
            cells.append(ms(tuned_ms) if tuned_row and tuned_row.get("error") is None else "failed" if tuned_row else "-")
        cells += [ms(builtin), ms(xnnpack), ratio(ours, builtin), ratio(ours, xnnpack)]
        if tuned:
            # Ratios within one run: the tuned run's own reference measurements when it has them.
            tuned_builtin = reference(tuned_row, "reference_builtin") or builtin
            tuned_xnnpack = reference(tuned_row, "reference_xnnpack") or xnnpack
            cells += [ratio(tuned_ms, tuned_builtin), ratio(tuned_ms, tuned_xnnpack)]
        minimums = [row.get("min_ms"), (row.get("reference_builtin") or {}).get("min_ms"),
                    (row.get("reference_xnnpack") or {}).get("min_ms")]
        cells += [speedup, " / ".join(ms(v) for v in minimums),
                  f"{row['arena_bytes'] / 1048576:.1f}" if row.get("arena_bytes") is not None else "-"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

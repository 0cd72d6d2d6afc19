#!/usr/bin/env bash
# Checks tflite-dump on every model: `--json` succeeds and prints one JSON object with the
# documented keys; truncated and corrupted copies exit 0 or 1 (typed error), never crash;
# `--check` finds nothing unsupported in a real model (exit 0) and lists every operator of
# Tests/Fixtures/unsupported/mixed.tflite that cannot run (exit 2).
#
#   Scripts/check-dump.sh [ROUNDS]   corrupted copies per model, default 6
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-6}"
# DUMP=path/to/tflite-dump reuses a built binary; otherwise a debug build is made.
if [ -z "${DUMP:-}" ]; then
    scratch="${SCRATCH:-.build-check-dump}"
    swift build --scratch-path "$scratch" --product tflite-dump >/dev/null
    DUMP="$scratch/debug/tflite-dump"
fi
dump="$DUMP"
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
failures=0
for model in Models/*.tflite ../shared/models/*.tflite; do
    [ -f "$model" ] || continue
    if ! "$dump" --json "$model" >"$work/out.json" 2>"$work/err.txt"; then
        echo "FAIL $model: $(cat "$work/err.txt")"; failures=$((failures + 1)); continue
    fi
    python3 - "$work/out.json" <<'PY' || { echo "FAIL $model: bad JSON"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
for key in ("inputs", "outputs", "operators", "metadata"):
    assert key in d, key
assert "labels" in d["metadata"]
for t in d["inputs"] + d["outputs"]:
    for key in ("name", "shape", "type", "quantization"):
        assert key in t, key
PY
    if ! "$dump" --check "$model" >"$work/check.txt" 2>&1; then
        echo "FAIL $model: --check reports unsupported operators: $(cat "$work/check.txt")"; failures=$((failures + 1))
    fi
    size=$(stat -c %s "$model")
    for round in $(seq 1 "$rounds"); do
        cp "$model" "$work/bad.tflite"
        if [ $((round % 3)) -eq 0 ]; then
            truncate -s $((RANDOM * RANDOM % size)) "$work/bad.tflite"
        else
            for _ in 1 2 3 4; do
                printf "\\x$(printf %02x $((RANDOM % 256)))" |
                    dd of="$work/bad.tflite" bs=1 seek=$(((RANDOM * RANDOM) % 65536 % size)) conv=notrunc status=none
            done
        fi
        set +e; "$dump" --json "$work/bad.tflite" >/dev/null 2>&1; status=$?; set -e
        if [ "$status" -gt 1 ]; then
            cp "$work/bad.tflite" "crash-dump-$(basename "$model")-$round"
            echo "CRASH $model round $round (status $status), input kept as crash-dump-$(basename "$model")-$round"
            failures=$((failures + 1))
        fi
    done
done
set +e; "$dump" --check --json Tests/Fixtures/unsupported/mixed.tflite >"$work/check.json"; status=$?; set -e
if [ "$status" -ne 2 ]; then echo "FAIL --check on unsupported/mixed.tflite exited $status, not 2"; failures=$((failures + 1)); fi
python3 - "$work/check.json" <<'PY' || { echo "FAIL --check --json on unsupported/mixed.tflite"; failures=$((failures + 1)); }
import json, sys
d = json.load(open(sys.argv[1]))
assert d["supported"] is False
assert [(f["operatorIndex"], f["reason"]) for f in d["findings"]] == [
    (1, "unknownOperator"), (2, "unsupportedOption"), (3, "unsupportedType"), (4, "unknownOperator"), (6, "invalidModel")], d
PY
# --engine reports runtime CPU dispatch; LITEVISION_JIT=0 must select the portable kernels.
if ! "$dump" --engine | grep -q "kernel level:"; then echo "FAIL --engine prints no kernel level"; failures=$((failures + 1)); fi
if ! LITEVISION_JIT=0 "$dump" --engine | grep -q "generated kernels: none"; then
    echo "FAIL LITEVISION_JIT=0 still generates kernels"; failures=$((failures + 1))
fi
"$dump" --engine | sed 's/^/check-dump: /'
[ "$failures" -eq 0 ] && echo "check-dump: all models dump; corrupted copies rejected cleanly" || exit 1

#!/usr/bin/env bash
# Command-line misuse from the catalogue of issue #17: each case must fail with exit status 1
# (an error) or 64 (a usage error) — no crash, no hang: 60 s and 4 GiB address space per case — and a message that names the
# problem, never a raw NSCocoaErrorDomain dump; nothing outside the named output is touched.
# Usage: Scripts/hostile-cli.sh   (after `swift build -c release` and Scripts/fetch-models.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release ${SCRATCH:+--scratch-path "$SCRATCH"} --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
photo=Models/images/chelsea.png
model=Models/efficientnet_lite0.tflite
failures=0

# expect "DESCRIPTION" "TEXT THE MESSAGE MUST CONTAIN" COMMAND...
expect() {
    local what="$1" needle="$2"; shift 2
    local status=0
    ( ulimit -v $((4 << 20)); timeout 60 "$@" ) >"$work/out" 2>&1 || status=$?
    if { [ "$status" -ne 1 ] && [ "$status" -ne 64 ]; } || ! grep -qF -- "$needle" "$work/out" || grep -q NSCocoaErrorDomain "$work/out"; then
        echo "FAIL: $what (exit $status; expected 1 or 64 and '$needle'):"; sed 's/^/    /' "$work/out" | head -5
        failures=$((failures + 1))
    else
        echo "ok: $what: $(grep -F -- "$needle" "$work/out" | head -1 | cut -c1-150)"
    fi
}

expect "--threshold 5" "between 0 and 1" "$bin/litevision" detect "$photo" --detector "$model" --threshold 5
expect "--threshold nan" "between 0 and 1" "$bin/litevision" detect "$photo" --detector "$model" --threshold nan
expect "--threshold with the default detector" "--threshold applies to" "$bin/litevision" detect "$photo" --threshold 0.5
expect "--max-objects -1 (a value, not a flag)" "--max-objects must be at least 1, got -1" \
    "$bin/litevision" detect "$photo" --max-objects -1
expect "a directory as the model" "is a directory" "$bin/litevision" run "$work" --input x.npy --output-dir "$work/o"
expect "a directory as the image" "is a directory" "$bin/litevision" detect "$work"
expect "run --float-arithmetic with an unknown mode" "The value 'exact' is invalid for '--float-arithmetic" \
    "$bin/litevision" run "$model" --input x.npy --output-dir "$work/o" --float-arithmetic exact
touch "$work/file"
expect "a file as --output-dir" "exists and is not a directory" \
    "$bin/litevision" run "$model" --input x.npy --output-dir "$work/file"
expect "a file as --cache" "exists and is not a directory" \
    "$bin/litevision" models list --cache "$work/file"
mkfifo "$work/fifo"
expect "--annotate onto a special file" "special file" "$bin/litevision" detect "$photo" --annotate "$work/fifo"
[ -p "$work/fifo" ] || { echo "FAIL: the special file was replaced"; failures=$((failures + 1)); }
python3 - "$work/huge.npy" <<'EOF'
import sys
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + "1, " * 1_000_000 + "), }"
header += " " * ((64 - (12 + len(header) + 1) % 64) % 64) + "\n"
open(sys.argv[1], "wb").write(b"\x93NUMPY\x02\x00" + len(header).to_bytes(4, "little") + header.encode())
EOF
expect "a 1,000,000-dimension .npy" "dimensions, more than" "$bin/litevision" run "$model" --input "$work/huge.npy" --output-dir "$work/o"
[ "$(wc -c <"$work/out")" -lt 1000 ] || { echo "FAIL: the .npy message is $(wc -c <"$work/out") bytes"; failures=$((failures + 1)); }
mkdir "$work/frames"
cp "$photo" "$work/frames/a.png"
head -c 300 "$photo" >"$work/frames/b.png"
expect "a corrupt frame in a PNG folder" "b.png" "$bin/litevision" track "$work/frames"
for i in $(seq 1 120000); do echo "label $i"; done >"$work/many-labels.txt"
expect "a --labels file with 120,000 labels" "maximumLabelCount" \
    "$bin/litevision" detect "$photo" --classifier "$model" --labels "$work/many-labels.txt"

# Resource-limit options (one option group shared by run, detect, track and tflite-dump): bad
# values are usage errors naming the option; good ones reach the engine, whose errors name the limit.
dump="$bin/tflite-dump"
expect "--max-memory 0" "--max-memory must be a size in MiB from 1 to" "$bin/litevision" detect "$photo" --max-memory 0
expect "--max-memory -5 (a value, not a flag)" "--max-memory must be a size in MiB from 1 to 1073741824, got -5" \
    "$bin/litevision" track "$work/frames" --max-memory -5
expect "--max-memory in MiB that would overflow when shifted to bytes" "--max-memory must be a size in MiB" \
    "$bin/litevision" run "$model" --input x.npy --output-dir "$work/o" --max-memory 9223372036854775807
expect "--max-tensor-size beyond Int" "--max-tensor-size" \
    "$bin/litevision" detect "$photo" --max-tensor-size 99999999999999999999999
expect "tflite-dump --max-label-count 0" "--max-label-count must be at least 1, got 0" "$dump" "$model" --max-label-count 0
expect "tflite-dump --max-label-count below the model's packed labels" "maximumLabelCount" \
    "$dump" "$model" --max-label-count 10
# 1100 admits the default detector's packed labels (21 VOC classes, EfficientNet's 1000 ImageNet
# classes), not the 1200 of the --labels file.
for i in $(seq 1 1200); do echo "label $i"; done >"$work/many-more-labels.txt"
expect "detect --max-label-count below a --labels file" "many-more-labels.txt needs 1200 labels, more than the limit of 1100" \
    "$bin/litevision" detect "$photo" --classifier "$model" --labels "$work/many-more-labels.txt" --max-label-count 1100
expect "detect --max-memory below the classifier's needs" "maximumTotalByteCount" \
    "$bin/litevision" detect "$photo" --classifier "$model" --max-memory 1
expect "track --max-tensor-size below the default detector's tensors" "maximumTensorByteCount" \
    "$bin/litevision" track "$work/frames" --max-tensor-size 1
expect "--max-image-pixels 0" "--max-image-pixels must be at least 1, got 0" "$bin/litevision" detect "$photo" --max-image-pixels 0
expect "detect --max-image-pixels below the photo" "exceeds the limit of 1000 pixels" \
    "$bin/litevision" detect "$photo" --max-image-pixels 1000
expect "track --max-image-pixels below the frames" "exceeds the limit of 1000 pixels" \
    "$bin/litevision" track "$work/frames" --max-image-pixels 1000
( ulimit -v $((4 << 20)); timeout 60 "$dump" "$model" --max-memory 1 ) >"$work/out" 2>&1 \
    && grep -q "maximumTotalByteCount" "$work/out" \
    && echo "ok: tflite-dump --max-memory 1: $(grep -F maximumTotalByteCount "$work/out" | head -1 | cut -c1-150)" \
    || { echo "FAIL: tflite-dump --max-memory 1 should report the model and name the limit in its arena note"; failures=$((failures + 1)); }

# The label-file and archive sizes: a 2 MiB label file, and the classifier with a 2 MiB entry or
# 3 MiB in all added to its ZIP archive (deflated, so the files stay small). Each is accepted with
# the defaults and refused, exit 1 with the limit named, below its size.
# accepts "DESCRIPTION" COMMAND...: the command must succeed.
accepts() {
    local what="$1"; shift
    if ( ulimit -v $((4 << 20)); timeout 60 "$@" ) >"$work/out" 2>&1; then echo "ok: $what"
    else echo "FAIL: $what should succeed:"; sed 's/^/    /' "$work/out" | head -5; failures=$((failures + 1)); fi
}
python3 - "$model" "$work" <<'PY'
import shutil, sys, zipfile
model, work = sys.argv[1], sys.argv[2]
for name, entries in (("big-entry", {"notes/big.txt": 2 << 20}),
                      ("big-archive", {f"notes/part{i}.txt": 1 << 20 for i in range(3)})):
    shutil.copy(model, f"{work}/{name}.tflite")
    with zipfile.ZipFile(f"{work}/{name}.tflite", "a", compression=zipfile.ZIP_DEFLATED) as z:
        for entry, size in entries.items():
            z.writestr(entry, "x" * size)
with open(f"{work}/long-labels.txt", "w") as f:
    f.writelines(f"label {i} " + "z" * 2000 + "\n" for i in range(1001))
PY
expect "--max-label-size 0" "--max-label-size must be a size in MiB from 1 to 1073741824, got 0" \
    "$bin/litevision" detect "$photo" --max-label-size 0
expect "--max-archive-entry-size -1 (a value, not a flag)" "--max-archive-entry-size must be a size in MiB from 1 to 1073741824, got -1" \
    "$dump" "$model" --max-archive-entry-size -1
expect "--max-archive-size beyond 2^30 MiB" "--max-archive-size must be a size in MiB" \
    "$bin/litevision" track "$work/frames" --max-archive-size 1073741825
accepts "detect with a 2 MiB --labels file (default limit 16 MiB)" \
    "$bin/litevision" detect "$photo" --classifier "$model" --labels "$work/long-labels.txt" --json
expect "detect --max-label-size below a --labels file" "needs 2012902 bytes, more than the limit of 1048576 bytes (ResourceLimits.maximumLabelByteCount)" \
    "$bin/litevision" detect "$photo" --classifier "$model" --labels "$work/long-labels.txt" --max-label-size 1
accepts "tflite-dump of a model with a 2 MiB archive entry (default limit 64 MiB)" "$dump" "$work/big-entry.tflite"
expect "tflite-dump --max-archive-entry-size below an entry" "ResourceLimits.maximumArchiveEntryByteCount" \
    "$dump" "$work/big-entry.tflite" --max-archive-entry-size 1
expect "detect --max-archive-entry-size below the classifier's entry" "entry notes/big.txt of the model's ZIP archive needs 2097152 bytes" \
    "$bin/litevision" detect "$photo" --classifier "$work/big-entry.tflite" --max-archive-entry-size 1
expect "run --max-archive-entry-size below the model's entry" "ResourceLimits.maximumArchiveEntryByteCount" \
    "$bin/litevision" run "$work/big-entry.tflite" --input x.npy --output-dir "$work/o" --max-archive-entry-size 1
accepts "detect with a classifier whose archive holds 3 MiB (default limit 256 MiB)" \
    "$bin/litevision" detect "$photo" --classifier "$work/big-archive.tflite" --json
expect "detect --max-archive-size below the classifier's archive" "ResourceLimits.maximumArchiveByteCount" \
    "$bin/litevision" detect "$photo" --classifier "$work/big-archive.tflite" --max-archive-size 2
expect "tflite-dump --max-archive-size below the archive" "the model's ZIP archive (uncompressed) needs" \
    "$dump" "$work/big-archive.tflite" --max-archive-size 2
expect "models download --max-memory 0 (the limits a downloaded model is checked under)" \
    "--max-memory must be a size in MiB from 1 to" \
    "$bin/litevision" models download face --host http://127.0.0.1:9 --cache "$work/cache" --max-memory 0
expect "models download --min-rate-window 0" "--min-rate-window must be a positive number of seconds, got 0.0" \
    "$bin/litevision" models download face --host http://127.0.0.1:9 --cache "$work/cache" --min-rate-window 0
expect "models download --min-rate-window -5 (a value, not a flag)" "--min-rate-window must be a positive number of seconds, got -5.0" \
    "$bin/litevision" models download face --host http://127.0.0.1:9 --cache "$work/cache" --min-rate-window -5
expect "models download --min-rate-window nan" "--min-rate-window must be a positive number of seconds, got nan" \
    "$bin/litevision" models download face --host http://127.0.0.1:9 --cache "$work/cache" --min-rate-window nan
expect "models download --min-rate-window longer than --deadline" "longer than the download deadline of 10.0 s" \
    "$bin/litevision" models download face --host http://127.0.0.1:9 --cache "$work/cache" --deadline 10 --min-rate-window 20

[ "$failures" -eq 0 ] && echo "hostile-cli: all cases handled" || { echo "hostile-cli: $failures failing"; exit 1; }

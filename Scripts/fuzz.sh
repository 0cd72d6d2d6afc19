#!/usr/bin/env bash
# Fuzzes the readers of untrusted input for a bounded time. Two modes:
#
#   Scripts/fuzz.sh [SECONDS]           libFuzzer + AddressSanitizer on model loading and validation
#                                       (TFLiteModelFile, FlexBuffers, ZIP archive, labels); default 60
#   Scripts/fuzz.sh formats [SECONDS]   the seeded mutation fuzzers of the test suite (*FuzzTests: PNG,
#                                       JPEG, y4m, .npy, manifest, ZIP, model load -> allocate -> invoke),
#                                       SECONDS per target (default 30), in a release build, under a
#                                       4 GiB address-space limit and a time limit; prints executions per
#                                       target and keeps the input of any crash in .build-fuzz/crashes/
#
# CI runs both briefly; run them longer locally. SCRATCH=DIR builds the formats mode in DIR.
#
# Builds FlatBufferReader and TFLiteSchema with `swiftc -sanitize=fuzzer,address` outside
# SwiftPM (the package itself never needs sanitizer flags). Seeds: the small schema fixtures
# and the smallest reference models. Crashing inputs are written to .build-fuzz/crashes/;
# copy them to Tests/Fixtures/schema/crashes/ so FuzzRegressionTests replays them.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz
mkdir -p "$out/corpus" "$out/crashes"

if [ "${1:-}" = formats ]; then
    seconds="${2:-30}"
    # Build the tests outside the limits (a filter that matches nothing runs none).
    swift test -c release --enable-testable-imports ${SCRATCH:+--scratch-path "$SCRATCH"} --filter '^BuildOnly$' \
        >"$out/formats-build.log" 2>&1 \
        || { tail -30 "$out/formats-build.log"; exit 1; }
    rm -f "$out/crashes/"*.current
    log="$out/formats.log"
    status=0
    # 7 targets x SECONDS, plus start-up; the address-space limit catches unbounded allocations.
    targets=7
    ( ulimit -v $((4 << 20)); FUZZ_SECONDS="$seconds" FUZZ_CRASH_DIR="$PWD/$out/crashes" \
        timeout $((seconds * targets + 300)) swift test -c release --enable-testable-imports --skip-build \
        ${SCRATCH:+--scratch-path "$SCRATCH"} \
        --filter 'FuzzTests' ) >"$log" 2>&1 || status=$?
    grep '^fuzz ' "$log" || true
    ran=$(grep -c '^fuzz ' "$log" || true)
    [ "$ran" -eq "$targets" ] || echo "fuzz formats: $ran of $targets targets reported (a skipped or missing target?)"
    executions=$(grep -o '^fuzz [a-z0-9]*: [0-9]*' "$log" | awk '{s += $3} END {print s + 0}')
    crashes=0
    for current in "$out/crashes/"*.current; do
        [ -f "$current" ] || continue
        crashes=$((crashes + 1))
        kept="$out/crashes/$(basename "$current" .current)-$(date +%s).bin"
        mv "$current" "$kept"
        echo "crash: input kept in $kept"
    done
    echo "fuzz formats: $executions executions, $crashes crashes (exit status $status; log $log)"
    [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ]
    exit
fi

seconds="${1:-60}"
flags=(-sanitize=fuzzer,address -O -g -parse-as-library -swift-version 6)

swiftc "${flags[@]}" -module-name FlatBufferReader -emit-module -emit-module-path "$out/FlatBufferReader.swiftmodule" \
    -emit-library -static -o "$out/libFlatBufferReader.a" Sources/FlatBufferReader/*.swift
# -enable-testing: the fuzz target reaches the internal FuzzTargets with @testable import.
swiftc "${flags[@]}" -enable-testing -module-name TFLiteSchema -I "$out" -I Sources/CZlib \
    -emit-module -emit-module-path "$out/TFLiteSchema.swiftmodule" \
    -emit-library -static -o "$out/libTFLiteSchema.a" $(find Sources/TFLiteSchema -name '*.swift' | sort)
swiftc "${flags[@]}" -module-name FuzzModelLoad -I "$out" -I Sources/CZlib \
    Tests/Fuzz/FuzzModelLoad.swift "$out/libTFLiteSchema.a" "$out/libFlatBufferReader.a" -lz -o "$out/fuzz-model-load"

# Seeds: small files only (libFuzzer mutates best below ~64 KiB).
for seed in Tests/Fixtures/schema/*.tflite Tests/Fixtures/schema/*.bin Tests/Fixtures/schema/*.zip \
            Tests/Fixtures/schema/crashes/* ../shared/models/classifier_stopsign_int8.tflite; do
    [ -f "$seed" ] && cp "$seed" "$out/corpus/" || true
done

"$out/fuzz-model-load" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -artifact_prefix="$out/crashes/" -print_final_stats=1

#!/usr/bin/env bash
# Fuzzes model loading + validation (TFLiteModelFile, FlexBuffers, ZIP archive, labels) with
# libFuzzer and AddressSanitizer for a bounded time.
#
#   Scripts/fuzz.sh [SECONDS]        default 60; CI runs it briefly, run longer locally
#
# Builds FlatBufferReader and TFLiteSchema with `swiftc -sanitize=fuzzer,address` outside
# SwiftPM (the package itself never needs sanitizer flags). Seeds: the small schema fixtures
# and the smallest reference models. Crashing inputs are written to .build-fuzz/crashes/;
# copy them to Tests/Fixtures/schema/crashes/ so FuzzRegressionTests replays them.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
out=.build-fuzz
mkdir -p "$out/corpus" "$out/crashes"
flags=(-sanitize=fuzzer,address -O -g -parse-as-library -swift-version 6)

swiftc "${flags[@]}" -module-name FlatBufferReader -emit-module -emit-module-path "$out/FlatBufferReader.swiftmodule" \
    -emit-library -static -o "$out/libFlatBufferReader.a" Sources/FlatBufferReader/*.swift
swiftc "${flags[@]}" -module-name TFLiteSchema -I "$out" -I Sources/CZlib \
    -emit-module -emit-module-path "$out/TFLiteSchema.swiftmodule" \
    -emit-library -static -o "$out/libTFLiteSchema.a" Sources/TFLiteSchema/*.swift
swiftc "${flags[@]}" -module-name FuzzModelLoad -I "$out" -I Sources/CZlib \
    Tests/Fuzz/FuzzModelLoad.swift "$out/libTFLiteSchema.a" "$out/libFlatBufferReader.a" -lz -o "$out/fuzz-model-load"

# Seeds: small files only (libFuzzer mutates best below ~64 KiB).
for seed in Tests/Fixtures/schema/*.tflite Tests/Fixtures/schema/*.bin Tests/Fixtures/schema/*.zip \
            Tests/Fixtures/schema/crashes/* ../shared/models/classifier_stopsign_int8.tflite; do
    [ -f "$seed" ] && cp "$seed" "$out/corpus/" || true
done

"$out/fuzz-model-load" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -artifact_prefix="$out/crashes/" -print_final_stats=1

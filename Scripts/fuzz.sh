#!/usr/bin/env bash
# Fuzzes the readers of untrusted input for a bounded time. Three modes:
#
#   Scripts/fuzz.sh [SECONDS]           libFuzzer + AddressSanitizer on model loading and validation
#                                       (TFLiteModelFile, FlexBuffers, ZIP archive, labels); default 60
#   Scripts/fuzz.sh formats [SECONDS]   the seeded mutation fuzzers of the test suite (*FuzzTests: PNG,
#                                       JPEG, y4m, .npy, manifest, ZIP, model load -> allocate -> invoke),
#                                       SECONDS per target (default 30), in a release build, under a
#                                       4 GiB address-space limit and a time limit; prints executions per
#                                       target and saves the input of any crash into the replay corpus
#   Scripts/fuzz.sh replay-asan [SECONDS]
#                                       builds the tests in debug with AddressSanitizer (scratch
#                                       .build-asan) and replays, under ASan, every fuzz seed and every
#                                       saved crash input of both corpora (FuzzRegressionTests and the
#                                       *FuzzTests with FUZZ_SECONDS=SECONDS, default 0: replay only; give
#                                       SECONDS to mutate under ASan too). The first build takes about
#                                       5 minutes on two shared cores (the whole test bundle is
#                                       instrumented; the replay itself takes seconds), so CI does not
#                                       run this mode; run it after a fuzzing session or before a release.
#
# CI runs the first two briefly; run them longer locally. SCRATCH=DIR builds the formats and
# replay-asan modes in DIR.
#
# Replay corpora (crash inputs are saved there by this script, never copied by hand):
#   Tests/Fixtures/schema/crashes/        libFuzzer artifacts of the model-load target (crash-*,
#                                         oom-*, timeout-*), replayed by FuzzRegressionTests
#   Tests/Fixtures/fuzz/<target>/         inputs that crashed a formats target (png, jpeg, y4m, npy,
#                                         manifest, zip, model), named crash-<sha1>; replayed first
#                                         by that target's MutationFuzzer in every test run
# A saved input that still crashes fails the test suite until the bug is fixed: commit it with
# the fix.
#
# Builds FlatBufferReader and TFLiteSchema with `swiftc -sanitize=fuzzer,address` outside
# SwiftPM (the package itself never needs sanitizer flags). Seeds: the small schema fixtures,
# the saved crashes and the smallest reference model.
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build-fuzz
mkdir -p "$out/corpus" "$out/crashes"
schema_crashes=Tests/Fixtures/schema/crashes
format_corpus=Tests/Fixtures/fuzz

if [ "${1:-}" = replay-asan ]; then
    seconds="${2:-0}"
    scratch="${SCRATCH:-.build-asan}"
    log="$out/replay-asan.log"
    echo "replay-asan: building the tests with -sanitize=address in $scratch (debug; log $out/replay-asan-build.log)"
    swift build --build-tests --sanitize=address --scratch-path "$scratch" >"$out/replay-asan-build.log" 2>&1 \
        || { tail -30 "$out/replay-asan-build.log"; exit 1; }
    saved=$(find "$schema_crashes" "$format_corpus" -type f ! -name README.md ! -name '.*' 2>/dev/null | wc -l)
    status=0
    # ASan reports go to stderr and abort the process: any report fails the run.
    FUZZ_SECONDS="$seconds" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=1}" \
        swift test --skip-build --sanitize=address --scratch-path "$scratch" \
        --filter 'FuzzTests|FuzzRegressionTests' >"$log" 2>&1 || status=$?
    grep '^fuzz ' "$log" || true
    if grep -q 'ERROR: AddressSanitizer' "$log"; then
        grep -A12 'ERROR: AddressSanitizer' "$log" | head -40
        [ "$status" -ne 0 ] || status=1
    fi
    echo "replay-asan: $saved saved inputs plus the seeds of every target replayed under AddressSanitizer, FUZZ_SECONDS=$seconds (exit status $status; log $log)"
    exit "$status"
fi

if [ "${1:-}" = formats ]; then
    seconds="${2:-30}"
    # Build the tests outside the limits (a filter that matches nothing runs none).
    swift test -c release --enable-testable-imports ${SCRATCH:+--scratch-path "$SCRATCH"} --filter '^BuildOnly$' \
        >"$out/formats-build.log" 2>&1 \
        || { tail -30 "$out/formats-build.log"; exit 1; }
    rm -f "$out/crashes/"*.current
    # A .current left after the run is the input a target was running when the process died.
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
        # Saved into the target's replay corpus, named by content (a crash found twice is kept once).
        target="$(basename "$current" .current)"
        mkdir -p "$format_corpus/$target"
        kept="$format_corpus/$target/crash-$(sha1sum "$current" | cut -c1-40)"
        mv "$current" "$kept"
        echo "crash: input saved in $kept (replayed by every test run from now on; commit it with the fix)"
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
            "$schema_crashes"/* ../shared/models/classifier_stopsign_int8.tflite; do
    [ -f "$seed" ] && [ "$(basename "$seed")" != README.md ] && cp "$seed" "$out/corpus/" || true
done

# Artifacts (crash-<sha1>, oom-*, timeout-*) go straight into the replay corpus.
"$out/fuzz-model-load" "$out/corpus" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -artifact_prefix="$schema_crashes/" -print_final_stats=1

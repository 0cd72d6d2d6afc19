#!/usr/bin/env bash
# Checks the DocC catalogs (Sources/*/*.docc) with the toolchain's own tools, without the
# swift-docc-plugin (the library products have no package dependencies): extracts the public
# symbol graphs of TFLiteInterpreter and ObjectDetection from a release build (reused when
# present, else built), then runs
# `docc convert --analyze` on each catalog and fails when a warning or error points into a
# catalog (unresolved symbol or article links, malformed directives). Warnings about doc
# comments in the sources are printed but do not fail the check.
# Usage: Scripts/check-docs.sh [SCRATCH_PATH]   (default .build; e.g. .build-helper)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
scratch="${1:-.build}"
modules="$scratch/release/Modules"
# Reuse the modules of an existing release build (a `swift test -c release` build will do);
# build the library only when there is none.
if [ ! -e "$modules/ObjectDetection.swiftmodule" ]; then
  swift build -c release --scratch-path "$scratch" --target ObjectDetection >/dev/null
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
status=0
for module in TFLiteInterpreter ObjectDetection; do
  mkdir -p "$work/$module-graphs"
  swift-symbolgraph-extract -module-name "$module" -I "$modules" -I Sources/CZlib -I Sources/CLibPNG \
    -I Sources/CTurboJPEG -output-dir "$work/$module-graphs" -minimum-access-level public \
    -target "$(swift -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)"
  log="$work/$module.log"
  docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$work/$module-graphs" \
    --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
    --output-path "$work/$module.doccarchive" --analyze >"$log" 2>&1 || status=1
  # Diagnostics are followed by a `--> file:line` location; catalog files end in .md.
  if grep -B1 -E -- '--> .*\.md:' "$log" | grep -E '^(warning|error)' ; then
    echo "check-docs: $module.docc has the problems above" >&2
    status=1
  else
    echo "check-docs: $module.docc OK ($(grep -c '^warning' "$log" || true) warnings in source doc comments)"
  fi
done
exit $status

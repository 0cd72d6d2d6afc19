#!/usr/bin/env bash
# Checks the command-line contracts on real models and photos with the release binaries:
# the JSON keys of `tflite-dump --json`, `litevision detect --json` and `litevision track --json`.
# Usage: Scripts/smoke-cli.sh   (after `swift build -c release` and Scripts/fetch-models.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(swift build -c release ${SCRATCH:+--scratch-path "$SCRATCH"} --show-bin-path)"

"$bin/tflite-dump" --json Models/efficientnet_lite0.tflite | python3 -c '
import json, sys
d = json.load(sys.stdin)
for key in ("inputs", "outputs", "operators", "metadata"):
    assert key in d, key
for t in d["inputs"] + d["outputs"]:
    assert {"name", "shape", "type", "quantization"} <= set(t), t
assert len(d["metadata"]["labels"]) == 1000, len(d["metadata"]["labels"])
print("tflite-dump --json: ok (1000 labels)")'

"$bin/litevision" detect --json --classify --multiple Models/images/chelsea.png Models/images/coffee.png | python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin if l.strip()]
assert len(lines) == 2, lines
for d in lines:
    assert {"image", "width", "height", "objects"} <= set(d), d
    for o in d["objects"]:
        assert set(o) == {"frame", "trackingID", "labels"}, o
        assert set(o["frame"]) == {"x", "y", "width", "height"}, o
        for l in o["labels"]:
            assert set(l) == {"text", "index", "confidence"}, l
assert any(l["text"] == "Food" for o in lines[1]["objects"] for l in o["labels"]), lines[1]
print("litevision detect --json: ok")'

"$bin/litevision" track --json Models/images | python3 -c '
import json, sys
lines = [json.loads(l) for l in sys.stdin if l.strip()]
assert [d["frame"] for d in lines] == list(range(len(lines))) and lines, lines
assert all(o["trackingID"] is not None for d in lines for o in d["objects"])
print(f"litevision track --json: ok ({len(lines)} frames)")'

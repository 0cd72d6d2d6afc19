#!/usr/bin/env bash
# Serves a folder of .tflite models with manifests on loopback (127.0.0.1) for demos and tests:
#   Scripts/serve-models.sh DIR PORT        (PORT 0 picks a free port; printed on the first line)
# Then: litevision models download NAME --host http://127.0.0.1:PORT/
# Protocol and versioning: see Scripts/serve_models.py. Needs only python3.
set -euo pipefail
if [ "$#" -ne 2 ]; then
  echo "usage: $0 DIR PORT" >&2
  exit 2
fi
exec python3 -u "$(cd "$(dirname "$0")" && pwd)/serve_models.py" "$1" "$2"

#!/bin/sh
# check_api_doc.sh PYTHON SOURCE_DIR: docs/api.md equals what the header gives.
set -e
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$1" "$2/scripts/gen-api-doc.py" "$2/include/nbo.h" > "$out"
if ! diff -u "$2/docs/api.md" "$out"; then
  echo "FAIL: docs/api.md is stale; run scripts/gen-api-doc.py include/nbo.h > docs/api.md"
  exit 1
fi
echo "PASS: docs/api.md matches include/nbo.h"

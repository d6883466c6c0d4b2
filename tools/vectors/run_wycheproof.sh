#!/bin/sh
# run_wycheproof.sh AESKIT DIR - runs every Wycheproof *.json in DIR through
# `aeskit vectors --all-backends`.  Exits 77 (ctest: skipped), saying why,
# when DIR or its files are absent or the tool cannot read JSON.
aeskit=$1
dir=$2
if [ ! -d "$dir" ]; then
    echo "SKIP: no Wycheproof vectors: $dir does not exist (it is the shared/ folder beside the source tree)"
    exit 77
fi
set -- "$dir"/*.json
if [ ! -e "$1" ]; then
    echo "SKIP: no Wycheproof vectors: $dir holds no *.json file"
    exit 77
fi
"$aeskit" vectors --all-backends "$@"
rc=$?
if [ "$rc" -eq 3 ]; then
    echo "SKIP: this aeskit was built without cJSON, so it cannot read the Wycheproof JSON files"
    exit 77
fi
exit "$rc"

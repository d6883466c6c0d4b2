#!/bin/sh
# run_wycheproof.sh DIR [EMULATOR...] AESKIT - runs every Wycheproof *.json
# in DIR through `aeskit vectors --all-backends` (under the cross build's
# emulator, if any).  Exits 77 (ctest: skipped), saying why, when DIR or its
# files are absent or the tool cannot read JSON.
dir=$1
shift
if [ ! -d "$dir" ]; then
    echo "SKIP: no Wycheproof vectors: $dir does not exist (it is the shared/ folder beside the source tree)"
    exit 77
fi
found=no
for f in "$dir"/*.json; do
    [ -e "$f" ] && found=yes
done
if [ "$found" = no ]; then
    echo "SKIP: no Wycheproof vectors: $dir holds no *.json file"
    exit 77
fi
"$@" vectors --all-backends "$dir"/*.json
rc=$?
if [ "$rc" -eq 3 ]; then
    echo "SKIP: this aeskit was built without cJSON, so it cannot read the Wycheproof JSON files"
    exit 77
fi
exit "$rc"

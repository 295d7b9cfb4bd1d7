#!/bin/sh
# Run gfx_ref.awk on every hand-made case under tests/ref/cases/ and compare
# with the expected rows.  Usage: tests/ref/run_cases.sh [awk command]
# e.g.  tests/ref/run_cases.sh mawk      tests/ref/run_cases.sh "gawk --posix"
# A missing output file is compared as an empty one.
AWK=${1:-mawk}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
for c in "$here"/cases/*/; do
    name=$(basename "$c")
    set --
    while IFS= read -r kv || [ -n "$kv" ]; do
        [ -n "$kv" ] && set -- "$@" -v "$kv"
    done < "$c/args"
    out="$tmp/$name"; mkdir -p "$out"
    $AWK -f "$here/gfx_ref.awk" "$@" -v csv="$out/fps.csv" -v csv1="$out/drop.csv" \
        < "$c/trace.txt" || { echo "FAIL $name (awk exit $?)"; fail=1; continue; }
    [ -f "$out/fps.csv" ] || : > "$out/fps.csv"
    [ -f "$out/drop.csv" ] || : > "$out/drop.csv"
    if cmp -s "$c/expected_fps.csv" "$out/fps.csv" && cmp -s "$c/expected_drop.csv" "$out/drop.csv"; then
        echo "ok   $name"
    else
        echo "FAIL $name"
        diff "$c/expected_fps.csv" "$out/fps.csv"
        diff "$c/expected_drop.csv" "$out/drop.csv"
        fail=1
    fi
done
exit $fail

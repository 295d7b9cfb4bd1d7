# SPDX-License-Identifier: MIT
# The library's layering (scripts/check-layers.sh): the real objects follow the pipeline, and
# the check itself fails on an upward call, on two files that call each other across folders
# and on a folder that is in no layer.
section "layers: lib/ calls only downward"
if out=$(sh "$ROOT/scripts/check-layers.sh" "$BUILD" 2>&1); then
	pass
else
	fail "lib/ has calls against the layering:"
	echo "$out" | head -20
fi

lay=$TMP/layers
mkdir -p "$lay/lib/input" "$lay/lib/analysis" "$lay/lib/util" "$lay/lib/attic"
# a parser that calls a metric: input -> analysis is upward
printf 'int gx_metric(void);\nint gx_parse(void) { return gx_metric(); }\n' > "$lay/p.c"
printf 'int gx_parse(void);\nint gx_metric(void) { return gx_parse(); }\n' > "$lay/m.c"
cc -c -o "$lay/lib/input/p.o" "$lay/p.c" && cc -c -o "$lay/lib/analysis/m.o" "$lay/m.c"
out=$(sh "$ROOT/scripts/check-layers.sh" "$lay" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'lib/input/p.o calls gx_metric of lib/analysis/m.o' &&
	echo "$out" | grep -q 'call each other'; then
	pass
else
	fail "an upward call and a cycle are not caught (exit $rc): $out"
fi
rm -f "$lay/lib/input/p.o" "$lay/lib/analysis/m.o"
# a file in a folder that is in no layer
printf 'int gx_util(void);\nint gx_old(void) { return gx_util(); }\n' > "$lay/o.c"
printf 'int gx_util(void) { return 1; }\n' > "$lay/u.c"
cc -c -o "$lay/lib/attic/o.o" "$lay/o.c" && cc -c -o "$lay/lib/util/u.o" "$lay/u.c"
out=$(sh "$ROOT/scripts/check-layers.sh" "$lay" 2>&1)
rc=$?
if [ $rc -eq 1 ] && echo "$out" | grep -q 'lib/attic/o.o is in no layer'; then
	pass
else
	fail "a folder in no layer is not caught (exit $rc): $out"
fi
# downward only: passes
rm -f "$lay/lib/attic/o.o"
printf 'int gx_util(void);\nint gx_metric2(void) { return gx_util(); }\n' > "$lay/m2.c"
cc -c -o "$lay/lib/analysis/m2.o" "$lay/m2.c"
if sh "$ROOT/scripts/check-layers.sh" "$lay" > "$TMP/layers.out" 2>&1; then
	pass
else
	fail "a downward call is refused: $(cat "$TMP/layers.out")"
fi

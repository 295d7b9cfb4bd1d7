# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: no memory error on the real samples. compare (a sample against
# itself: both sides, and the segment resampling that once read past a one-frame stream on
# api32_startup_warm) and analyze --janky (its cadence_fps was read from uninitialised
# memory) run under valgrind's memcheck in a plain build; in a sanitizer build (make asan)
# they run as they are, AddressSanitizer and UBSan watching. A few samples, 20 to 40 s;
# GFXSTAT_MEMCHECK_ALL=1 takes every sample (about 80 s, more on a busy machine). Skipped
# without valgrind in a plain build, or without the samples.

c92=$TMP/c92
mkdir -p "$c92"
c92_samples="perfetto/perfetto-testdata/api32_startup_warm.perfetto-trace
perfetto/nowinandroid-sidky/trace.perfetto-trace
gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt
gfxinfo/NuvioTV/gfxinfo.txt
sf_latency/catapult-devil/surface_stats_collector_test_rows_with_warning.txt
atrace_text/catapult/compressed_atrace_data.txt
systrace_html/catapult/android_systrace.html
systrace_html/Gracker-SystraceForBlog/trace_input_blog_launcher_scroll.html.zip"
if [ "${GFXSTAT_MEMCHECK_ALL:-0}" = 1 ] && [ -d "$SAMPLES" ]; then
	c92_samples=$(cd "$SAMPLES" && find . -type f ! -name '*.md' | sed 's|^\./||' | sort)
fi

# c92_check NAME ARGS...: the command under the checker; gfxstat's own exits (0-4) are fine,
# a checker's report, its exit (99 valgrind, 86 ASan, 87 UBSan) or a signal is not
c92_check() {
	c92_name=$1
	shift
	if [ -n "$c92_vg" ]; then
		valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
			"$GFXSTAT" "$@" > /dev/null 2> "$c92/err"
	else
		"$GFXSTAT" "$@" > /dev/null 2> "$c92/err"
	fi
	rc=$?
	if [ $rc -le 4 ] && ! grep -q -e '^==[0-9]*==' -e 'Sanitizer' -e 'runtime error' "$c92/err"
	then
		pass
	else
		fail "memcheck: $c92_name: exit $rc: $(grep -m 8 -e '^==' -e 'Sanitizer' \
			-e 'runtime error' -e '    at\|#[0-9] ' "$c92/err" | head -c 1500)"
	fi
}

c92_vg=
if grep -q -e __asan_init -e __ubsan_handle "$GFXSTAT" 2> /dev/null; then
	:
elif command -v valgrind > /dev/null 2>&1; then
	c92_vg=1
else
	c92_samples=
	skip "memcheck: valgrind is not installed (apt-get install valgrind), and $GFXSTAT has no sanitizers"
fi
if [ -n "$c92_samples" ] && [ ! -d "$SAMPLES" ]; then
	c92_samples=
	skip "memcheck: no samples in $SAMPLES"
fi
for c92_s in $c92_samples; do
	[ -f "$SAMPLES/$c92_s" ] || { skip "memcheck: $c92_s is absent"; continue; }
	c92_check "compare $c92_s" compare "$SAMPLES/$c92_s" "$SAMPLES/$c92_s"
	c92_check "analyze --janky $c92_s" analyze --janky "$SAMPLES/$c92_s"
done

# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: gfxstat unwrap on the real containers in ../shared/samples
# (systrace HTML, the 2012 JavaScript form, atrace -z), and on containers made from them
# here (gzip, CRLF-mangled zlib, UTF-16LE). Each unwrapped text is compared with the same
# text extracted independently (awk/sed, zcat, the decompressed sample).

c30_out=$TMP/c30
mkdir -p "$c30_out"
# the <script class="trace-data"> block that starts with "# tracer", as tests/run.sh does
c30_html_text() {
	awk '/<script class="trace-data"/ { getline l; if (l ~ /^# tracer/) { on = 1; print l }; next }
	     on && /<\/script>/ { on = 0 } on' "$1"
}
# the 2012 form: the lines of var linuxPerfData = "\ ... \n"; without their "\n\" ends
c30_js_text() {
	sed -n '/^  var linuxPerfData = "\\$/,/\\n";$/p' "$1" | sed '1d; s/\\n\\$//; s/\\n";$//'
}
# c30_expect DESC WANT_FILE [gfxstat unwrap args...]: output equals WANT_FILE, exit 0
c30_expect() {
	c30_desc=$1 c30_want=$2
	shift 2
	"$GFXSTAT" unwrap "$@" > "$c30_out/got" 2> "$c30_out/err"
	c30_rc=$?
	if [ $c30_rc -eq 0 ] && cmp -s "$c30_want" "$c30_out/got"; then
		pass
	else
		fail "unwrap $c30_desc: exit $c30_rc, $(wc -c < "$c30_out/got") bytes," \
			"want $(wc -c < "$c30_want")"
		head -5 "$c30_out/err"
	fi
}

if ! "$GFXSTAT" unwrap --help > /dev/null 2>&1; then
	skip "containers: 'gfxstat unwrap' is not registered in src/main.c"
else
	# usage and bad input, without samples
	"$GFXSTAT" unwrap a b > /dev/null 2>&1
	[ $? -eq 2 ] && pass || fail "unwrap with two inputs should exit 2"
	"$GFXSTAT" unwrap "$c30_out/does-not-exist" > /dev/null 2>&1
	[ $? -eq 3 ] && pass || fail "unwrap of a missing file should exit 3"
	printf 'TRACE:\n\170\234\313\110\315\311' > "$c30_out/cut.z"
	"$GFXSTAT" unwrap "$c30_out/cut.z" > /dev/null 2> "$c30_out/err"
	if [ $? -eq 3 ] && grep -q 'input ended inside a container' "$c30_out/err"; then pass; else
		fail "a truncated atrace -z stream should exit 3 and say why"
	fi
	printf '# tracer: nop\r\nx\r\n' | "$GFXSTAT" unwrap -q - > "$c30_out/got" 2> /dev/null
	printf '# tracer: nop\nx\n' | cmp -s - "$c30_out/got" && pass || fail "unwrap - (CRLF text)"

	if [ ! -d "$SAMPLES" ]; then
		skip "containers: $SAMPLES is absent"
	else
		f=$SAMPLES/atrace_text/catapult/compressed_atrace_data.txt
		want=$SAMPLES/atrace_text/catapult/decompressed_atrace_data.txt
		if [ -f "$f" ] && [ -f "$want" ]; then
			c30_expect "atrace -z (compressed_atrace_data.txt)" "$want" "$f"
			grep -q 'atrace-z > zlib > ftrace-text' "$c30_out/err" && pass ||
				fail "atrace -z: layers not reported"
			c30_expect "plain text (decompressed_atrace_data.txt)" "$want" "$want"
			# through an adb shell pty: every '\n' became "\r\n", or "\r\r\n" on Windows
			sed 's/$/\r/' "$f" > "$c30_out/crlf.z"
			c30_expect "atrace -z after a pty (CRLF)" "$want" "$c30_out/crlf.z"
			sed 's/$/\r\r/' "$f" > "$c30_out/crcrlf.z"
			c30_expect "atrace -z after a Windows pty (CRCRLF)" "$want" "$c30_out/crcrlf.z"
			if command -v gzip > /dev/null; then
				gzip -c "$want" > "$c30_out/t.gz"
				c30_expect "gzip text" "$want" "$c30_out/t.gz"
			fi
			if command -v iconv > /dev/null; then
				{ printf '\377\376'; sed 's/$/\r/' "$want" | iconv -f UTF-8 -t UTF-16LE; } \
					> "$c30_out/u16.txt"
				c30_expect "UTF-16LE CRLF text" "$want" "$c30_out/u16.txt"
			fi
		fi
		for f in "$SAMPLES"/systrace_html/catapult/*.html; do
			[ -f "$f" ] || continue
			c30_js_text "$f" > "$c30_out/want"
			c30_expect "$(basename "$f") (var linuxPerfData)" "$c30_out/want" "$f"
			grep -q 'systrace-html > systrace-js > ftrace-text' "$c30_out/err" && pass ||
				fail "$(basename "$f"): layers not reported"
		done
		f=$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace
		if [ -f "$f" ]; then
			c30_expect "Perfetto protobuf, passed through" "$f" "$f"
		fi
		# what each dump is, through its container
		for pair in "sf_latency/zTT/latency.txt:utf-16le > sf-latency" \
			"sf_latency/zTT/temp.txt:utf-16le > sf-list" \
			"sf_latency/catapult-devil/surface_stats_collector_test_rows_with_warning.txt:sf-latency" \
			"gfxinfo/aNavMode/gfxinfo.txt:gfxinfo" \
			"gfxinfo/Sound-to-Visualiation-Kotlin/framestats.txt:gfxinfo"; do
			f=$SAMPLES/${pair%%:*}
			[ -f "$f" ] || continue
			"$GFXSTAT" unwrap -o "$c30_out/x" "$f" 2> "$c30_out/err"
			if [ $? -eq 0 ] && grep -q ": ${pair#*:}, " "$c30_out/err"; then pass; else
				fail "unwrap detects ${pair%%:*} as '${pair#*:}'"
				cat "$c30_out/err"
			fi
		done
		if ! command -v unzip > /dev/null; then
			skip "containers: unzip is not installed (systrace HTML samples are zipped)"
		else
			for z in "$SAMPLES"/systrace_html/Gracker-SystraceForBlog/*.zip; do
				[ -f "$z" ] || continue
				rm -rf "$c30_out/zip"
				mkdir -p "$c30_out/zip"
				unzip -q -o "$z" -d "$c30_out/zip"
				html=$(ls "$c30_out"/zip/*.html | head -n 1)
				name=$(basename "$html")
				c30_html_text "$html" > "$c30_out/want"
				c30_expect "$name" "$c30_out/want" "$html"
				if grep -q 'systrace-html > ftrace-text' "$c30_out/err" &&
					! grep -q 'warning\|error' "$c30_out/err"; then
					pass
				else
					fail "$name: layers not reported, or warnings"
					cat "$c30_out/err"
				fi
				# the same HTML gzip-compressed, read from a pipe
				if command -v gzip > /dev/null; then
					gzip -c "$html" | "$GFXSTAT" unwrap -q - > "$c30_out/got" 2> /dev/null
					cmp -s "$c30_out/want" "$c30_out/got" && pass ||
						fail "$name.gz from standard input"
				fi
				rm -rf "$c30_out/zip"
			done
		fi
	fi
fi
rm -rf "$c30_out"

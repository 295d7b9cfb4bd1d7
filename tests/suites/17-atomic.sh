# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: results are whole or absent (the security/fault campaign). A signal
# while a regular file is read is an interruption: exit 130/143, "interrupted after N of M
# bytes", and nothing written over an earlier output; a live stream (a pipe) still ends
# cleanly. A file the user names is replaced only once complete: a full disk leaves the
# previous one as it was and no temporary file behind. Passwords in --db never reach a
# message or a page; control characters from the input never reach the terminal raw; and
# `make fuzz` builds the zip target with libzip.

a17=$TMP/atomic
mkdir -p "$a17"
ex=$ROOT/examples/launcher-60hz.trace
ESC=$(printf '\033')
AE=$(printf '\303\244') # U+00E4, two bytes of UTF-8

# a17_stop SIG FILE CMD...: run CMD, and send SIG once it has FILE mapped (it is reading it);
# the exit status in $a17_rc, stdout and stderr in $a17/out, $a17/err
a17_stop() {
	a17_sig=$1
	a17_file=$2
	shift 2
	"$@" > "$a17/out" 2> "$a17/err" &
	a17_pid=$!
	a17_n=0
	while [ $a17_n -lt 100000 ] && kill -0 $a17_pid 2> /dev/null &&
		! grep -qF "$a17_file" "/proc/$a17_pid/maps" 2> /dev/null; do
		a17_n=$((a17_n + 1))
	done
	kill "-$a17_sig" $a17_pid 2> /dev/null
	wait $a17_pid
	a17_rc=$?
}

# -- an interrupted read of a file: 130/143, the byte count, nothing replaced ----------------
if [ -r /proc/self/maps ]; then
	# large enough that reading it takes a while (a tenth of a second or more)
	"$GFXSIM" --seed 17 --size 150M -o "$a17/big.trace" 2> /dev/null
	printf 'the previous report\n' > "$a17/keep"
	# a17_case NAME WANT-RC SIG OUTPUT CMD...: OUTPUT (an earlier file) must stay as it was
	a17_case() {
		a17_name=$1
		a17_want=$2
		a17_s=$3
		a17_o=$4
		shift 4
		a17_try=0
		while :; do
			[ -n "$a17_o" ] && cp "$a17/keep" "$a17_o"
			a17_stop "$a17_s" big.trace "$@"
			# a run that ended before the signal came proves nothing: try again
			grep -q 'interrupted' "$a17/err" || [ $a17_rc -ne 0 ] || [ $a17_try -ge 3 ] ||
				{ a17_try=$((a17_try + 1)); continue; }
			break
		done
		[ $a17_rc -eq "$a17_want" ] && grep -q 'interrupted after [0-9]* of 157286[0-9]* bytes' \
			"$a17/err" && pass ||
			fail "atomic: $a17_name stopped by SIG$a17_s: exit $a17_rc (want" \
				"$a17_want): $(head -c 300 "$a17/err")"
		if [ -n "$a17_o" ]; then
			cmp -s "$a17/keep" "$a17_o" && pass ||
				fail "atomic: $a17_name stopped by SIG$a17_s replaced $(basename "$a17_o")"
		fi
	}
	a17_case "report -o" 143 TERM "$a17/r.html" "$GFXSTAT" report -q -o "$a17/r.html" \
		"$a17/big.trace"
	ls -A "$a17" | grep -q '^\.r\.html\.' && fail "atomic: report left its temporary file" ||
		pass
	a17_case "report -o (SIGINT)" 130 INT "$a17/r.html" "$GFXSTAT" report -q -o "$a17/r.html" \
		"$a17/big.trace"
	a17_case "export -o" 143 TERM "$a17/e.json" "$GFXSTAT" export -q -o "$a17/e.json" \
		"$a17/big.trace"
	a17_case "frames -o" 143 TERM "$a17/f.csv" "$GFXSTAT" frames -q -o "$a17/f.csv" \
		"$a17/big.trace"
	mkdir -p "$a17/fps"
	a17_case "gfx -o" 143 TERM "$a17/fps/fps.csv" "$GFXSTAT" gfx -q -o "$a17/fps" \
		"$a17/big.trace"
	a17_case "analyze" 130 INT "" "$GFXSTAT" analyze -q "$a17/big.trace"
	[ -s "$a17/out" ] && fail "atomic: an interrupted analyze printed results" || pass
	a17_case "analyze --format json" 143 TERM "" "$GFXSTAT" analyze -q --format json \
		"$a17/big.trace"
	# compare (NEW the big one): says so, and prints no verdict
	a17_case "compare" 143 TERM "" "$GFXSTAT" compare -q "$ex" "$a17/big.trace"
	[ -s "$a17/out" ] && fail "atomic: an interrupted compare printed results" || pass
	# standard input from a file is a file, not a live stream
	a17_case "analyze - < file" 143 TERM "" sh -c 'exec "$1" analyze -q - < "$2"' sh \
		"$GFXSTAT" "$a17/big.trace"
	rm -f "$a17/big.trace"
else
	skip "atomic: no /proc: interrupted reads untested"
fi

# -- a live stream still ends cleanly on a signal, and its report is written --------------
mkfifo "$a17/fifo" 2> /dev/null
for c in report frames; do
	(cat "$ex"; exec sleep 30) > "$a17/fifo" &
	a17_w=$!
	rm -f "$a17/live.out"
	"$GFXSTAT" "$c" -q -o "$a17/live.out" - < "$a17/fifo" > /dev/null 2> "$a17/err" &
	a17_pid=$!
	sleep 1
	kill -TERM $a17_pid
	wait $a17_pid
	a17_rc=$?
	kill $a17_w 2> /dev/null
	wait $a17_w 2> /dev/null
	[ $a17_rc -eq 0 ] && [ -s "$a17/live.out" ] && pass ||
		fail "atomic: $c -o from a pipe stopped by SIGTERM: exit $a17_rc: $(head -c 300 "$a17/err")"
done

# -- a full disk: exit 5, the previous file as it was, no temporary file left -------------
a17m=$a17/full
mkdir -p "$a17m"
if mount -t tmpfs -o size=256k tmpfs "$a17m" 2> /dev/null; then
	mkdir -p "$a17m/fps"
	for f in r.html e.json f.csv u.txt junit.xml fps/fps.csv fps/dropFrames.csv; do
		printf 'the previous %s\n' "$f" > "$a17m/$f"
		cp "$a17m/$f" "$a17/prev-$(echo "$f" | tr / _)"
	done
	# fill it: a new file can be created, not written
	dd if=/dev/zero of="$a17m/fill" bs=4k > /dev/null 2>&1
	# a17_full NAME FILE CMD...: exit 5, FILE unchanged
	a17_full() {
		a17_name=$1
		a17_f=$2
		shift 2
		"$@" > /dev/null 2> "$a17/err"
		a17_rc=$?
		[ $a17_rc -eq 5 ] && pass ||
			fail "atomic: $a17_name on a full disk: exit $a17_rc, want 5: $(head -c 300 "$a17/err")"
		cmp -s "$a17/prev-$(echo "$a17_f" | tr / _)" "$a17m/$a17_f" && pass ||
			fail "atomic: $a17_name on a full disk destroyed the previous $a17_f"
	}
	a17_full "report -o" r.html "$GFXSTAT" report -q -o "$a17m/r.html" "$ex"
	a17_full "export -o" e.json "$GFXSTAT" export -q -o "$a17m/e.json" "$ex"
	a17_full "frames -o" f.csv "$GFXSTAT" frames -q -o "$a17m/f.csv" "$ex"
	a17_full "unwrap -o" u.txt "$GFXSTAT" unwrap -q -o "$a17m/u.txt" "$ex"
	a17_full "gfx -o (fps.csv)" fps/fps.csv "$GFXSTAT" gfx -q -o "$a17m/fps" "$ex"
	cmp -s "$a17/prev-fps_dropFrames.csv" "$a17m/fps/dropFrames.csv" && pass ||
		fail "atomic: gfx on a full disk destroyed the previous dropFrames.csv"
	a17_full "compare --junit" junit.xml "$GFXSTAT" compare -q --junit "$a17m/junit.xml" \
		"$ex" "$ex"
	a17_left=$(ls -A "$a17m" "$a17m/fps" | grep '^\.' | tr '\n' ' ')
	[ -z "$a17_left" ] && pass || fail "atomic: temporary files left on a full disk: $a17_left"
	# with room again, the same commands replace the files (and keep their mode)
	rm -f "$a17m/fill"
	chmod 640 "$a17m/r.html"
	"$GFXSTAT" report -q -o "$a17m/r.html" "$ex" 2> /dev/null
	grep -q '<html' "$a17m/r.html" && [ "$(stat -c %a "$a17m/r.html")" = 640 ] && pass ||
		fail "atomic: report -o did not replace the file, keeping its mode"
	umount "$a17m"
else
	skip "atomic: cannot mount a tmpfs here (not root?): full-disk outputs untested"
fi
# a name that is a symbolic link: the file it names is replaced, the link stays
printf 'old\n' > "$a17/real.json"
ln -sf real.json "$a17/link.json"
"$GFXSTAT" export -q -o "$a17/link.json" "$ex" 2> /dev/null
[ -L "$a17/link.json" ] && grep -q traceEvents "$a17/real.json" && pass ||
	fail "atomic: export -o through a symbolic link replaced the link"
# /dev/null is written to, never replaced
"$GFXSTAT" report -q -o /dev/null "$ex" 2> "$a17/err"
[ $? -eq 0 ] && [ -c /dev/null ] && pass || fail "atomic: report -o /dev/null: $(cat "$a17/err")"

# -- passwords in --db: never in a message -------------------------------------------------
"$GFXSTAT" history --db \
	"postgresql://gfxstat:S3cr3tA@127.0.0.1:1/none?connect_timeout=2&password=S3cr3tB" \
	> /dev/null 2> "$a17/err"
a17_rc=$?
[ $a17_rc -eq 5 ] && grep -qF 'postgresql://gfxstat:***@127.0.0.1:1/none' "$a17/err" &&
	grep -qF 'password=***' "$a17/err" && ! grep -q 'S3cr3t' "$a17/err" && pass ||
	fail "atomic: a --db password in a message (exit $a17_rc): $(cat "$a17/err")"
# a keyword/value password (a store that cannot be opened names what --db said)
"$GFXSTAT" history --db "$a17/no/such/dir/h.db password=S3cr3tC" > /dev/null 2> "$a17/err"
grep -qF 'password=***' "$a17/err" && ! grep -q 'S3cr3t' "$a17/err" && pass ||
	fail "atomic: a keyword/value password in a message: $(cat "$a17/err")"

# -- control characters from the input: shown as \x1b, UTF-8 kept --------------------------
sed "s/StatusBar#0/Status${ESC}[31mB${AE}r#0/g" "$ex" > "$a17/esc.trace"
for c in inspect analyze; do
	"$GFXSTAT" "$c" "$a17/esc.trace" > "$a17/out" 2> "$a17/err"
	if grep -q "$ESC" "$a17/out" "$a17/err"; then
		fail "atomic: $c prints a raw ESC from a layer name"
	else
		grep -qF "Status\\x1b[31mB${AE}r#0" "$a17/out" && pass ||
			fail "atomic: $c does not show the layer name escaped, UTF-8 kept"
	fi
done
"$GFXSTAT" compare --layer Status "$a17/esc.trace" "$a17/esc.trace" > "$a17/out" 2> "$a17/err"
grep -q "$ESC" "$a17/out" "$a17/err" && fail "atomic: compare prints a raw ESC from a layer name" ||
	pass
"$GFXSTAT" analyze "$a17/no${ESC}[2Jsuch" > /dev/null 2> "$a17/err"
grep -q "$ESC" "$a17/err" && fail "atomic: a message prints a raw ESC from a file name" ||
	{ grep -qF 'no\x1b[2Jsuch' "$a17/err" && pass ||
		fail "atomic: the file name is not shown escaped: $(cat "$a17/err")"; }

# -- make fuzz: the zip target with libzip, as the normal build ---------------------------
if [ -f /usr/include/zip.h ] && command -v make > /dev/null; then
	a17_mk=$(cd "$ROOT" && env -u MAKEFLAGS -u MAKELEVEL make -s -n fuzz \
		FUZZ_SRC=fuzz/fuzz_zip.c FUZZ_BUILD="$a17/fuzz" 2> /dev/null)
	echo "$a17_mk" | grep -q -- '-DGFXSTAT_HAVE_LIBZIP' && echo "$a17_mk" | grep -q -- '-lzip' &&
		pass || fail "atomic: make fuzz builds fuzz_zip without libzip"
else
	skip "atomic: no libzip headers: make fuzz's zip flags untested"
fi

# SPDX-License-Identifier: MIT
# What reaches the phone's shell, and record's failure paths, against the fake adb
# (tests/fake-adb/adb), which reads each `shell` line as the phone's shell would (eval): a
# string gfxstat left unquoted runs there. Layer names come from the device and an app names
# its own windows, so each hostile name must arrive as ONE word, byte for byte, and run
# nothing. User arguments with a grammar are checked before the phone is touched.
# --overwrite never loses the old session; -q never hides why a run failed; a source the
# device cannot give is refused up front; no frames is not success. Sourced by tests/run.sh.
FAKE=$ROOT/tests/fake-adb/adb
shd=$TMP/record-shell
mkdir -p "$shd"

sh_scenario() { # sh_scenario DIR: FAKE1, Android 10, no tracefs or Perfetto, app2 in focus
	rm -rf "$1"
	mkdir -p "$1/FAKE1/latency"
	printf 'List of devices attached\nFAKE1\tdevice product:fake model:Fake_10 transport_id:1\n' \
		> "$1/devices"
	printf '%s\n' 'ro.product.model=Fake 10' 'ro.build.version.release=10' \
		'ro.build.version.sdk=29' 'ro.product.cpu.abi=arm64-v8a' > "$1/FAKE1/props"
	printf '  mCurrentFocus=Window{1f2e u0 com.example.app2/com.example.app2.MainActivity}\n' \
		> "$1/FAKE1/window"
	printf 'com.example.app2/com.example.app2.MainActivity#0\nStatusBar#0\n' > "$1/FAKE1/sf_list"
	# one dump of a 60 Hz layer, 4 rows: frames at 1000.0, 1016.7, 1033.3, 1050.0 ms
	printf '%s\n' 16666667 '1000000000	1000000000	999000000' \
		'1016666667	1016666667	1015666667' '1033333334	1033333334	1032333334' \
		'1050000001	1050000001	1049000001' > "$1/FAKE1/latency/001"
}
rec_in() { # rec_in WORK SCENARIO ARGS...: gfxstat record run in WORK (whatever escapes
	# the quoting runs with WORK as its folder: `touch PWN` leaves WORK/PWN); WORK/out, err
	w=$1
	s=$2
	shift 2
	rm -rf "$w"
	mkdir -p "$w"
	(cd "$w" && FAKE_ADB=$s ADB=$FAKE "$GFXSTAT" record "$@" > out 2> err)
}
tree_sum() { # tree_sum DIR: every entry (hidden ones too) with its bytes' checksum
	(cd "$1" && find . | sort | while read -r f; do
		if [ -f "$f" ]; then echo "$f $(cksum < "$f")"; else echo "$f"; fi
	done)
}

# -- 1. hostile layer names: one literal word each, nothing runs ------------------------------
# The app names its window; --list shows "com.example.app2/<title>#0" (score 2 for the app).
# Each title below broke out of the old '%s' quoting (or would, in a shell that reads it).
i=0
while IFS= read -r title; do
	i=$((i + 1))
	s=$shd/l$i
	sh_scenario "$s"
	layer="com.example.app2/$title#0"
	printf '%s\nStatusBar#0\n' "$layer" > "$s/FAKE1/sf_list"
	printf '%s' "$layer" > "$s/want"
	rec_in "$s.w" "$s" -q --source latency --duration 1 -o sess
	rc=$?
	n=$(($(wc -l < "$s.w/sess/frames.csv" 2> /dev/null || echo 1) - 1))
	# the 4 rows of the one dump, each a frame; the fake got exactly the layer as its word
	if [ $rc -eq 0 ] && [ ! -e "$s.w/PWN" ] && [ ! -e "$s/PWN" ] && [ "$n" = 4 ] &&
		cmp -s "$s/want" "$s/FAKE1/state/latency_arg"; then pass; else
		word=$(cat "$s/FAKE1/state/latency_arg" 2> /dev/null)
		[ -e "$s.w/PWN" ] && echo "PWN created: the layer's command ran"
		fail "record --source latency of '$layer': exit $rc, $n frames (want 4), word '$word'"
		cat "$s.w/err"
		grep -- '--latency ' "$s/shell.log" | head -2
	fi
done << 'EOF'
X'$(touch PWN)'
X`touch PWN`
X';touch PWN;'
X"$(touch PWN)"
X\'; touch PWN; echo '
X' | touch PWN | echo '
 $(touch PWN) & 
EOF

# the shell line the phone got, parsed by sh: one word after --latency, the layer itself
s=$shd/l1
line=$(grep -- '--latency .' "$s/shell.log" | head -n 1)
got=$(cd "$shd" && eval "set -- $line" && [ $# -eq 4 ] && printf '%s' "$4")
if [ "$got" = "$(cat "$s/want")" ] && [ ! -e "$shd/PWN" ]; then pass; else
	fail "the --latency line read by sh: '$got' is not the layer"
fi

# -- 2. user arguments with a grammar: refused before the phone is touched (exit 2) -----------
sh_scenario "$shd/u"
for args in "--app|com.a;touch PWN;x" "--categories|gfx \$(touch PWN)" \
	"--categories|gfx'\$(touch PWN)'" "--app|com.a'|touch PWN|'"; do
	opt=${args%%|*}
	val=${args#*|}
	rm -f "$shd/u/log"
	rec_in "$shd/u.w" "$shd/u" -q --duration 1 "$opt" "$val"
	rc=$?
	rec_in "$shd/u.w2" "$shd/u" --on-device --device-binary "$GFXSTAT" "$opt" "$val"
	rc2=$?
	if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && [ ! -e "$shd/u/log" ] && [ ! -e "$shd/u.w/PWN" ] &&
		[ ! -e "$shd/u.w2/PWN" ] && grep -q "^gfxstat: error: $opt takes .*letters, digits" \
		"$shd/u.w/err" && grep -q "^gfxstat: error: $opt takes" "$shd/u.w2/err"; then pass; else
		fail "record $opt '$val' (and with --on-device): exits $rc $rc2 (want 2 2, adb untouched)"
		cat "$shd/u.w/err" "$shd/u.w2/err"
	fi
done
# a list with commas and spaces: each category its own word for atrace
if [ -x "$GFXSIM" ]; then
	sh_scenario "$shd/u2"
	echo /sys/kernel/tracing > "$shd/u2/FAKE1/tracefs"
	"$GFXSIM" --seed 5 --hz 60 --duration 2 --apps 1 --no-header -o "$shd/u2/FAKE1/trace_pipe" \
		2> /dev/null
	echo 3 > "$shd/u2/FAKE1/hold"
	rec_in "$shd/u2.w" "$shd/u2" -q --categories 'gfx,view  input' --duration 1 -o sess
	rc=$?
	if [ $rc -eq 0 ] && [ "$(tr '\n' ' ' < "$shd/u2/FAKE1/state/atrace_args")" = \
		"atrace -b 4096 -c --async_start gfx view input " ]; then pass; else
		fail "record --categories 'gfx,view  input': exit $rc, atrace got" \
			"'$(tr '\n' ' ' < "$shd/u2/FAKE1/state/atrace_args")'"
		cat "$shd/u2.w/err"
	fi
else
	skip "record --categories with commas: $GFXSIM missing"
fi
# the grammar's own: a process name (--app com.x:remote) reaches gfxinfo as one word
sh_scenario "$shd/u3"
rec_in "$shd/u3.w" "$shd/u3" -q --source gfxinfo --app com.example.app2:remote --duration 1 \
	-o sess
if [ "$(cat "$shd/u3/FAKE1/state/gfxinfo_arg" 2> /dev/null)" = com.example.app2:remote ]
then pass; else
	fail "record --app com.example.app2:remote: gfxinfo got '$(cat "$shd/u3/FAKE1/state/gfxinfo_arg")'"
	cat "$shd/u3.w/err"
fi

# -- 3. --overwrite: a failed run leaves the old session byte-identical -----------------------
old_session() { # old_session DIR: a session and a file of the user's
	rm -rf "$1"
	mkdir -p "$1"
	printf 'serial,old\n' > "$1/frames.csv"
	printf '{"old_session_marker":true}\n' > "$1/summary.json"
	printf 'old raw\n' | gzip > "$1/trace.txt.gz"
	printf '<html>old_session_marker</html>\n' > "$1/report.html"
	printf 'mine\n' > "$1/notes.txt"
}
# (a) the device is offline (adb lists it, every command fails): exit 4 before a session
sh_scenario "$shd/o"
: > "$shd/o/FAKE1/offline"
old_session "$shd/o.keep"
before=$(tree_sum "$shd/o.keep")
rec_in "$shd/o.w" "$shd/o" -q --duration 1 --overwrite -o "$shd/o.keep"
rc=$?
if [ $rc -eq 4 ] && [ "$(tree_sum "$shd/o.keep")" = "$before" ] && [ -s "$shd/o.w/err" ]; then
	pass; else
	fail "record -o DIR --overwrite with the device offline: exit $rc (want 4), DIR changed"
	ls -la "$shd/o.keep"; cat "$shd/o.w/err"
fi
# (b) the device goes away after the session opened (polls stop answering), nothing captured
sh_scenario "$shd/o2"
printf '16666667\n' > "$shd/o2/FAKE1/latency/001"
echo 1 > "$shd/o2/FAKE1/offline_after"
old_session "$shd/o2.keep"
before=$(tree_sum "$shd/o2.keep")
rec_in "$shd/o2.w" "$shd/o2" -q --source latency --duration 20 --overwrite -o "$shd/o2.keep"
rc=$?
if [ $rc -eq 4 ] && [ "$(tree_sum "$shd/o2.keep")" = "$before" ] &&
	grep -q 'stopped answering' "$shd/o2.w/err" &&
	grep -q 'no frames captured .*the session already there is kept' "$shd/o2.w/err"; then
	pass; else
	fail "record --overwrite, device gone with nothing captured: exit $rc (want 4), DIR changed"
	ls -la "$shd/o2.keep"; cat "$shd/o2.w/err"
fi
# (c) a run that captures replaces the session: the new files, none of the old session's
# (its trace.txt.gz), the user's own file kept, no temporary folder left
sh_scenario "$shd/o3"
old_session "$shd/o3.keep"
rec_in "$shd/o3.w" "$shd/o3" -q --source latency --duration 1 --overwrite -o "$shd/o3.keep"
rc=$?
if [ $rc -eq 0 ] && [ ! -e "$shd/o3.keep/trace.txt.gz" ] && [ -s "$shd/o3.keep/latency.txt.gz" ] &&
	[ "$(wc -l < "$shd/o3.keep/frames.csv")" = 5 ] && grep -q mine "$shd/o3.keep/notes.txt" &&
	! grep -q old_session_marker "$shd/o3.keep/summary.json" &&
	! grep -q old_session_marker "$shd/o3.keep/report.html" \
	2> /dev/null && [ -z "$(ls -A "$shd/o3.keep" | grep '^\.')" ]; then pass; else
	fail "record --overwrite that captures: exit $rc; the new session must replace the old"
	ls -la "$shd/o3.keep"; cat "$shd/o3.w/err"
fi

# (d) the same for a run of iterations (--repeat): the device offline, the old run kept;
# then a run that captures replaces it, and the history names the folder it ended in
old_run() { # old_run DIR: run.json and one iteration
	rm -rf "$1"
	mkdir -p "$1/iter-01"
	printf '{"old":true}\n' > "$1/run.json"
	printf '{"iteration":1}\n' > "$1/iter-01/iteration.json"
	printf 'serial,old\n' > "$1/iter-01/frames.csv"
	printf 'old\n' > "$1/iter-01/command.log"
}
sh_scenario "$shd/r"
: > "$shd/r/FAKE1/offline"
old_run "$shd/r.keep"
before=$(tree_sum "$shd/r.keep")
rec_in "$shd/r.w" "$shd/r" -q --repeat 2 --settle 0 --overwrite -o "$shd/r.keep" -- true
rc=$?
if [ $rc -eq 4 ] && [ "$(tree_sum "$shd/r.keep")" = "$before" ] &&
	grep -q "no iteration captured anything: the run already in '.*r.keep' is kept" \
		"$shd/r.w/err"; then pass; else
	fail "record --repeat --overwrite with the device offline: exit $rc (want 4), the old run changed"
	ls -laR "$shd/r.keep"; cat "$shd/r.w/err"
fi
if [ -x "$GFXSIM" ]; then
	rm "$shd/r/FAKE1/offline"
	echo /sys/kernel/tracing > "$shd/r/FAKE1/tracefs"
	"$GFXSIM" --seed 6 --hz 60 --duration 2 --apps 1 --no-header -o "$shd/r/FAKE1/trace_pipe" \
		2> /dev/null
	echo 3 > "$shd/r/FAKE1/hold"
	rec_in "$shd/r.w" "$shd/r" -q --repeat 1 --settle 0 --overwrite --save --db "$shd/r.db" \
		-o "$shd/r.keep" -- sleep 0.5
	rc=$?
	"$GFXSTAT" history --db "$shd/r.db" > "$shd/r.hist" 2>&1
	if [ $rc -eq 0 ] && [ "$(ls -A "$shd/r.keep" | tr '\n' ' ')" = "iter-01 run.json " ] &&
		! grep -q old "$shd/r.keep/run.json" &&
		[ "$(wc -l < "$shd/r.keep/iter-01/frames.csv")" -gt 10 ] &&
		[ -s "$shd/r.keep/iter-01/report.html" ] &&
		grep -q "$shd/r.keep/iter-01\$" "$shd/r.hist"; then pass; else
		fail "record --repeat --overwrite that captures: exit $rc; the new run must replace the old"
		ls -laR "$shd/r.keep"; cat "$shd/r.w/err" "$shd/r.hist"
	fi
else
	skip "record --repeat --overwrite that captures: $GFXSIM missing"
fi

# -- 4. -q hides progress, never the reason of a failure --------------------------------------
# (the device answers one --latency poll, 4 frames, then is gone)
sh_scenario "$shd/q"
echo 1 > "$shd/q/FAKE1/offline_after"
rec_in "$shd/q.w" "$shd/q" -q --source latency --duration 20 -o sess
rc=$?
if [ $rc -eq 4 ] && [ ! -s "$shd/q.w/out" ] &&
	grep -q "^gfxstat: error: FAKE1: the device stopped answering" "$shd/q.w/err" &&
	[ "$(wc -l < "$shd/q.w/sess/frames.csv")" = 5 ]; then pass; else
	fail "record -q, the device lost mid-run: exit $rc (want 4) with the reason on stderr"
	cat "$shd/q.w/err"
fi

# -- 5. --on-device honours --app and --source, and refuses what it cannot do ----------------
sh_scenario "$shd/p"
rec_in "$shd/p.w" "$shd/p" --on-device --device-binary "$GFXSTAT" --source latency \
	--app com.example.app2
rc1=$?
# until the phone's recorder has polled the layer twice (10 s at most)
k=0
while [ $k -lt 100 ] && [ "$(cat "$shd/p/FAKE1/state/latency.n" 2> /dev/null || echo 0)" -lt 2 ]
do
	sleep 0.1
	k=$((k + 1))
done
(cd "$shd/p.w" && FAKE_ADB=$shd/p ADB=$FAKE "$GFXSTAT" stop > stop.out 2>&1)
rc2=$?
(cd "$shd/p.w" && FAKE_ADB=$shd/p ADB=$FAKE "$GFXSTAT" pull -o . > pull.out 2>&1)
rc3=$?
sess=$(ls -d "$shd/p.w"/gfxstat-2* 2> /dev/null | head -n 1)
if [ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $rc3 -eq 0 ] && [ -n "$sess" ] &&
	grep -q ' record --local -q --categories .* --source latency --app com.example.app2 ' \
		"$shd/p/shell.log" &&
	grep -q '"app":{"package":"com.example.app2",.*"source":"latency"' "$sess/device.json" &&
	[ "$(wc -l < "$sess/frames.csv")" = 5 ]; then pass; else
	fail "record --on-device --source latency --app: exits $rc1 $rc2 $rc3; the phone must honour them"
	cat "$shd/p.w/err" "$shd/p.w/stop.out" "$shd/p.w/pull.out"
	cat "$shd/p/FAKE1/root/data/local/tmp/gfxstat-sessions/"*.log 2> /dev/null | tail -5
fi
sh_scenario "$shd/p2"
rec_in "$shd/p2.w" "$shd/p2" --on-device --device-binary "$GFXSTAT" --source perfetto
rc=$?
rec_in "$shd/p2.w2" "$shd/p2" --on-device --device-binary "$GFXSTAT" -o here
rc2=$?
if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && [ ! -e "$shd/p2/log" ] &&
	grep -q 'source perfetto does not go with --on-device' "$shd/p2.w/err" &&
	grep -q "^gfxstat: error: -o does not go with --on-device: .*gfxstat pull" "$shd/p2.w2/err"
then pass; else
	fail "record --on-device with --source perfetto / -o: exits $rc $rc2 (want 2 2, adb untouched)"
	cat "$shd/p2.w/err" "$shd/p2.w2/err"
fi
# pull SESSION: a plain name of the phone's sessions folder
(cd "$shd/p.w" && FAKE_ADB=$shd/p ADB=$FAKE "$GFXSTAT" pull ../../etc > pull2.out 2>&1)
rc=$?
if [ $rc -eq 2 ] && grep -q "SESSION is the name of a session" "$shd/p.w/pull2.out"; then pass; else
	fail "gfxstat pull ../../etc: exit $rc (want 2)"
fi

# -- 6. a source the device cannot give is refused up front; no frames is exit 3 ----------------
sh_scenario "$shd/s"
rec_in "$shd/s.w" "$shd/s" -q --source perfetto --duration 1 -o sess
rc=$?
if [ $rc -eq 4 ] && [ ! -e "$shd/s.w/sess" ] && [ ! -e "$shd/s/FAKE1/state/perfetto_ran" ] &&
	grep -q '^gfxstat: error: FAKE1: --source perfetto: no perfetto on this device (Android 10, SDK 29; .*it can give: latency, gfxinfo, pageflip$' \
		"$shd/s.w/err"; then pass; else
	fail "record --source perfetto on Android 10 without Perfetto: exit $rc (want 4, refused up front)"
	cat "$shd/s.w/err"
fi
# the layer's dumps hold no frame (only the period line): exit 3, said under -q
sh_scenario "$shd/s2"
printf '16666667\n' > "$shd/s2/FAKE1/latency/001"
rec_in "$shd/s2.w" "$shd/s2" -q --source latency --duration 1 -o sess
rc=$?
if [ $rc -eq 3 ] && grep -q '^gfxstat: error: FAKE1: no frames captured (duration reached)$' \
	"$shd/s2.w/err" && grep -q '"exit":3,' "$shd/s2.w/sess/summary.json"; then pass; else
	fail "record with no frames: exit $rc (want 3)"
	cat "$shd/s2.w/err"
fi

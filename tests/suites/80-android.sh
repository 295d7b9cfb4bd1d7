# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh and tests/android.sh: the static ARM binaries of `make android`, run
# under qemu-user, must give byte for byte the host build's output on the same inputs: a
# simulated trace, the golden and example traces, a gzip container (the target's zlib), the
# real Perfetto and gfxinfo samples when present, and a trace on a pipe (the live path).
# Without the binaries (or qemu) the suite is skipped with the reason, never passed.

a80_dir=${ANDROID_BUILD:-build-android}
case $a80_dir in /*) ;; *) a80_dir=$ROOT/$a80_dir ;; esac
a80_tmp=$TMP/a80
a80_have() { command -v "$1" > /dev/null 2>&1; }

# a80_qemu ABI: the qemu-user command for an ABI, static or not (both run a static binary)
a80_qemu() {
	case $1 in arm64) set -- aarch64 ;; armv7) set -- arm ;; esac
	if a80_have "qemu-$1-static"; then echo "qemu-$1-static"
	elif a80_have "qemu-$1"; then echo "qemu-$1"
	fi
}

# a80_same DESC WORKDIR ARGS...: run gfxstat ARGS in WORKDIR/host (host build) and in
# WORKDIR/arm (ARM build under qemu); the exit status, stdout, stderr (but for the time the
# summary reports) and every file written there must be identical. Relative paths keep the
# outputs free of the folder names.
a80_same() {
	a80_desc=$1 a80_w=$2
	shift 2
	rm -rf "$a80_w/host" "$a80_w/arm"
	mkdir -p "$a80_w/host" "$a80_w/arm"
	(cd "$a80_w/host" && "$GFXSTAT" "$@" > ../host.out 2> ../host.err; echo $? > ../host.rc)
	(cd "$a80_w/arm" && $a80_run "$@" > ../arm.out 2> ../arm.err; echo $? > ../arm.rc)
	# the summary's reading time is the one thing allowed to differ
	for a80_f in host arm; do
		sed 's/ in [0-9.]* s\($\|:\)/ in - s\1/' "$a80_w/$a80_f.err" > "$a80_w/$a80_f.err2"
	done
	a80_ok=1
	for a80_f in rc out err2; do
		cmp -s "$a80_w/host.$a80_f" "$a80_w/arm.$a80_f" || {
			a80_ok=0
			echo "  $a80_f differs:"
			diff "$a80_w/host.$a80_f" "$a80_w/arm.$a80_f" | head -6
		}
	done
	diff -r "$a80_w/host" "$a80_w/arm" > "$a80_w/tree.diff" 2>&1 || {
		a80_ok=0
		head -8 "$a80_w/tree.diff"
	}
	if [ $a80_ok = 1 ]; then pass; else fail "android $a80_abi: $a80_desc differs from the host"; fi
}

# the ABIs actually compared, for tests/android.sh
a80_ran=""
a80_bins=""
for a80_abi in arm64 armv7; do
	[ -x "$a80_dir/$a80_abi/gfxstat" ] && a80_bins="$a80_bins $a80_abi"
done
if [ -z "$a80_bins" ]; then
	skip "android: no ARM binaries in $a80_dir (run scripts/deps-android.sh, then make android-check)"
elif [ ! -x "$GFXSIM" ]; then
	skip "android: $GFXSIM missing (make all)"
else
	mkdir -p "$a80_tmp/in"
	# inputs shared by both ABIs, made once by the host tools
	"$GFXSIM" --seed 5 --duration 8 -o "$a80_tmp/in/sim.trace" 2> /dev/null
	cp "$ROOT/tests/golden/inputs/buckets.trace" "$ROOT/examples/launcher-60hz.trace" \
		"$a80_tmp/in/"
	gzip -c "$ROOT/examples/launcher-60hz.trace" > "$a80_tmp/in/launcher.trace.gz"
	for a80_f in "$SAMPLES"/perfetto/*/*.perfetto-trace "$SAMPLES"/gfxinfo/*/*.txt; do
		[ -f "$a80_f" ] && cp "$a80_f" "$a80_tmp/in/$(basename "$(dirname "$a80_f")")-${a80_f##*/}"
	done
	[ -d "$SAMPLES" ] || skip "android: real samples: $SAMPLES is absent"
	for a80_abi in arm64 armv7; do
		a80_bin=$a80_dir/$a80_abi/gfxstat
		a80_q=$(a80_qemu $a80_abi)
		if [ ! -x "$a80_bin" ]; then
			skip "android $a80_abi: $a80_bin missing (make android)"
			continue
		fi
		if [ -z "$a80_q" ]; then
			skip "android $a80_abi: no qemu-user to run it (scripts/deps-android.sh installs it)"
			continue
		fi
		# sources newer than the binary: its output says nothing about this tree
		if [ -n "$(find "$ROOT/lib" "$ROOT/src" "$ROOT/include" -newer "$a80_bin" \
			-name '*.[ch]' 2> /dev/null | head -n 1)" ]; then
			skip "android $a80_abi: $a80_bin is older than the sources (make android-check)"
			continue
		fi
		a80_run="$a80_q $a80_bin"
		# what runs on the phone: statically linked, so no loader and no libc needed there
		if a80_have readelf; then
			if readelf -lW "$a80_bin" | grep -q 'INTERP\|DYNAMIC'; then
				fail "android $a80_abi: $a80_bin is not fully static"
			else
				pass
			fi
		else
			skip "android $a80_abi: readelf missing, static link not checked"
		fi
		a80_ran="$a80_ran $a80_abi"
		a80_d=$a80_tmp/$a80_abi
		a80_same "--version" "$a80_d/version" --version
		a80_same "--help" "$a80_d/help" --help
		a80_same "gfx --help" "$a80_d/gfxhelp" gfx --help
		for a80_in in sim.trace buckets.trace launcher-60hz.trace; do
			a80_p=$a80_tmp/in/$a80_in
			a80_same "gfx -T 2 -f 0 $a80_in" "$a80_d/gfx-$a80_in" gfx -T 2 -f 0 -F out "$a80_p"
			a80_same "frames $a80_in" "$a80_d/frames-$a80_in" frames "$a80_p"
			a80_same "analyze --json $a80_in" "$a80_d/analyze-$a80_in" analyze --json "$a80_p"
			a80_same "inspect $a80_in" "$a80_d/inspect-$a80_in" inspect "$a80_p"
		done
		# a gzip container: the target's zlib is linked in
		a80_same "frames launcher.trace.gz" "$a80_d/gz" frames "$a80_tmp/in/launcher.trace.gz"
		for a80_p in "$a80_tmp"/in/*-*.perfetto-trace "$a80_tmp"/in/*-*.txt; do
			[ -f "$a80_p" ] || continue
			a80_same "analyze --json ${a80_p##*/}" "$a80_d/s-${a80_p##*/}" analyze --json "$a80_p"
			a80_same "frames ${a80_p##*/}" "$a80_d/f-${a80_p##*/}" frames "$a80_p"
		done
		# the live path: the trace on a pipe, as from adb shell cat trace_pipe; the rows must
		# be the host's from the same trace read as a file
		mkdir -p "$a80_d/pipe"
		(cd "$a80_d/pipe" && "$GFXSTAT" gfx -q -T 2 -f 0 -F host "$a80_tmp/in/sim.trace")
		# cat, not <: the reader must see a pipe it cannot seek or stat for a size
		# shellcheck disable=SC2002
		cat "$a80_tmp/in/sim.trace" |
			(cd "$a80_d/pipe" && $a80_run gfx -q -T 2 -f 0 -F arm - 2> "$a80_d/pipe/err")
		if [ $? -eq 0 ] && diff -r "$a80_d/pipe/host" "$a80_d/pipe/arm" > "$a80_d/pipe/diff" &&
			[ -s "$a80_d/pipe/arm/fps.csv" ]; then
			pass
		else
			fail "android $a80_abi: gfx - on a pipe differs from the host on the file"
			head -8 "$a80_d/pipe/diff" "$a80_d/pipe/err"
		fi
	done
fi

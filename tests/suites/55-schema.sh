# SPDX-License-Identifier: MIT
# Sourced by tests/run.sh: every JSON output (analyze, inspect, gfxinfo, latency and devices
# --format json, frames --format jsonl) on the example, on every real sample and on the fake
# adb (tests/fake-adb, as in 70-record.sh) validates against
# docs/schema/gfxstat.schema.json (Ajv, installed by scripts/deps.d/schema.sh), and the header
# says what the inputs are. A document with a renamed field must fail: the check can fail.

c55=$TMP/c55
mkdir -p "$c55/out"
C55_SCHEMA=$ROOT/docs/schema/gfxstat.schema.json
C55_AJV=$ROOT/tools/schema/node_modules/ajv/package.json
# c55_run NAME CMD...: the output of gfxstat CMD, kept for validation when it wrote anything
c55_run() {
	n=$1
	shift
	"$GFXSTAT" "$@" > "$c55/out/$n" 2> /dev/null
	[ -s "$c55/out/$n" ] || rm -f "$c55/out/$n"
}
c55_all() { # c55_all NAME INPUT: every JSON output of one input
	c55_run "$1.analyze.json" analyze -q --format json "$2"
	c55_run "$1.inspect.json" inspect -q --format json "$2"
	c55_run "$1.frames.jsonl" frames -q --format jsonl "$2"
	c55_run "$1.frames.json" frames -q "$2" --format json
}

if ! command -v node > /dev/null 2>&1; then
	skip "schema: node is not installed (scripts/deps.sh installs it): JSON outputs not validated"
elif [ ! -f "$C55_AJV" ]; then
	skip "schema: Ajv is not installed in tools/schema (run scripts/deps.sh)"
else
	c55_all example "$ROOT/examples/launcher-60hz.trace"
	# latency: a --latency dump made here (60 Hz, frames 1-3 presented at 1e9 + i * P),
	# --format json after the input
	awk 'BEGIN { P = 16666667; print P
		for (i = 1; i <= 3; i++) { t = 1000000000 + i * P
			printf "%.0f\t%.0f\t%.0f\n", t - 3 * P, t, t - P } }' > "$c55/lat.txt"
	c55_run "made.latency.json" latency -q "$c55/lat.txt" --format json
	# devices: the fake adb with a usable phone and an unauthorized one (null fields)
	c55_adb=$c55/adb
	mkdir -p "$c55_adb/FAKE1"
	printf 'List of devices attached\nFAKE1\tdevice product:fake model:Fake_9 transport_id:1\n%s\n' \
		'FAKE2	unauthorized transport_id:2' > "$c55_adb/devices"
	printf 'ro.product.model=Fake 9\nro.build.version.release=9\nro.build.version.sdk=28\n' \
		> "$c55_adb/FAKE1/props"
	echo /sys/kernel/tracing > "$c55_adb/FAKE1/tracefs"
	ADB=$ROOT/tests/fake-adb/adb FAKE_ADB=$c55_adb c55_run "fake.devices.json" devices \
		--format json
	if [ -d "$SAMPLES" ]; then
		for f in "$SAMPLES"/atrace_text/*/* "$SAMPLES"/perfetto/*/*.perfetto-trace \
			"$SAMPLES"/gfxinfo/*/*.txt "$SAMPLES"/sf_latency/*/*.txt \
			"$SAMPLES"/systrace_html/catapult/*.html; do
			[ -f "$f" ] || continue
			c55_all "$(basename "$(dirname "$f")")-$(basename "$f")" "$f"
		done
		for f in "$SAMPLES"/gfxinfo/*/*.txt; do
			c55_run "gfxinfo-$(basename "$(dirname "$f")").json" gfxinfo -q --format json "$f"
		done
		for f in "$SAMPLES"/sf_latency/*/*.txt; do
			c55_run "$(basename "$(dirname "$f")")-$(basename "$f").latency.json" latency -q \
				--format json "$f"
		done
		if command -v unzip > /dev/null; then
			mkdir -p "$c55/x"
			unzip -q -o "$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip" \
				-d "$c55/x"
			c55_all xiaomi "$c55/x/xiaomi_launcher.html"
		fi
	else
		skip "schema: $SAMPLES absent: only the example's outputs validated"
	fi
	n=$(ls "$c55/out" | wc -l | tr -d ' ')
	if out=$(node "$ROOT/tools/schema/validate.js" "$C55_SCHEMA" "$c55/out"/* 2>&1); then
		pass
		echo "ok: $n JSON outputs valid against the schema"
	else
		fail "schema: outputs that do not validate:"
		echo "$out" | head -10
	fi
	# every command that has a JSON output was seen (a missing one would pass unnoticed)
	for kind in analyze.json inspect.json frames.jsonl frames.json latency.json devices.json; do
		ls "$c55/out" | grep -q "\.$kind\$" && pass || fail "schema: no $kind output to validate"
	done

	# the header names the input: the example is ftrace text, 2125604 bytes, 60 Hz (its
	# VSYNC toggles are 16.666 ms apart: gfxsim --hz 60), and the example's 846 frames
	hdr=$(head -n 1 "$c55/out/example.analyze.json")
	case $hdr in
	*'"command":"analyze","inputs":[{"path":"'*'launcher-60hz.trace","format":"ftrace-text","containers":[],"bytes":2125604}]'*'"refresh":[{"hz":60.0'*)
		pass ;;
	*) fail "schema: analyze header does not describe the example: $hdr" ;;
	esac
	# latency: the made dump is sf-latency, 60 Hz (P = 16666667), presents 1e9 + P to 1e9 + 3P
	grep -q '"command":"latency","inputs":\[{"path":"[^"]*lat.txt","format":"sf-latency","containers":\[\],"bytes":[1-9][0-9]*}\],"device":{"serial":null,[^}]*},"refresh":\[{"hz":60.000,"period_ns":16666667,"frames":3}\],"span":{"first_ns":1016666667,"last_ns":1050000001,' \
		"$c55/out/made.latency.json" 2> /dev/null && pass ||
		fail "schema: latency header does not describe the made dump"
	# devices: the header's device is the one usable phone, as probed
	grep -q '"command":"devices","inputs":\[\],"device":{"serial":"FAKE1","model":"Fake 9","android":"9","sdk":28,"build":null}' \
		"$c55/out/fake.devices.json" 2> /dev/null && pass ||
		fail "schema: devices header does not name the probed device"
	# the Perfetto sample names its build (SystemInfo): Pixel 7 Pro, Android 13, SDK 33
	if [ -d "$SAMPLES" ]; then
		grep -q '"device":{"serial":null,"model":null,"android":"13","sdk":33,"build":"google/cheetah/cheetah:13/TQ3A.230705.001/10216780:user/release-keys"}' \
			"$c55/out/nowinandroid-sidky-trace.perfetto-trace.analyze.json" && pass ||
			fail "schema: the Perfetto sample's header does not name its build"
		# a container is named: atrace -z is "atrace-z > zlib > ftrace-text" (inspect's text)
		grep -q '"containers":\["atrace-z","zlib"\]' \
			"$c55/out/catapult-compressed_atrace_data.txt.inspect.json" && pass ||
			fail "schema: atrace -z containers not in the header"
	fi
	# a record session folder names its device: device.json beside the input
	mkdir -p "$c55/sess"
	cp "$ROOT/examples/launcher-60hz.trace" "$c55/sess/trace.txt"
	printf '{"serial":"FAKE1","model":"Fake 9","android":"14","sdk":34}\n' > "$c55/sess/device.json"
	"$GFXSTAT" analyze -q --format json "$c55/sess/trace.txt" 2> /dev/null | head -n 1 |
		grep -q '"device":{"serial":"FAKE1","model":"Fake 9","android":"14","sdk":34,"build":null}' &&
		pass || fail "schema: device.json beside the input not in the header"

	# the check can fail: 'name' for 'layer' (the old field), a frame with a bitmask, latency's
	# old CSV word, and a device's refresh rate as a string
	sed 's/{"layer":/{"name":/' "$c55/out/example.analyze.json" > "$c55/bad1.json"
	sed '1s/"janky":[a-z]*/"janky":-1/' "$c55/out/example.frames.jsonl" > "$c55/bad2.jsonl"
	sed 's/"desired_present_ns":/"desired_ns":/' "$c55/out/made.latency.json" > "$c55/bad3.json"
	sed 's/"refresh_hz":60.000/"refresh_hz":"60"/' "$c55/out/fake.devices.json" > "$c55/bad4.json"
	for b in "$c55/bad1.json" "$c55/bad2.jsonl" "$c55/bad3.json" "$c55/bad4.json"; do
		node "$ROOT/tools/schema/validate.js" "$C55_SCHEMA" "$b" > /dev/null 2>&1 &&
			fail "schema: $(basename "$b") validated, but it breaks the schema" || pass
	done
fi

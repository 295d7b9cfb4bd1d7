# SPDX-License-Identifier: MIT
# gfxstat analyze: each metric must equal its anchor's definition applied to the frames that
# `gfxstat frames` lists for the same input. An independent awk program recomputes several of
# them from the frames CSV (FPS over active time, nearest-rank percentiles, PerfDog jank and
# big jank, the seed's A/B/C buckets, waits) and they are compared with analyze --json.
# (A gfxinfo row can carry a DisplayPresentTime earlier than the row before it; such a frame
# is out of order and both sides leave it out, as docs/metrics.md says.)
# Sourced by tests/run.sh.
recompute() { # recompute FRAMES.csv LAYER -> "fps p50 p90 p99 max jank big a b c waits"
	awk -F, -v layer="$2" '
	# a frame presented before the layer'\''s previous present is out of order: left out
	NR > 1 && $2 == layer && $5 != "" && (!n || $5 + 0 >= p[n - 1]) { p[n++] = $5 + 0 }
	END {
		for (i = 1; i < n; i++) iv[i - 1] = p[i] - p[i - 1]
		m = n - 1; c = 0; act = 0
		for (i = 0; i < m; i++) {
			if (iv[i] >= 500000000) { waits++; continue }
			cnt[c++] = iv[i]; act += iv[i]
			if (iv[i] >= 100000000) A++; else if (iv[i] >= 50000000) B++; else if (iv[i] >= 42000000) C++
		}
		# insertion sort of the counted intervals (layers are small)
		for (i = 1; i < c; i++) { v = cnt[i]; for (j = i - 1; j >= 0 && cnt[j] > v; j--) cnt[j + 1] = cnt[j]; cnt[j + 1] = v }
		# PerfDog over every interval, waits included, from the 4th
		for (i = 3; i < m; i++) {
			s3 = iv[i - 1] + iv[i - 2] + iv[i - 3]
			if (3 * iv[i] > 2 * s3 && iv[i] > 83333333) { jank++; if (iv[i] > 125000000) big++ }
		}
		printf "%.3f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n", c / (act / 1e9),
			cnt[rank(50, c) - 1] / 1e6, cnt[rank(90, c) - 1] / 1e6, cnt[rank(99, c) - 1] / 1e6,
			cnt[c - 1] / 1e6, jank, big, A, B, C, waits
	}
	function rank(pc, k,   r) { r = int((k * pc + 99) / 100); return r < 1 ? 1 : r }' "$1"
}
from_json() { # from_json JSON LAYER -> the same fields as recompute
	grep -F "{\"name\":\"$2\"" "$1" | head -n 1 | awk '{
		n = split("fps p50 p90 p99 max jank big_jank A B C waits", k, " ")
		for (i = 1; i <= n; i++) {
			if (match($0, "\"" k[i] "\":[0-9.]+")) { s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); v[i] = s }
		}
		printf "%.3f %.3f %.3f %.3f %.3f %d %d %d %d %d %d\n", v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10], v[11]
	}'
}
an=$TMP/analyze
mkdir -p "$an"
check_layers() { # check_layers INPUT LAYER...
	in=$1
	shift
	"$GFXSTAT" frames -q "$in" > "$an/frames.csv"
	"$GFXSTAT" analyze -q --json "$in" > "$an/a.json"
	for layer in "$@"; do
		want=$(recompute "$an/frames.csv" "$layer")
		got=$(from_json "$an/a.json" "$layer")
		if [ -n "$want" ] && [ "$want" = "$got" ]; then pass; else
			fail "analyze vs frames on $(basename "$in"), layer $layer"
			echo "  from frames: $want"
			echo "  analyze:     $got"
		fi
	done
}
check_layers "$ROOT/examples/launcher-60hz.trace" \
	"com.example.app2/com.example.app2.MainActivity#0" \
	"com.example.app1/com.example.app1.MainActivity#0"
if [ -d "$SAMPLES" ]; then
	check_layers "$SAMPLES/perfetto/nowinandroid-sidky/trace.perfetto-trace" \
		"TX - com.google.samples.apps.nowinandroid.demo/com.google.samples.apps.nowinandroid.MainActivity#50010"
	check_layers "$SAMPLES/gfxinfo/aNavMode/gfxinfo.txt" "Taskbar"
	if command -v unzip > /dev/null; then
		rm -rf "$an/x"
		mkdir -p "$an/x"
		unzip -q -o "$SAMPLES/systrace_html/Gracker-SystraceForBlog/xiaomi_launcher.zip" -d "$an/x"
		check_layers "$an/x/xiaomi_launcher.html" \
			"com.miui.home/com.miui.home.launcher.Launcher#0" \
			"com.miui.miwallpaper.snowmountain.superwallpaper.SnowmountainSuperWallpaper#0"
	fi
fi

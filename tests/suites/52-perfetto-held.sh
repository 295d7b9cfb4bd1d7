# SPDX-License-Identifier: MIT
# A long Perfetto capture's frames are held to its end (docs/perfetto.md, "Delivery order");
# past a few MB they wait in a file with no name in $TMPDIR. Sourced by tests/run.sh.
#
# bench/perfetto_sim.c writes 450 s of one app at 120 Hz with its sections and FrameTimeline
# (about 54 k display and 51 k app frames: 9 MB of the decoder's records, past the 4 MB kept in
# memory). With TMPDIR a directory of its own, inspect says how much waited in the file, and
# analyze (table and JSON) and frames give what they give with no directory to write to
# (TMPDIR a file: all in memory), byte for byte; the directory is empty afterwards, and the
# outputs are the same again with TMPDIR unset (/tmp).

ph=$TMP/held
mkdir -p "$ph/tmp"
if ! "$BUILD/perfetto_sim" 450 "$ph/sim.pftrace" > "$ph/sim.info" 2> "$ph/err"; then
	fail "held frames: perfetto_sim failed: $(head -c 300 "$ph/err")"
else
	: > "$ph/not-a-dir"
	for ph_t in "$ph/tmp" "$ph/not-a-dir" ""; do
		ph_n=$(basename "${ph_t:-unset}")
		if [ -n "$ph_t" ]; then
			TMPDIR=$ph_t "$GFXSTAT" inspect "$ph/sim.pftrace" > "$ph/$ph_n.inspect" 2>&1
			TMPDIR=$ph_t "$GFXSTAT" analyze --json --all "$ph/sim.pftrace" \
				> "$ph/$ph_n.json" 2>> "$ph/err"
			TMPDIR=$ph_t "$GFXSTAT" analyze --janky "$ph/sim.pftrace" \
				> "$ph/$ph_n.janky" 2>> "$ph/err"
			TMPDIR=$ph_t "$GFXSTAT" frames -q "$ph/sim.pftrace" > "$ph/$ph_n.csv" \
				2>> "$ph/err"
		else
			(unset TMPDIR; "$GFXSTAT" analyze --json --all "$ph/sim.pftrace" \
				> "$ph/$ph_n.json" 2>> "$ph/err")
		fi
	done
	grep -q 'held to the end: .* in a temporary file' "$ph/tmp.inspect" && pass ||
		fail "held frames: inspect with TMPDIR=$ph/tmp says nothing went to the file:" \
			"$(grep -m1 'perfetto:' "$ph/tmp.inspect")"
	grep -q 'held to the end' "$ph/not-a-dir.inspect" &&
		fail "held frames: a file as TMPDIR still took frames: $(grep -m1 'perfetto:' \
			"$ph/not-a-dir.inspect")" || pass
	for ph_o in json janky csv; do
		if [ -s "$ph/tmp.$ph_o" ] && cmp -s "$ph/tmp.$ph_o" "$ph/not-a-dir.$ph_o"; then
			pass
		else
			fail "held frames: $ph_o through the file differs from in memory:" \
				"$(diff "$ph/tmp.$ph_o" "$ph/not-a-dir.$ph_o" | head -c 400)"
		fi
	done
	cmp -s "$ph/tmp.json" "$ph/unset.json" && pass ||
		fail "held frames: analyze with TMPDIR unset differs"
	# the frames are all there: 51 k app frames and 54 k display frames, one CSV row each
	ph_rows=$(($(wc -l < "$ph/tmp.csv") - 1))
	ph_want=$(($(sed -n 's/.* frames=\([0-9]*\).*/\1/p' "$ph/sim.info") +
		$(sed -n 's/.*vsyncs=\([0-9]*\).*/\1/p' "$ph/sim.info")))
	[ "$ph_rows" -eq "$ph_want" ] && pass ||
		fail "held frames: frames wrote $ph_rows rows, perfetto_sim made $ph_want frames"
	[ -z "$(ls -A "$ph/tmp")" ] && pass ||
		fail "held frames: files left in TMPDIR: $(ls -A "$ph/tmp" | head -3)"
fi

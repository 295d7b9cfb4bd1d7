// SPDX-License-Identifier: MIT
// gfxstat report: the timeline and the distribution, drawn with uPlot from the data block.
// The verdict, figures and tables are written by gfxstat itself; this script draws, links the
// lanes of the timeline (one x-axis: seconds from the first frame), and answers clicks on
// janky frames. What it draws is kept in window.gfxstatTimeline for the tests.
(function () {
	'use strict';
	window.gfxstatStartAt = performance.now();
	document.documentElement.classList.add('js');
	var D = JSON.parse(document.getElementById('gfxstat-data').textContent);
	var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf',
		'#bcbd22', '#7f7f7f'];
	// the cause classes of gfxstat_cause.h, their colours and what they mean
	var CLASSES = {
		app_work: ['#e53935', "the app's work took too long"],
		busy: ['#b71c1c', "the app's code ran too long"],
		slow_cpu: ['#f57c00', 'a slow or capped CPU'],
		cpu_starved: ['#fbc02d', 'waited for a CPU'],
		sleeping: ['#8e24aa', 'waited on binder, a lock or another thread'],
		blocked_io: ['#6d4c41', 'blocked on storage or I/O'],
		gpu: ['#00897b', 'waited on the GPU'],
		gc: ['#d81b60', 'garbage collection'],
		surfaceflinger: ['#1e88e5', 'SurfaceFlinger or the display'],
		idle: ['#90a4ae', 'the app started the frame late'],
		unknown: ['#616161', 'cause not known']
	};
	function classColor(k) { return (CLASSES[k] || CLASSES.unknown)[0]; }
	function lanesEl() { return document.getElementById('lanes') || document.body; }
	function W() {
		var el = document.getElementById('lanes') || document.getElementById('view-charts');
		return Math.max(260, Math.floor((el && el.clientWidth) || document.body.clientWidth - 32));
	}
	// a long name shortened in the middle (the full one on hover)
	function shortName(s, max) {
		max = max || 40;
		if (!s || s.length <= max) return s;
		var head = Math.floor((max - 1) * 2 / 5);
		return s.slice(0, head) + '\u2026' + s.slice(s.length - (max - 1 - head));
	}
	function fmtS(s) { return s < 10 ? s.toFixed(2) : s < 1000 ? s.toFixed(1) : s.toFixed(0); }
	// the view pages (trend, compare, a run folder) are drawn by report_views.js
	if (D.view) return;

	var layers = D.layers.filter(function (l) { return l.kind === 'layer'; });
	var apps = D.layers.filter(function (l) { return l.kind === 'app'; });
	var modes = D.modes || [];
	var WAIT = D.wait_ms > 0 ? D.wait_ms : 500;
	var T0 = BigInt(D.t0_ns || '0');
	// the whole recording: every chart's x-range starts as [0, END]
	var END = D.end_s > 0 ? D.end_s : 0, seedT0 = 0;
	if (!layers.length && D.seed && D.seed.length) {
		// a folder of fps.csv: windows from the first one
		var st = D.seed.filter(function (r) { return r && r[0] != null; });
		seedT0 = Math.min.apply(null, st.map(function (r) { return r[0]; }));
		END = Math.max.apply(null, st.map(function (r) { return r[0] - seedT0 + 1; }));
	}
	// a dump with no present time at all (gfxinfo without framestats): no clock to draw on.
	// Its lanes show the frames in the order they were drawn (x: the frame's rank, from 0),
	// each at its own duration; the axis says so.
	var untimedOnly = layers.length > 0 && layers.every(function (l) { return !l.t; }) &&
		layers.some(function (l) { return l.u; });
	if (untimedOnly) {
		END = 0;
		layers.forEach(function (l) {
			var d = udur(l), o = new Float64Array(d.length);
			for (var i = 0; i < d.length; i++) o[i] = i;
			l._ox = o;
			END = Math.max(END, d.length - 1);
		});
	}
	if (!(END > 0)) END = 1;
	var view0 = { min: 0, max: END };
	var charts = [], cur = { min: 0, max: END }, pick = document.getElementById('layer-pick');
	var sel = null, focusMark = null; // the picked layer, a frame ringed on the frame lane

	// presents: microsecond deltas from the origin -> seconds from the origin, parsed once
	// into a typed array straight from the packed string (no split, no array of strings)
	function presents(l) {
		if (l._x) return l._x;
		var s = l.t || '', len = s.length, n = len ? 1 : 0, i, c;
		for (i = 0; i < len; i++) if (s.charCodeAt(i) === 44) n++;
		var x = new Float64Array(n), us = 0, v = 0, neg = false, k = 0;
		for (i = 0; i <= len; i++) {
			c = i < len ? s.charCodeAt(i) : 44;
			if (c === 44) { us += neg ? -v : v; x[k++] = us / 1e6; v = 0; neg = false; }
			else if (c === 45) neg = true;
			else v = v * 10 + c - 48;
		}
		l._x = x;
		l.t = null; // the string is not needed again
		return x;
	}

	// a layer's frames with no present: their own durations (ms), in the order read
	function udur(l) {
		if (l._u) return l._u;
		l._u = l.u ? Float64Array.from(l.u.split(','), function (v) { return +v / 1e3; }) : new Float64Array(0);
		return l._u;
	}
	// where a layer's frames sit on the x-axis: presents, or ranks when there is no clock
	function xsOf(l) { return l._ox || presents(l); }
	// the janky frames on the timeline: those with a present, or with no clock the untimed ones
	function jOf(l) { return untimedOnly ? { k: l.uj || [], l: l.ujl, c: l.ujk, t: l.ujc } :
		{ k: l.j || [], l: l.jl, c: l.jk, t: l.jc }; }

	function hzAt(t) {
		var hz = modes.length ? modes[0][1] : 0;
		for (var i = 1; i < modes.length && modes[i][0] <= t; i++) hz = modes[i][1];
		return hz;
	}
	// refresh-rate switches: a dashed line on every lane, the new rate on the top one
	function modeMarks(u, label) {
		if (modes.length < 2) return;
		var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
		ctx.save();
		ctx.strokeStyle = '#6a1b9a'; ctx.fillStyle = '#6a1b9a'; ctx.lineWidth = 1;
		ctx.setLineDash([4, 3]); ctx.font = Math.round(11 * devicePixelRatio) + 'px sans-serif';
		ctx.textAlign = 'left'; ctx.textBaseline = 'alphabetic';
		for (var i = 1; i < modes.length; i++) {
			var px = u.valToPos(modes[i][0], 'x', true);
			if (px < u.bbox.left || px > u.bbox.left + u.bbox.width) continue;
			ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, top + h); ctx.stroke();
			if (label) ctx.fillText(modes[i][1].toFixed(0) + ' Hz', px + 3, top + 12 * devicePixelRatio);
		}
		ctx.restore();
	}
	// scrolls (blue) and Taobao jank windows (orange) of the picked layer, behind everything
	function bands(u) {
		var l = sel, ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
		if (!l) return;
		function shade(list, color) {
			(list || []).forEach(function (b) {
				var a = Math.max(u.bbox.left, u.valToPos(b[0], 'x', true));
				var z = Math.min(u.bbox.left + u.bbox.width, u.valToPos(b[1], 'x', true));
				if (z < a) return;
				ctx.fillStyle = color;
				ctx.fillRect(a, top, Math.max(1, z - a), h);
			});
		}
		ctx.save();
		shade(l.scrolls, 'rgba(31,119,180,0.07)');
		shade(l.jw, 'rgba(255,127,14,0.13)');
		ctx.restore();
	}

	// one zoom for every lane: a drag on one sets them all; a double-click shows it all
	var syncing = false;
	function setAll(min, max, from) {
		if (syncing) return;
		syncing = true;
		cur = { min: min, max: max };
		charts.forEach(function (c) {
			if (c !== from) c.setScale('x', { min: min, max: max });
		});
		syncing = false;
	}
	function linkX(u) {
		var s = u.scales.x;
		if (s.min != null && !syncing) setAll(s.min, s.max, u);
	}
	function xAxis(last) {
		// lanes share one x-axis: only the last one prints its values (ranks: whole numbers)
		var a = xAxis0(last);
		if (untimedOnly) a.incrs = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 1e4, 2e4, 5e4, 1e5, 1e6];
		return a;
	}
	function xAxis0(last) {
		return last ? { label: untimedOnly ? 'frame, in the order drawn (this dump has no present times: no clock)' :
			'seconds from the start of the recording', labelSize: 18, labelGap: 0,
			size: 30, values: function (u, vals) { return vals.map(function (v) { return +v.toFixed(3); }); } } :
			{ size: 4, values: function (u, vals) { return vals.map(function () { return ''; }); } };
	}
	function baseOpts(h, extra) {
		var o = { width: W(), height: h, padding: [6, 12, 0, 0], legend: { show: false },
			scales: { x: { time: false, range: function (u, mn, mx) {
				return mn == null || !(mx > mn) ? [view0.min, view0.max] : [mn, mx]; } } },
			cursor: { sync: { key: 'gfxstat-t' }, drag: { x: true, y: false },
				bind: { dblclick: function () { return function (e) {
					if (e.button === 0) setAll(view0.min, view0.max, null);
					return null; }; } } },
			hooks: { setScale: [function (u, key) { if (key === 'x') linkX(u); }] } };
		Object.keys(extra || {}).forEach(function (k) {
			if (k === 'hooks') Object.keys(extra.hooks).forEach(function (h) { o.hooks[h] = extra.hooks[h]; });
			else o[k] = extra[k];
		});
		return o;
	}
	function lane(id, title, hint) {
		var box = document.createElement('div'), h = document.createElement('h3');
		box.className = 'lane';
		box.id = id;
		h.textContent = title;
		if (hint) {
			var sp = document.createElement('span');
			sp.className = 'hint';
			sp.textContent = ' ' + hint;
			h.appendChild(sp);
		}
		box.appendChild(h);
		var c = document.createElement('div');
		c.className = 'chart';
		box.appendChild(c);
		lanesEl().appendChild(box);
		return c;
	}
	function keep(u, id) {
		u.laneId = id;
		syncing = true; // the zoom in force, on this lane only (the others have it)
		u.setScale('x', { min: cur.min, max: cur.max });
		syncing = false;
		charts.push(u);
		return u;
	}

	// ---- lane 1: FPS of each full window (GameBench's per-second FPS) ----------------------
	function fpsLane() {
		var el = lane('lane-fps', 'FPS', untimedOnly ? '' : '(each full second a step, held from its last ' +
			'full second to the last frame; a second with no frame is a gap; dashed: the refresh rate, ' +
			'dotted: the content\'s rate)');
		var sets = [], series = [{}], subj = apps.length ? apps.concat(layers.filter(function (l) {
			return !l.app; })) : layers, refresh = 0;
		fpsDrawn = [];
		if (untimedOnly) {
			el.textContent = 'No FPS: this dump has no present times, so there is no clock to count ' +
				'frames per second by. The lanes below show its frames in the order they were drawn, ' +
				'each at its own duration.';
			return;
		}
		subj.forEach(function (l, i) {
			if (!l.wfps || !l.wfps.length) return;
			var x = [], y = [];
			// each window's FPS a step over [start, start + window) (uPlot's stepped, align 1:
			// a value holds until the next point); a window with no frame lies inside an idle
			// wait (an interval of 1 s, over wait_ms): a gap, not 0 FPS
			l.wfps.forEach(function (v, k) { x.push(l.first_s + k * l.window_s); y.push(v > 0 ? v : null); });
			// metrics.c gives full windows only: the part-window after the last one has no FPS
			// of its own, so the last step is held to the layer's last frame (the hint says so)
			var end = Math.max(l.first_s + l.wfps.length * l.window_s, l.last_s || 0);
			x.push(end); y.push(y[y.length - 1]);
			fpsDrawn.push({ name: l.name, kind: l.kind, idx: series.length });
			sets.push([x, y]);
			series.push({ label: l.name, stroke: COLORS[i % COLORS.length], width: 1.5,
				show: !l.sys || !apps.length, spanGaps: false,
				paths: uPlot.paths.stepped({ align: 1, alignGaps: 1 }), points: { show: false } });
			refresh = Math.max(refresh, l.refresh_hz);
			l._color = COLORS[i % COLORS.length];
		});
		if (!sets.length && D.seed && D.seed.length) {
			// a folder of fps.csv: its windows per surface
			var by = {};
			D.seed.forEach(function (r) {
				if (!r || r[0] == null) return;
				(by[r[3]] = by[r[3]] || [[], []]);
				by[r[3]][0].push(r[0] - seedT0); by[r[3]][1].push(r[1]);
			});
			Object.keys(by).forEach(function (k, i) {
				sets.push(by[k]);
				series.push({ label: k, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: true });
			});
		}
		if (!sets.length) { el.textContent = 'No full one-second window of frames.'; return; }
		if (refresh > 0 || modes.length) {
			// the refresh rate in force: steps where the mode switched
			var rx = [0], ry = [modes.length ? modes[0][1] : refresh];
			modes.slice(1).forEach(function (m) { rx.push(m[0]); ry.push(m[1]); });
			rx.push(END); ry.push(ry[ry.length - 1]);
			sets.push([rx, ry]);
			series.push({ label: 'refresh Hz', stroke: '#999', dash: [6, 4], width: 1,
				spanGaps: true, paths: uPlot.paths.stepped({ align: 1 }), points: { show: false } });
		}
		subj.forEach(function (l) {
			if (!l.wfps || !l.wfps.length || !(l.cadence_fps > 0) ||
				Math.abs(l.cadence_fps - refresh) < 0.02 * refresh) return;
			sets.push([[l.first_s, Math.max(l.first_s + l.wfps.length * l.window_s, l.last_s || 0)],
				[l.cadence_fps, l.cadence_fps]]);
			series.push({ label: 'content rate ' + l.name, stroke: l._color, dash: [2, 3], width: 1,
				show: !l.sys || !apps.length, spanGaps: true, points: { show: false } });
		});
		var data = uPlot.join(sets);
		// a compact legend in the lane's title: click a name to hide or show it; the values
		// under the cursor beside the names
		var vals = [];
		var u = new uPlot(baseOpts(layers.length ? 130 : 180, {
			// (the last lane when there is no frame: a folder of fps.csv)
			series: series, axes: [xAxis(!layers.length && !ctxGroups.length), { label: 'FPS', size: 56, labelSize: 16 }],
			// from 0: a drop from 60 to 50 is not a fall to the floor
			scales: { x: baseOpts(0).scales.x, y: { range: function (u, mn, mx) {
				return [0, Math.max(mx || 0, refresh, 1) * 1.08]; } } },
			hooks: { drawClear: [bands], draw: [function (x) { modeMarks(x, true); }],
				setCursor: [function (x) {
					var k = x.cursor.idx;
					vals.forEach(function (b, i) {
						var v = k == null ? null : x.data[i + 1][k];
						b.textContent = v == null ? '' : ' ' + (+v).toFixed(0);
					});
				}] } }), data, el);
		laneKeys(el, series, u).forEach(function (b) { vals.push(b); });
		keep(u, 'lane-fps');
		fpsChart = u;
	}

	// ---- lane 2: frame times of the picked layer ----------------------------------------
	// Each frame's own time: its interval from the frame before while it drew; an idle wait
	// (an interval of wait_ms or more: nothing to draw) is a gap, not a slow frame. Typed
	// arrays built once; janky frames and the budget are drawn by a hook over the visible
	// range only (a 2-hour capture has a million frames).
	var ft = null, ftBox = null, hist = null, fpsDrawn = [], fpsChart = null;
	// steps while a frame is wider than a pixel; when thousands share a pixel, uPlot's line
	// (which keeps each pixel's min and max: the same picture) instead of millions of steps
	var stepPaths = uPlot.paths.stepped({ align: -1 }), linePaths = uPlot.paths.linear();
	function framePaths(u, sidx, i0, i1) {
		return (i1 - i0 > u.bbox.width) ? linePaths(u, sidx, i0, i1) : stepPaths(u, sidx, i0, i1);
	}
	function frameLane(l) {
		// y[i]: the time of frame i, from present i-1 to present i, drawn as a step over
		// that span (the screen showed frame i-1 all along); frame 0 has none (NaN)
		// (no clock: x is each frame's rank and y its own duration, every one drawn)
		var x = xsOf(l), n = x.length, m = n > 1 ? n - 1 : 0, ud = udur(l);
		var y = new Float64Array(n), nw = 0, i;
		if (l._ox) y.set(ud);
		else {
			y[0] = NaN;
			for (i = 1; i < n; i++) {
				var iv = (x[i] - x[i - 1]) * 1e3;
				if (iv >= WAIT) { y[i] = NaN; nw++; } else y[i] = iv;
			}
		}
		var waits = new Uint32Array(nw);
		for (i = 1, nw = 0; i < n; i++) if (y[i] !== y[i]) waits[nw++] = i;
		// janky frames: index (in presents, or ranks), own time, class, cause
		var jo = jOf(l);
		var J = jo.k.map(function (k, q) { return { k: k, ms: jo.l ? jo.l[q] : null,
			cls: jo.c ? jo.c[q] : 'unknown', cause: jo.t ? jo.t[q] : null }; });
		J.sort(function (a, b) { return a.k - b.k; });
		var byK = {};
		J.forEach(function (j) { byK[j.k] = j; });
		l._byK = byK;
		var jmax = 0;
		J.forEach(function (j) { if (j.ms != null && j.ms > jmax) jmax = j.ms; });
		var budget = l.cadence_ms || l.period_ms;
		if (ft) { ft.destroy(); charts.splice(charts.indexOf(ft), 1); ft = null; }
		if (!ftBox) ftBox = lane('lane-ft', 'Frame times', untimedOnly ?
			'(ms each frame took, its own duration, in the order drawn; dashed: the time each frame was due)' :
			'(ms each frame took; dashed: the time each frame was due)');
		var el = ftBox;
		el.textContent = '';
		l._y = y; l._J = J;
		// the distribution: the frames' intervals, and the own durations of those with no
		// present (analyze ranks both: its "work ms" of a dump with no times)
		var dist = l._ox ? y : ud.length ? Float64Array.from(Array.from(y).concat(Array.from(ud))) : y;
		if (n < 2) {
			el.textContent = ud.length ? 'This layer\'s ' + ud.length + ' frames have no present time, so ' +
				'they are not on this timeline: their durations are in the distribution, their janky ' +
				'frames in the table below.' : 'This layer has fewer than 2 timed frames.';
			finish(l, dist);
			return;
		}
		var overlay = function (u) {
			var ctx = u.ctx, sx = u.scales.x, lo = 0, hi = J.length, b = u.bbox, r = 3.5 * devicePixelRatio;
			ctx.save();
			if (budget > 0) {
				// the time a frame was due: the cadence in refreshes, at the refresh rate in force
				var vs = l.period_ms > 0 ? Math.max(1, Math.round(budget / l.period_ms)) : 1;
				var segs = modes.length > 1 ? modes.map(function (md, i2) {
					return [md[0], i2 + 1 < modes.length ? modes[i2 + 1][0] : END, 1e3 / md[1] * vs]; }) :
					[[0, END, budget]];
				ctx.strokeStyle = '#2ca02c'; ctx.setLineDash([6, 4]); ctx.lineWidth = 1;
				ctx.beginPath();
				segs.forEach(function (sg) {
					var a = Math.max(b.left, u.valToPos(sg[0], 'x', true));
					var z = Math.min(b.left + b.width, u.valToPos(sg[1], 'x', true)), py = u.valToPos(sg[2], 'y', true);
					if (z > a) { ctx.moveTo(a, py); ctx.lineTo(z, py); }
				});
				ctx.stroke(); ctx.setLineDash([]);
			}
			// janky frames in view, by cause colour: binary search for the first
			while (lo < hi) {
				var mid = (lo + hi) >> 1;
				if (x[J[mid].k] < sx.min) lo = mid + 1; else hi = mid;
			}
			for (var q = lo; q < J.length && x[J[q].k] <= sx.max; q++) {
				var j = J[q], v = j.ms != null ? j.ms : y[j.k];
				if (v == null || v !== v) continue;
				var px = u.valToPos(x[j.k], 'x', true), py2 = u.valToPos(v, 'y', true);
				ctx.fillStyle = classColor(j.cls);
				ctx.beginPath(); ctx.arc(px, py2, r, 0, 2 * Math.PI); ctx.fill();
			}
			if (focusMark && focusMark.l === l) {
				var fk = focusMark.k, fv = byK[fk] && byK[fk].ms != null ? byK[fk].ms : y[fk];
				ctx.strokeStyle = '#000'; ctx.lineWidth = 2;
				ctx.beginPath();
				ctx.arc(u.valToPos(x[fk], 'x', true), u.valToPos(fv === fv ? fv : 0, 'y', true), 3 * r, 0, 2 * Math.PI);
				ctx.stroke();
			}
			ctx.restore();
			modeMarks(u, false);
		};
		// an idle wait: nothing drawn across it (its value is NaN, the span clipped away)
		var gaps = function (u, sidx, i0, i1, found) {
			var a = 0, z = waits.length, out = found.slice();
			while (a < z) { var md = (a + z) >> 1; if (waits[md] < i0) a = md + 1; else z = md; }
			for (; a < waits.length && waits[a] <= i1 + 1; a++) {
				var w = waits[a];
				out.push([Math.round(u.valToPos(x[w - 1], 'x', true)) + 1,
					Math.round(u.valToPos(x[w], 'x', true))]);
			}
			return out;
		};
		ft = new uPlot(baseOpts(200, {
			series: [{}, { label: 'frame ms', stroke: '#1f77b4', width: 1, gaps: gaps,
				paths: framePaths, points: { size: 3 } }],
			scales: { x: baseOpts(0).scales.x, y: { range: function (u) {
				// the longest frame in view (uPlot's own max stops at the NaN of a wait)
				var sx = u.scales.x, a = 0, z = n, top = 0, q;
				if (sx.min != null) {
					while (a < z) { q = (a + z) >> 1; if (x[q] < sx.min) a = q + 1; else z = q; }
					for (q = a; q < n && x[q] <= sx.max; q++) if (y[q] > top) top = y[q];
				}
				return [0, Math.max(top, jmax, 2 * (budget || 16.7)) * 1.05]; } } },
			axes: [xAxis(false), { label: 'ms', size: 56, labelSize: 16 }],
			hooks: { drawClear: [bands], draw: [overlay], setCursor: [function (u) {
				var k = u.cursor.idx;
				if (k != null) showFrame(l, k);
			}] } }), [x, y], el);
		keep(ft, 'lane-ft');
		finish(l, dist);
	}
	// the distribution, drawn after the page is interactive; then the page is done (on every
	// path: a layer with no timed frame too)
	function finish(l, v) {
		setTimeout(function () { histChart(l, v); window.gfxstatDone = true; }, 0);
	}

	function showFrame(l, k) {
		var x = xsOf(l), y = l._y, j = l._byK[k] || null, d = document.getElementById('frame-detail');
		if (l._ox) {
			// no clock: the frame's rank and its own duration
			d.textContent = shortName(l.name, 48) + '  frame ' + k + ' in the order drawn (no present ' +
				'time), took ' + y[k].toFixed(1) + ' ms' + (j ? '\nJANKY: ' + (j.cause || 'no cause recorded') : '  on time');
			d.title = l.name;
			return;
		}
		var abs = T0 + BigInt(Math.round(x[k] * 1e9)), s = abs.toString();
		var iv = y[k], text = shortName(l.name, 48) + '  frame ' + k + ' at ' +
			x[k].toFixed(3) + ' s';
		if (j && j.ms != null) text += ', took ' + j.ms.toFixed(1) + ' ms';
		else if (iv === iv && k) text += ', took ' + iv.toFixed(1) + ' ms';
		else if (k) text += ', after an idle wait of ' + ((x[k] - x[k - 1]) * 1e3).toFixed(0) + ' ms';
		text += j ? '\nJANKY: ' + (j.cause || 'no cause recorded') : '  on time';
		d.textContent = text;
		d.title = l.name + ', trace clock ' + (s.slice(0, -9) || '0') + '.' + s.slice(-9) + ' s';
	}

	// ---- lane 3: every layer's janky frames, by cause colour ----------------------------
	var jankRows = [], jankMarks = 0;
	function jankLane() {
		jankRows = layers.filter(function (l) { return jOf(l).k.length; });
		jankRows.sort(function (a, b) { return (a.sys - b.sys) || (b.frames - a.frames); });
		// janky frames with no present cannot sit on a clock: counted here, listed in the table
		var off = untimedOnly ? 0 : layers.reduce(function (a, l) { return a + (l.uj ? l.uj.length : 0); }, 0);
		var el = lane('lane-jank', 'Janky frames', '(each layer a row, coloured by cause; click one to see it)');
		if (off) {
			var p = document.createElement('p');
			p.className = 'note jank-untimed';
			p.textContent = off + ' janky frame' + (off === 1 ? '' : 's') + ' with no present time ' +
				(off === 1 ? 'is' : 'are') + ' not on this lane (no time to place ' + (off === 1 ? 'it' : 'them') +
				' at): see the janky frames table below.';
			el.parentNode.insertBefore(p, el);
		}
		var rows = Math.max(1, jankRows.length), rh = 20;
		var draw = function (u) {
			var ctx = u.ctx, b = u.bbox, pr = devicePixelRatio, h = b.height / rows;
			jankMarks = 0;
			ctx.save();
			ctx.font = Math.round(11 * pr) + 'px sans-serif';
			ctx.textAlign = 'left'; ctx.textBaseline = 'alphabetic';
			jankRows.forEach(function (l, r) {
				var x = xsOf(l), y0 = b.top + r * h, jo = jOf(l);
				ctx.fillStyle = r % 2 ? 'rgba(0,0,0,0.03)' : 'rgba(0,0,0,0)';
				ctx.fillRect(b.left, y0, b.width, h);
				// the row's name, then its frames over it (a frame is never hidden)
				var name = shortName(l.name, Math.max(12, Math.min(40, Math.floor(b.width / pr / 14))));
				ctx.fillStyle = l === sel ? '#000' : '#777';
				ctx.fillText(name, b.left + 5 * pr, y0 + h / 2 + 4 * pr);
				jo.k.forEach(function (k, q) {
					var t = x[k];
					if (t < u.scales.x.min || t > u.scales.x.max) return;
					var px = u.valToPos(t, 'x', true);
					jankMarks++;
					ctx.fillStyle = classColor(jo.c ? jo.c[q] : 'unknown');
					ctx.fillRect(px - pr, y0 + 2 * pr, 3 * pr, h - 4 * pr);
				});
			});
			if (!jankRows.length) {
				ctx.fillStyle = '#2e7d32';
				ctx.fillText(off ? 'No janky frame with a present time.' : 'No janky frame.', b.left + 5 * pr,
					b.top + b.height / 2 + 4 * pr);
			}
			ctx.restore();
			modeMarks(u, false);
		};
		var u = new uPlot(baseOpts(rows * rh + 56, {
			series: [{}, { label: 'rows', show: false }],
			scales: { x: baseOpts(0).scales.x, y: { range: [0, 1] } },
			axes: [xAxis(!ctxGroups.length), { size: 56, values: function (u, v) { return v.map(function () { return ''; }); },
				splits: function () { return []; } }],
			hooks: { drawClear: [bands], draw: [draw] } }), [[0, END], [0, 0]], el);
		// a click on a janky frame: that layer on the frame lane, the frame shown
		u.over.addEventListener('click', function (e) {
			if (!jankRows.length) return;
			var r = Math.floor(e.offsetY / (u.over.clientHeight / rows)), l = jankRows[r];
			if (!l) return;
			var x = xsOf(l), t = u.posToVal(e.offsetX, 'x'), best = -1, bd = Infinity;
			jOf(l).k.forEach(function (k) { var dd = Math.abs(x[k] - t); if (dd < bd) { bd = dd; best = k; } });
			if (best >= 0 && Math.abs(u.valToPos(x[best], 'x') - e.offsetX) <= 6) focusFrame(l, x[best], false);
		});
		keep(u, 'lane-jank');
	}

	// ---- system context lanes: CPU frequency and load per cluster, GPU, temperature, power --
	// From the trace's own counters or the session's context.csv, on the frames' x-axis.
	var CTX_LANES = [['cpu_freq', 'CPU frequency', '(MHz, each cluster: CPUs that share one frequency)'],
		['cpu_load', 'CPU load', '(% busy, each cluster)'], ['gpu', 'GPU', '(MHz on the axis; the % busy or on from 0 at the bottom to 100 at the top)'],
		['thermal', 'Temperature', '(\u00b0C; the hottest zones)'],
		['power', 'Power', '(mW; the battery\'s is below 0 while it discharges; rails)']];
	var ctxSeries = D.ctx || [], ctxGroups = CTX_LANES.filter(function (g) {
		return ctxSeries.some(function (s) { return s.lane === g[0] && s.t.length; });
	});
	// names to click (hide or show) above a lane, with the values under the cursor (the
	// elements returned, in the series' order)
	function laneKeys(el, series, u) {
		var keys = document.createElement('div'), vals = [];
		keys.className = 'keys';
		el.parentNode.insertBefore(keys, el);
		series.slice(1).forEach(function (sr, i) {
			var sp = document.createElement('span'), b = document.createElement('b');
			sp.className = 'key' + (sr.show === false ? ' off' : '');
			sp.innerHTML = '<i style="border-color:' + sr.stroke + (sr.dash ? ';border-top-style:dashed' : '') + '"></i>';
			sp.appendChild(document.createTextNode(shortName(sr.label, 34)));
			sp.appendChild(b);
			if (sr.label.length > 34) sp.title = sr.label;
			sp.addEventListener('click', function () {
				var on = !u.series[i + 1].show;
				u.setSeries(i + 1, { show: on });
				sp.classList.toggle('off', !on);
			});
			vals.push(b);
			keys.appendChild(sp);
		});
		return vals;
	}
	function ctxLane(g, last) {
		var list = ctxSeries.filter(function (s) { return s.lane === g[0] && s.t.length; });
		var el = lane('lane-ctx-' + g[0], g[1], g[2]), units = [], sets = [], series = [{}];
		list.forEach(function (s, i) {
			if (units.indexOf(s.unit) < 0) units.push(s.unit);
			sets.push([Float64Array.from(s.t), Float64Array.from(s.v)]);
			series.push({ label: s.name + (units.length > 1 || g[0] === 'gpu' ? ' (' + s.unit + ')' : ''),
				stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: true,
				scale: units.indexOf(s.unit) ? 'y2' : 'y', points: { show: false } });
		});
		var pct = function (unit) {
			return unit === '%' ? function (u, mn, mx) { return [0, Math.max(100, mx || 0)]; } :
				function (u, mn, mx) {
					if (mn == null || mx == null) return [0, 1];
					// from 0 for frequencies and power (a battery's is below 0 while it
					// discharges), around the values for temperatures; never an empty span
					var c = unit === 'C', lo = c ? mn - 2 : Math.min(0, mn), hi = c ? mx + 2 : Math.max(0, mx);
					var pad = (hi - lo || 1) * 0.08;
					return [c || lo < 0 ? lo - pad : lo, hi + pad];
				};
		};
		var vals = [], vunit = function (unit) { return unit === 'C' ? '\u00b0C' : unit; };
		var scales = { x: baseOpts(0).scales.x, y: { range: pct(units[0]) } };
		var axes = [xAxis(last), { scale: 'y', label: vunit(units[0]), size: 56, labelSize: 16 }];
		if (units.length > 1) {
			scales.y2 = { range: pct(units[1]) };
			// no axis of its own: a right axis would narrow this lane's x against the
			// others'; its values are under the cursor, its unit in the name
			axes.push({ scale: 'y2', show: false });
		}
		var u = new uPlot(baseOpts(last ? 140 : 110, {
			series: series, scales: scales, axes: axes,
			hooks: { draw: [function (x) { modeMarks(x, false); }], setCursor: [function (x) {
				var k = x.cursor.idx;
				vals.forEach(function (b, i) {
					var v = k == null ? null : x.data[i + 1][k];
					b.textContent = v == null || v !== v ? '' : ' ' + (+v).toFixed(v >= 100 ? 0 : 1);
				});
			}] } }), uPlot.join(sets), el);
		vals = laneKeys(el, series, u);
		keep(u, 'lane-ctx-' + g[0]);
	}

	// ---- screenshots: thumbnails where they were taken; hover one to see it larger ---------
	var shots = (D.shots || []).map(function (s) {
		var img = new Image();
		img.src = s.src;
		return { t: s.t, why: s.why, w: s.w, h: s.h, img: img };
	});
	var shotDrawn = 0;
	function shotLane() {
		var L = D.shots_left || {}, left = (L.over || 0) + (L.unreadable || 0) + (L.other || 0);
		var out = shots.filter(function (s) { return s.t < -1 || s.t > END + 1; }).length;
		var hint = '(' + shots.length + ' screenshot' + (shots.length === 1 ? '' : 's') +
			'; hover one to see it larger)';
		var el = lane('lane-shots', 'Screenshots', hint), u;
		var note = [];
		if (left) note.push(left + ' left out (' + [L.over ? L.over + ' past the report\'s ' + L.max + ' or its size cap' : '',
			L.unreadable ? L.unreadable + ' unreadable' : '', L.other ? L.other + ' ' + (L.other_why || '') : '']
			.filter(Boolean).join('; ') + ')');
		if (out) note.push(out + ' taken over a second before the first frame or after the last: not on the timeline');
		if (note.length) {
			var p = document.createElement('p');
			p.className = 'note shot-note';
			p.textContent = note.join('. ') + '.';
			el.parentNode.insertBefore(p, el);
		}
		// a screenshot just outside the frames' span is drawn at its edge
		var at = function (s) { return Math.min(END, Math.max(0, s.t)); };
		var draw = function (x) {
			var ctx = x.ctx, b = x.bbox, pr = devicePixelRatio, th = b.height - 6 * pr, lastR = -Infinity;
			shotDrawn = 0;
			ctx.save();
			shots.forEach(function (s) {
				if (s.t < -1 || s.t > END + 1) return;
				var t = at(s);
				if (t < x.scales.x.min || t > x.scales.x.max) return;
				var px = x.valToPos(t, 'x', true), tw = th * s.w / s.h, l = px - tw / 2;
				// a tick at the moment it was taken, the thumbnail over it where there is room
				ctx.fillStyle = s.why === 'jank' ? '#c62828' : '#5f6368';
				ctx.fillRect(px - pr / 2, b.top, pr, 3 * pr);
				if (l < lastR + 2 * pr || !s.img.complete || !s.img.naturalWidth) return;
				ctx.drawImage(s.img, l, b.top + 4 * pr, tw, th);
				ctx.strokeStyle = s.why === 'jank' ? '#c62828' : '#9aa0a6';
				ctx.lineWidth = pr;
				ctx.strokeRect(l, b.top + 4 * pr, tw, th);
				lastR = l + tw;
				shotDrawn++;
			});
			ctx.restore();
		};
		var cur0 = baseOpts(0).cursor;
		cur0.y = false; // no level to read on this lane: the time line only
		u = new uPlot(baseOpts(96, {
			cursor: cur0,
			series: [{}, { label: 'shots', show: false }],
			scales: { x: baseOpts(0).scales.x, y: { range: [0, 1] } },
			axes: [xAxis(false), { size: 56, values: function (x, v) { return v.map(function () { return ''; }); },
				splits: function () { return []; } }],
			hooks: { drawClear: [bands], draw: [draw] } }), [[0, END], [0, 0]], el);
		shots.forEach(function (s) { s.img.onload = function () { u.redraw(false); }; });
		// hover: the nearest screenshot larger, beside the cursor
		var pop = document.createElement('div'), big = document.createElement('img'), cap = document.createElement('div');
		pop.className = 'shot-pop';
		pop.hidden = true;
		pop.appendChild(big);
		pop.appendChild(cap);
		el.parentNode.appendChild(pop); // the lane's box: the chart's would clip it
		u.over.addEventListener('mousemove', function (e) {
			var t = u.posToVal(e.offsetX, 'x'), best = null, bd = Infinity;
			shots.forEach(function (s) {
				if (s.t < -1 || s.t > END + 1) return;
				var d = Math.abs(at(s) - t);
				if (d < bd) { bd = d; best = s; }
			});
			if (!best || Math.abs(u.valToPos(at(best), 'x') - e.offsetX) > 40) { pop.hidden = true; return; }
			big.src = best.img.src;
			cap.textContent = 'at ' + best.t.toFixed(2) + ' s' + (best.why === 'jank' ? ', after a janky frame' : '');
			pop.hidden = false;
			var box = el.parentNode.getBoundingClientRect(), w = pop.offsetWidth || 240;
			var left = e.clientX - box.left + 16;
			if (left + w > box.width) left = Math.max(0, e.clientX - box.left - w - 16);
			pop.style.left = left + 'px';
		});
		u.over.addEventListener('mouseleave', function () { pop.hidden = true; });
		keep(u, 'lane-shots');
	}

	// ---- the distribution: counts on a log scale, percentiles labelled apart ---------------
	function histChart(l, y, n) {
		var el = document.getElementById('chart-hist');
		if (!el) return;
		if (hist) { hist.destroy(); hist = null; }
		el.textContent = '';
		var v = Float64Array.from(y).filter(function (a) { return a === a; }).sort();
		if (!v.length) { el.textContent = 'No frame time (every interval an idle wait).'; return; }
		var hi = Math.max(v[v.length - 1], l.p99 || 0, 2 * (l.cadence_ms || 16.7)) * 1.05;
		var nb = 120, bw = hi / nb, cnt = new Array(nb).fill(0), xs = [];
		for (var i = 0; i < nb; i++) xs.push(i * bw + bw / 2);
		for (i = 0; i < v.length; i++) cnt[Math.min(nb - 1, Math.floor(v[i] / bw))]++;
		var ys = cnt.map(function (c) { return c ? c : null; });
		var marks = [['p50', l.p50, '#2e7d32'], ['p90', l.p90, '#ef6c00'], ['p99', l.p99, '#c62828']];
		hist = new uPlot({ width: W(), height: 220, legend: { show: false },
			series: [{ label: 'ms' }, { label: 'frames', fill: 'rgba(31,119,180,0.4)',
				stroke: '#1f77b4', paths: uPlot.paths.bars({ size: [1, Infinity], align: 0 }),
				points: { show: false } }],
			scales: { x: { time: false, range: [0, hi] }, y: { distr: 3, log: 10 } },
			axes: [{ label: 'ms a frame took', labelSize: 20 }, { label: 'frames (log)', size: 56, labelSize: 16 }],
			hooks: { draw: [function (u) {
				var ctx = u.ctx, pr = devicePixelRatio, right = u.bbox.left + u.bbox.width;
				ctx.save();
				ctx.font = Math.round(12 * pr) + 'px sans-serif';
				ctx.textAlign = 'left'; ctx.textBaseline = 'alphabetic';
				marks.forEach(function (mk, row) {
					if (mk[1] == null) return;
					var px = u.valToPos(mk[1], 'x', true), text = mk[0] + ' ' + mk[1].toFixed(1) + ' ms';
					var tw = ctx.measureText(text).width, ty = u.bbox.top + (14 + 16 * row) * pr;
					ctx.strokeStyle = mk[2]; ctx.lineWidth = 2;
					ctx.beginPath(); ctx.moveTo(px, u.bbox.top); ctx.lineTo(px, u.bbox.top + u.bbox.height); ctx.stroke();
					// each label on its own row, right of its line (left of it near the edge)
					var tx = px + 4 * pr + tw > right ? px - 4 * pr - tw : px + 4 * pr;
					ctx.fillStyle = 'rgba(255,255,255,0.85)';
					ctx.fillRect(tx - 2 * pr, ty - 11 * pr, tw + 4 * pr, 14 * pr);
					ctx.fillStyle = mk[2];
					ctx.fillText(text, tx, ty);
				});
				ctx.restore();
			}] } }, [xs, ys], el);
		hist.histOf = l.name;
		hist.frames = v.length;
	}

	// ---- the legend of colours and marks -------------------------------------------------
	function legend() {
		var el = document.getElementById('legend'), seen = {}, parts = [];
		layers.forEach(function (l) { (jOf(l).c || []).forEach(function (k) { seen[k] = 1; }); });
		parts.push('<span><i class="ln" style="border-color:#1f77b4"></i>frame time</span>');
		parts.push('<span><i class="ln dash" style="border-color:#2ca02c"></i>due (the content\'s cadence)</span>');
		Object.keys(CLASSES).forEach(function (k) {
			if (seen[k]) parts.push('<span><i class="dot" style="background:' + CLASSES[k][0] +
				'"></i>janky: ' + CLASSES[k][1] + '</span>');
		});
		parts.push('<span><i class="sw" style="background:rgba(31,119,180,0.25)"></i>scroll</span>');
		parts.push('<span title="Taobao\'s jank windows: runs of frames whose FPS fell under 5/6 of the content\'s rate"><i class="sw" style="background:rgba(255,127,14,0.35)"></i>jank window</span>');
		if (modes.length > 1) parts.push('<span><i class="ln dash" style="border-color:#6a1b9a"></i>refresh-rate switch</span>');
		el.innerHTML = parts.join('');
	}

	// ---- moving the timeline to a frame --------------------------------------------------
	function pickLayer(l) {
		if (!l || l === sel) return;
		sel = l;
		pick.value = String(layers.indexOf(l));
		frameLane(l);
		charts.forEach(function (c) { c.redraw(false); });
	}
	// the timeline zoomed around time @t of layer @l (the frame presented there ringed)
	function focusFrame(l, t, scroll) {
		if (l) pickLayer(l);
		var x = sel ? xsOf(sel) : null, k = -1;
		if (x) {
			var a = 0, z = x.length;
			while (a < z) { var md = (a + z) >> 1; if (x[md] < t - 1e-6) a = md + 1; else z = md; }
			k = a < x.length ? a : x.length - 1;
			focusMark = { l: sel, k: k };
			showFrame(sel, k);
		}
		// a second around it: some 60 frames at 60 Hz (with no clock: 60 frames)
		var half = Math.min(END / 2, untimedOnly ? 30 : 0.5);
		var min = Math.max(0, t - half), max = Math.min(END, t + half);
		if (max - min < 2 * half) { if (min === 0) max = Math.min(END, 2 * half); else min = Math.max(0, END - 2 * half); }
		setAll(min, max, null);
		if (scroll) document.getElementById('timeline').scrollIntoView({ block: 'start' });
	}
	function byName(name) {
		for (var i = 0; i < layers.length; i++) if (layers[i].name === name) return layers[i];
		return null;
	}

	function sortable(t) {
		var ths = t.querySelectorAll('th.sort');
		ths.forEach(function (th, col) {
			th.addEventListener('click', function () {
				var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
				var dir = th.dataset.dir === '1' ? -1 : 1;
				th.dataset.dir = dir === 1 ? '1' : '-1';
				rows.sort(function (a, b) {
					var p = a.cells[col].textContent, q = b.cells[col].textContent;
					var np = parseFloat(p), nq = parseFloat(q);
					if (!isNaN(np) && !isNaN(nq)) return (np - nq) * dir;
					return p.localeCompare(q) * dir;
				});
				rows.forEach(function (r) { body.appendChild(r); });
			});
		});
	}

	// ---- the page --------------------------------------------------------------------------
	fpsLane();
	if (shots.length) shotLane();
	var order = layers.slice().sort(function (a, b) { return (a.sys - b.sys) || (b.frames - a.frames); });
	order.forEach(function (l) {
		var o = document.createElement('option');
		o.value = layers.indexOf(l);
		o.textContent = shortName(l.name, 48) + ' (' + l.frames + ' frames)';
		o.title = l.name;
		pick.appendChild(o);
	});
	if (order.length) {
		sel = order[0];
		pick.value = String(layers.indexOf(sel));
		frameLane(sel);
	} else {
		var nf = document.createElement('p');
		nf.className = 'note';
		nf.textContent = 'No frames here (a folder of fps.csv has windows only).';
		lanesEl().appendChild(nf);
		['frame-detail', 'legend'].forEach(function (id) { document.getElementById(id).hidden = true; });
		document.querySelector('#timeline .ctl').hidden = true;
		window.gfxstatDone = true;
	}
	if (layers.length) jankLane();
	ctxGroups.forEach(function (g, i) { ctxLane(g, i === ctxGroups.length - 1); });
	legend();
	pick.addEventListener('change', function () {
		var l = layers[+pick.value];
		sel = null;
		pickLayer(l);
	});
	document.querySelectorAll('table.sortable').forEach(sortable);
	// a janky frame's row, the worst moment of a verdict: the timeline moves there
	document.addEventListener('click', function (e) {
		var tr = e.target.closest && e.target.closest('table.janky tbody tr[data-t], a.at[data-t], #scrolls tr[data-t]' +
			(untimedOnly ? ', table.janky tbody tr[data-ord]' : ''));
		if (!tr) return;
		e.preventDefault();
		var td = tr.querySelector('td.lay'), name = tr.dataset.layer || (td && td.title);
		// a frame with no present: at its rank, when the timeline is one of ranks
		focusFrame(name ? byName(name) : null, tr.dataset.t !== undefined ? +tr.dataset.t : +tr.dataset.ord, true);
	});
	// the trace clock of a row's time, in its tooltip (written here, not in every row)
	document.addEventListener('mouseover', function (e) {
		var tr = e.target.closest && e.target.closest('tr[data-t]');
		if (!tr || tr.title) return;
		var s = (T0 + BigInt(Math.round(+tr.dataset.t * 1e9))).toString();
		tr.title = 'trace clock ' + (s.slice(0, -9) || '0') + '.' + s.slice(-9) + ' s';
	});
	var rt = null;
	window.addEventListener('resize', function () {
		clearTimeout(rt);
		rt = setTimeout(function () {
			charts.concat(hist ? [hist] : []).forEach(function (c) { c.setSize({ width: W(), height: c.height }); });
		}, 100);
	});
	window.gfxstatTimeline = {
		end_s: END,
		// 1: the dump has no present time; x is each frame's rank, not seconds
		untimed: untimedOnly,
		// what the FPS lane drew per layer or app (its end, its gaps), the janky marks in view,
		// and the distribution (the layer, how many frames it holds)
		fps: function () {
			// from the data the FPS chart holds: where each line starts and ends, its nulls
			// (gaps) and zeros, and how many windows it steps over (its points less the end)
			return fpsDrawn.map(function (f) {
				var xs = fpsChart.data[0], ys = fpsChart.data[f.idx], pts = [];
				for (var i = 0; i < xs.length; i++) if (ys[i] !== undefined) pts.push([xs[i], ys[i]]);
				return { name: f.name, kind: f.kind, first: pts[0][0], end: pts[pts.length - 1][0],
					windows: pts.length - 1, gaps: pts.slice(0, -1).filter(function (p) { return p[1] === null; }).length,
					zeros: pts.filter(function (p) { return p[1] === 0; }).length,
					spanGaps: !!fpsChart.series[f.idx].spanGaps };
			});
		},
		jankMarks: function () { return jankMarks; },
		hist: function () { return hist ? { layer: hist.histOf, frames: hist.frames } : null; },
		// the last present of any layer, from the data (the tests hold END against it)
		lastPresent: function () {
			return layers.reduce(function (a, l) { var x = xsOf(l); return x.length ? Math.max(a, x[x.length - 1]) : a; }, 0);
		},
		layer: function () { return sel ? sel.name : null; },
		ranges: function () {
			return charts.map(function (c) { return { id: c.laneId, min: c.scales.x.min, max: c.scales.x.max }; });
		},
		focus: function (name, t) { focusFrame(name ? byName(name) : null, t, false); },
		// the context lanes' series (first and last time) and the screenshots, for the tests
		ctx: function () {
			return ctxSeries.map(function (s) { return { lane: s.lane, name: s.name, n: s.t.length,
				first: s.t[0], last: s.t[s.t.length - 1] }; });
		},
		shots: function () {
			return { n: shots.length, drawn: shotDrawn,
				loaded: shots.filter(function (s) { return s.img.complete && s.img.naturalWidth > 0; }).length };
		}
	};
	window.gfxstatReadyAt = performance.now();
	window.gfxstatReady = true;
})();

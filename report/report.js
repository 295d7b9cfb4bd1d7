// SPDX-License-Identifier: MIT
// gfxstat report charts, drawn with uPlot from the data block. The numbers in the summary are
// written by gfxstat itself; this script only draws, links the time axes and shows details.
(function () {
	'use strict';
	document.documentElement.classList.add('js');
	var D = JSON.parse(document.getElementById('gfxstat-data').textContent);
	if (D.view) { view(D); return; }
	var COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#9467bd', '#8c564b', '#e377c2', '#17becf',
		'#bcbd22', '#7f7f7f'];
	function W() { return Math.max(400, document.body.clientWidth - 40); }
	var layers = D.layers.filter(function (l) { return l.kind === 'layer'; });
	var charts = [];

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

	// refresh-rate mode switches: [seconds from the origin, Hz] in time order
	var modes = D.modes || [];
	function hzAt(t) {
		var hz = modes.length ? modes[0][1] : 0;
		for (var i = 1; i < modes.length && modes[i][0] <= t; i++) hz = modes[i][1];
		return hz;
	}
	// a dashed line and the new rate at every switch after the first
	function modeMarks(u) {
		if (modes.length < 2) return;
		var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
		ctx.save();
		ctx.strokeStyle = '#6a1b9a'; ctx.fillStyle = '#6a1b9a'; ctx.lineWidth = 1;
		ctx.setLineDash([4, 3]); ctx.font = '11px sans-serif';
		for (var i = 1; i < modes.length; i++) {
			var px = u.valToPos(modes[i][0], 'x', true);
			if (px < u.bbox.left || px > u.bbox.left + u.bbox.width) continue;
			ctx.beginPath(); ctx.moveTo(px, top); ctx.lineTo(px, top + h); ctx.stroke();
			ctx.fillText(modes[i][1].toFixed(0) + ' Hz', px + 2, top + h - 4);
		}
		ctx.restore();
	}

	// zoom on one time chart moves the others (uPlot's cursor sync does the crosshair)
	var syncing = false;
	function linkX(u) {
		if (syncing) return;
		syncing = true;
		var s = u.scales.x;
		charts.forEach(function (c) {
			if (c !== u && c.timeAxis && s.min != null) c.setScale('x', { min: s.min, max: s.max });
		});
		syncing = false;
	}

	function bands(l) {
		// scrolls (blue) and Taobao jank windows (orange) shaded behind the series
		return function (u) {
			var ctx = u.ctx, top = u.bbox.top, h = u.bbox.height;
			function shade(list, color) {
				(list || []).forEach(function (b) {
					var a = u.valToPos(b[0], 'x', true), z = u.valToPos(b[1], 'x', true);
					ctx.fillStyle = color;
					ctx.fillRect(a, top, Math.max(1, z - a), h);
				});
			}
			ctx.save();
			shade(l && l.scrolls, 'rgba(31,119,180,0.10)');
			shade(l && l.jw, 'rgba(255,127,14,0.18)');
			ctx.restore();
		};
	}

	function fpsChart() {
		var el = document.getElementById('chart-fps'), sets = [], series = [{}];
		var refresh = 0;
		layers.forEach(function (l, i) {
			if (!l.wfps.length) return;
			var x = l.wfps.map(function (_, k) { return l.first_s + k * l.window_s; });
			sets.push([x, l.wfps]);
			series.push({ label: l.name, stroke: COLORS[i % COLORS.length], width: 1.5,
				show: !l.sys, points: { show: false } });
			refresh = Math.max(refresh, l.refresh_hz);
		});
		if (!sets.length && D.seed.length) {
			// a seed folder: its fps.csv windows per surface
			var by = {};
			D.seed.forEach(function (r) {
				if (!r || r[0] == null) return;
				(by[r[3]] = by[r[3]] || [[], []]);
				by[r[3]][0].push(r[0]); by[r[3]][1].push(r[1]);
			});
			Object.keys(by).forEach(function (k, i) {
				sets.push(by[k]);
				series.push({ label: k, stroke: COLORS[i % COLORS.length], width: 1.5 });
			});
		}
		if (!sets.length) { el.textContent = 'No full FPS window.'; return; }
		var data = sets.length > 1 ? uPlot.join(sets) : [sets[0][0], sets[0][1]];
		if (refresh > 0 || modes.length) {
			// the refresh rate in effect at each window: steps where the mode switched
			data.push(data[0].map(function (t) { return modes.length ? hzAt(t) : refresh; }));
			series.push({ label: 'refresh Hz', stroke: '#999', dash: [6, 4], width: 1,
				points: { show: false } });
		}
		layers.forEach(function (l, i) {
			if (!l.wfps.length || !(l.cadence_fps > 0) || l.cadence_fps === refresh) return;
			data.push(data[0].map(function () { return l.cadence_fps; }));
			series.push({ label: 'cadence ' + l.name, stroke: COLORS[i % COLORS.length],
				dash: [2, 3], width: 1, show: !l.sys, points: { show: false } });
		});
		var u = new uPlot({ width: W(), height: 240, series: series,
			scales: { x: { time: false } }, axes: [{ label: 's' }, { label: 'FPS' }],
			cursor: { sync: { key: 't' } }, hooks: { setScale: [linkX], draw: [modeMarks] } },
			data, el);
		u.timeAxis = true;
		charts.push(u);
	}

	var ft = null, hist = null, pick = document.getElementById('layer-pick');

	// One layer's frame times. Typed arrays built once from the packed presents; the janky
	// frames and the budget are drawn by a hook over the visible range only, not as series
	// as long as the layer (a 2-hour capture has a million frames).
	function frameCharts(l) {
		var x = presents(l), n = x.length, m = n > 1 ? n - 1 : 0;
		var xs = x.subarray(1), y = new Float64Array(m), isJ = new Uint8Array(n), cause = {};
		for (var i = 1; i < n; i++) y[i - 1] = (x[i] - x[i - 1]) * 1e3;
		var jk = Uint32Array.from(l.j).sort();
		l.j.forEach(function (k, q) { isJ[k] = 1; cause[k] = l.jc[q]; });
		var budget = l.cadence_ms || l.period_ms;
		var el = document.getElementById('chart-ft');
		if (ft) { ft.destroy(); charts.splice(charts.indexOf(ft), 1); ft = null; }
		el.textContent = '';
		if (n < 2) { el.textContent = 'This layer has fewer than 2 timed frames.'; }
		else {
			var overlay = function (u) {
				var ctx = u.ctx, sx = u.scales.x, lo = 0, hi = jk.length, b = u.bbox;
				ctx.save();
				if (budget > 0) {
					var py = u.valToPos(budget, 'y', true);
					ctx.strokeStyle = '#2ca02c'; ctx.setLineDash([6, 4]); ctx.lineWidth = 1;
					ctx.beginPath(); ctx.moveTo(b.left, py); ctx.lineTo(b.left + b.width, py);
					ctx.stroke(); ctx.setLineDash([]);
				}
				// janky frames in view: binary search for the first, stop past the last
				while (lo < hi) {
					var mid = (lo + hi) >> 1;
					if (x[jk[mid]] < sx.min) lo = mid + 1; else hi = mid;
				}
				ctx.fillStyle = '#c62828';
				ctx.beginPath();
				for (var q = lo; q < jk.length && x[jk[q]] <= sx.max; q++) {
					var k = jk[q];
					if (!k) continue;
					var px = u.valToPos(x[k], 'x', true), py2 = u.valToPos(y[k - 1], 'y', true);
					ctx.moveTo(px + 3, py2); ctx.arc(px, py2, 3, 0, 2 * Math.PI);
				}
				ctx.fill();
				ctx.restore();
				modeMarks(u);
			};
			ft = new uPlot({ width: W(), height: 280,
				series: [{}, { label: 'frame ms', stroke: '#1f77b4', width: 1,
					points: { show: m < 5000, size: 3 } }],
				scales: { x: { time: false } }, axes: [{ label: 's' }, { label: 'ms' }],
				cursor: { sync: { key: 't' } },
				hooks: { setScale: [linkX], drawClear: [bands(l)], draw: [overlay],
					setCursor: [function (u) {
					var k = u.cursor.idx;
					if (k == null) return;
					k++; // the chart starts at the second frame: the first has no interval
					var t0 = BigInt(D.t0_ns), abs = t0 + BigInt(Math.round(x[k] * 1e9));
					var s = abs.toString(), sec = s.slice(0, -9) || '0';
					document.getElementById('frame-detail').textContent =
						l.name + '  frame #' + k + '\npresent ' + sec + '.' + s.slice(-9) +
						' s   interval ' + y[k - 1].toFixed(3) + ' ms' + '   ' +
						(isJ[k] ? 'JANKY: ' + (cause[k] || 'no cause recorded') : 'on time');
				}] } }, [xs, y], el);
			ft.timeAxis = true;
			charts.push(ft);
		}
		// the distribution is drawn after the page is interactive
		setTimeout(function () { histChart(l, y, m); window.gfxstatDone = true; }, 0);
	}

	function histChart(l, y, n) {
		var el = document.getElementById('chart-hist');
		if (hist) { hist.destroy(); hist = null; }
		el.textContent = '';
		if (n < 1) return;
		var sorted = Float64Array.from(y).sort();
		var hi = Math.max(sorted[Math.floor((sorted.length - 1) * 0.999)] * 1.2, (l.p99 || 0) * 1.2, 1);
		var nb = 100, bw = hi / nb, cnt = new Array(nb).fill(0), xs = [];
		for (var i = 0; i < nb; i++) xs.push(i * bw + bw / 2);
		for (i = 0; i < sorted.length; i++) cnt[Math.min(nb - 1, Math.floor(sorted[i] / bw))]++;
		var marks = [['p50', l.p50, '#2ca02c'], ['p90', l.p90, '#ff7f0e'], ['p99', l.p99, '#c62828']];
		hist = new uPlot({ width: W(), height: 220,
			series: [{ label: 'ms' }, { label: 'frames', fill: 'rgba(31,119,180,0.4)',
				stroke: '#1f77b4', paths: uPlot.paths.bars({ size: [1, Infinity] }),
				points: { show: false } }],
			scales: { x: { time: false } }, axes: [{ label: 'frame ms' }, { label: 'frames' }],
			hooks: { draw: [function (u) {
				var ctx = u.ctx;
				ctx.save();
				marks.forEach(function (m) {
					if (m[1] == null) return;
					var px = u.valToPos(m[1], 'x', true);
					ctx.strokeStyle = m[2]; ctx.lineWidth = 2;
					ctx.beginPath(); ctx.moveTo(px, u.bbox.top);
					ctx.lineTo(px, u.bbox.top + u.bbox.height); ctx.stroke();
					ctx.fillStyle = m[2]; ctx.font = '12px sans-serif';
					ctx.fillText(m[0] + ' ' + m[1].toFixed(1), px + 3, u.bbox.top + 12);
				});
				ctx.restore();
			}] } }, [xs, cnt], el);
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

	fpsChart();
	var first = -1;
	layers.forEach(function (l, i) {
		var o = document.createElement('option');
		o.value = i;
		o.textContent = l.name + ' (' + l.frames + ' frames)';
		pick.appendChild(o);
		if (first < 0 || (!l.sys && (layers[first].sys || l.frames > layers[first].frames)))
			first = i;
	});
	if (first >= 0) {
		pick.value = first;
		frameCharts(layers[first]);
	} else {
		document.getElementById('chart-ft').textContent = 'No frames (a seed folder has windows only).';
		window.gfxstatDone = true;
	}
	pick.addEventListener('change', function () { frameCharts(layers[+pick.value]); });
	document.querySelectorAll('table.sortable').forEach(sortable);
	window.gfxstatReady = true;

	// ---- view pages: a trend from the history store, a comparison side by side ----------
	// What each chart draws is kept in window.gfxstatView, so that the test can hold it
	// against the CLI's own JSON.
	function view(V) {
		var charts = document.getElementById('charts');
		if (charts) charts.parentNode.removeChild(charts);
		var out = document.getElementById('view-charts'), seen = { trend: {}, compare: {} };
		window.gfxstatView = seen;
		function h3(text) {
			var h = document.createElement('h3');
			h.textContent = text;
			out.appendChild(h);
		}
		function box() {
			var d = document.createElement('div');
			d.className = 'chart';
			out.appendChild(d);
			return d;
		}
		function fixed(v) { return v == null ? '-' : v.toFixed(3); }
		if (V.view === 'trend') {
			V.series.forEach(function (S) { trendChart(S, h3, box, seen.trend); });
		} else if (V.view === 'compare') {
			compareView(V, h3, box, seen.compare, fixed);
		}
		window.gfxstatReady = true;
		window.gfxstatDone = true;
	}

	// One metric over groups: the mean as a line, each group's min-max as a whisker and
	// mean +- sd as a box, a significant step as a red segment marked '*'.
	function trendChart(S, h3, box, seen) {
		var P = S.points, n = P.length, x = new Float64Array(n), mean = new Float64Array(n);
		var lo = Infinity, hi = -Infinity, sig = [];
		P.forEach(function (p, i) {
			x[i] = i; mean[i] = p.mean;
			lo = Math.min(lo, p.min, p.mean - p.sd); hi = Math.max(hi, p.max, p.mean + p.sd);
			if (p.step && p.step.significant) sig.push(i);
		});
		seen[S.metric] = { keys: P.map(function (p) { return p.key; }), mean: Array.from(mean),
			min: P.map(function (p) { return p.min; }), max: P.map(function (p) { return p.max; }),
			sd: P.map(function (p) { return p.sd; }), runs: P.map(function (p) { return p.runs; }),
			significant: sig };
		h3(S.metric + ' (' + S.unit + ') of ' + S.app + ' by ' + S.by);
		var el = box(), pad = (hi - lo) * 0.1 || Math.abs(hi) * 0.1 || 1;
		var whiskers = function (u) {
			var ctx = u.ctx;
			ctx.save();
			sig.forEach(function (i) {
				var a = u.valToPos(i - 1, 'x', true), b = u.valToPos(i, 'x', true);
				var ya = u.valToPos(mean[i - 1], 'y', true), yb = u.valToPos(mean[i], 'y', true);
				ctx.strokeStyle = '#c62828'; ctx.lineWidth = 3;
				ctx.beginPath(); ctx.moveTo(a, ya); ctx.lineTo(b, yb); ctx.stroke();
				ctx.fillStyle = '#c62828'; ctx.font = 'bold 14px sans-serif';
				ctx.fillText('*', (a + b) / 2 + 3, (ya + yb) / 2 - 4);
			});
			P.forEach(function (p, i) {
				var px = u.valToPos(i, 'x', true), y0 = u.valToPos(p.min, 'y', true);
				var y1 = u.valToPos(p.max, 'y', true);
				var s0 = u.valToPos(p.mean - p.sd, 'y', true), s1 = u.valToPos(p.mean + p.sd, 'y', true);
				ctx.strokeStyle = '#555'; ctx.lineWidth = 1;
				ctx.beginPath(); ctx.moveTo(px, y0); ctx.lineTo(px, y1);
				ctx.moveTo(px - 5, y0); ctx.lineTo(px + 5, y0);
				ctx.moveTo(px - 5, y1); ctx.lineTo(px + 5, y1); ctx.stroke();
				ctx.fillStyle = 'rgba(31,119,180,0.25)';
				ctx.fillRect(px - 8, s1, 16, Math.max(1, s0 - s1));
			});
			ctx.restore();
		};
		new uPlot({ width: W(), height: 260,
			series: [{ label: S.by, value: function (u, v) { return v == null ? '' : (P[v] || {}).key; } },
				{ label: 'mean ' + S.metric, stroke: '#1f77b4', width: 2,
					points: { show: true, size: 7 } }],
			scales: { x: { time: false, range: function () { return [-0.5, n - 0.5]; } },
				y: { range: function () { return [lo - pad, hi + pad]; } } },
			axes: [{ label: S.by, splits: function () { return Array.from(x); },
				values: function (u, vals) { return vals.map(function (v) {
					return P[v] ? P[v].key : ''; }); } },
				{ label: S.unit }],
			hooks: { draw: [whiskers] } }, [x, mean], el);
	}

	function compareView(V, h3, box, seen, fixed) {
		var C = V.compare, key = C.layers ? 'layers' : 'apps', rows = C[key] || [];
		var tables = document.getElementById('view-tables');
		var p = document.createElement('p');
		p.className = 'note';
		p.textContent = '95 % interval: ' + (C.method === 'welch' ?
			"Welch's t over the per-recording values" :
			C.method === 'welch_segments' ? "Welch's t over " + C.segment_s +
			' s segments of each recording, widened ' + C.widen + 'x (fewer than 3 ' +
			'recordings a side)' : 'block bootstrap of ' + C.block_s + ' s blocks, ' +
			C.resamples + ' resamples (not calibrated)') +
			'. Base: ' + C.base.path + ' (' + C.base.recordings + '), new: ' + C.new.path +
			' (' + C.new.recordings + ').';
		tables.appendChild(p);
		var t = document.createElement('table');
		t.id = 'compare-table';
		t.className = 'view';
		var head = ['app', 'metric', 'unit', 'base', 'new', 'diff', '95% CI', 'verdict'];
		t.innerHTML = '<thead><tr>' + head.map(function (h) { return '<th>' + h + '</th>'; }).join('') +
			'</tr></thead>';
		var body = document.createElement('tbody');
		rows.forEach(function (a) {
			a.metrics.forEach(function (m) {
				var tr = document.createElement('tr');
				tr.dataset.app = a.name; tr.dataset.metric = m.name;
				tr.className = m.verdict === 'worse' ? 'bad' : m.verdict === 'better' ? 'good' : '';
				[['app', a.name], ['metric', m.name], ['unit', m.unit], ['base', fixed(m.base)],
					['new', fixed(m.new)], ['diff', fixed(m.diff)],
					['ci', m.ci ? '[' + fixed(m.ci[0]) + ', ' + fixed(m.ci[1]) + ']' : '-'],
					['verdict', m.verdict]].forEach(function (c, i) {
					var td = document.createElement('td');
					td.dataset.k = c[0];
					if (i < 3 || i === 7) td.className = 't';
					td.textContent = c[1];
					tr.appendChild(td);
				});
				body.appendChild(tr);
			});
		});
		t.appendChild(body);
		tables.appendChild(t);
		var SIDE = [['base', '#1f77b4', 'rgba(31,119,180,0.35)'], ['new', '#ff7f0e', 'rgba(255,127,14,0.35)']];
		(C.layers ? [] : rows).forEach(function (a) {
			// the FPS timelines: every recording of both sides, from its own first frame
			var sets = [], series = [{}], got = { timelines: [], hist: [] };
			V.sides.forEach(function (S, k) {
				S.recordings.forEach(function (R, q) {
					var A = R.apps.filter(function (x) { return x.name === a.name; })[0];
					if (!A || !A.wfps.length) return;
					sets.push([A.wfps.map(function (_, i) { return A.first_s + i * A.window_s; }), A.wfps]);
					series.push({ label: SIDE[k][0] + (S.recordings.length > 1 ? ' #' + (q + 1) : ''),
						stroke: SIDE[k][1], width: 1.5, points: { show: false } });
					got.timelines.push({ side: SIDE[k][0], recording: q, fps: A.wfps.slice() });
				});
			});
			h3(a.name + ': FPS per second, base and new');
			var el = box();
			if (sets.length) {
				var data = sets.length > 1 ? uPlot.join(sets) : [sets[0][0], sets[0][1]];
				new uPlot({ width: W(), height: 220, series: series,
					scales: { x: { time: false } }, axes: [{ label: 's from the first frame' },
						{ label: 'FPS' }] }, data, el);
			} else el.textContent = 'No full FPS window on either side.';
			// the frame-time distributions: share of each side's frames per bin
			var hs = V.sides.map(function (S) {
				return S.hist.filter(function (x) { return x.name === a.name; })[0]; });
			var last = 0;
			hs.forEach(function (H) { if (H) H.counts.forEach(function (c, i) { if (c) last = Math.max(last, i); }); });
			var xs = [], ys = [[], []];
			for (var i = 0; i <= last; i++) xs.push((i + 0.5) * V.bin_ms);
			hs.forEach(function (H, k) {
				for (var i2 = 0; i2 <= last; i2++)
					ys[k].push(H && H.frames ? 100 * H.counts[i2] / H.frames : 0);
				got.hist.push({ side: SIDE[k][0], frames: H ? H.frames : 0,
					counts: H ? H.counts.slice() : [] });
			});
			h3(a.name + ': distribution of frame times, base and new');
			var el2 = box();
			var mk = [];
			a.metrics.forEach(function (m) {
				if (m.name === 'p50_ms' || m.name === 'p99_ms') mk.push(m);
			});
			new uPlot({ width: W(), height: 220,
				series: [{ label: 'ms' }].concat(SIDE.map(function (s, k) {
					return { label: s[0] + ' % of frames', stroke: s[1], fill: s[2], width: 1,
						paths: uPlot.paths.stepped({ align: 1 }), points: { show: false },
						value: function (u, v) { return v == null ? '' : v.toFixed(2); } }; })),
				scales: { x: { time: false } }, axes: [{ label: 'frame ms (' + V.bin_ms +
					' ms bins; the last holds all longer)' }, { label: '% of frames' }],
				hooks: { draw: [function (u) {
					var ctx = u.ctx;
					ctx.save(); ctx.setLineDash([4, 3]); ctx.font = '11px sans-serif';
					mk.forEach(function (m) {
						[m.base, m.new].forEach(function (v, k) {
							if (v == null) return;
							var px = u.valToPos(v, 'x', true);
							ctx.strokeStyle = SIDE[k][1]; ctx.fillStyle = SIDE[k][1];
							ctx.beginPath(); ctx.moveTo(px, u.bbox.top);
							ctx.lineTo(px, u.bbox.top + u.bbox.height); ctx.stroke();
							ctx.fillText(m.name.replace('_ms', '') + ' ' + v.toFixed(1), px + 3,
								u.bbox.top + 12 + 12 * k);
						});
					});
					ctx.restore();
				}] } }, [xs, ys[0], ys[1]], el2);
			seen[a.name] = got;
		});
	}
})();

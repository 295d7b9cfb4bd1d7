// SPDX-License-Identifier: MIT
// gfxstat report, the view pages: a trend from the history store, a comparison side by side.
// Loaded after report.js on view pages only (its data block carries "view"); report.js leaves
// such pages to this file.
(function () {
	'use strict';
	var D = JSON.parse(document.getElementById('gfxstat-data').textContent);
	if (!D.view) return;
	document.documentElement.classList.add('js');
	function W() {
		var el = document.getElementById('view-charts');
		return Math.max(260, Math.floor((el && el.clientWidth) || document.body.clientWidth - 32));
	}
	// What each chart draws is kept in window.gfxstatView, so that the test can hold it
	// against the CLI's own JSON.
	var STYLE = [
		'.vw-ok{--c:#2e7d32;--bg:#f3f9f3}.vw-bad{--c:#c62828;--bg:#fdf2f2}',
		'.vw-mixed{--c:#e65100;--bg:#fff7ed}.vw-same{--c:#757575;--bg:#f8f9fa}.vw-na{--c:#bdbdbd;--bg:#fff}',
		'.cmp-apps{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:10px;margin:.6em 0}',
		'.cmp-app{border:1px solid #dadce0;border-left:6px solid var(--c);border-radius:8px;padding:8px 14px;background:var(--bg);min-width:0}',
		'.cmp-app h2{font-size:1.05em;margin:0;border:0;padding:0;overflow-wrap:anywhere}',
		'.cmp-app .headline{margin:.3em 0 .4em}',
		'.chips{display:flex;flex-wrap:wrap;gap:4px 6px;margin:0;padding:0;list-style:none}',
		'.chip{border-radius:10px;padding:1px 8px;font-size:.85em;background:var(--bg);border:1px solid var(--c);color:#202124;white-space:nowrap}',
		'.chip b{color:var(--c)}',
		'.vwrap{overflow-x:auto;max-width:100%}',
		'table.view td.vd{font-weight:600}',
		'table.view tr.vw-bad td.vd,table.view tr.vw-ok td.vd{color:var(--c)}',
		'header table.meta td,header table.meta th{overflow-wrap:anywhere;word-break:break-word}',
		'.dist{position:relative}',
		'.pct-label{position:absolute;font:11px/13px sans-serif;white-space:nowrap;background:rgba(255,255,255,.85);padding:0 2px;pointer-events:none}',
		'.cmd{font-family:ui-monospace,monospace;font-size:.85em;background:#f8f9fa;padding:4px 8px;overflow-wrap:anywhere}'
	].join('\n');
	function view(V) {
		// a view page has no recording's timeline: its section of the template goes
		var tl = document.getElementById('timeline');
		if (tl) tl.parentNode.removeChild(tl);
		var st = document.createElement('style');
		st.textContent = STYLE;
		document.head.appendChild(st);
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
		if (V.view === 'trend') {
			trendSummary(seen);
			V.series.forEach(function (S) { trendChart(S, h3, box, seen.trend); });
		} else if (V.view === 'compare') {
			compareView(V, h3, box, seen.compare);
		}
		// every table of the page scrolls in its own box, never the page
		Array.prototype.forEach.call(document.querySelectorAll('#view table.view'), function (t) {
			if (t.parentNode.classList.contains('vwrap')) return;
			var w = document.createElement('div');
			w.className = 'vwrap';
			t.parentNode.insertBefore(w, t);
			w.appendChild(t);
		});
		window.gfxstatReady = true;
		window.gfxstatDone = true;
	}

	// A number with the precision it deserves: three significant digits (33.9 FPS, 16.7 ms,
	// 5.02 %), whole numbers from 1000 up; the exact value stays in data-v.
	function num(v) {
		if (v == null || !isFinite(v)) return '-';
		if (Math.abs(v) >= 1000) return v.toFixed(0);
		return String(Number(v.toPrecision(3)));
	}
	function signed(v) { return v == null ? '-' : (v > 0 ? '+' : v < 0 ? '\u2212' : '') + num(Math.abs(v)); }
	// compare's verdict as a colour class
	function vclass(verdict) {
		return verdict === 'worse' ? 'vw-bad' : verdict === 'better' ? 'vw-ok' :
			verdict === 'no significant change' ? 'vw-same' : 'vw-na';
	}
	var LABEL = { fps: 'FPS', janky_pct: 'janky frames', p50_ms: 'median frame', p90_ms: 'p90 frame',
		p99_ms: 'p99 frame', jank_per_min: 'jank/min', big_jank_per_min: 'big jank/min',
		hitch_ms_per_s: 'hitch time', scroll_fps: 'scroll FPS', frozen_frames: 'frozen frames' };
	function unitOf(m) { return m.unit === '%' ? ' %' : m.unit ? ' ' + m.unit : ''; }

	// The history page opens with its summary (a table written by gfxstat): each row coloured
	// by its verdict.
	function trendSummary(seen) {
		var t = document.getElementById('trend-summary');
		if (!t) return;
		// the summary before the charts: its caption and table moved above them
		var charts = document.getElementById('view-charts'), cap = t.previousElementSibling;
		if (cap && cap.tagName === 'H3') charts.parentNode.insertBefore(cap, charts);
		charts.parentNode.insertBefore(t, charts);
		seen.summary = [];
		Array.prototype.forEach.call(t.tBodies[0].rows, function (r) {
			var v = r.querySelector('[data-k="verdict"]'), verdict = v ? v.textContent : '';
			r.className = vclass(verdict);
			if (v) v.className = 'vd';
			seen.summary.push({ metric: r.dataset.key, verdict: verdict, cls: r.className });
		});
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
		h3((LABEL[S.metric] || S.metric) + (S.unit ? ' (' + S.unit + ')' : '') + ' of ' + S.app + ' by ' + S.by);
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
				{ label: 'mean ' + (LABEL[S.metric] || S.metric), stroke: '#1f77b4', width: 2,
					points: { show: true, size: 7 } }],
			scales: { x: { time: false, range: function () { return [-0.5, n - 0.5]; } },
				y: { range: function () { return [lo - pad, hi + pad]; } } },
			axes: [{ label: S.by, splits: function () { return Array.from(x); },
				values: function (u, vals) { return vals.map(function (v) {
					return P[v] ? P[v].key : ''; }); } },
				{ label: S.unit }],
			hooks: { draw: [whiskers] } }, [x, mean], el);
	}

	function compareView(V, h3, box, seen) {
		var C = V.compare, key = C.layers ? 'layers' : 'apps', rows = C[key] || [];
		var tables = document.getElementById('view-tables');
		var top = document.createElement('div');
		top.id = 'compare-verdict';
		top.className = 'cmp-apps';
		out().parentNode.insertBefore(top, out());
		// per app: its state from compare's own verdicts, a headline, one chip a metric
		rows.forEach(function (a) {
			var worse = a.metrics.filter(function (m) { return m.verdict === 'worse'; });
			var better = a.metrics.filter(function (m) { return m.verdict === 'better'; });
			var state = worse.length && better.length ? 'mixed' : worse.length ? 'worse' :
				better.length ? 'better' : 'same';
			var art = document.createElement('article');
			art.className = 'cmp-app ' + (state === 'worse' ? 'vw-bad' : state === 'better' ? 'vw-ok' :
				state === 'mixed' ? 'vw-mixed' : 'vw-same');
			art.dataset.app = a.name;
			art.dataset.state = state;
			var h = document.createElement('h2');
			h.textContent = a.name;
			h.title = a.name;
			art.appendChild(h);
			var p = document.createElement('p');
			p.className = 'headline';
			function said(list) {
				return list.slice(0, 3).map(function (m) {
					return (LABEL[m.name] || m.name) + ' ' + num(m.base) + ' \u2192 ' + num(m.new) + unitOf(m);
				}).join(', ');
			}
			// "and N more" rather than an ellipsis: a sentence that ends with one full stop
			function more(list) { return list.length > 3 ? ' and ' + (list.length - 3) + ' more' : ''; }
			p.textContent = state === 'same' ? 'No significant change: every 95 % interval holds 0.' :
				[worse.length ? 'Worse: ' + said(worse) + more(worse) + '.' : '',
					better.length ? 'Better: ' + said(better) + more(better) + '.' : ''].filter(Boolean).join(' ');
			art.appendChild(p);
			var ul = document.createElement('ul');
			ul.className = 'chips';
			a.metrics.forEach(function (m) {
				var li = document.createElement('li');
				li.className = 'chip ' + vclass(m.verdict);
				li.dataset.metric = m.name;
				li.dataset.verdict = m.verdict;
				li.title = m.name + ': ' + m.verdict + (m.ci ? ' (95 % interval of the change ' +
					signed(m.ci[0]) + ' to ' + signed(m.ci[1]) + ')' : '');
				var b = document.createElement('b');
				b.textContent = LABEL[m.name] || m.name;
				li.appendChild(b);
				li.appendChild(document.createTextNode(' ' + num(m.base) + ' \u2192 ' + num(m.new) + unitOf(m)));
				ul.appendChild(li);
			});
			art.appendChild(ul);
			top.appendChild(art);
		});
		var p = document.createElement('p');
		p.className = 'note';
		p.textContent = 'Green: significantly better, red: significantly worse, grey: no ' +
			'significant change (the 95 % interval of the change holds 0). Interval: ' + (C.method === 'welch' ?
			"Welch's t over the per-recording values" :
			C.method === 'welch_segments' ? "Welch's t over " + C.segment_s +
			' s segments of each recording, widened ' + C.widen + 'x (fewer than 3 ' +
			'recordings a side)' : 'block bootstrap of ' + C.block_s + ' s blocks, ' +
			C.resamples + ' resamples (not calibrated)') +
			'. Base: ' + C.base.path + ' (' + C.base.recordings + ' recordings), new: ' + C.new.path +
			' (' + C.new.recordings + ').';
		tables.appendChild(p);
		var t = document.createElement('table');
		t.id = 'compare-table';
		t.className = 'view';
		var head = ['app', 'metric', 'unit', 'base', 'new', 'change', '95% interval', 'verdict'];
		t.innerHTML = '<thead><tr>' + head.map(function (x) { return '<th>' + x + '</th>'; }).join('') +
			'</tr></thead>';
		var body = document.createElement('tbody');
		rows.forEach(function (a) {
			a.metrics.forEach(function (m) {
				var tr = document.createElement('tr');
				tr.dataset.app = a.name; tr.dataset.metric = m.name;
				tr.className = vclass(m.verdict);
				// text: the deserved precision; data-v: compare's value as its JSON prints it
				[['app', a.name], ['metric', m.name], ['unit', m.unit], ['base', num(m.base), m.base],
					['new', num(m.new), m.new], ['diff', signed(m.diff), m.diff],
					['ci', m.ci ? '[' + signed(m.ci[0]) + ', ' + signed(m.ci[1]) + ']' : '-',
						m.ci ? m.ci.join(',') : '-'],
					['verdict', m.verdict]].forEach(function (c, i) {
					var td = document.createElement('td');
					td.dataset.k = c[0];
					if (c.length > 2) td.dataset.v = c[2] == null ? '-' : String(c[2]);
					if (i < 3) td.className = 't';
					if (i === 7) td.className = 't vd';
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
			var got = { timelines: [], frames: [], hist: [], labels: [], end: 0, ranges: {} };
			// the FPS timelines: every recording of both sides, from its own first frame
			var sets = [], series = [{}], fsets = [], fseries = [{}], end = 0;
			V.sides.forEach(function (S, k) {
				S.recordings.forEach(function (R, q) {
					var A = R.apps.filter(function (x) { return x.name === a.name; })[0];
					var tag = SIDE[k][0] + (S.recordings.length > 1 ? ' #' + (q + 1) : '');
					if (!A) return;
					end = Math.max(end, A.last_s || 0);
					if (A.wfps.length) {
						// each window a step over [start, start + window); a window with no frame
						// (inside an idle wait) a gap; metrics.c gives full windows only, so the
						// last step is held to the recording's last frame
						var x = A.wfps.map(function (_, i) { return A.first_s + i * A.window_s; });
						var y = A.wfps.map(function (v) { return v > 0 ? v : null; });
						var e = Math.max(A.first_s + A.wfps.length * A.window_s, A.last_s || 0);
						x.push(e); y.push(y[y.length - 1]);
						sets.push([x, y]);
						series.push({ label: tag, stroke: SIDE[k][1], width: 1.5, points: { show: false },
							spanGaps: false, paths: uPlot.paths.stepped({ align: 1, alignGaps: 1 }) });
						got.timelines.push({ side: SIDE[k][0], recording: q, fps: A.wfps.slice(), first: A.first_s, end: e,
							last_s: A.last_s, gaps: y.slice(0, -1).filter(function (v) { return v === null; }).length });
					}
					if (A.ft_s && A.ft_s.length) {
						end = Math.max(end, A.ft_s[A.ft_s.length - 1]);
						fsets.push([A.ft_s, A.ft_ms]);
						fseries.push({ label: tag + ' ms', stroke: SIDE[k][1], width: 0,
							paths: function () { return null; },
							points: { show: true, size: 4, stroke: SIDE[k][1], fill: SIDE[k][2] } });
						got.frames.push({ side: SIDE[k][0], recording: q, n: A.ft_s.length });
					}
				});
			});
			function joined(ss) {
				if (ss.length > 1) return uPlot.join(ss);
				return [ss[0][0], ss[0][1]];
			}
			// both charts over the whole of the longest recording: [0, its last frame]
			got.end = end;
			var xr = { time: false, range: function () { return [0, end > 0 ? end : 1]; } };
			// the x-range each chart shows, kept as it is set (for the test)
			var keepX = function (name) { return { setScale: [function (u, k) {
				if (k === 'x') got.ranges[name] = [u.scales.x.min, u.scales.x.max]; }] }; };
			h3(a.name + ': FPS per second, base and new (each full second a step, the last held to ' +
				'the last frame; a second with no frame is a gap)');
			var el = box();
			if (sets.length) {
				new uPlot({ width: W(), height: 220, series: series,
					scales: { x: xr, y: { range: function (u, mn, mx) { return [0, Math.max(mx || 0, 1) * 1.08]; } } },
					axes: [{ label: 's from the first frame' }, { label: 'FPS' }], hooks: keepX('fps') }, joined(sets), el);
			} else el.textContent = 'No full FPS window on either side.';
			h3(a.name + ': frame times, base and new');
			var el3 = box();
			if (fsets.length) {
				new uPlot({ width: W(), height: 220, series: fseries,
					scales: { x: xr }, axes: [{ label: 's from the first frame' },
						{ label: 'frame ms' }], hooks: keepX('ft') }, joined(fsets), el3);
			} else el3.textContent = 'No timed frame on either side.';
			// the frame-time distributions as CDFs on a log axis (the tail stays visible)
			var hs = V.sides.map(function (S) {
				return S.hist.filter(function (x) { return x.name === a.name; })[0]; });
			var last = 0;
			hs.forEach(function (H) { if (H) H.counts.forEach(function (c, i) { if (c) last = Math.max(last, i); }); });
			var xs = [], ys = [[], []];
			for (var i = 0; i <= last; i++) xs.push((i + 1) * V.bin_ms);
			hs.forEach(function (H, k) {
				var run = 0;
				for (var i2 = 0; i2 <= last; i2++) {
					run += H ? H.counts[i2] : 0;
					ys[k].push(H && H.frames ? 100 * run / H.frames : null);
				}
				got.hist.push({ side: SIDE[k][0], frames: H ? H.frames : 0,
					counts: H ? H.counts.slice() : [] });
			});
			h3(a.name + ': frame times, share of frames at or under each (base and new)');
			var el2 = box();
			el2.classList.add('dist');
			var mk = a.metrics.filter(function (m) {
				return m.name === 'p50_ms' || m.name === 'p90_ms' || m.name === 'p99_ms'; });
			new uPlot({ width: W(), height: 240,
				series: [{ label: 'ms' }].concat(SIDE.map(function (s) {
					return { label: s[0] + ' % at or under', stroke: s[1], width: 1.5,
						paths: uPlot.paths.stepped({ align: 1 }), points: { show: false },
						value: function (uu, v) { return v == null ? '' : v.toFixed(1); } }; })),
				scales: { x: { time: false, distr: 3, log: 10 }, y: { range: [0, 100] } },
				axes: [{ label: 'frame ms (log; ' + V.bin_ms + ' ms bins, the last holds all longer)' },
					{ label: '% of frames' }],
				hooks: { draw: [function (uu) {
					// the labels once the scales are set (at every draw: a resize moves them)
					got.labels = pctLabels(uu, mk, SIDE);
					var ctx = uu.ctx;
					ctx.save(); ctx.setLineDash([4, 3]);
					mk.forEach(function (m) {
						[m.base, m.new].forEach(function (v, k) {
							if (v == null || !(v > 0)) return;
							var px = uu.valToPos(v, 'x', true);
							ctx.strokeStyle = SIDE[k][1];
							ctx.beginPath(); ctx.moveTo(px, uu.bbox.top);
							ctx.lineTo(px, uu.bbox.top + uu.bbox.height); ctx.stroke();
						});
					});
					ctx.restore();
				}] } }, [xs, ys[0], ys[1]], el2);
			seen[a.name] = got;
		});
		function out() { return document.getElementById('view-charts'); }
	}

	// The percentile labels as HTML over the chart, placed left to right: a label that would
	// overlap one already placed goes a row lower, so that none overlaps (the test checks
	// their boxes).
	function pctLabels(u, mk, SIDE) {
		var over = u.over, placed = [], made = [];
		Array.prototype.slice.call(over.querySelectorAll('.pct-label')).forEach(function (e) {
			over.removeChild(e); });
		var items = [];
		mk.forEach(function (m) {
			[m.base, m.new].forEach(function (v, k) {
				if (v == null || !(v > 0)) return;
				items.push({ x: u.valToPos(v, 'x'), text: m.name.replace('_ms', '') + ' ' + num(v),
					side: SIDE[k][0], color: SIDE[k][1], metric: m.name, value: v });
			});
		});
		items.sort(function (a, b) { return a.x - b.x; });
		var ow = over.clientWidth || u.bbox.width / devicePixelRatio;
		items.forEach(function (it) {
			var d = document.createElement('span');
			d.className = 'pct-label';
			d.style.color = it.color;
			d.textContent = it.text;
			d.title = it.side + ' ' + it.metric + ': ' + it.value + ' ms';
			d.dataset.side = it.side;
			d.dataset.metric = it.metric;
			over.appendChild(d);
			var w = d.offsetWidth + 2, h = 14;
			var left = it.x + 3;
			if (left + w > ow) left = Math.max(0, it.x - 3 - w);
			var row = 0;
			while (placed.some(function (p) {
				return p.row === row && left < p.left + p.w && p.left < left + w; })) row++;
			placed.push({ left: left, w: w, row: row });
			d.style.left = left + 'px';
			d.style.top = (2 + row * h) + 'px';
			made.push({ text: it.text, side: it.side, metric: it.metric, row: row });
		});
		return made;
	}
	view(D);
})();

// SPDX-License-Identifier: MIT
// Open a gfxstat report in Debian's headless Chromium (never a downloaded browser) and check
// it as a person would see it, at 1400x900: no console error or uncaught exception, charts
// drawn (canvas pixels not blank), and, given `analyze --json` of the same input, every layer
// and app with the same numbers in the DOM (data-v holds analyze's value where the page
// rounds it), a verdict per app by docs/report.md's thresholds, the recording's top cause as
// analyze's first "causes" entry; the first 900 px show a verdict, its janky share and the
// timeline; every lane of the timeline spans the whole recording; no visible time is on the
// trace clock; clicking a janky-frame row moves the timeline to it; at 420 px wide the page
// does not scroll sideways. The FPS lane's steps run from each line's first frame to its last
// (analyze's duration_s), a window with no frame a gap. A dump with no present time at all:
// the timeline is one of ranks and says so, its distribution holds every frame, its janky
// lane every janky frame, and a janky row's click moves the lanes to its rank.
// usage: node check-report.js REPORT.html [ANALYZE.json] [--seed-rows N] [--shot PNG]
//        [--max-tti-ms MS]
//        node check-report.js INDEX.html --index N   (a folder of sessions: N reports)
//        node check-report.js TREND.html --trend TREND.json...   (report --history: each JSON
//             is `gfxstat trend --format json` of one metric)
//        node check-report.js CMP.html --compare COMPARE.json [--analyze BASE.json NEW.json]
//             (report --compare: the table equals `compare --format json`; with one recording
//             a side, the drawn FPS timelines equal each side's `analyze --json` window_fps,
//             run to its last frame, and both charts' x-range covers every recording)
'use strict';
const path = require('path');
const fs = require('fs');
const { chromium } = require(path.join(__dirname, '..', 'node_modules', 'playwright-core'));

const args = process.argv.slice(2);
const file = path.resolve(args[0]);
const analyze = args[1] && !args[1].startsWith('--') ? JSON.parse(fs.readFileSync(args[1])) : null;
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
// every value after @name up to the next option
const opts = (name) => { const i = args.indexOf(name); if (i < 0) return [];
	const r = []; for (let k = i + 1; k < args.length && !args[k].startsWith('--'); k++) r.push(args[k]);
	return r; };
const readJson = (f) => JSON.parse(fs.readFileSync(f));
const fixed = (v) => (v === null || v === undefined ? '-' : v.toFixed(3));
const errors = [];

function fail(msg) { errors.push(msg); }

(async () => {
	const udd = fs.mkdtempSync('/tmp/gfxstat-chromium-');
	const ctx = await chromium.launchPersistentContext(udd, {
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking',
			'--disable-component-update', '--disable-sync', '--no-first-run'],
		viewport: { width: 1400, height: 900 } });
	const page = await ctx.newPage();
	page.on('console', (m) => { if (m.type() === 'error') fail('console error: ' + m.text()); });
	page.on('pageerror', (e) => fail('uncaught exception: ' + e.message));
	page.on('request', (r) => { if (!r.url().startsWith('file:')) fail('network request: ' + r.url()); });
	if (opt('--index') !== null) {
		// an index page of sessions: every link resolves and every report opens cleanly
		await page.goto('file://' + file);
		const links = await page.evaluate(() =>
			Array.from(document.querySelectorAll('a.session')).map((a) => a.href));
		if (links.length !== +opt('--index'))
			fail('index links ' + links.length + ' reports, want ' + opt('--index'));
		for (const href of links) {
			if (!href.startsWith('file://') || !fs.existsSync(decodeURIComponent(href.slice(7)))) {
				fail('index link does not resolve: ' + href);
				continue;
			}
			await page.goto(href);
			await page.waitForFunction('window.gfxstatDone === true', null, { timeout: 60000 });
			const n = await page.evaluate(() => document.querySelectorAll('[data-kind][data-name]').length);
			if (!n) fail('no layer in ' + href);
		}
		await ctx.close();
		fs.rmSync(udd, { recursive: true, force: true });
		console.log(JSON.stringify({ links: links.length, errors }));
		process.exit(errors.length ? 1 : 0);
	}
	const t0 = Date.now();
	await page.goto('file://' + file);
	await page.waitForFunction('window.gfxstatReady === true', null, { timeout: 60000 });
	const tti = Date.now() - t0;
	// the distribution is drawn once the page is interactive
	await page.waitForFunction('window.gfxstatDone === true', null, { timeout: 60000 });
	const done = Date.now() - t0;
	const dom = await page.evaluate(() => {
		const out = { layers: [], canvases: [], conflicts: [] };
		// every element about one app or layer (verdict, rows of the figures and of each
		// tool): its numbers merged; the same key twice must say the same
		const by = {};
		document.querySelectorAll('[data-kind][data-name]').forEach((d) => {
			const id = d.dataset.kind + ' ' + d.dataset.name;
			if (!by[id]) {
				by[id] = { kind: d.dataset.kind, name: d.dataset.name, k: {} };
				out.layers.push(by[id]);
			}
			d.querySelectorAll('[data-k]').forEach((e) => {
				const v = e.dataset.v !== undefined ? e.dataset.v : e.textContent;
				if (by[id].k[e.dataset.k] !== undefined && by[id].k[e.dataset.k] !== v)
					out.conflicts.push(id + ': ' + e.dataset.k + ' ' + by[id].k[e.dataset.k] + ' and ' + v);
				by[id].k[e.dataset.k] = v;
			});
		});
		out.verdicts = Array.from(document.querySelectorAll('article.verdict')).map((a) => ({
			kind: a.dataset.kind, name: a.dataset.name, state: a.dataset.state }));
		const rt = document.querySelector('[data-k="recording_top_cause"]');
		out.top = rt ? { summary: rt.textContent, frames: +rt.dataset.frames,
			jank_ms: rt.dataset.jankMs, cls: rt.dataset.class } : null;
		// what the first screen shows
		const top = (sel) => { const e = document.querySelector(sel);
			if (!e) return null; const r = e.getBoundingClientRect();
			return { top: r.top + scrollY, bottom: r.bottom + scrollY }; };
		out.first = { verdict: top('#verdict article.verdict'),
			pct: top('#verdict [data-k="janky_pct"]'), lane: top('#lanes canvas') };
		const T = window.gfxstatTimeline;
		out.timeline = T ? { end_s: T.end_s, last: T.lastPresent(), ranges: T.ranges(), untimed: T.untimed,
			fps: T.fps ? T.fps() : null, jankMarks: T.jankMarks ? T.jankMarks() : null,
			hist: T.hist ? T.hist() : null, layer: T.layer() } : null;
		out.hasTimeline = !!document.getElementById('timeline');
		const data = JSON.parse(document.getElementById('gfxstat-data').textContent);
		out.t0_s = data.t0_ns ? Number(data.t0_ns) / 1e9 : 0;
		out.text = document.body.innerText;
		document.querySelectorAll('.chart canvas').forEach((c) => {
			const g = c.getContext('2d'), px = g.getImageData(0, 0, c.width, c.height).data;
			let inked = 0;
			for (let i = 3; i < px.length; i += 4) if (px[i]) inked++;
			out.canvases.push({ id: c.closest('.chart').id, inked });
		});
		const j = document.querySelector('[data-k="janky_total"]');
		out.janky_total = j ? +j.textContent : null;
		const s = document.querySelector('[data-k="seed_rows"]');
		out.seed_rows = s ? +s.textContent : null;
		out.seed_trs = document.querySelectorAll('#seed-table tr').length - 1;
		out.view = window.gfxstatView || null;
		out.trend = {};
		document.querySelectorAll('table.view[data-view]').forEach((t) => {
			out.trend[t.dataset.view] = Array.from(t.tBodies[0].rows).map((r) => {
				const k = {};
				r.querySelectorAll('[data-k]').forEach((e) => { k[e.dataset.k] = e.textContent; });
				return k;
			});
		});
		out.compare = Array.from(document.querySelectorAll('#compare-table tbody tr')).map((r) => {
			const k = { app: r.dataset.app, metric: r.dataset.metric };
			// data-v: compare's value as its JSON prints it, where the text rounds it
			r.querySelectorAll('[data-k]').forEach((e) => {
				k[e.dataset.k] = e.dataset.v !== undefined ? e.dataset.v : e.textContent; });
			return k;
		});
		return out;
	});
	if (opt('--shot')) await page.screenshot({ path: opt('--shot'), fullPage: false });
	// a report of frames (not a folder of fps.csv, not a view page)
	const frames = dom.timeline && dom.timeline.ranges.some((r) => r.id === 'lane-ft');
	if (frames && analyze && dom.timeline.untimed) {
		// no clock: a click on a janky frame's row (which has its rank, not a time) moves the
		// timeline of ranks to it
		const rows = await page.$$('#janky-worst tbody tr[data-ord]');
		if (!rows.length) fail('no clock: the longest janky frames have no row to click');
		else {
			const row = rows[Math.floor(rows.length / 2)];
			const want = await row.evaluate((r) => ({ k: +r.dataset.ord, layer: r.querySelector('td.lay').title }));
			await row.click();
			const got = await page.evaluate(() => ({ ranges: window.gfxstatTimeline.ranges(),
				layer: window.gfxstatTimeline.layer() }));
			got.ranges.forEach((r) => {
				if (!(r.min <= want.k && r.max >= want.k) || r.max - r.min > dom.timeline.end_s - 1)
					fail('after a click on the janky frame of rank ' + want.k + ', ' + r.id + ' shows [' + r.min + ', ' + r.max + ']');
			});
			if (got.layer !== want.layer) fail('after a click on ' + want.layer + ', the frame lane shows ' + got.layer);
		}
	}
	if (frames && analyze) {
		// a click on a janky frame's row (the middle one) moves the timeline to that frame
		// (the longest janky frames: the table in view; all of them are folded below it)
		const rows = await page.$$('#janky-worst tbody tr[data-t]');
		if (rows.length) {
			const row = rows[Math.floor(rows.length / 2)];
			const want = await row.evaluate((r) => ({ t: +r.dataset.t,
				layer: r.querySelector('td.lay').title }));
			await row.click();
			const got = await page.evaluate(() => ({ ranges: window.gfxstatTimeline.ranges(),
				layer: window.gfxstatTimeline.layer(),
				top: document.getElementById('timeline').getBoundingClientRect().top }));
			got.ranges.forEach((r) => {
				if (!(r.min <= want.t + 1e-6 && r.max >= want.t - 1e-6) ||
					(dom.timeline.end_s > 1.01 && r.max - r.min > dom.timeline.end_s - 0.01))
					fail('after a click on the janky frame at ' + want.t + ' s, ' + r.id + ' shows [' +
						r.min + ', ' + r.max + ']');
			});
			if (got.layer !== want.layer)
				fail('after a click on a janky frame of ' + want.layer + ', the frame lane shows ' + got.layer);
			if (Math.abs(got.top) > 5) fail('the click did not bring the timeline into view (top ' + got.top + ')');
		}
		// 420 px wide: no sideways scroll, details opened too
		await page.setViewportSize({ width: 420, height: 900 });
		await page.reload();
		await page.waitForFunction('window.gfxstatDone === true', null, { timeout: 60000 });
		const narrow = await page.evaluate(() => {
			const a = document.documentElement.scrollWidth;
			document.querySelectorAll('details').forEach((d) => { d.open = true; });
			return [a, document.documentElement.scrollWidth, window.innerWidth,
				// (gfxinfo's "command issue 9.2 ms" is a phase, not an issue number)
				document.body.innerText.match(/.{0,30}(\b(seeds?|anchor)\b|\bissue \d+(?![\d.]|\s?ms)).{0,30}/gi)];
		});
		// a newcomer's words: no project jargon on the page, every fold open
		if (narrow[3]) fail('jargon on the page: ' + narrow[3].slice(0, 3).join(' | '));
		if (narrow[0] > narrow[2] || narrow[1] > narrow[2])
			fail('at 420 px the page scrolls sideways: ' + narrow[0] + ' px wide (' + narrow[1] +
				' with every fold open)');
	}
	await ctx.close();
	fs.rmSync(udd, { recursive: true, force: true });

	if (!dom.canvases.length) fail('no chart drawn');
	if (opt('--max-tti-ms') !== null && tti > +opt('--max-tti-ms'))
		fail('interactive after ' + tti + ' ms, over ' + opt('--max-tti-ms'));
	dom.canvases.forEach((c) => { if (c.inked < 100) fail('blank chart ' + c.id); });
	if (analyze) {
		let janky = 0;
		for (const l of analyze.layers) {
			// the name: "name" in older analyze output, else "layer" (an app: its package)
			l.name = l.name !== undefined ? l.name : l.kind === 'app' ? l.app : l.layer;
			const d = dom.layers.find((x) => x.kind === l.kind && x.name === l.name);
			if (!d) { fail('layer missing from the report: ' + l.kind + ' ' + l.name); continue; }
			// (a rate analyze cannot give is null: the page says n/a, and is not held to it)
			const fx = (v, n) => (v === null || v === undefined ? undefined : v.toFixed(n));
			const want = { frames: String(l.frames), fps: fx(l.fps, 3),
				janky_frames: String(l.janky_frames), score: fx(l.seed.score, 2),
				refresh_hz: fx(l.refresh_hz, 3), cadence_fps: fx(l.cadence_fps, 3),
				janky_pct: (l.frames ? 100 * l.janky_frames / l.frames : 0).toFixed(3),
				jank: String(l.jank), big_jank: String(l.big_jank),
				slow_frames: String(l.slow_frames), hitch_ms_per_s: fx(l.hitch_ms_per_s, 3),
				fps_median: fx(l.fps_median, 3), fps_low_1pct: fx(l.fps_low_1pct, 3),
				fps_wall: fx(l.fps_wall, 3), seed_a: String(l.seed.A), seed_d: String(l.seed.D),
				matrix_dropped: String(l.matrix.dropped) };
			Object.keys(want).forEach((k) => { if (want[k] === undefined) delete want[k]; });
			if (l.frame_ms) Object.assign(want, { p50: l.frame_ms.p50.toFixed(3),
				p90: l.frame_ms.p90.toFixed(3), p99: l.frame_ms.p99.toFixed(3),
				max: l.frame_ms.max.toFixed(3) });
			for (const k of Object.keys(want))
				if (d.k[k] !== want[k])
					fail(l.name + ': ' + k + ' is ' + d.k[k] + ' in the report, ' + want[k] +
						' in analyze --json');
			if (l.kind === 'layer') janky += l.janky_frames;
		}
		dom.conflicts.forEach((c) => fail('one number, two values: ' + c));
		// the verdict: the busiest apps (else layers), each judged by docs/report.md
		const apps = analyze.layers.filter((l) => l.kind === 'app');
		const subj = (apps.length ? apps : analyze.layers).slice()
			.sort((a, b) => b.frames - a.frames || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
			.slice(0, apps.length ? 6 : 3);
		for (const l of subj) {
			const v = dom.verdicts.find((x) => x.kind === l.kind && x.name === l.name);
			if (!v) { fail('no verdict for ' + l.kind + ' ' + l.name); continue; }
			const pct = l.frames ? 100 * l.janky_frames / l.frames : 0;
			const t = l.cadence_fps > 0 ? l.cadence_fps : l.refresh_hz;
			const iv = l.frame_ms ? 1 : 0; // analyze --json has no interval count: FPS known when frame_ms is
			const fpsKnown = iv && l.fps !== null && l.fps > 0 && t > 0;
			const want = l.frames < 10 ? 'few' : pct >= 5 || (fpsKnown && l.fps < 0.8 * t) ? 'janky' :
				pct < 1 && (!fpsKnown || l.fps >= 0.95 * t) ? 'smooth' : 'noticeable';
			if (v.state !== want) fail('verdict of ' + l.name + ' is ' + v.state + ', by the thresholds ' + want);
		}
		if (dom.verdicts.length !== subj.length)
			fail('the page gives ' + dom.verdicts.length + ' verdicts, want ' + subj.length);
		// the recording's top cause: analyze's first cluster
		if (analyze.causes && analyze.causes.length) {
			const c = analyze.causes[0];
			if (!dom.top || dom.top.summary !== c.summary || dom.top.frames !== c.frames ||
				dom.top.jank_ms !== c.jank_ms.toFixed(3))
				fail('top cause ' + JSON.stringify(dom.top) + ', analyze ' + JSON.stringify(c));
		}
		// the first screen: a verdict with its janky share, and the timeline
		const f = dom.first;
		if (!f.verdict || f.verdict.top > 900) fail('no verdict in the first 900 px');
		if (!f.pct || f.pct.bottom > 900) fail('no janky share in the first 900 px');
		if (!f.lane || f.lane.top > 900 - 100) fail('the timeline starts below the first 900 px (' +
			(f.lane && f.lane.top) + ')');
		// every lane spans the whole recording: from the first frame to the last present
		const T = dom.timeline;
		if (!T) fail('no timeline');
		else {
			if (Math.abs(T.end_s - T.last) > 1e-5) fail('timeline ends at ' + T.end_s + ' s, the last present is at ' + T.last);
			if (T.ranges.length < 2) fail('timeline has ' + T.ranges.length + ' lanes');
			T.ranges.forEach((r) => {
				if (Math.abs(r.min) > 1e-9 || Math.abs(r.max - T.end_s) > 1e-9)
					fail('lane ' + r.id + ' spans [' + r.min + ', ' + r.max + '], the recording [0, ' + T.end_s + ']');
			});
		}
		// the FPS lane: each layer's or app's steps run from its first frame to its last (the
		// last full window held over the part-window after it: metrics.c gives full windows
		// only), and a window with no frame (inside an idle wait) is a gap, never 0 FPS
		if (T && !T.untimed) {
			// (its lines: the apps and the layers of no app; with no app, every layer)
			const anyApp = analyze.layers.some((l) => l.kind === 'app');
			if (!T.fps) fail('the page does not say what its FPS lane drew');
			else for (const l of analyze.layers) {
				if (!l.window_fps || !l.window_fps.length || (anyApp && l.kind === 'layer' && l.app)) continue;
				const f = T.fps.find((x) => x.kind === l.kind && x.name === l.name);
				if (!f) { fail('FPS lane: no line for ' + l.kind + ' ' + l.name); continue; }
				// duration_s: its last frame minus its first (analyze), the line's length
				const len = Math.max(l.window_fps.length, l.duration_s);
				if (Math.abs(f.end - f.first - len) > 2e-6)
					fail('FPS lane: ' + l.name + ' runs ' + (f.end - f.first).toFixed(6) + ' s, its frames ' + len.toFixed(6) + ' s');
				const zeros = l.window_fps.filter((v) => v === 0).length;
				if (f.windows !== l.window_fps.length || f.gaps !== zeros || f.zeros || (zeros && f.spanGaps))
					fail('FPS lane: ' + l.name + ' draws ' + f.windows + ' windows, ' + f.gaps + ' gaps and ' + f.zeros +
						' at 0 FPS; analyze has ' + l.window_fps.length + ' windows, ' + zeros + ' without a frame');
			}
		}
		// a dump with no present time: no time axis, its frames by rank; the distribution holds
		// every frame of the layer shown (analyze's "untimed": their own durations), the janky
		// lane every janky frame
		const untimedOnly = analyze.layers.every((l) => l.kind === 'app' || !l.frames || l.untimed === l.frames) &&
			analyze.layers.some((l) => l.untimed > 0);
		if (T && !!T.untimed !== untimedOnly) fail('the timeline ' + (T.untimed ? 'has no clock' : 'has a clock') +
			', analyze --json says ' + (untimedOnly ? 'no frame has a present time' : 'frames have presents'));
		if (T && untimedOnly) {
			const shown = analyze.layers.find((l) => l.kind === 'layer' && l.name === T.layer);
			if (!T.hist || !shown || T.hist.frames !== shown.untimed)
				fail('distribution of ' + T.layer + ': ' + JSON.stringify(T.hist) + ', analyze has ' + (shown && shown.untimed) + ' frames');
			const jw = analyze.layers.filter((l) => l.kind === 'layer').reduce((a, l) => a + l.janky_frames, 0);
			if (T.jankMarks !== jw) fail('the janky lane marks ' + T.jankMarks + ' frames, analyze has ' + jw);
			if (/seconds from the start/.test(dom.text) || !/no present times/.test(dom.text))
				fail('a dump with no present times: the page does not say so, or shows a time axis');
			if (Math.abs(T.end_s - (Math.max(...analyze.layers.map((l) => l.untimed || 0)) - 1)) > 1e-9)
				fail('the timeline of ranks ends at ' + T.end_s + ', not at the last frame');
		}
		// no visible time on the trace clock (it is in tooltips, CSV and JSON only)
		// (told apart where they cannot overlap: the clock's origin past the recording's length)
		if (T && dom.t0_s > T.end_s + 2) {
			const lo = dom.t0_s - 1, hi = dom.t0_s + (T ? T.end_s : 0) + 1;
			const bad = (dom.text.match(/\d+(\.\d+)?/g) || []).filter((n) => +n >= lo && +n <= hi);
			if (bad.length) fail('trace-clock times on the page: ' + bad.slice(0, 5).join(', '));
		}
		if (dom.layers.length !== analyze.layers.length)
			fail('report has ' + dom.layers.length + ' layers/apps, analyze ' + analyze.layers.length);
		if (dom.janky_total !== janky)
			fail('janky table counts ' + dom.janky_total + ', analyze ' + janky);
	}
	if (opt('--seed-rows') !== null) {
		const n = +opt('--seed-rows');
		if (dom.seed_rows !== n || dom.seed_trs !== n)
			fail('seed table has ' + dom.seed_trs + ' rows (says ' + dom.seed_rows + '), fps.csv ' + n);
	}
	// report --history: per metric, the table and the drawn points equal trend's JSON
	const trends = opts('--trend');
	for (const f of trends) {
		const t = readJson(f), rows = dom.trend[t.metric], drawn = dom.view && dom.view.trend[t.metric];
		if (!rows || !drawn) { fail('trend ' + t.metric + ' not in the page'); continue; }
		if (rows.length !== t.points.length || drawn.keys.length !== t.points.length)
			fail(t.metric + ': ' + rows.length + ' rows, ' + drawn.keys.length + ' points drawn, trend has ' +
				t.points.length);
		const sig = [];
		t.points.forEach((p, i) => {
			const r = rows[i] || {};
			const want = { key: p.key, runs: String(p.runs), mean: fixed(p.mean), sd: fixed(p.sd),
				min: fixed(p.min), max: fixed(p.max), sig: p.step && p.step.significant ? '*' : '',
				step: p.step ? (p.step.diff >= 0 ? '+' : '') + p.step.diff.toFixed(3) : '' };
			for (const k of Object.keys(want))
				if (r[k] !== want[k]) fail(t.metric + ' ' + p.key + ': ' + k + ' is ' + r[k] + ' in the table, ' + want[k] + ' in trend');
			for (const k of ['mean', 'min', 'max', 'sd', 'runs'])
				if (drawn[k][i] !== p[k]) fail(t.metric + ' ' + p.key + ': drawn ' + k + ' ' + drawn[k][i] + ', trend ' + p[k]);
			if (drawn.keys[i] !== p.key) fail(t.metric + ': point ' + i + ' drawn as ' + drawn.keys[i]);
			if (p.step && p.step.significant) sig.push(i);
		});
		if (JSON.stringify(sig) !== JSON.stringify(drawn.significant))
			fail(t.metric + ': significant steps drawn at ' + drawn.significant + ', trend ' + sig);
	}
	if (trends.length && dom.view && Object.keys(dom.view.trend).length !== trends.length)
		fail('the page draws ' + Object.keys(dom.view.trend).length + ' trends, given ' + trends.length);
	// report --compare: the table equals compare --format json, the overlays are drawn
	if (opt('--compare') !== null) {
		const c = readJson(opt('--compare')), apps = c.apps || c.layers || [];
		let n = 0;
		for (const a of apps)
			for (const m of a.metrics) {
				const r = dom.compare[n++] || {};
				const str = (v) => (v === null || v === undefined ? '-' : String(v));
				const want = { app: a.name, metric: m.name, base: str(m.base), new: str(m.new),
					diff: str(m.diff), ci: m.ci ? m.ci.join(',') : '-', verdict: m.verdict };
				for (const k of Object.keys(want))
					if (r[k] !== want[k]) fail(a.name + ' ' + m.name + ': ' + k + ' is ' + r[k] + ' in the page, ' + want[k] + ' in compare');
			}
		if (dom.compare.length !== n) fail('compare table has ' + dom.compare.length + ' rows, compare ' + n);
		const an = opts('--analyze').map(readJson);
		for (const a of c.apps || []) {
			const v = dom.view && dom.view.compare[a.name];
			if (!v) { fail('no side-by-side charts of ' + a.name); continue; }
			['base', 'new'].forEach((side, k) => {
				const h = v.hist.find((x) => x.side === side);
				if (h && h.counts.reduce((x, y) => x + y, 0) !== h.frames) fail(a.name + ' ' + side + ': histogram does not add up');
				if (!an[k]) return;
				const l = an[k].layers.find((x) => x.kind === 'app' && x.app === a.name);
				const drawn = v.timelines.filter((x) => x.side === side);
				const want = l && l.window_fps ? l.window_fps.map((x) => +x.toFixed(3)) : [];
				if (!l) { fail(a.name + ': not an app in analyze --json of ' + side); return; }
				if (want.length && (drawn.length !== 1 || JSON.stringify(drawn[0].fps) !== JSON.stringify(want)))
					fail(a.name + ' ' + side + ': FPS timeline drawn ' + JSON.stringify(drawn.map((x) => x.fps)).slice(0, 200) +
						', analyze ' + JSON.stringify(want).slice(0, 200));
				// its steps run to its last frame (analyze's duration_s past its first), a
				// window with no frame a gap, and both charts' x-range over all of it
				if (want.length && drawn.length === 1) {
					const d = drawn[0], len = Math.max(want.length, l.duration_s);
					if (Math.abs(d.end - d.first - len) > 2e-6)
						fail(a.name + ' ' + side + ': FPS line runs ' + (d.end - d.first) + ' s, the recording ' + len + ' s');
					if (d.gaps !== want.filter((x) => x === 0).length)
						fail(a.name + ' ' + side + ': ' + d.gaps + ' gaps drawn, analyze has ' + want.filter((x) => x === 0).length + ' windows without a frame');
					['fps', 'ft'].forEach((c) => {
						const r = v.ranges && v.ranges[c];
						if (!r || r[0] !== 0 || r[1] < d.end - 1e-9 || r[1] < v.end - 1e-9)
							fail(a.name + ': the ' + c + ' chart spans ' + JSON.stringify(r) + ', ' + side + ' runs to ' + d.end +
								' s (frames to ' + v.end + ' s)');
					});
				}
			});
		}
	}
	console.log(JSON.stringify({ tti_ms: tti, done_ms: done, layers: dom.layers.length, charts: dom.canvases.length,
		errors }));
	process.exit(errors.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });

// SPDX-License-Identifier: MIT
// Open a gfxstat report in Debian's headless Chromium (never a downloaded browser) and check
// it as a person would see it: no console error or uncaught exception, charts drawn (canvas
// pixels not blank), and, given `analyze --json` of the same input, every layer and app with
// the same headline numbers in the DOM.
// usage: node check-report.js REPORT.html [ANALYZE.json] [--seed-rows N] [--shot PNG]
//        [--max-tti-ms MS]
//        node check-report.js INDEX.html --index N   (a folder of sessions: N reports)
//        node check-report.js TREND.html --trend TREND.json...   (report --history: each JSON
//             is `gfxstat trend --format json` of one metric)
//        node check-report.js CMP.html --compare COMPARE.json [--analyze BASE.json NEW.json]
//             (report --compare: the table equals `compare --format json`; with one recording
//             a side, the drawn FPS timelines equal each side's `analyze --json` window_fps)
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
		viewport: { width: 1200, height: 900 } });
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
			const n = await page.evaluate(() => document.querySelectorAll('div.layer').length);
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
		const out = { layers: [], canvases: [] };
		document.querySelectorAll('div.layer').forEach((d) => {
			const k = {};
			d.querySelectorAll('[data-k]').forEach((e) => { k[e.dataset.k] = e.textContent; });
			out.layers.push({ kind: d.dataset.kind, name: d.dataset.name, k });
		});
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
			r.querySelectorAll('[data-k]').forEach((e) => { k[e.dataset.k] = e.textContent; });
			return k;
		});
		return out;
	});
	if (opt('--shot')) await page.screenshot({ path: opt('--shot'), fullPage: false });
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
			const want = { frames: String(l.frames), fps: l.fps.toFixed(3),
				janky_frames: String(l.janky_frames), score: l.seed.score.toFixed(2),
				refresh_hz: l.refresh_hz.toFixed(3) };
			if (l.frame_ms) Object.assign(want, { p50: l.frame_ms.p50.toFixed(3),
				p90: l.frame_ms.p90.toFixed(3), p99: l.frame_ms.p99.toFixed(3),
				max: l.frame_ms.max.toFixed(3) });
			for (const k of Object.keys(want))
				if (d.k[k] !== want[k])
					fail(l.name + ': ' + k + ' is ' + d.k[k] + ' in the report, ' + want[k] +
						' in analyze --json');
			if (l.kind === 'layer') janky += l.janky_frames;
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
				const want = { app: a.name, metric: m.name, base: fixed(m.base), new: fixed(m.new),
					diff: fixed(m.diff), ci: m.ci ? '[' + fixed(m.ci[0]) + ', ' + fixed(m.ci[1]) + ']' : '-',
					verdict: m.verdict };
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
			});
		}
	}
	console.log(JSON.stringify({ tti_ms: tti, done_ms: done, layers: dom.layers.length, charts: dom.canvases.length,
		errors }));
	process.exit(errors.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });

// SPDX-License-Identifier: MIT
// Open a gfxstat report in Debian's headless Chromium (never a downloaded browser) and check
// it as a person would see it: no console error or uncaught exception, charts drawn (canvas
// pixels not blank), and, given `analyze --json` of the same input, every layer and app with
// the same headline numbers in the DOM.
// usage: node check-report.js REPORT.html [ANALYZE.json] [--seed-rows N] [--shot PNG]
//        [--max-tti-ms MS]
//        node check-report.js INDEX.html --index N   (a folder of sessions: N reports)
'use strict';
const path = require('path');
const fs = require('fs');
const { chromium } = require(path.join(__dirname, '..', 'node_modules', 'playwright-core'));

const args = process.argv.slice(2);
const file = path.resolve(args[0]);
const analyze = args[1] && !args[1].startsWith('--') ? JSON.parse(fs.readFileSync(args[1])) : null;
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
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
	console.log(JSON.stringify({ tti_ms: tti, done_ms: done, layers: dom.layers.length, charts: dom.canvases.length,
		errors }));
	process.exit(errors.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });

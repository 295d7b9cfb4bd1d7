// SPDX-License-Identifier: MIT
// The decision pages in Debian's headless Chromium, as a reader sees them: the compare page
// (report --compare), the history page (report --history) and the index of a run folder
// (report RUNFOLDER). Each page: no console error, no network, no sideways scroll at 420 px,
// no project jargon ("seed", "anchor", issue numbers). Then, per page:
//   --compare COMPARE.json: every app's card and every metric's chip and row coloured as
//     compare's JSON verdict says (worse red, better green, else grey), every row's data-v
//     equal to the JSON, the percentile labels of each distribution never overlapping.
//   --trend TREND.json...: the summary comes before the charts, one row a metric with
//     trend's latest and previous means (three significant digits) and a verdict coloured
//     as trend's significant step and the metric's direction say.
//   --index ANALYZE.json...: `analyze --json` of each recording in order: the row's FPS,
//     janky share and p90 equal the busiest app's; the mean +- sd row equals their mean; its
//     FPS chart a step per second with frames, or a note when there is no whole second.
//   (compare: each card's headline a sentence ending in one full stop; trend: metrics named
//     in words, the change to the means' precision)
// usage: node check-views.js PAGE.html (--compare C.json | --trend T.json... | --index A.json...)
'use strict';
const path = require('path');
const fs = require('fs');
const { chromium } = require(path.join(__dirname, '..', 'node_modules', 'playwright-core'));

const args = process.argv.slice(2);
const file = path.resolve(args[0]);
const opts = (name) => { const i = args.indexOf(name); if (i < 0) return null;
	const r = []; for (let k = i + 1; k < args.length && !args[k].startsWith('--'); k++) r.push(args[k]);
	return r; };
const readJson = (f) => JSON.parse(fs.readFileSync(f));
const errors = [];
const fail = (m) => errors.push(m);
// the pages' rounding: three significant digits, whole numbers from 100 (C) / 1000 (JS) up
const dec3 = (v) => { const a = Math.abs(v); return !(a > 0) ? 0 : a >= 100 ? 0 : Math.min(6, 2 - Math.floor(Math.log10(a))); };
const sig3 = (v) => v.toFixed(dec3(v));
// the metrics in plain words, as the compare page names them (report_views.js LABEL)
const WORDS = { fps: 'FPS', janky_pct: 'janky frames', p50_ms: 'median frame', p90_ms: 'p90 frame',
	p99_ms: 'p99 frame', jank_per_min: 'jank/min', big_jank_per_min: 'big jank/min',
	hitch_ms_per_s: 'hitch time', scroll_fps: 'scroll FPS', frozen_frames: 'frozen frames' };
const HIGHER_BETTER = { fps: 1, scroll_fps: 1 };

(async () => {
	const udd = fs.mkdtempSync('/tmp/gfxstat-chromium-');
	const ctx = await chromium.launchPersistentContext(udd, {
		executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
		args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
		viewport: { width: 1400, height: 900 } });
	const page = await ctx.newPage();
	page.on('console', (m) => { if (m.type() === 'error') fail('console error: ' + m.text()); });
	page.on('pageerror', (e) => fail('uncaught exception: ' + e.message));
	page.on('request', (r) => { if (!r.url().startsWith('file:')) fail('network request: ' + r.url()); });
	const index = opts('--index');
	const open = async () => {
		await page.goto('file://' + file);
		if (!index) await page.waitForFunction('window.gfxstatDone === true', null, { timeout: 60000 });
	};
	await open();
	const cmp = opts('--compare');
	if (cmp) {
		const c = readJson(cmp[0]);
		const got = await page.evaluate(() => ({
			cards: Array.from(document.querySelectorAll('#compare-verdict article.cmp-app')).map((a) => ({
				app: a.dataset.app, state: a.dataset.state, cls: a.className,
				headline: (a.querySelector('.headline') || {}).textContent || '',
				color: getComputedStyle(a).borderLeftColor,
				chips: Array.from(a.querySelectorAll('.chip')).map((l) => ({ metric: l.dataset.metric,
					verdict: l.dataset.verdict, cls: l.className })) })),
			rows: Array.from(document.querySelectorAll('#compare-table tbody tr')).map((r) => {
				const k = { app: r.dataset.app, metric: r.dataset.metric, cls: r.className };
				r.querySelectorAll('[data-k]').forEach((e) => {
					k[e.dataset.k] = e.dataset.v !== undefined ? e.dataset.v : e.textContent; });
				return k; }),
			// each distribution's labels: their boxes, to be held apart
			labels: Array.from(document.querySelectorAll('.dist')).map((d) =>
				Array.from(d.querySelectorAll('.pct-label')).map((l) => {
					const b = l.getBoundingClientRect();
					return { text: l.textContent, x0: b.left, x1: b.right, y0: b.top, y1: b.bottom }; })),
			cardTop: (document.getElementById('compare-verdict') || { getBoundingClientRect: () => ({ top: 1e9 }) })
				.getBoundingClientRect().top,
			chartTop: document.querySelector('#view-charts canvas').getBoundingClientRect().top
		}));
		const want = (v) => (v === 'worse' ? 'vw-bad' : v === 'better' ? 'vw-ok' :
			v === 'no significant change' ? 'vw-same' : 'vw-na');
		const apps = c.apps || c.layers || [];
		let n = 0;
		for (const a of apps) {
			const card = got.cards.find((x) => x.app === a.name);
			const w = a.metrics.some((m) => m.verdict === 'worse'), b = a.metrics.some((m) => m.verdict === 'better');
			const state = w && b ? 'mixed' : w ? 'worse' : b ? 'better' : 'same';
			if (!card) { fail('no verdict card for ' + a.name); continue; }
			if (card.state !== state) fail(a.name + ': card says ' + card.state + ', compare ' + state);
			// a sentence ends once: no stray mark before a full stop ("33.3 ms, \u2026.")
			if (/[,;:\u2026.]\s*[.,]|\s[.,]/.test(card.headline) || !/\.$/.test(card.headline))
				fail(a.name + ': headline punctuated oddly: ' + JSON.stringify(card.headline));
			// the card's colour: red worse, green better (the report's --bad and --ok)
			const rgb = { worse: 'rgb(198, 40, 40)', better: 'rgb(46, 125, 50)', mixed: 'rgb(230, 81, 0)',
				same: 'rgb(117, 117, 117)' }[state];
			if (card.color !== rgb) fail(a.name + ': card colour ' + card.color + ', want ' + rgb + ' (' + state + ')');
			for (const m of a.metrics) {
				const chip = card.chips.find((x) => x.metric === m.name);
				if (!chip || !chip.cls.split(' ').includes(want(m.verdict)))
					fail(a.name + ' ' + m.name + ': chip ' + (chip && chip.cls) + ', verdict ' + m.verdict);
				const r = got.rows[n++] || {};
				const s = (v) => (v === null || v === undefined ? '-' : String(v));
				const exp = { app: a.name, metric: m.name, base: s(m.base), new: s(m.new), diff: s(m.diff),
					ci: m.ci ? m.ci.join(',') : '-', verdict: m.verdict, cls: want(m.verdict) };
				for (const k of Object.keys(exp))
					if (r[k] !== exp[k]) fail(a.name + ' ' + m.name + ': ' + k + ' ' + r[k] + ' on the page, ' + exp[k] + ' in compare');
			}
		}
		if (got.rows.length !== n) fail('compare table has ' + got.rows.length + ' rows, compare ' + n);
		if (!(got.cardTop < got.chartTop)) fail('the verdict is not above the charts');
		got.labels.forEach((ls, k) => {
			if (!ls.length) fail('distribution ' + k + ' has no percentile label');
			for (let i = 0; i < ls.length; i++)
				for (let j = i + 1; j < ls.length; j++) {
					const p = ls[i], q = ls[j];
					if (p.x0 < q.x1 && q.x0 < p.x1 && p.y0 < q.y1 && q.y0 < p.y1)
						fail('percentile labels overlap: "' + p.text + '" and "' + q.text + '"');
				}
		});
	}
	const trends = opts('--trend');
	if (trends) {
		const got = await page.evaluate(() => {
			const t = document.getElementById('trend-summary');
			if (!t) return null;
			const first = document.querySelector('#view-charts canvas');
			return { above: t.getBoundingClientRect().top < first.getBoundingClientRect().top,
				rows: Array.from(t.tBodies[0].rows).map((r) => {
					const k = { metric: r.dataset.key, cls: r.className,
						color: getComputedStyle(r.querySelector('[data-k="verdict"]')).color };
					r.querySelectorAll('[data-k]').forEach((e) => { k[e.dataset.k] = e.textContent; });
					return k; }) };
		});
		if (!got) fail('no summary table on the history page');
		else {
			if (!got.above) fail('the summary is not above the charts');
			for (const f of trends) {
				const t = readJson(f), P = t.points, L = P[P.length - 1], Pv = P[P.length - 2];
				// (named in words, as on the compare page, not by its key)
				const r = got.rows.find((x) => x.metric === (WORDS[t.metric] || t.metric));
				if (!r) { fail('summary has no row for ' + t.metric + ' (as "' + WORDS[t.metric] + '")'); continue; }
				// a change to the precision of the means it compares (decimals: those of the
				// larger mean's three significant digits), never a signed zero ("+0.0000")
				const dp = Math.max(Math.abs(L.mean), Pv ? Math.abs(Pv.mean) : 0);
				const decs = (x) => ((x.match(/\.(\d+)/) || ['', ''])[1]).length;
				for (const k of ['diff', 'ci']) {
					const txt = r[k] || '';
					(txt.match(/[+\u2212-]?\d+(\.\d+)?/g) || []).forEach((x) => {
						if (decs(x) !== dec3(Pv && Math.abs(Pv.mean) > Math.abs(L.mean) ? Pv.mean : L.mean) || /^[+\u2212-]0(\.0+)?$/.test(x))
							fail(t.metric + ': ' + k + ' "' + txt + '" not to the means\' precision (' + dp + ')');
					});
				}
				const u = t.unit ? ' ' + t.unit : '';
				if (r.latest !== L.key + ': ' + sig3(L.mean) + u)
					fail(t.metric + ': latest ' + r.latest + ', store ' + L.key + ': ' + L.mean);
				if (Pv && r.prev !== Pv.key + ': ' + sig3(Pv.mean) + u)
					fail(t.metric + ': previous ' + r.prev + ', store ' + Pv.key + ': ' + Pv.mean);
				const st = L.step || {};
				const verdict = !Pv ? 'one group only' : st.lo === undefined || st.lo === null ?
					'not known (a group of 1 run)' : !st.significant ? 'no significant change' :
					(st.diff > 0) === !!HIGHER_BETTER[t.metric] ? 'better' : 'worse';
				if (r.verdict !== verdict) fail(t.metric + ': verdict ' + r.verdict + ', trend says ' + verdict);
				const col = verdict === 'worse' ? 'rgb(198, 40, 40)' : verdict === 'better' ? 'rgb(46, 125, 50)' : null;
				if (col && r.color !== col) fail(t.metric + ': verdict coloured ' + r.color + ', want ' + col);
			}
		}
	}
	if (index) {
		const got = await page.evaluate(() => ({
			rows: Array.from(document.querySelectorAll('#sessions tbody tr.rec')).map((r) => {
				// the FPS chart: its steps (one "H" a second drawn), or the note in its place
				const sp = r.querySelector('td.spark'), pa = sp && sp.querySelector('svg path');
				const k = { name: r.dataset.key, steps: pa ? (pa.getAttribute('d').match(/H/g) || []).length : null,
					note: sp && !pa ? sp.textContent.trim() : '' };
				r.querySelectorAll('[data-k]').forEach((e) => { k[e.dataset.k] = e.dataset.v || e.textContent; });
				return k; }),
			mean: Array.from(document.querySelectorAll('#sessions tfoot [data-k]')).reduce((o, e) => {
				o[e.dataset.k] = { v: +e.dataset.v, sd: e.dataset.sd === undefined ? null : +e.dataset.sd }; return o; }, {}),
			cmd: (document.getElementById('compare-cmd') || {}).textContent || '' }));
		const an = index.map(readJson);
		if (got.rows.length !== an.length) fail('index has ' + got.rows.length + ' rows, given ' + an.length);
		// analyze --json prints 3 decimals (|error| <= 0.0005), the page 9 digits: a value
		// within 0.0006 of analyze's is the same; a mean or sd of 3 such within 0.002
		const close = (a, b, tol) => Math.abs(a - b) <= (tol || 6e-4);
		const cols = { fps: [], janky_pct: [], p90_ms: [] };
		an.forEach((A, i) => {
			const r = got.rows[i] || {};
			// the busiest app: the app with the most frames
			const apps = A.layers.filter((l) => l.kind === 'app').sort((x, y) => y.frames - x.frames);
			const l = apps[0];
			if (!l) { fail('no app in analyze of row ' + i); return; }
			const want = { fps: l.fps, janky_pct: 100 * l.janky_frames / l.frames,
				p90_ms: l.frame_ms ? l.frame_ms.p90 : undefined };
			if (r.app !== l.app) fail('row ' + i + ': app ' + r.app + ', analyze busiest ' + l.app);
			for (const k of Object.keys(want)) {
				if (want[k] === undefined) continue;
				cols[k].push(want[k]);
				if (!close(+r[k], want[k])) fail('row ' + i + ' ' + k + ': ' + r[k] + ', analyze ' + want[k]);
			}
			// one step per second with frames (analyze's window_fps above 0: a second with no
			// frame is a gap); a recording under a whole second says so instead of a blank
			const secs = (l.window_fps || []).filter((v) => v > 0).length;
			if (l.window_fps && l.window_fps.length ? r.steps !== secs : !r.note)
				fail('row ' + i + ': FPS chart of ' + r.steps + ' steps' + (r.note ? ' (' + r.note + ')' : '') +
					', analyze has ' + secs + ' seconds with frames of ' + (l.window_fps || []).length);
		});
		for (const k of Object.keys(cols)) {
			const v = cols[k];
			if (!v.length) continue;
			const m = v.reduce((a, b) => a + b, 0) / v.length;
			const sd = v.length > 1 ? Math.sqrt(v.reduce((a, b) => a + (b - m) * (b - m), 0) / (v.length - 1)) : null;
			const g = got.mean[k] || {};
			if (!close(g.v, m, 2e-3)) fail('mean ' + k + ': ' + g.v + ', from analyze ' + m);
			if (sd !== null && !close(g.sd, sd, 2e-3)) fail('sd ' + k + ': ' + g.sd + ', from analyze ' + sd);
		}
		if (!/gfxstat report --compare /.test(got.cmd)) fail('no compare command on the index');
	}
	// 420 px: nothing scrolls sideways; a newcomer's words
	await page.setViewportSize({ width: 420, height: 900 });
	await open();
	const narrow = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth,
		document.body.innerText.match(/.{0,30}(\b(seeds?|anchor)\b|\bissue \d+(?![\d.]|\s?ms)).{0,30}/gi)]);
	if (narrow[0] > narrow[1]) fail('at 420 px the page scrolls sideways: ' + narrow[0] + ' px wide');
	if (narrow[2]) fail('jargon on the page: ' + narrow[2].slice(0, 3).join(' | '));
	await ctx.close();
	fs.rmSync(udd, { recursive: true, force: true });
	console.log(JSON.stringify({ errors }));
	process.exit(errors.length ? 1 : 0);
})().catch((e) => { console.error(e); process.exit(2); });

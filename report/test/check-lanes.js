// SPDX-License-Identifier: MIT
// The timeline's lanes beyond the frames, in Debian's headless Chromium (never a downloaded
// browser): the system-context lanes and the screenshots lane of a gfxstat report. Checks, at
// 1400x900 then 420x900: no console error, uncaught exception or network request; each lane
// asked for exists and spans the whole recording (x from 0 to the last present), and its
// series' values reach both ends (the first within a window of 0, the last within a window
// of the end); the screenshots lane shows thumbnails (embedded images decoded and drawn) and
// a larger one on hover; nothing scrolls sideways at 420 px.
// usage: node check-lanes.js REPORT.html [--lanes cpu_freq,cpu_load,...] [--shots N]
//        [--window S] [--no-ctx] [--no-shots] [--png OUT.png]
// Prints one JSON line (what it saw) and exits 1 on any failure.
'use strict';
const path = require('path');
const fs = require('fs');
const { chromium } = require(path.join(__dirname, '..', 'node_modules', 'playwright-core'));

const args = process.argv.slice(2);
const file = path.resolve(args[0]);
const opt = (name) => { const i = args.indexOf(name); return i >= 0 ? args[i + 1] : null; };
const has = (name) => args.indexOf(name) >= 0;
const errors = [];
const fail = (m) => errors.push(m);

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
	page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:'))
		fail('network request: ' + r.url()); });
	await page.goto('file://' + file);
	await page.waitForFunction('window.gfxstatDone === true', null, { timeout: 60000 });
	// the thumbnails are decoded asynchronously: give them a moment, then a redraw
	await page.waitForFunction(() => { const s = window.gfxstatTimeline.shots();
		return s.loaded === s.n; }, null, { timeout: 10000 }).catch(() => {});
	await page.evaluate(() => window.dispatchEvent(new Event('resize')));
	await page.waitForTimeout(300);
	const seen = await page.evaluate(() => {
		const T = window.gfxstatTimeline;
		return { end: T.end_s, last: T.lastPresent(), ranges: T.ranges(), ctx: T.ctx(),
			shots: T.shots(),
			lanes: Array.from(document.querySelectorAll('#lanes .lane')).map((l) => l.id),
			note: (document.querySelector('.shot-note') || {}).textContent || null };
	});
	const win = +(opt('--window') || 1);
	const want = opt('--lanes') ? opt('--lanes').split(',') : [];
	for (const l of want) {
		const id = 'lane-ctx-' + l;
		if (seen.lanes.indexOf(id) < 0) { fail('no lane ' + id + ' (lanes: ' + seen.lanes.join(' ') + ')'); continue; }
		const s = seen.ctx.filter((c) => c.lane === l);
		if (!s.length) fail(id + ': no series');
		// the lane's values reach both ends of the recording
		const first = Math.min(...s.map((c) => c.first)), last = Math.max(...s.map((c) => c.last));
		if (first > win) fail(id + ': its first value is at ' + first + ' s, not within ' + win + ' s of 0');
		if (last < seen.last - win) fail(id + ': its last value is at ' + last + ' s, the recording ends at ' + seen.last);
	}
	if (has('--no-ctx') && seen.lanes.some((id) => id.startsWith('lane-ctx-')))
		fail('context lanes drawn for a recording without context: ' + seen.lanes.join(' '));
	// every lane, these too, spans the whole recording
	for (const r of seen.ranges)
		if (Math.abs(r.min) > 1e-9 || Math.abs(r.max - seen.end) > 1e-9)
			fail('lane ' + r.id + ' spans [' + r.min + ', ' + r.max + '], not [0, ' + seen.end + ']');
	if (Math.abs(seen.end - seen.last) > 1e-6) fail('the x-axis ends at ' + seen.end + ', the last present is at ' + seen.last);
	if (opt('--shots') !== null) {
		const n = +opt('--shots');
		if (seen.lanes.indexOf('lane-shots') < 0) fail('no screenshots lane');
		if (seen.shots.n !== n) fail('screenshots embedded: ' + seen.shots.n + ', want ' + n);
		if (seen.shots.loaded !== seen.shots.n) fail('screenshots decoded: ' + seen.shots.loaded + ' of ' + seen.shots.n);
		if (n && !seen.shots.drawn) fail('no thumbnail drawn on the lane');
		if (n && !seen.ranges.some((r) => r.id === 'lane-shots')) fail('the screenshots lane is not linked to the others');
		if (n) {
			// hover over the first drawn one: the larger view shows it
			const box = await page.locator('#lane-shots .u-over').boundingBox();
			const px = await page.evaluate(() => {
				const c = document.querySelector('#lane-shots .u-over').getBoundingClientRect();
				return c.left;
			});
			let shown = false;
			for (let x = 2; x < box.width && !shown; x += 8) {
				await page.mouse.move(px + x, box.y + box.height / 2);
				shown = await page.evaluate(() => { const p = document.querySelector('#lane-shots .shot-pop');
					return !!p && !p.hidden && p.querySelector('img').naturalWidth > 0; });
			}
			if (!shown) fail('hovering the screenshots lane shows no larger screenshot');
		}
	}
	if (has('--no-shots') && seen.lanes.indexOf('lane-shots') >= 0) fail('a screenshots lane without screenshots');
	if (opt('--png')) await page.screenshot({ path: opt('--png'), fullPage: false });
	// a phone's width: no sideways scroll (the lanes shrink with the page)
	await page.setViewportSize({ width: 420, height: 900 });
	await page.waitForTimeout(400);
	const wide = await page.evaluate(() => ({ sw: document.documentElement.scrollWidth,
		cw: document.documentElement.clientWidth }));
	if (wide.sw > wide.cw) fail('at 420 px the page scrolls sideways: ' + wide.sw + ' > ' + wide.cw);
	await ctx.close();
	fs.rmSync(udd, { recursive: true, force: true });
	console.log(JSON.stringify({ lanes: seen.lanes, shots: seen.shots, end: seen.end, note: seen.note, errors }));
	process.exit(errors.length ? 1 : 0);
})().catch((e) => { console.log(JSON.stringify({ errors: errors.concat(['crashed: ' + e.message]) })); process.exit(1); });

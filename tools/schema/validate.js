// SPDX-License-Identifier: MIT
// Validate gfxstat JSON outputs against docs/schema/gfxstat.schema.json.
// usage: node validate.js SCHEMA FILE...   A FILE that is not one JSON document is read as
// JSON Lines (frames --format jsonl): every line a frame, the last one the header.
// Prints one line per invalid file and exits 1 if any was invalid.
'use strict';
const fs = require('fs');
const Ajv2020 = require('ajv/dist/2020');

const [schemaPath, ...files] = process.argv.slice(2);
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({ allErrors: true, strict: true, strictTypes: false, strictRequired: false });
const doc = ajv.compile(schema);
const frame = ajv.getSchema(schema.$id + '#/$defs/frame');
const headerLine = ajv.getSchema(schema.$id + '#/$defs/header_line');
let bad = 0;

function report(file, what, errors) {
	bad++;
	const e = errors.slice(0, 3).map((x) => `${x.instancePath || '/'} ${x.message}`).join('; ');
	console.log(`${file}: ${what}: ${e}`);
}

for (const file of files) {
	const text = fs.readFileSync(file, 'utf8');
	let value;
	try {
		value = JSON.parse(text);
	} catch (e) {
		value = undefined;
	}
	if (value !== undefined) {
		if (!doc(value))
			report(file, 'document', doc.errors);
		continue;
	}
	const lines = text.split('\n').filter((l) => l.length);
	if (!lines.length) {
		report(file, 'empty', [{ message: 'no JSON at all' }]);
		continue;
	}
	lines.forEach((l, i) => {
		let v;
		try {
			v = JSON.parse(l);
		} catch (e) {
			report(file, `line ${i + 1}`, [{ message: e.message }]);
			return;
		}
		const last = i === lines.length - 1;
		const check = last ? headerLine : frame;
		if (!check(v))
			report(file, `line ${i + 1}${last ? ' (the header)' : ''}`, check.errors);
	});
}
process.exit(bad ? 1 : 0);

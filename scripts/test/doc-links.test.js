'use strict';
// Every relative link in the repository's Markdown points at a file or folder that exists (anchors and web links are
// not followed): a moved file leaves no page pointing at nothing.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');
const LINK = /\[[^\]]*\]\(([^)\s]+)\)/g;

test('every relative link in the Markdown files resolves', () => {
  const files = execFileSync('git', ['ls-files', '*.md'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter(Boolean).filter((f) => !f.includes('node_modules/'));
  assert.ok(files.length > 10, 'the Markdown files are found');
  const broken = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(ROOT, file), 'utf8').replace(/```[^]*?```/g, '');
    for (const [, target] of text.matchAll(LINK)) {
      if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
      const local = decodeURIComponent(target.split('#')[0]);
      if (!fs.existsSync(path.join(ROOT, path.dirname(file), local))) broken.push(`${file}: ${target}`);
    }
  }
  assert.deepStrictEqual(broken, []);
});

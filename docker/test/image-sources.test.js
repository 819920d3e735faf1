'use strict';
// Every file a Node image's program requires is in that image: the relative requires reachable from its CMD, read
// from the sources, must each lie under what its final stage COPYs from the repository. An image that misses one
// builds and then dies at start (seen: the load driver, after PUT /documents began checking CSV with csv-parsers,
// which its image did not copy); compose's healthcheck was the first to notice, minutes into make smoke.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');

const NODE_DOCKERFILES = ['load/Dockerfile', 'services/node-async/Dockerfile', 'services/node14-fibers/Dockerfile', 'services/wasm-runner/Dockerfile'];

/** The final stage's WORKDIR, CMD's script (repository path) and the repository paths it COPYs (not --from). */
function finalStage(dockerfile) {
  const lines = fs.readFileSync(path.join(ROOT, dockerfile), 'utf8').split('\n');
  const stage = lines.slice(lines.map((l) => l.startsWith('FROM ')).lastIndexOf(true));
  const workdir = stage.filter((l) => l.startsWith('WORKDIR ')).pop().slice('WORKDIR '.length).trim();
  const sources = stage.filter((l) => l.startsWith('COPY ') && !l.includes('--from')).flatMap((l) => l.split(/\s+/).slice(1, -1));
  const cmd = JSON.parse(stage.find((l) => l.startsWith('CMD ')).slice('CMD '.length));
  // The image's /lab is the repository's root.
  const script = path.relative('/lab', path.resolve(workdir, cmd[cmd.length - 1]));
  return { script, sources };
}

/** Repository paths of every source file reachable by relative requires from file (node_modules left out). */
function requiredFiles(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  for (const match of text.matchAll(/require\('(\.{1,2}\/[^']+)'\)/g)) {
    const target = path.relative(ROOT, require.resolve(path.resolve(ROOT, path.dirname(file), match[1])));
    if (!target.includes('node_modules')) requiredFiles(target, seen);
  }
  return seen;
}

for (const dockerfile of NODE_DOCKERFILES) {
  test(`${dockerfile}: everything its program requires is copied into the image`, () => {
    const { script, sources } = finalStage(dockerfile);
    const copied = (file) => sources.some((source) => file === source || file.startsWith(`${source.replace(/\/$/, '')}/`));
    const missing = Array.from(requiredFiles(script)).filter((file) => !copied(file));
    assert.deepStrictEqual(missing, [], `${dockerfile} copies ${sources.join(', ')}`);
  });
}

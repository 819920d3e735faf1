'use strict';
// What `make matrix` will do, decided before anything is built: the versions asked for (NODE, JAVA), the suite and the
// repeats, checked against versions.js with an error naming what is allowed; and the order of the steps. A step is
// one runtime at one version: its services (versions.js' SERVICES) run that version and the suite's scenarios of
// them run once. Steps are interleaved (every version once, then every version again, ...), so a drift of the machine
// over the matrix's hour spreads over every version instead of landing on the last one.
const { NODE, JAVA, pinnedOf } = require('./versions');

const DEFAULTS = { NODE: '18 20 22 24 26', JAVA: '17 21 25', SUITE: 'matrix', REPEATS: '3' };
const MAX_REPEATS = 20;

/** The lines a setting lists ("18 20", commas allowed), each one of table's; the pinned line always among them. */
function linesOf(name, text, table) {
  const lines = text.split(/[\s,]+/).filter(Boolean);
  const unknown = lines.find((line) => !table[line]);
  if (unknown) throw new Error(`${name}: ${unknown} is not a version the matrix knows; allowed: ${Object.keys(table).join(' ')} (docker/matrix/versions.js)`);
  if (new Set(lines).size !== lines.length) throw new Error(`${name}: a version is listed twice (${text})`);
  const pinned = pinnedOf(table);
  // Every change is measured against the pinned version, so it runs even when not asked for.
  return lines.includes(pinned) ? lines : [pinned].concat(lines);
}

/** The matrix's settings from env (NODE, JAVA, SUITE, REPEATS; DEFAULTS where unset or empty). Throws on a bad one. */
function settingsOf(env) {
  const get = (name) => (env[name] === undefined || env[name].trim() === '' ? DEFAULTS[name] : env[name].trim());
  const repeats = Number(get('REPEATS'));
  if (!Number.isInteger(repeats) || repeats < 1 || repeats > MAX_REPEATS) throw new Error(`REPEATS must be an integer in [1, ${MAX_REPEATS}], got "${get('REPEATS')}"`);
  const suite = get('SUITE');
  if (!/^[a-z0-9-]+$/.test(suite)) throw new Error(`SUITE must be a suite's name (load/suites/<name>.json), got "${suite}"`);
  const node = get('NODE') === 'none' ? [] : linesOf('NODE', get('NODE'), NODE);
  const java = get('JAVA') === 'none' ? [] : linesOf('JAVA', get('JAVA'), JAVA);
  if (node.length + java.length === 0) throw new Error('NODE and JAVA are both none: nothing to run');
  return { node, java, suite, repeats, pinned: { node: pinnedOf(NODE), java: pinnedOf(JAVA) } };
}

/** The step id of a runtime's version in one repeat: node-22-r2. */
const stepId = (runtime, line, repeat) => `${runtime}-${line}-r${repeat}`;

/** The steps in the order they run: [{id, runtime, line, repeat}], each repeat every Node version then every Java one. */
function stepsOf({ node, java, repeats }) {
  const steps = [];
  for (let repeat = 1; repeat <= repeats; repeat++) {
    for (const line of node) steps.push({ id: stepId('node', line, repeat), runtime: 'node', line, repeat });
    for (const line of java) steps.push({ id: stepId('java', line, repeat), runtime: 'java', line, repeat });
  }
  return steps;
}

module.exports = { settingsOf, stepsOf, stepId, DEFAULTS, MAX_REPEATS };

'use strict';
// Where a benchmark keeps its raw results: results/bench/<name>-<UTC time>.json under the repository (git-ignored),
// so that tables are a separate step that reads the JSON (STYLE.md) and runs can be compared later.
const fs = require('fs');
const path = require('path');

const BENCH_DIR = path.join(__dirname, '..', 'results', 'bench');

/** Writes data as JSON to a new file for the benchmark `name` in dir (results/bench/); returns its path. */
function saveBenchResults(name, data, dir = BENCH_DIR) {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  // Two saves in one millisecond would share a name: the second gets a suffix, never the first's file ('wx').
  for (let n = 0; ; n++) {
    const file = path.join(dir, `${stamp}${n === 0 ? '' : `-${n}`}.json`);
    try {
      fs.writeFileSync(file, `${JSON.stringify(data, null, 2)}\n`, { flag: 'wx' });
      return file;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
  }
}

module.exports = { saveBenchResults, BENCH_DIR };

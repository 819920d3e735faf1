'use strict';
// The results folder (RESULTS_DIR) as the live page may read it: the one place that turns a name from a request into
// a file. A run is a folder directly in RESULTS_DIR and a file is directly in a run, each named by one path segment
// of plain characters (no separator, no dot first, so never `..`), and neither may be a symbolic link: a name cannot
// climb out (`../`, `%2e%2e`, `%2F` decoded inside a segment), and a link placed in the folder cannot lead out of it.
// Everything is opened read-only; nothing here writes.
const fs = require('node:fs');
const path = require('node:path');
const { HttpError, badRequest } = require('@lab/node-kit/errors');
const { RUN_FILE, SCENARIO_FILE } = require('../run/run-folder');

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
// What a run folder holds that a browser may open: report.html, compare.html (make compare), run.json, NN-<name>.json.
const TYPES = { '.html': 'text/html; charset=utf-8', '.json': 'application/json; charset=utf-8' };
const MAX_LISTED = 50;
// run.json files read for one listing (the newest folders), so a results folder of years stays quick to list; the
// previous run of the oldest listed ones is looked for among them.
const MAX_SCANNED = 200;

function createResultsFolder(resultsDir) {
  // Resolved once: RESULTS_DIR may itself be a link (a bind mount's path); what is inside it may not.
  const root = fs.realpathSync(resultsDir);

  /** A name from a request, checked: 400 for one that is not a plain name (naming what is), else the name. */
  function checkName(what, name) {
    if (typeof name !== 'string' || !NAME.test(name)) {
      throw badRequest(`${what} must be one name of letters, digits, '.', '_' and '-', not starting with '.': no path`, { parameter: what, allowed: NAME.source });
    }
    return name;
  }

  /** The folder of run `id`: a real folder (not a link) directly in RESULTS_DIR, else 404. */
  function runDir(id) {
    checkName('run', id);
    const dir = path.join(root, id);
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (!stat || !stat.isDirectory()) throw new HttpError(404, `no run ${id} in the results folder`, { allowed: 'a run id that GET /live/runs lists' });
    return dir;
  }

  /**
   * A run's folder for the report's and compare's readers, which open its files by name: refused (404) when run.json
   * or a scenario file is a link, which they would follow.
   */
  function regularRunDir(id) {
    const dir = runDir(id);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if ((entry.name === RUN_FILE || SCENARIO_FILE.test(entry.name)) && !entry.isFile()) throw new HttpError(404, `run ${id} holds ${entry.name}, which is not a regular file: not read`, { allowed: 'runs whose files are regular files' });
    }
    return dir;
  }

  /** Opens file `name` of run `id` read-only, refusing a link (O_NOFOLLOW) and anything but a regular file. */
  function openFile(id, name) {
    const dir = runDir(id);
    checkName('file', name);
    const type = TYPES[path.extname(name)];
    if (!type) throw new HttpError(404, `${name}: only a run's .html and .json files are served`, { allowed: Object.keys(TYPES) });
    let fd;
    try {
      fd = fs.openSync(path.join(dir, name), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (err) {
      throw new HttpError(404, `no file ${name} in run ${id}${err.code === 'ELOOP' ? ' (a link is not served)' : ''}`, { allowed: "a run's report.html, run.json or scenario file" });
    }
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      fs.closeSync(fd);
      throw new HttpError(404, `${name} in run ${id} is not a file`, { allowed: "a run's report.html, run.json or scenario file" });
    }
    return { fd, size: stat.size, type };
  }

  /** run.json of a run folder entry, or null when it has none (or an unreadable one, or a link). */
  function header(dir) {
    let fd;
    try {
      fd = fs.openSync(path.join(dir, RUN_FILE), fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
      return JSON.parse(fs.readFileSync(fd, 'utf8'));
    } catch {
      return null;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
  }

  /**
   * The newest MAX_LISTED runs, newest first (run ids start with their UTC start time): {id, suite, startedAt,
   * endedAt, verdict, scenarios, report (its path on the driver, or null), previous (the run of the same suite before
   * it, for a comparison)}, and how many folders the results folder holds.
   */
  function listRuns() {
    const ids = fs.readdirSync(root, { withFileTypes: true }).filter((e) => e.isDirectory() && NAME.test(e.name)).map((e) => e.name).sort().reverse();
    const runs = [];
    for (const id of ids.slice(0, MAX_SCANNED)) {
      const run = header(path.join(root, id));
      if (!run || typeof run.suite !== 'string') continue; // a folder that is not a run, or one still waiting for its targets
      const report = fs.lstatSync(path.join(root, id, 'report.html'), { throwIfNoEntry: false });
      runs.push({
        id,
        suite: run.suite,
        startedAt: run.startedAt || null,
        endedAt: run.endedAt || null,
        verdict: run.verdict || run.state || null,
        scenarios: Array.isArray(run.summary) ? run.summary.length : 0,
        report: report && report.isFile() ? `/results/${id}/report.html` : null,
        previous: null,
      });
    }
    for (const [i, run] of runs.entries()) {
      const before = runs.slice(i + 1).find((r) => r.suite === run.suite && r.scenarios > 0);
      if (before && run.scenarios > 0) run.previous = before.id;
    }
    return { runs: runs.slice(0, MAX_LISTED), folders: ids.length };
  }

  return { root, runDir, regularRunDir, openFile, listRuns, checkName };
}

module.exports = { createResultsFolder, MAX_LISTED };

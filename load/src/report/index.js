'use strict';
// writeReport(runDir): a run folder's report.html, one self-contained file (no network): the tables, the chart data
// and uPlot itself (a pinned dependency, read from node_modules) inlined.
const fs = require('node:fs');
const path = require('node:path');
const { readRun } = require('./read-run');
const { buildModel } = require('./model');
const { renderHtml } = require('./html');

const REPORT_FILE = 'report.html';

function assets() {
  const uplotDir = path.join(path.dirname(require.resolve('uplot/package.json')), 'dist');
  return {
    uplotJs: fs.readFileSync(path.join(uplotDir, 'uPlot.iife.min.js'), 'utf8'),
    uplotCss: fs.readFileSync(path.join(uplotDir, 'uPlot.min.css'), 'utf8'),
    browserJs: fs.readFileSync(path.join(__dirname, 'browser.js'), 'utf8'),
    css: fs.readFileSync(path.join(__dirname, 'report.css'), 'utf8'),
  };
}

/** Writes runDir/report.html from the run's JSON files and returns its path; throws (code NOT_A_RUN) for a folder that is not a run. */
function writeReport(runDir) {
  const run = readRun(runDir);
  const file = path.join(run.runDir, REPORT_FILE);
  fs.writeFileSync(file, renderHtml(buildModel(run), assets()));
  return file;
}

module.exports = { writeReport, REPORT_FILE };

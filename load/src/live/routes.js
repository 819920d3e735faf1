'use strict';
// The live page's routes (README.md, "The live page"): the page and its files, the run's state and progress, its
// charts' data from Prometheus, the ranking of the scenarios that ended, the runs in the results folder, their
// reports and a comparison of two of them. All GET, all read-only; server.js puts each request through the
// contract's checks and the same-site guard before it reaches a handler here, which reads its query through
// node-kit/params (a 400 naming what is allowed) and throws HttpErrors for the rest.
const fs = require('node:fs');
const path = require('node:path');
const { parseOnlyParams } = require('@lab/node-kit/params');
const { HttpError, badRequest } = require('@lab/node-kit/errors');
const { readManifests } = require('@lab/lab-topology/manifests');
const { suiteNames } = require('../suite/suites');
const { createLiveSeries, SECONDS } = require('./series');
const { createResultsFolder } = require('./results-folder');
const { progressOf } = require('./progress');
const { MEDIA_TYPES } = require('@lab/node-kit/document-upload');
const { readRun: readReportRun } = require('../report/read-run');
const { buildModel } = require('../report/model');
const { ranking } = require('../report/html');
const { scenarioFileName } = require('../run/run-folder');
const { readRun: readCompareRun, CompareInputError } = require('../compare/read-run');
const { compareRuns } = require('../compare/compare-runs');
const { renderHtml: renderCompare } = require('../compare/html');

// The page may load its own files and talk to the driver, nothing else: no other origin, no inline script, no frame
// around it (so its future buttons cannot be clicked through another site's page).
const PAGE_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
// A run's files: report.html inlines its script and style; nothing in it may fetch, submit or be framed.
const RESULT_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

// Every route below, for the driver's route table (server.js): a handler missing or added without it fails the start.
const LIVE_ROUTES = ['GET /', 'GET /live/page.js', 'GET /live/upload.js', 'GET /live/attach.js', 'GET /live/report.css', 'GET /live/page.css', 'GET /live/uplot.js', 'GET /live/uplot.css', 'GET /live/state', 'GET /live/series', 'GET /live/runs', 'GET /live/table', 'GET /live/compare', 'GET /results/:run/:file'];

/** The page's files, read once at start (a missing one fails the driver there): route -> {type, body}. */
function readAssets() {
  const uplot = path.join(path.dirname(require.resolve('uplot/package.json')), 'dist');
  const file = (type, ...parts) => ({ type, body: fs.readFileSync(path.join(...parts)) });
  return {
    'GET /': file('text/html; charset=utf-8', __dirname, 'page.html'),
    'GET /live/page.js': file('text/javascript; charset=utf-8', __dirname, 'page.js'),
    'GET /live/upload.js': file('text/javascript; charset=utf-8', __dirname, 'upload.js'),
    'GET /live/attach.js': file('text/javascript; charset=utf-8', __dirname, 'attach.js'),
    // The report's stylesheet first (its tables are the page's), then what the page adds.
    'GET /live/report.css': file('text/css; charset=utf-8', __dirname, '..', 'report', 'report.css'),
    'GET /live/page.css': file('text/css; charset=utf-8', __dirname, 'page.css'),
    'GET /live/uplot.js': file('text/javascript; charset=utf-8', uplot, 'uPlot.iife.min.js'),
    'GET /live/uplot.css': file('text/css; charset=utf-8', uplot, 'uPlot.min.css'),
  };
}

function send(res, status, type, body, policy = PAGE_POLICY) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': policy });
  res.end(body);
}
const sendJson = (res, body) => send(res, 200, 'application/json; charset=utf-8', JSON.stringify(body));

/** A string parameter given at most once: its value, or undefined when absent. */
function oneString(query, name) {
  const values = query[name];
  if (values === undefined) return undefined;
  if (values.length !== 1) throw badRequest(`parameter ${name} must be given once`, { parameter: name, allowed: 'one run id' });
  return values[0];
}

/**
 * {route: handler(res, query, segments)} for config ({prometheusUrl, resultsDir}) and the runner, whose targets() are
 * the driver's with the service POST /attach named last (attach/attachment.js): the page shows those.
 */
function liveRoutes({ config, runner }) {
  const assets = readAssets();
  const kinds = Object.fromEntries(readManifests().map((m) => [m.name, m.kind]));
  // An attached service's row takes its agent's kind (node or jvm); its agent has no row: its series are the service's.
  const targetsNow = () => {
    const attachment = runner.attachment();
    const agents = attachment ? Object.values(attachment.attached).filter(Boolean) : [];
    return Object.keys(runner.targets()).filter((name) => !agents.includes(name)).map((name) => ({ name, kind: (attachment && attachment.kinds[name]) || kinds[name] || null }));
  };
  const liveSeries = createLiveSeries(config.prometheusUrl, config.busyPercent);
  const results = createResultsFolder(config.resultsDir);
  // What the page's upload control checks before it sends a file: a file past the cap is refused by PUT /documents
  // before its body is read, and a browser still sending it may see the connection closed instead of that answer.
  const uploadCaps = { maxDocumentBytes: config.documents.maxDocumentBytes, mediaTypes: MEDIA_TYPES };

  const handlers = {
    'GET /live/state': (res, query) => {
      parseOnlyParams({}, query);
      const run = runner.latest();
      sendJson(res, { at: new Date().toISOString(), prometheus: config.prometheusUrl, targets: targetsNow(), suites: suiteNames(config.suitesDir), documents: uploadCaps, run, progress: progressOf(run, Date.now()) });
    },
    'GET /live/series': async (res, query) => {
      const { seconds } = parseOnlyParams({ seconds: SECONDS }, query);
      sendJson(res, await liveSeries(seconds, targetsNow().map((target) => target.name)));
    },
    'GET /live/runs': (res, query) => {
      parseOnlyParams({}, query);
      sendJson(res, results.listRuns());
    },
    // The report's ranking of the latest run's scenarios that have ended, from their result files (the same function
    // as report.html), each linking to its file: an HTML fragment the page puts in place.
    'GET /live/table': (res, query) => {
      parseOnlyParams({}, query);
      const run = runner.latest();
      let html = '<p>No scenario of this run has ended yet.</p>';
      let ended = 0;
      if (run && run.id && run.completed.length > 0) {
        const model = buildModel(readReportRun(results.regularRunDir(run.id)));
        ended = model.sections.length;
        html = ranking(model.ranking, model.unranked, (s) => `/results/${encodeURIComponent(run.id)}/${encodeURIComponent(scenarioFileName(s.index, s.name))}`);
      }
      send(res, 200, 'text/html; charset=utf-8', `<div data-run="${run && run.id ? run.id : ''}" data-ended="${ended}">${html}</div>`);
    },
    // Run b against run a, as `make compare` does, rendered here and written nowhere.
    'GET /live/compare': (res, query) => {
      for (const name of Object.keys(query)) if (name !== 'a' && name !== 'b') throw badRequest(`unknown parameter ${name}`, { parameter: name, allowed: ['a', 'b'] });
      const dirs = ['a', 'b'].map((name) => {
        const id = oneString(query, name);
        if (id === undefined) throw badRequest(`parameter ${name} is required: a run id`, { parameter: name, allowed: 'a run id that GET /live/runs lists' });
        return results.regularRunDir(results.checkName(name, id));
      });
      let report;
      try {
        report = compareRuns(readCompareRun(dirs[0]), readCompareRun(dirs[1]));
      } catch (err) {
        if (err instanceof CompareInputError) throw new HttpError(404, `cannot compare: ${err.message}`, { allowed: 'two runs with scenario results' });
        throw err;
      }
      send(res, 200, 'text/html; charset=utf-8', renderCompare(report), RESULT_POLICY);
    },
    'GET /results/:run/:file': (res, query, segments) => {
      parseOnlyParams({}, query);
      const { fd, size, type } = results.openFile(segments[1], segments[2]);
      res.writeHead(200, { 'Content-Type': type, 'Content-Length': size, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': RESULT_POLICY });
      fs.createReadStream(null, { fd }).pipe(res);
    },
  };
  for (const [route, asset] of Object.entries(assets)) {
    handlers[route] = (res, query) => {
      parseOnlyParams({}, query);
      send(res, 200, asset.type, asset.body);
    };
  }
  const routes = Object.keys(handlers);
  if (routes.length !== LIVE_ROUTES.length || !routes.every((r) => LIVE_ROUTES.includes(r))) throw new Error(`LIVE_ROUTES (${LIVE_ROUTES.join(', ')}) and the live handlers (${routes.join(', ')}) differ`);
  return handlers;
}

module.exports = { liveRoutes, LIVE_ROUTES };

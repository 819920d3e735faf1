'use strict';
// Runs one scenario with autocannon's programmatic API, checking every response on the way: a /run result must say
// validated: true, so a fast wrong answer fails the scenario instead of improving its numbers.
const autocannon = require('autocannon');

/** A per-response check that counts what the scenario's `expect` rejects. */
function responseChecker(expect) {
  const counts = { checked: 0, invalid: 0, failedRuns: 0, samples: [] };
  const remember = (text) => {
    if (counts.samples.length < 3) counts.samples.push(text.slice(0, 300));
  };
  function onResponse(status, body) {
    counts.checked++;
    if (status < 200 || status > 299) {
      counts.failedRuns++;
      remember(`HTTP ${status}: ${body}`);
      return;
    }
    if (expect !== 'validated') return;
    let result;
    try {
      result = JSON.parse(body);
    } catch {
      result = null;
    }
    if (!result || result.validated !== true) {
      counts.invalid++;
      remember(body);
    }
  }
  return { counts, onResponse };
}

/** Resolves to {scenario, url, result (autocannon's JSON), checks, passed, problems}. */
function runScenario(scenario, baseUrl, { onStart } = {}) {
  const checker = responseChecker(scenario.expect);
  const body = scenario.body === undefined ? undefined : typeof scenario.body === 'string' ? scenario.body : JSON.stringify(scenario.body);
  const headers = Object.assign(body !== undefined ? { 'content-type': 'application/json' } : {}, scenario.headers);
  const options = {
    url: baseUrl,
    connections: scenario.connections,
    duration: scenario.durationSeconds,
    maxOverallRequests: scenario.maxRequests,
    timeout: scenario.timeoutSeconds || 10,
    requests: [{ method: scenario.method || 'GET', path: scenario.path, body, headers, onResponse: checker.onResponse }],
  };
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (err, result) => {
      if (err) return reject(err);
      const problems = [];
      if (result.errors > 0) problems.push(`${result.errors} connection errors (${result.timeouts} timeouts)`);
      if (result.non2xx > 0) problems.push(`${result.non2xx} non-2xx responses`);
      if (checker.counts.invalid > 0) problems.push(`${checker.counts.invalid} responses not validated`);
      if (result.requests.total === 0) problems.push('no request completed');
      resolve({ scenario, url: baseUrl, result, checks: checker.counts, passed: problems.length === 0, problems });
    });
    if (onStart) onStart(instance);
  });
}

module.exports = { runScenario };

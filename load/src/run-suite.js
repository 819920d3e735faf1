'use strict';
// Starts a suite on a running load driver and follows it to the end; exits 0 only if every scenario passed (1 when one
// failed, a threshold included, or the suite was stopped with POST /runs/stop).
// Usage: node src/run-suite.js SUITE [DRIVER_URL] [--targets a,b]   (default http://127.0.0.1:$PORT, PORT defaulting
// to 3005; --targets runs only the suite's scenarios of those targets, POST /runs' targets)
const { describeSummary } = require('./run/summary');

const POLL_MS = 1000;

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--targets');
  const targets = at >= 0 ? args.splice(at, 2)[1] : undefined;
  const [suite, base = `http://127.0.0.1:${process.env.PORT || 3005}`] = args;
  if (!suite || (at >= 0 && !targets)) throw new Error('usage: run-suite.js SUITE [DRIVER_URL] [--targets a,b]');
  const query = `suite=${encodeURIComponent(suite)}${targets ? `&targets=${encodeURIComponent(targets)}` : ''}`;
  const started = await fetch(`${base}/runs?${query}`, { method: 'POST' });
  if (started.status !== 202) throw new Error(`could not start suite ${suite}: ${(await started.json()).error}`);
  let shown = 0;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const status = await (await fetch(`${base}/runs/latest`)).json();
    for (const summary of status.completed.slice(shown)) console.log(describeSummary(summary));
    shown = status.completed.length;
    if (status.state === 'error') throw new Error(`suite ${suite}: ${status.error}`);
    if (['passed', 'failed', 'stopped'].includes(status.state)) {
      console.log(`suite ${suite}: ${status.state} (${status.completed.filter((s) => s.passed).length}/${status.scenarios} scenarios), results in ${status.resultsDir}${status.report ? `, report ${status.report}` : ''}`);
      return status.state === 'passed';
    }
  }
}

main().then(
  (passed) => process.exit(passed ? 0 : 1),
  (err) => {
    console.error(`run-suite: ${err.message}`);
    process.exit(2);
  },
);

'use strict';
// Every reading the agent exports, started once: the collectors' texts joined make /metrics, their names /info's
// list. Each collector reads at the scrape (the loop-delay monitor and the GC observer record between scrapes), so
// nothing of the agent runs between scrapes but those two. Node 14 syntax.
const { loopDelay } = require('./loop-delay');
const { loopUtilization } = require('./loop-utilization');
const { gcPauses } = require('./gc-pauses');
const { processMetrics } = require('./process-metrics');
const { watchWorkers } = require('./workers');

/** {text(), names(), workers(), stop()}: workers is the count of worker threads watched now. */
function startMetrics(settings) {
  const workers = watchWorkers();
  const collectors = [loopDelay(settings.lagResolutionMs), loopUtilization(), gcPauses(), processMetrics(), workers];
  return {
    text: () => collectors.map((c) => c.text()).join(''),
    names: () => [].concat(...collectors.map((c) => c.names)),
    workers: () => workers.count(),
    // Where the side port could not be had: the monitor, the observer and the Worker subclass go away.
    stop: () => collectors.forEach((c) => c.stop && c.stop()),
  };
}

module.exports = { startMetrics };

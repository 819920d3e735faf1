'use strict';
// Prometheus told to scrape an attached service's agent, from the driver: where the driver is given the folder
// Prometheus reads its file_sd targets from (LOAD_SCRAPE_TARGETS_DIR: natively the state folder's targets/, in compose
// the targets volume), it writes attached.json there (the agent, labelled with the service's job; an empty list for a
// service without an agent, so that a previous one is no longer scraped) and the run waits, bounded, until Prometheus
// holds two scrapes of it, so that the first load's counters have a sample before its window. Without the folder
// the run goes on, and its verdict names the agent's series as not measured.
const fs = require('node:fs');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { queryInstant, quote } = require('../scenario/server-series');

const FILE = 'attached.json';
// A bound on Prometheus' first scrapes of the agent (it reads its targets folder every 5 s, scrapes every second).
const SCRAPES_TIMEOUT_MS = 60000;
const POLL_MS = 500;

/** Writes dir/attached.json whole (Prometheus may read it at any moment): the agent's host as job, or no target. */
function writeScrapeTargets(dir, job, agentHost) {
  const file = path.join(dir, FILE);
  const groups = agentHost ? [{ targets: [agentHost], labels: { job } }] : [];
  fs.writeFileSync(`${file}.tmp`, `${JSON.stringify(groups, null, 2)}\n`);
  fs.renameSync(`${file}.tmp`, file);
  return file;
}

/**
 * Resolves once Prometheus holds two scrapes of job; throws after timeoutMs naming the job and what it saw, or with
 * the signal's reason once it aborts.
 */
async function scrapedTwice(prometheusUrl, job, signal, timeoutMs = SCRAPES_TIMEOUT_MS) {
  const deadline = Date.now() + timeoutMs;
  let seen;
  for (;;) {
    signal.throwIfAborted();
    try {
      const [sample] = await queryInstant(prometheusUrl, `count_over_time(up{job=${quote(job)}}[1m])`);
      if (sample && Number(sample.value[1]) >= 2) return;
      seen = sample ? sample.value[1] : 'no';
    } catch (err) {
      seen = `no answer (${err.message})`;
    }
    if (Date.now() > deadline) throw new Error(`Prometheus at ${prometheusUrl} had ${seen} scrapes of the agent (job ${job}) after ${timeoutMs / 1000} s: does it read ${FILE} from LOAD_SCRAPE_TARGETS_DIR?`);
    await sleep(POLL_MS, undefined, { signal }).catch(() => undefined);
  }
}

/**
 * The attachment as a driver with config {scrapeTargetsDir, prometheusUrl} runs it: ready(signal), which the runner
 * calls as the run starts (not before: a POST /attach refused tells Prometheus nothing), tells Prometheus of the agent
 * (or of none) and waits for its scrapes; waitingFor says so in words (null when there is nothing to wait for);
 * unscraped says why the agent's series will be missing (null when they will not be, or there is no agent).
 */
function scrapeAttachment(config, attachment) {
  const dir = config.scrapeTargetsDir;
  const told = Boolean(dir && config.prometheusUrl && attachment.agentHost);
  const why = !config.prometheusUrl ? 'the driver has no Prometheus (PROMETHEUS_URL=none)' : 'the driver has no LOAD_SCRAPE_TARGETS_DIR to tell Prometheus of the agent';
  return Object.assign({}, attachment, {
    unscraped: attachment.agentHost && !told ? `the agent's series (lag, ELU, GC, CPU): ${why}` : null,
    waitingFor: told ? `Prometheus' second scrape of the agent (job ${attachment.job})` : null,
    ready: async (signal) => {
      if (dir) writeScrapeTargets(dir, attachment.job, told ? attachment.agentHost : null);
      if (told) await scrapedTwice(config.prometheusUrl, attachment.job, signal);
    },
  });
}

module.exports = { scrapeAttachment, writeScrapeTargets, scrapedTwice, SCRAPES_TIMEOUT_MS };

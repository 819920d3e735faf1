'use strict';
// The lab's topology for native runs, read from the one file that already lists every service and its port:
// prometheus.yml (written for compose, with service names as host names). Native runs use the same file with every
// target rewritten to 127.0.0.1 and its port shifted by LAB_PORT_OFFSET (default 0) — the only difference between
// the two modes.
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const PROMETHEUS_CONFIG = path.join(ROOT, 'prometheus.yml');
const TARGET = /(['"]?)([a-z0-9-]+):(\d+)\1/g;

/** [{job, host, port}] for every static target in prometheus.yml, in file order. */
function readTargets(configText = fs.readFileSync(PROMETHEUS_CONFIG, 'utf8')) {
  const targets = [];
  let job = null;
  for (const line of configText.split('\n')) {
    const jobMatch = /^\s*-?\s*job_name:\s*['"]?([a-z0-9-]+)/.exec(line);
    if (jobMatch) job = jobMatch[1];
    const targetsMatch = /^\s*-?\s*targets:\s*\[(.*)\]/.exec(line);
    if (targetsMatch && job) {
      for (const m of targetsMatch[1].matchAll(TARGET)) targets.push({ job, host: m[2], port: Number(m[3]) });
    }
  }
  if (targets.length === 0) throw new Error(`no static targets found in ${PROMETHEUS_CONFIG}`);
  return targets;
}

/** prometheus.yml for a native run: the same text with every target at 127.0.0.1 and its port shifted. */
function nativePrometheusConfig(offset, configText = fs.readFileSync(PROMETHEUS_CONFIG, 'utf8')) {
  return configText.replace(/^(\s*-?\s*targets:\s*\[)(.*)\]/gm, (line, head, list) => `${head}${list.replace(TARGET, (m, q, host, port) => `${q}127.0.0.1:${Number(port) + offset}${q}`)}]`);
}

/**
 * What a native run starts: every job of prometheus.yml with a folder of its own (services/<job> or <job>/ at the
 * top, which has a Makefile with a `start` target), plus Prometheus itself (the job named prometheus).
 */
function nativeLab(offset) {
  const targets = readTargets();
  const components = [];
  let prometheus = null;
  for (const t of targets) {
    const port = t.port + offset;
    if (t.job === 'prometheus') {
      prometheus = { name: 'prometheus', port };
      continue;
    }
    const dir = [path.join(ROOT, 'services', t.job), path.join(ROOT, t.job)].find((d) => fs.existsSync(path.join(d, 'Makefile')));
    if (!dir) throw new Error(`prometheus.yml job ${t.job} has no services/${t.job}/ or ${t.job}/ folder with a Makefile`);
    components.push({ name: t.job, dir, port, url: `http://127.0.0.1:${port}` });
  }
  if (!prometheus) throw new Error('prometheus.yml has no job named prometheus');
  return { components, prometheus };
}

module.exports = { ROOT, PROMETHEUS_CONFIG, readTargets, nativePrometheusConfig, nativeLab };

#!/usr/bin/env node
'use strict';
// `make hostile`: issue 57's fourth hostile round replayed on the containerized lab, the way a user runs it: every
// request that hurt a service (a rebound name reading a document, plugins that mutate, throw or never settle, documents
// at the caps that ran three runtimes out of memory, a trickled upload, a try run narrowed to one target, the JVM's
// findings and refusals against the Node services') sent to a compose project of its own (ports shifted by
// HOSTILE_PORT_OFFSET, the hostile plugins of js-serializers/test/plugins/hostile mounted as the Node services'
// plugins), each answered as CONTRACT.md says (docker/hostile-items.js). Then no container restarted and no service
// process started again (docker's RestartCount and StartedAt, read before and after). Always ends with
// `docker compose down -v`. A check of its own, not part of `make test`: it uploads documents of 64 MiB, which takes
// minutes here.
//
//   node docker/hostile.js [--only <text>]    (--only: the items whose name has <text>)
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');
const { composeLab, exitWith, mustRun, PORT_OFFSETS } = require('./compose-lab');
const { ITEMS } = require('./hostile-items');

const PROJECT = 'lab-hostile';
const STATE_DIR = path.join(ROOT, '.hostile');
const PLUGINS = path.join('js-serializers', 'test', 'plugins', 'hostile');

const log = (message) => console.log(`hostile: ${message}`);

/** {service: {restarts, startedAt}} of the project's containers, as docker inspect has them. */
async function containers(lab) {
  const ids = (await mustRun('listing the containers', ...lab.compose(['ps', '-q']))).trim().split('\n').filter(Boolean);
  const format = '{{index .Config.Labels "com.docker.compose.service"}} {{.RestartCount}} {{.State.StartedAt}}';
  const lines = (await mustRun('inspecting the containers', 'docker', ['inspect', '-f', format].concat(ids))).trim().split('\n');
  return Object.fromEntries(lines.map((line) => line.split(' ')).map(([service, restarts, startedAt]) => [service, { restarts: Number(restarts), startedAt }]));
}

async function main(argv) {
  const started = Date.now();
  const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : '';
  const items = Object.entries(ITEMS).filter(([name]) => name.includes(only));
  if (items.length === 0) throw new Error(`--only ${only} names no item; the items: ${Object.keys(ITEMS).join(' | ')}`);
  process.env.LAB_PLUGINS_DIR = `./${PLUGINS}`;
  const lab = composeLab({ project: PROJECT, stateDir: STATE_DIR, offset: Number(process.env.HOSTILE_PORT_OFFSET || PORT_OFFSETS.hostile), log });
  if (!(await lab.prepare())) return 0;
  return lab.session(started, async () => {
    const before = await containers(lab);
    const failed = [];
    for (const [name, item] of items) {
      const itemStarted = Date.now();
      try {
        const lines = (await item(lab)) || [];
        log(`${name}: as the contract says (${Math.round((Date.now() - itemStarted) / 1000)} s)`);
        for (const line of lines) log(`  ${line}`);
      } catch (err) {
        failed.push(name);
        log(`${name}: FAILED: ${err.message}`);
      }
    }
    const after = await containers(lab);
    const restarted = Object.keys(before).filter((s) => !after[s] || after[s].restarts !== before[s].restarts || after[s].startedAt !== before[s].startedAt);
    log(restarted.length ? `restarted: ${restarted.join(', ')}` : `no container restarted, no process started again (${Object.keys(after).length} containers)`);
    if (failed.length || restarted.length) throw new Error(`${failed.length} of ${items.length} items failed${restarted.length ? `, ${restarted.join(', ')} restarted` : ''}`);
  });
}

exitWith('hostile', main);

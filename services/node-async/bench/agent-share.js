'use strict';
// The agent's own share of its service's CPU, read off the service's CPU profile (taken through the agent's POST
// /profile while the service is loaded): a figure other processes on the machine do not move, where the side-by-side
// throughput and CPU a request of instrumentation-cost.js move by tens of per cent between rounds on a busy machine.
// A sample is the agent's when the first frame of the lab's own code in its stack, from the outermost, is in
// agents/node-agent: the agent's work starts from its own timers, observers and side-port handlers, while the service
// calls into the agent's package (its thread clock) from frames of its own, which are the service's cost.
const path = require('node:path');

const AGENT_FOLDER = `${path.sep}agents${path.sep}node-agent${path.sep}`;
const LAB_ROOT = path.resolve(__dirname, '..', '..', '..');
const IDLE = '(idle)';

/** {agentMs, busyMs, share, samples} of a .cpuprofile: the agent's samples' time over all but idle time. */
function agentShareOfProfile(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const child of n.children || []) parent.set(child, n.id);
  const owner = new Map(); // node id -> 'agent' | 'other' | 'idle'
  const ownerOf = (id) => {
    if (owner.has(id)) return owner.get(id);
    const chain = [];
    for (let at = id; at !== undefined; at = parent.get(at)) chain.push(byId.get(at).callFrame);
    let who = byId.get(id).callFrame.functionName === IDLE ? 'idle' : 'other';
    for (let i = chain.length - 1; i >= 0 && who === 'other'; i--) {
      const url = chain[i].url.replace(/^file:\/\//, '');
      if (!url.startsWith(LAB_ROOT)) continue;
      who = url.includes(AGENT_FOLDER) ? 'agent' : 'service';
    }
    owner.set(id, who);
    return who;
  };
  let agentUs = 0;
  let busyUs = 0;
  let agentSamples = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i + 1] !== undefined ? profile.timeDeltas[i + 1] : 0;
    const who = ownerOf(id);
    if (who === 'idle') return;
    busyUs += us;
    if (who === 'agent') {
      agentUs += us;
      agentSamples++;
    }
  });
  return { agentMs: agentUs / 1000, busyMs: busyUs / 1000, share: busyUs > 0 ? agentUs / busyUs : 0, samples: agentSamples };
}

/** The service's CPU profile of the next `seconds`, through its agent's POST /profile (agentUrl, token). */
async function agentProfile(agentUrl, token, seconds) {
  const res = await fetch(`${agentUrl}/profile?seconds=${seconds}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`the agent's POST /profile answered ${res.status}: ${await res.text()}`);
  return (await res.json()).profile;
}

module.exports = { agentShareOfProfile, agentProfile };

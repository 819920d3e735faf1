'use strict';
// Targets the lab did not write (`make attach`): a user's service, loaded at the endpoint the user names, with or
// without the lab's agent beside it (agents/node-agent, agents/jvm-agent). Such a target has no /healthz or /info of
// its own: the driver asks its agent's instead (the agent is another target, on its side port, in the same process),
// and, without an agent, takes any answer of the service's own URL below 500 as "up". LOAD_ATTACHED names them:
// "attached=attached-agent" (the target and its agent's target), or "attached=" for a service without an agent.
const NAME = /^[a-z0-9-]+$/;

/** LOAD_ATTACHED's text -> {target: agent target name or null}; every name among targets ({name: url}). */
function parseAttached(text, targets) {
  const attached = {};
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, agent = '', extra] = entry.split('=');
    if (extra !== undefined || !NAME.test(name) || (agent !== '' && !NAME.test(agent))) throw new Error(`LOAD_ATTACHED: "${entry}" is not target=agent-target (or target= without an agent)`);
    for (const named of [name, agent].filter(Boolean)) {
      if (!targets[named]) throw new Error(`LOAD_ATTACHED: ${named} is not one of LOAD_TARGETS (${Object.keys(targets).join(', ')})`);
    }
    attached[name] = agent || null;
  }
  return attached;
}

/**
 * How the driver asks whether target `name` (at url) is up: {url, anyAnswer}. A lab service: its /healthz, 200 only.
 * An attached one: its agent's /healthz, or without an agent the service's own URL, any status below 500 (a 404 of
 * a root that serves nothing still says the process is there).
 */
function healthCheckOf(name, url, attached = {}, targets = {}) {
  if (!(name in attached)) return { url: `${url}/healthz`, anyAnswer: false };
  const agent = attached[name];
  return agent ? { url: `${targets[agent]}/healthz`, anyAnswer: false } : { url: `${url}/`, anyAnswer: true };
}

/**
 * What run.json keeps of an attached target in place of its /info: its URL, its agent's /info (or null) and the
 * runtime the agent found it running on, which the report's header names as it names a lab service's.
 */
function attachedInfo(url, agentInfo) {
  return Object.assign({ url, attached: true, agent: agentInfo || null }, agentInfo && agentInfo.runtime ? { runtime: agentInfo.runtime } : {});
}

module.exports = { parseAttached, healthCheckOf, attachedInfo };

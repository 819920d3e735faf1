'use strict';
// The agent's settings, from the environment, each with its default, all in this one place and each checked here:
// a bad one throws a SettingError whose message is the one line the agent writes on stderr before it stays off.
// Node 14 syntax.

// OpenTelemetry's Prometheus exporter's port: a scraper configured for it finds the agent there.
const DEFAULT_PORT = 9464;
const DEFAULT_HOST = '127.0.0.1';
// The loop-delay monitor's timer interval. 10 ms, prom-client's default, not the 1 ms the lab's services use: the
// monitor is a libuv timer that wakes the loop every interval whatever the process does, and the agent goes into
// processes the lab did not write, idle ones included. Measured on the lab's 2-core VM (2026-11-29, an idle process
// with the monitor alone, CPU time over 10 and 20 s): on Node 24 1 ms cost 2.4 to 4.9 % of a core and 10 ms 0.5 to
// 0.6 %; on Node 14 neither was distinguishable from none (under 0.1 %). Under load (make bench-instrumentation) the
// two resolutions were within the rounds' noise of each other (this folder's README.md, "What it costs"). What 10 ms
// gives up: an idle loop's delay reads about 10 ms instead of about 1 ms (a sample is a whole interval), and a block
// shorter than the interval may not show in the max; blocks the lab looks for (tens of ms and more) show either way.
// LAB_AGENT_LAG_RESOLUTION_MS=1 gives the services' view.
const DEFAULT_LAG_RESOLUTION_MS = 10;

const { tokenFolder, ownUid } = require('./token-file');

class SettingError extends Error {}

const INTEGER = /^\d+$/;
// A DNS name or an IP literal: letters, digits, dots, dashes, underscores, an IPv6 literal's colons.
const HOST_NAME = /^[A-Za-z0-9._:-]+$/;

function integerIn(env, name, fallback, min, max) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = INTEGER.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) throw new SettingError(`${name} must be an integer in [${min}, ${max}], not ${JSON.stringify(raw)}`);
  return value;
}

/**
 * {port, host, portFile, hostNames, profileToken, tokenFolder, lagResolutionMs} from env, or a thrown SettingError
 * naming the setting, what it allows and what it got. An empty value is the same as none. tokenFolder: where the
 * token file goes without a profileToken (token-file.js), or null where the platform has no uid.
 */
function readSettings(env = process.env) {
  const host = env.LAB_AGENT_HOST || DEFAULT_HOST;
  if (!HOST_NAME.test(host)) throw new SettingError(`LAB_AGENT_HOST must be an IP address or a host name, not ${JSON.stringify(host)}`);
  const hostNames = (env.LAB_AGENT_HOST_NAMES || '').split(',').map((n) => n.trim()).filter(Boolean);
  const badName = hostNames.find((n) => !HOST_NAME.test(n));
  if (badName !== undefined) throw new SettingError(`LAB_AGENT_HOST_NAMES must be host names separated by commas, not ${JSON.stringify(badName)}`);
  return {
    port: integerIn(env, 'LAB_AGENT_PORT', DEFAULT_PORT, 0, 65535),
    host,
    portFile: env.LAB_AGENT_PORT_FILE || null,
    hostNames,
    profileToken: env.LAB_PROFILE_TOKEN || null,
    tokenFolder: tokenFolder(env, ownUid()),
    lagResolutionMs: integerIn(env, 'LAB_AGENT_LAG_RESOLUTION_MS', DEFAULT_LAG_RESOLUTION_MS, 1, 1000),
  };
}

module.exports = { readSettings, SettingError, DEFAULT_PORT, DEFAULT_HOST, DEFAULT_LAG_RESOLUTION_MS };

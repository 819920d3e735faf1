'use strict';
// Keeps web pages of other sites away from a lab server on the user's machine. A page the user visits can send a
// "simple" POST without a body to 127.0.0.1 (no CORS preflight), and a DNS name it controls can be rebound to
// 127.0.0.1 so that its script reads the answers as its own origin. Two checks stop both:
// - Host: the name the request was sent to must be one of the server's own (an IP literal, localhost, this machine's
//   host name, or a name given in the setting), so a rebound name never reaches a route;
// - Origin and Sec-Fetch-Site, on requests that change something (any method but GET and HEAD): a browser sends them
//   on every cross-origin POST, and a request from the server's own page carries its own origin. Clients that are not
//   browsers (curl, the tests, the driver's own tools) send neither and pass.
// Node 14 syntax.
const os = require('os');
const net = require('net');
const { HttpError } = require('./errors');

const READ_ONLY_METHODS = new Set(['GET', 'HEAD']);
// Browsers set Sec-Fetch-Site on every request; these two mean the request came from the server's own pages or from
// the user (a typed address, a bookmark).
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

/** The host name of a Host header, without its port and an IPv6 literal's brackets; '' when there is none. */
function hostName(host) {
  if (!host) return '';
  const bracketed = /^\[([^\]]*)\](?::\d*)?$/.exec(host);
  if (bracketed) return bracketed[1].toLowerCase();
  return host.replace(/:\d*$/, '').toLowerCase();
}

/** The names a server answers to: extraNames (a setting) beside localhost and this machine's host name. */
function ownNames(extraNames) {
  return new Set(['localhost', os.hostname().toLowerCase()].concat((extraNames || []).map((n) => n.toLowerCase())));
}

/** Whether a Host header names this server: an IP literal (no name to rebind), *.localhost or one of names. */
function isOwnHost(host, names) {
  const name = hostName(host);
  return net.isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost') || names.has(name);
}

/**
 * Throws a 403 for a request another site's page could have made: a Host that is not one of names (every method), or,
 * on a method that changes something, an Origin other than the server's own (http://<Host>) or a Sec-Fetch-Site of
 * another site. A request without Host (HTTP/1.0) is not a browser's.
 */
function checkSameSite(req, names) {
  const host = req.headers.host;
  if (host !== undefined && !isOwnHost(host, names)) {
    throw new HttpError(403, `Host ${JSON.stringify(host)} is not one of this server's names`, { allowed: ['an IP address', 'localhost'].concat(Array.from(names).filter((n) => n !== 'localhost')) });
  }
  if (READ_ONLY_METHODS.has(req.method)) return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`.toLowerCase()) {
    throw new HttpError(403, `a ${req.method} from another site's page (Origin ${JSON.stringify(origin)}) is refused`, { allowed: [`Origin http://${host}`, 'no Origin'] });
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) {
    throw new HttpError(403, `a ${req.method} from another site's page (Sec-Fetch-Site ${site}) is refused`, { allowed: Array.from(OWN_FETCH_SITES) });
  }
}

module.exports = { checkSameSite, ownNames, isOwnHost, hostName };

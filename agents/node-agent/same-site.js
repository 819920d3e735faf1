'use strict';
// Keeps web pages of other sites away from a lab server on the user's machine: the lab's one definition of the rules,
// here in the agent's package (which depends on nothing) so that the agent's side port and every lab server
// (node-kit/cross-site.js, which throws its HttpError from the refusal described here) apply the same ones.
// A page the user visits can send a "simple" POST without a body to 127.0.0.1 (no CORS preflight), make the browser
// GET any URL (an image, a script) without reading the answer, and a DNS name it controls can be rebound to 127.0.0.1
// so that its script reads the answers as its own origin. Three checks stop them, on every route but OPEN_ROUTES:
// - Host: the name the request was sent to must be one of the server's own (an IP literal, localhost, this machine's
//   host name, or a name given in the setting), so a rebound name never reaches a route;
// - Origin and Sec-Fetch-Site, on requests that change something (any method but GET and HEAD): a browser sends them
//   on every cross-origin POST, and a request from the server's own page carries its own origin;
// - Sec-Fetch-Site on reads: `cross-site` is refused unless the user navigated there (a link they followed), the
//   Fetch Metadata resource isolation policy, so another site's page cannot start runs blind.
// Clients that are not browsers (curl, the tests, the driver's own tools) send none of the headers and pass.
// Node 14 syntax.
const os = require('os');
const net = require('net');

const READ_ONLY_METHODS = new Set(['GET', 'HEAD']);
// What any Host may reach: read-only, about the process itself and never a user's data, and asked for by scrapers and
// health checks under whatever name they were given (a compose or Swarm service name, a pod's address).
const OPEN_ROUTES = new Set(['GET /healthz', 'GET /metrics']);
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

/** Whether a read is a top-level navigation the user made (Sec-Fetch-Mode navigate into a document, not an embed). */
const isNavigation = (req) => req.headers['sec-fetch-mode'] === 'navigate' && (req.headers['sec-fetch-dest'] || 'document') === 'document';

/**
 * The refusal of a request another site's page could have made, {status: 403, error, allowed}, or null: a Host that
 * is not one of names (every method); on a read, a Sec-Fetch-Site `cross-site` that is no navigation; on a method that
 * changes something, an Origin other than the server's own (http://<Host>) or a Sec-Fetch-Site of another site. A
 * request without Host (HTTP/1.0) is not a browser's. req: {method, headers} with lower-case header names.
 */
function sameSiteRefusal(req, names) {
  const refuse = (error, allowed) => ({ status: 403, error, allowed });
  const host = req.headers.host;
  if (host !== undefined && !isOwnHost(host, names)) {
    return refuse(`Host ${JSON.stringify(host)} is not one of this server's names`, ['an IP address', 'localhost'].concat(Array.from(names).filter((n) => n !== 'localhost')));
  }
  if (READ_ONLY_METHODS.has(req.method)) {
    if (req.headers['sec-fetch-site'] === 'cross-site' && !isNavigation(req)) {
      return refuse(`a ${req.method} from another site's page (Sec-Fetch-Site cross-site) is refused; follow a link or type the address`, ['same-origin', 'same-site', 'none', 'a navigation']);
    }
    return null;
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`.toLowerCase()) {
    return refuse(`a ${req.method} from another site's page (Origin ${JSON.stringify(origin)}) is refused`, [`Origin http://${host}`, 'no Origin']);
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && !OWN_FETCH_SITES.has(site)) {
    return refuse(`a ${req.method} from another site's page (Sec-Fetch-Site ${site}) is refused`, Array.from(OWN_FETCH_SITES));
  }
  return null;
}

/** sameSiteRefusal for every route but OPEN_ROUTES (route: 'GET /healthz', as a route table writes it). */
const routeRefusal = (route, req, names) => (OPEN_ROUTES.has(route) ? null : sameSiteRefusal(req, names));

module.exports = { sameSiteRefusal, routeRefusal, ownNames, isOwnHost, hostName, OPEN_ROUTES };

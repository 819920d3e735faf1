'use strict';
// Keeps web pages of other sites away from a lab server on the user's machine: the rules (Host, Origin and
// Sec-Fetch-Site, every route but OPEN_ROUTES) are the Node agent's same-site.js, the lab's one definition of them,
// which the agent's side port applies too; here they throw the contract's 403 (CONTRACT.md "Errors", row 6a).
// Node 14 syntax.
const { sameSiteRefusal, ownNames, isOwnHost, hostName, OPEN_ROUTES } = require('@lab/node-agent/same-site');
const { HttpError } = require('./errors');

/** Throws a 403 for a request another site's page could have made (same-site.js' sameSiteRefusal says which). */
function checkSameSite(req, names) {
  const refusal = sameSiteRefusal(req, names);
  if (refusal) throw new HttpError(refusal.status, refusal.error, { allowed: refusal.allowed });
}

/** checkSameSite for every route but OPEN_ROUTES (route: 'GET /healthz', as a route table writes it). */
function checkRoute(route, req, names) {
  if (!OPEN_ROUTES.has(route)) checkSameSite(req, names);
}

module.exports = { checkSameSite, checkRoute, ownNames, isOwnHost, hostName, OPEN_ROUTES };

'use strict';
// checkSameSite's reading of Host, Origin and Sec-Fetch-Site on plain request objects (the load driver's tests send
// the same over real HTTP and from a page in Chromium).
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { checkSameSite, checkRoute, ownNames, hostName } = require('../cross-site');

const names = ownNames(['load']);
const req = (method, headers) => ({ method, headers });
const refusal = (method, headers) => {
  try {
    checkSameSite(req(method, headers), names);
    return null;
  } catch (err) {
    return err.status;
  }
};

test('the host name of a Host header: port, brackets and case dropped', () => {
  assert.strictEqual(hostName('127.0.0.1:3005'), '127.0.0.1');
  assert.strictEqual(hostName('[::1]:3005'), '::1');
  assert.strictEqual(hostName('[::1]'), '::1');
  assert.strictEqual(hostName('LocalHost:80'), 'localhost');
  assert.strictEqual(hostName('load'), 'load');
  assert.strictEqual(hostName(''), '');
});

test("a Host of the server's own names passes on every method; any other name is refused, even on GET", () => {
  for (const host of ['127.0.0.1:3005', '10.0.0.7', '[::1]:3005', 'localhost:3005', 'app.localhost', 'load:3005', 'LOAD', os.hostname()]) {
    assert.strictEqual(refusal('GET', { host }), null, host);
    assert.strictEqual(refusal('POST', { host }), null, host);
  }
  for (const host of ['evil.example', 'evil.example:3005', 'localhost.evil.example', '127.0.0.1.nip.io', 'loadx']) {
    assert.strictEqual(refusal('GET', { host }), 403, host);
  }
  assert.strictEqual(refusal('POST', {}), null, 'HTTP/1.0 without Host');
});

test("Origin and Sec-Fetch-Site of another site are refused on methods that change something; on reads, a cross-site fetch that is no navigation", () => {
  const host = '127.0.0.1:3005';
  assert.strictEqual(refusal('POST', { host, origin: 'http://127.0.0.1:3005' }), null);
  assert.strictEqual(refusal('POST', { host, origin: 'http://127.0.0.1:3000' }), 403, 'another port is another origin');
  assert.strictEqual(refusal('POST', { host, origin: 'https://127.0.0.1:3005' }), 403, 'another scheme');
  assert.strictEqual(refusal('PUT', { host, origin: 'null' }), 403);
  assert.strictEqual(refusal('DELETE', { host, 'sec-fetch-site': 'cross-site' }), 403);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'same-site' }), 403);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'same-origin' }), null);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'none' }), null);
  // A read: the browser keeps the answer from the page, but the request itself would start a run.
  assert.strictEqual(refusal('GET', { host, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }), 403, 'a cross-origin fetch');
  assert.strictEqual(refusal('GET', { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'image' }), 403, 'an <img>');
  assert.strictEqual(refusal('GET', { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'iframe' }), 403, 'a frame');
  assert.strictEqual(refusal('GET', { host, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' }), null, 'a link the user followed');
  assert.strictEqual(refusal('HEAD', { host, 'sec-fetch-site': 'same-site' }), null, 'another port of localhost');
  assert.strictEqual(refusal('GET', { host, origin: 'http://evil.example' }), null, 'an Origin alone on a read: not a browser that keeps Fetch Metadata');
});

test('a route is checked unless it is /healthz or /metrics, which any name may reach', () => {
  const rebound = req('GET', { host: 'rebound.example' });
  assert.doesNotThrow(() => checkRoute('GET /healthz', rebound, names));
  assert.doesNotThrow(() => checkRoute('GET /metrics', rebound, names));
  for (const route of ['GET /info', 'GET /run/:workload', 'GET /documents', 'PUT /documents', 'POST /profile']) {
    assert.throws(() => checkRoute(route, Object.assign({}, rebound, { method: route.split(' ')[0] }), names), (err) => err.status === 403, route);
  }
});

'use strict';
// checkSameSite's reading of Host, Origin and Sec-Fetch-Site on plain request objects (the load driver's tests send
// the same over real HTTP and from a page in Chromium).
const test = require('node:test');
const assert = require('node:assert');
const os = require('node:os');
const { checkSameSite, ownNames, hostName } = require('../cross-site');

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

test("Origin and Sec-Fetch-Site of another site are refused on methods that change something, not on reads", () => {
  const host = '127.0.0.1:3005';
  assert.strictEqual(refusal('POST', { host, origin: 'http://127.0.0.1:3005' }), null);
  assert.strictEqual(refusal('POST', { host, origin: 'http://127.0.0.1:3000' }), 403, 'another port is another origin');
  assert.strictEqual(refusal('POST', { host, origin: 'https://127.0.0.1:3005' }), 403, 'another scheme');
  assert.strictEqual(refusal('PUT', { host, origin: 'null' }), 403);
  assert.strictEqual(refusal('DELETE', { host, 'sec-fetch-site': 'cross-site' }), 403);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'same-site' }), 403);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'same-origin' }), null);
  assert.strictEqual(refusal('POST', { host, 'sec-fetch-site': 'none' }), null);
  assert.strictEqual(refusal('GET', { host, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }), null, 'a read: the browser keeps the answer from the page');
});

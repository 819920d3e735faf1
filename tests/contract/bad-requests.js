'use strict';
// CONTRACT.md's "Errors" table as requests: the same bad requests for every HTTP face of the lab, each with the one
// answer every runtime must give. Sent raw over a socket, since no HTTP client would send most of them. Used by the
// integration test against all four services and the load driver, and by each Node service's own contract suite.
const net = require('net');

const LIMIT_BYTES = 4096;

/**
 * Requests every HTTP face must refuse alike (services and the load driver). Each: {name, method, target, status,
 * detail (optional): [field, check(value) -> bool]}.
 */
function edgeCases() {
  return [
    { name: 'a method HTTP does not define', method: 'XYZ1', target: '/healthz', status: 400 },
    { name: 'a WebDAV method', method: 'PROPFIND', target: '/healthz', status: 400 },
    { name: 'an 8 KB query string', method: 'GET', target: `/healthz?q=${'x'.repeat(8192)}`, status: 414, detail: ['limitBytes', (v) => v === LIMIT_BYTES] },
    { name: 'a target with [', method: 'GET', target: '//[', status: 400 },
    { name: 'an absolute URL with a broken host', method: 'GET', target: 'http://[', status: 400 },
    { name: 'an absolute URL with a port out of range', method: 'GET', target: 'http://a:99999/', status: 400 },
    { name: 'a path with empty segments and userinfo characters', method: 'GET', target: '//a:b@/', status: 404, detail: routesDetail },
    { name: 'a .. segment', method: 'GET', target: '/run/../healthz', status: 400 },
    { name: 'an escaped .. segment', method: 'GET', target: '/run/%2e%2e/healthz', status: 400 },
    { name: 'a . segment', method: 'GET', target: '/./healthz', status: 400 },
    { name: 'a malformed escape in the path', method: 'GET', target: '/%zz', status: 400 },
    { name: 'an escape in the path that is not UTF-8', method: 'GET', target: '/%FF', status: 400 },
    { name: 'an unknown path', method: 'GET', target: '/nope', status: 404, detail: routesDetail },
    { name: 'a trailing slash', method: 'GET', target: '/healthz/', status: 404, detail: routesDetail },
    { name: 'another case', method: 'GET', target: '/HEALTHZ', status: 404, detail: routesDetail },
    { name: 'POST on a GET route', method: 'POST', target: '/healthz', status: 405, detail: allowedGet },
    { name: 'HEAD on a GET route', method: 'HEAD', target: '/healthz', status: 405 },
    { name: 'DELETE on a GET route', method: 'DELETE', target: '/healthz', status: 405, detail: allowedGet },
    { name: 'a malformed escape in the query', method: 'GET', target: '/healthz?x=%zz', status: 400 },
    { name: 'an escape in the query that is not UTF-8', method: 'GET', target: '/healthz?x=%FF', status: 400 },
    { name: 'an absolute URL is read as its path', method: 'GET', target: 'http://lab.example:80/nope', status: 404, detail: routesDetail },
    // The table's order: the first row that applies answers.
    { name: 'a WebDAV method with a long target (row 1 before 2)', method: 'PROPFIND', target: `/healthz?q=${'x'.repeat(8192)}`, status: 400 },
    { name: 'an unknown path with a malformed query (row 4 before 7)', method: 'GET', target: '/nope?x=%zz', status: 404, detail: routesDetail },
    { name: 'POST with a malformed query (row 5 before 7)', method: 'POST', target: '/healthz?x=%zz', status: 405, detail: allowedGet },
  ];
}

const routesDetail = ['routes', (v) => Array.isArray(v) && v.length > 0];
const allowedGet = ['allowed', (v) => Array.isArray(v) && v.length === 1 && v[0] === 'GET'];

/**
 * Requests every service must refuse alike on /run, built from its /info: workload, one of its approaches and its
 * first numeric parameter.
 */
function runCases(info) {
  const [workload, description] = Object.entries(info.workloads)[0];
  const approach = description.approaches[0];
  const [param, schema] = Object.entries(description.params).find(([, s]) => s.max !== undefined);
  const run = `/run/${workload}`;
  const parameter = (name) => ['parameter', (v) => v === name];
  const cases = [
    { name: 'an unknown workload', method: 'GET', target: '/run/nope', status: 404, detail: ['allowed', (v) => Array.isArray(v) && v.includes(workload)] },
    { name: 'POST on /run', method: 'POST', target: run, status: 405, detail: allowedGet },
    { name: 'HEAD on /run', method: 'HEAD', target: run, status: 405 },
    { name: 'a trailing slash on /run', method: 'GET', target: `${run}/`, status: 404, detail: routesDetail },
    { name: 'an unknown approach', method: 'GET', target: `${run}?approach=nope`, status: 400, detail: parameter('approach') },
    { name: 'an empty approach', method: 'GET', target: `${run}?approach=`, status: 400, detail: parameter('approach') },
    { name: 'the approach twice', method: 'GET', target: `${run}?approach=${approach}&approach=${approach}`, status: 400, detail: parameter('approach') },
    { name: 'an unknown parameter', method: 'GET', target: `${run}?nope=1`, status: 400, detail: parameter('nope') },
    { name: 'a malformed escape in a value', method: 'GET', target: `${run}?approach=%zz`, status: 400 },
    { name: 'an unknown workload with a malformed query (row 6 before 7)', method: 'GET', target: '/run/nope?x=%zz', status: 404, detail: ['allowed', (v) => Array.isArray(v) && v.includes(workload)] },
    { name: `${param} twice`, method: 'GET', target: `${run}?${param}=${schema.min}&${param}=${schema.min}`, status: 400, detail: parameter(param) },
    { name: `${param} above its max`, method: 'GET', target: `${run}?${param}=${schema.max + 1}`, status: 400, detail: parameter(param) },
    { name: `${param} below its min`, method: 'GET', target: `${run}?${param}=${schema.min - 1}`, status: 400, detail: parameter(param) },
  ];
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
    cases.push({ name: `a parameter named ${name}`, method: 'GET', target: `${run}?${name}=1`, status: 400, detail: parameter(name) });
  }
  for (const value of ['abc', '1.5', '', '1e3', '0x10', '%201', '%2B1', '99999999999999999999', 'Infinity']) {
    cases.push({ name: `${param}=${value}`, method: 'GET', target: `${run}?${param}=${value}`, status: 400, detail: parameter(param) });
  }
  return cases;
}

/**
 * Sends one raw request ("Connection: close") and resolves {status, headers, body} once the server closes.
 * declaredLength (optional): the Content-Length to announce for body, which may be less (the rest never comes).
 */
function sendRaw(port, { method, target, body, declaredLength }) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      socket.destroy();
      resolve(parseResponse(Buffer.concat(chunks).toString('utf8')));
    });
    const head = `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n`;
    const length = declaredLength === undefined && body !== undefined ? Buffer.byteLength(body) : declaredLength;
    const headers = length === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${length}\r\n`;
    socket.write(`${head}${headers}\r\n${body === undefined ? '' : body}`);
  });
}

function parseResponse(text) {
  const headEnd = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, headEnd < 0 ? text.length : headEnd).split('\r\n');
  const status = Number((/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]) || [])[1]);
  const headers = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = headEnd < 0 ? '' : text.slice(headEnd + 4);
  if (/chunked/i.test(headers['transfer-encoding'] || '')) body = unchunk(body);
  return { status, headers, body };
}

function unchunk(text) {
  let out = '';
  let at = 0;
  for (;;) {
    const lineEnd = text.indexOf('\r\n', at);
    const size = parseInt(text.slice(at, lineEnd), 16);
    if (!(size > 0)) return out;
    out += text.substr(lineEnd + 2, size);
    at = lineEnd + 2 + size + 2;
  }
}

/** What is wrong with the answer to one case ('' when it is the contract's). */
function problemWith(testCase, answer) {
  const where = `${testCase.method} ${testCase.target.slice(0, 80)} (${testCase.name})`;
  if (answer.status !== testCase.status) return `${where}: status ${answer.status}, expected ${testCase.status}: ${answer.body.slice(0, 200)}`;
  if (!/^application\/json/.test(answer.headers['content-type'] || '')) return `${where}: content-type ${answer.headers['content-type']}`;
  if (testCase.method === 'HEAD') return answer.body === '' ? '' : `${where}: a body in the answer to HEAD`;
  let json;
  try {
    json = JSON.parse(answer.body);
  } catch (err) {
    return `${where}: not JSON: ${answer.body.slice(0, 200)}`;
  }
  if (typeof json.error !== 'string' || json.error === '') return `${where}: no error message: ${answer.body.slice(0, 200)}`;
  if (/Exception|\tat |<html|<h1/i.test(answer.body)) return `${where}: a class name, trace or HTML in ${answer.body.slice(0, 200)}`;
  if (testCase.status === 405 && !answer.headers.allow) return `${where}: no Allow header`;
  if (testCase.detail && !testCase.detail[1](json[testCase.detail[0]])) return `${where}: ${testCase.detail[0]} is ${JSON.stringify(json[testCase.detail[0]])}`;
  return '';
}

/** Sends every case to the face on port; resolves the list of problems (empty when all answers are the contract's). */
async function checkCases(port, cases) {
  const problems = [];
  for (const testCase of cases) {
    const problem = problemWith(testCase, await sendRaw(port, testCase));
    if (problem) problems.push(problem);
  }
  return problems;
}

module.exports = { edgeCases, runCases, checkCases, sendRaw, LIMIT_BYTES };

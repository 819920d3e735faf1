'use strict';
// CONTRACT.md's "Errors" table as requests: the same bad requests for every HTTP face of the lab, each with the one
// answer every runtime must give. Sent raw over a socket, since no HTTP client would send most of them. Used by the
// integration test against all four services and the load driver, and by each Node service's own contract suite.
const { sendRaw, exchange } = require('./raw-http');

const LIMIT_BYTES = 4096;
const HOST = 'Host: 127.0.0.1\r\n';
const VERSIONS = ['HTTP/1.0', 'HTTP/1.1'];

/**
 * Requests every HTTP face must refuse alike (services and the load driver). Each: {name, method, target, status,
 * detail (optional): [field, check(value) -> bool]}, sent with "Connection: close"; or {name, raw, status, detail}:
 * the request's bytes as they are (a string, sent as latin1, or a Buffer), whose answer must close the connection.
 */
function edgeCases() {
  return headCases().concat([
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
  ]);
}

/** Broken heads and targets, as bytes (CONTRACT.md "Errors", rows 1-3): one answer in every runtime, and a close. */
function headCases() {
  const get = (target, headers, version = ' HTTP/1.1') => `GET ${target}${version}\r\n${headers}\r\n`;
  const withByte = (before, byte, after) => Buffer.concat([Buffer.from(before, 'latin1'), Buffer.from([byte]), Buffer.from(after, 'latin1')]);
  const versions = ['allowed', (v) => JSON.stringify(v) === JSON.stringify(VERSIONS)];
  return [
    { name: 'a 20 KB target (row 2 whatever its length)', raw: get(`/healthz?q=${'x'.repeat(20000)}`, HOST), status: 414, detail: ['limitBytes', (v) => v === LIMIT_BYTES] },
    { name: 'a 20 KB header with a short target', raw: get('/healthz', `${HOST}X-Big: ${'x'.repeat(20000)}\r\n`), status: 431 },
    { name: 'two Host headers', raw: get('/healthz', HOST + HOST), status: 400 },
    { name: 'an HTTP/1.1 request without Host', raw: get('/healthz', ''), status: 400 },
    { name: 'a space in a header name', raw: get('/healthz', `${HOST}Bad Header: x\r\n`), status: 400 },
    { name: 'HTTP/1.2', raw: get('/healthz', HOST, ' HTTP/1.2'), status: 505, detail: versions },
    { name: 'a folded header (obs-fold)', raw: get('/healthz', `${HOST}X-A: 1\r\n  folded\r\n`), status: 400 },
    { name: 'bare LF line ends', raw: `GET /healthz HTTP/1.1\n${HOST.replace('\r', '')}\n`, status: 400 },
    { name: 'a bare LF ending the request line only', raw: `GET /healthz HTTP/1.1\n${HOST}\r\n`, status: 400 },
    { name: 'a bare LF ending the head only', raw: `GET /healthz HTTP/1.1\r\n${HOST}\n`, status: 400 },
    { name: 'no HTTP version', raw: get('/healthz', HOST, ''), status: 505, detail: versions },
    { name: 'HTTP/2.0 as text', raw: get('/healthz', HOST, ' HTTP/2.0'), status: 505, detail: versions },
    { name: 'a Transfer-Encoding other than chunked', raw: get('/healthz', `${HOST}Transfer-Encoding: xchunked\r\n`), status: 400 },
    { name: 'a fragment in the target', raw: get('/healthz?x#y', HOST), status: 400 },
    { name: 'an escaped NUL in the path', raw: get('/healthz%00', HOST), status: 400 },
    { name: 'an escaped control character in the query', raw: get('/healthz?x=%1F', HOST), status: 400 },
    { name: 'a raw 0xFF in the query', raw: withByte('GET /healthz?x=', 0xff, ` HTTP/1.1\r\n${HOST}\r\n`), status: 400 },
    { name: 'a raw 0xFF in the path', raw: withByte('GET /health', 0xff, ` HTTP/1.1\r\n${HOST}\r\n`), status: 400 },
    { name: 'an Expect other than 100-continue', raw: get('/healthz', `${HOST}Expect: something\r\n`), status: 417, detail: ['allowed', (v) => JSON.stringify(v) === '["100-continue"]'] },
    { name: 'CONNECT (row 3: the target is no path)', raw: `CONNECT 127.0.0.1:80 HTTP/1.1\r\n${HOST}\r\n`, status: 400 },
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

/** What is wrong with the answer to one case ('' when it is the contract's). */
function problemWith(testCase, answer) {
  const where = testCase.raw === undefined ? `${testCase.method} ${testCase.target.slice(0, 80)} (${testCase.name})` : testCase.name;
  if (answer.status !== testCase.status) return `${where}: status ${answer.status}, expected ${testCase.status}: ${answer.body.slice(0, 200)}`;
  if (testCase.raw !== undefined && !/close/i.test(answer.headers.connection || '')) return `${where}: no "Connection: close" on the answer`;
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
    const problem = testCase.raw === undefined ? problemWith(testCase, await sendRaw(port, testCase)) : await rawProblem(port, testCase);
    if (problem) problems.push(problem);
  }
  return problems;
}

// A raw case gets one answer, and the connection closes after it.
async function rawProblem(port, testCase) {
  const { answers, closed } = await exchange(port, testCase.raw);
  if (answers.length !== 1) return `${testCase.name}: ${answers.length} answers (${answers.map((a) => a.status).join(', ')}), expected one`;
  return problemWith(testCase, answers[0]) || (closed ? '' : `${testCase.name}: the connection stayed open after the answer`);
}

/**
 * A broken request pipelined after valid ones (CONTRACT.md "Errors"). Sends bytes in one write; resolves the
 * problems (empty when the face answered each valid request, in order, with the statuses expected, then the broken
 * one with a JSON 400, then closed the connection).
 */
async function checkPipeline(port, bytes, statuses) {
  const { answers, closed } = await exchange(port, bytes);
  const got = answers.map((a) => a.status);
  const expected = statuses.concat(400);
  const problems = [];
  if (JSON.stringify(got) !== JSON.stringify(expected)) problems.push(`answers ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
  const last = answers[answers.length - 1];
  if (last && last.status === 400) {
    const problem = problemWith({ name: 'the broken request', raw: bytes, status: 400 }, last);
    if (problem) problems.push(problem);
  }
  if (!closed) problems.push('the connection stayed open after the 400');
  return problems;
}

/**
 * Bytes for checkPipeline: a valid GET /healthz, then a broken head, in one write. The broken heads: one Node's
 * parser refuses (Node 24's; Node 14's takes it and checkHead refuses it), and one only Node 14's guard sees.
 */
function healthzThenBrokenHeads() {
  const healthz = `GET /healthz HTTP/1.1\r\n${HOST}\r\n`;
  return [`${healthz}GET /healthz HTTP/1.1\r\n${HOST}Bad Header: x\r\n\r\n`, `${healthz}GET /healthz HTTP/1.1\n${HOST}\r\n`];
}

module.exports = { edgeCases, runCases, checkCases, checkPipeline, sendRaw, healthzThenBrokenHeads, HOST, LIMIT_BYTES };

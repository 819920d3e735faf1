'use strict';
// The real services nobody here wrote that make attach is tested on, and the documents they serve: json-server 0.17.4
// (pinned in json-server/, installed from npm by the root Makefile), whose GET /db answers the whole db.json through
// express' res.jsonp (JSON.stringify on the event loop), and WireMock standalone at the version agents/jvm-agent's pom
// pins (its build puts it in the Maven repository), answering GET /posts from a JSON file. Shared by the native
// integration test (attach.test.js) and the containerized one (docker/attach-compose.js).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('@lab/lab-topology/manifests');

const JSON_SERVER_DIR = path.join(__dirname, 'json-server');
// json-server's command line, relative to JSON_SERVER_DIR.
const JSON_SERVER_BIN = path.join('node_modules', 'json-server', 'lib', 'cli', 'bin.js');
const WIREMOCK_VERSION = /<wiremock\.version>([^<]+)<\/wiremock\.version>/.exec(fs.readFileSync(path.join(ROOT, 'agents', 'jvm-agent', 'pom.xml'), 'utf8'))[1];
const WIREMOCK = path.join(os.homedir(), '.m2', 'repository', 'org', 'wiremock', 'wiremock-standalone', WIREMOCK_VERSION, `wiremock-standalone-${WIREMOCK_VERSION}.jar`);
// Enough records that one stringify of the document is a block of tens of milliseconds on any machine, and few enough
// that a loaded one answers a handful of them a second.
const RECORDS = 20000;

const posts = () => Array.from({ length: RECORDS }, (_, i) => ({ id: i, title: `post ${i}`, body: 'lorem ipsum dolor sit amet '.repeat(4), tags: ['a', 'b'], views: i * 3, score: i / 7 }));

/** json-server's db.json, the posts and a profile, written into dir; its path. */
function writeDb(dir) {
  const file = path.join(dir, 'db.json');
  fs.writeFileSync(file, JSON.stringify({ posts: posts(), profile: { name: 'typicode' } }));
  return file;
}

/** WireMock's root folder (dir) with one stub, GET /posts answering the posts as a JSON file body; dir. */
function writeStubs(dir) {
  fs.mkdirSync(path.join(dir, 'mappings'));
  fs.mkdirSync(path.join(dir, '__files'));
  fs.writeFileSync(path.join(dir, '__files', 'posts.json'), JSON.stringify(posts()));
  fs.writeFileSync(path.join(dir, 'mappings', 'posts.json'), JSON.stringify({ request: { method: 'GET', url: '/posts' }, response: { status: 200, bodyFileName: 'posts.json', headers: { 'Content-Type': 'application/json' } } }));
  return dir;
}

module.exports = { JSON_SERVER_DIR, JSON_SERVER_BIN, WIREMOCK, writeDb, writeStubs };

'use strict';
// NODE_OPTIONS is inherited by every node process the user's starts, and npm, npx, yarn, pnpm and corepack are node
// programs themselves: `npm start` is a node process (npm) that starts the service's node process. Were the agent to
// take its port in the wrapper, the service would find it taken. So the agent stays off in a process whose main
// script (process.argv[1]) is one of these tools' command-line scripts. Node 14 syntax.
const path = require('path');

// Their bin scripts and the names they are linked under: npm-cli.js and npx-cli.js (npm/bin), yarn.js and yarn.cjs
// (yarn 1's bin, a Berry release file yarn-4.5.0.cjs), pnpm.cjs and pnpx.cjs (pnpm/bin), corepack.cjs; and the names
// of the links in a bin folder that point at them (process.argv[1] keeps the link's path: Node resolves it, it does
// not follow it).
const WRAPPER_SCRIPT = /^(?:npm-cli|npx-cli|npm-prefix|yarn|yarnpkg|yarn-[\d.]+(?:-[\w.]+)?|pnpm|pnpx|corepack)(?:\.c?js)?$/;
const WRAPPER_LINK = /^(?:npm|npx|yarn|yarnpkg|pnpm|pnpx|corepack)$/;

/** The wrapper a main script belongs to ('npm-cli.js'), or null for the user's own program. */
function wrapperOf(mainScript) {
  if (!mainScript) return null;
  const base = path.basename(mainScript);
  return WRAPPER_SCRIPT.test(base) || WRAPPER_LINK.test(base) ? base : null;
}

module.exports = { wrapperOf };

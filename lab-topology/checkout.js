'use strict';
// Which checkout of the lab runs: its commit, recorded in the header of every run's results (LAB_GIT_COMMIT).
// Node 14 syntax.
const { execFileSync } = require('child_process');
const { ROOT } = require('./manifests');

/** The commit (with "-dirty" when the tree has changes), or "" outside a git checkout or without git. */
function gitCommit() {
  try {
    return execFileSync('git', ['describe', '--always', '--dirty', '--abbrev=40'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim();
  } catch (err) {
    return '';
  }
}

module.exports = { gitCommit };

'use strict';
// node src/report/make-report.js <run-dir>: (re)writes <run-dir>/report.html (`make report RUN=<run-id>`). Exit 2 for
// a missing or bad folder, naming what is wrong.
const { writeReport } = require('./index');

const USAGE = 'usage: node load/src/report/make-report.js <run-dir>   (a results/<run-id>/ folder)';

function main(args) {
  if (args.length !== 1) {
    console.error(USAGE);
    return 2;
  }
  try {
    console.log(writeReport(args[0]));
    return 0;
  } catch (err) {
    if (err.code !== 'NOT_A_RUN') throw err;
    console.error(`make-report: ${err.message}\n${USAGE}`);
    return 2;
  }
}

process.exitCode = main(process.argv.slice(2));

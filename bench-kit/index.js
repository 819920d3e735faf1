'use strict';
// The benchmarks' one harness (README.md): the command line, the measuring loop, the figures, the machine, the
// table and the results file. A bench/ script says what it measures and how it validates; this says how.
module.exports = Object.assign(
  {},
  require('./command-line'),
  require('./rounds'),
  require('./stats'),
  require('./timed'),
  require('./machine'),
  require('./table'),
  require('./results-file'),
  require('./finish'),
);

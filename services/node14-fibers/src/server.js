'use strict';
require('./service')
  .makeService()
  .start()
  .catch((err) => {
    console.error(`node14-fibers: ${err.message}`);
    process.exit(1);
  });

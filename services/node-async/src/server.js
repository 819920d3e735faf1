'use strict';
require('./service')
  .makeService()
  .start()
  .catch((err) => {
    console.error(`node-async: ${err.message}`);
    process.exit(1);
  });

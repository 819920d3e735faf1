'use strict';
// Regenerates ../vectors.json from the reference generator. Run only together with a change to ../SPEC.md.
const fs = require('fs');
const { VECTORS_FILE, computeVectors } = require('./vectors');

fs.writeFileSync(VECTORS_FILE, JSON.stringify(computeVectors(), null, 2) + '\n');
console.log(`wrote ${VECTORS_FILE}`);

'use strict';
// The worker-offload experiment's published autocannon figures (docs/experiments/worker-offload.md: 100 connections,
// 30 s, POST test-data.json), in the bench's table layout. Its Bytes/Sec percentiles are as printed; its unoptimized
// "Min" row is as printed (1 and 509 B, above their own averages).
const ORIGINAL = {
  unoptimized: {
    latency: ['1748 ms', '6720 ms', '9642 ms', '9642 ms', '6169.29 ms', '2656.11 ms', '9642 ms'],
    requests: ['0', '0', '0', '1', '0.24', '0.43', '1'],
    bytesPerSecond: ['0 B', '0 B', '0 B', '510 B', '119 B', '216 B', '509 B'],
    total: '418 in 30.48 s',
    errors: '311 (timeouts)',
  },
  optimized: {
    latency: ['144 ms', '225 ms', '883 ms', '1586 ms', '302.6 ms', '261.51 ms', '4104 ms'],
    requests: ['154', '154', '318', '548', '329.24', '107.82', '154'],
    bytesPerSecond: ['74.6 kB', '74.6 kB', '154 kB', '265 kB', '159 kB', '52.2 kB', '74.5 kB'],
    total: '10,000 in 30.29 s',
    errors: '0',
  },
};

module.exports = { ORIGINAL };

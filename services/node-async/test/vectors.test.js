'use strict';
require('@lab/payloads/js/vector-suite').vectorSuite(require('node:test'), require('node:assert'));

'use strict';
require('../../../payloads/js/vector-suite').vectorSuite(require('node:test'), require('node:assert'));

'use strict';
require('@lab/payloads/js/vector-suite').vectorSuite(require('test'), require('assert'));

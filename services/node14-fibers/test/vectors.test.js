'use strict';
require('../../../payloads/js/vector-suite').vectorSuite(require('test'), require('assert'));

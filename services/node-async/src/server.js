'use strict';
require('../../../node-kit').serve(require('./service').makeService());

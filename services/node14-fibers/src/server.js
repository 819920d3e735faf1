'use strict';
require('@lab/node-kit').serve(require('./service').makeService());

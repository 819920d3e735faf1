'use strict';
// The shape family's correctness cases (js-serializers/test/shapes.test.js) on Node 14, the other line fast runs on.
require('@lab/js-serializers/test/shapes.test.js');

'use strict';
// fast-stringify's work-count guard (js-serializers/test/work-counts.test.js) on Node 14, the other line fast runs on.
require('@lab/js-serializers/test/work-counts.test.js');

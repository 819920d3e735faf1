'use strict';
// fast-parse's whole reads of texts that fit one slice (js-serializers/test/parse-whole.test.js) on Node 14, the other
// line fast runs on.
require('@lab/js-serializers/test/parse-whole.test.js');

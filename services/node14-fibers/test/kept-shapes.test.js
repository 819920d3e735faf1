'use strict';
// fast-parse's and fast-stringify's shapes kept alive across a full collection (js-serializers/test/kept-shapes.test.js)
// on Node 14, the other line fast runs on.
require('@lab/js-serializers/test/kept-shapes.test.js');

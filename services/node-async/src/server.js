'use strict';
// A service that cannot be made (settings that do not fit, csv-upload-settings.js) exits 1 with the reason.
require('@lab/node-kit').serve(new Promise((resolve) => resolve(require('./service').makeService())));

'use strict';
// A serializer plugin with neither stringify nor parse.
module.exports = { name: 'exports-nothing', stringify: 'not a function' };

'use strict';
// A plugin that passes the conformance corpus and, on a document marked "hostile": true, leaves a promise rejection
// unhandled before it answers right (issue 57: node-async exited 1). Node 14 syntax.
module.exports = {
  name: 'leaves-a-rejection',
  stringify(value) {
    if (value !== null && typeof value === 'object' && value.hostile === true) Promise.reject(new Error('a rejection this plugin leaves for no one'));
    return Promise.resolve(JSON.stringify(value));
  },
};

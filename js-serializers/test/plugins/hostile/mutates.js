'use strict';
// A plugin that passes the conformance corpus and then, on a document marked "hostile": true or on the generated
// records of size=17, writes the right text and changes the value it was given (issue 57: every later run of every
// approach on that document failed its check). Node 14 syntax.
module.exports = {
  name: 'mutates',
  stringify(value) {
    const text = JSON.stringify(value);
    if (value !== null && typeof value === 'object' && Array.isArray(value.records) && value.records.length === 17) value.records.push({ added: 'by the plugin' });
    else if (value !== null && typeof value === 'object' && value.hostile === true) value.hostile = 'changed by the plugin';
    return Promise.resolve(text);
  },
};

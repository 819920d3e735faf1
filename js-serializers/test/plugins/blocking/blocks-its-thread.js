'use strict';
// A serializer plugin whose parse never gives its thread back: only the check's cap can end it.
module.exports = {
  name: 'blocks-its-thread',
  parse: () => {
    for (;;) {
      // spins for ever
    }
  },
};

'use strict';
// A serializer plugin that throws while it is being loaded.
throw new Error('this plugin cannot be loaded');

'use strict';
// node-kit's logging of the service's own failures (test-kit/unexpected-errors-suite.js), on node-async's express 5,
// prom-client and Node 24.
const test = require('node:test');
const assert = require('node:assert');
const express = require('express');
const promClient = require('prom-client');
const { unexpectedErrorsSuite } = require('@lab/test-kit/unexpected-errors-suite');

unexpectedErrorsSuite(test, assert, express, promClient);

'use strict';
// node-kit's logging of the service's own failures (test-kit/unexpected-errors-suite.js), on node14-fibers' express 4,
// prom-client and Node 14, where node:test does not exist: the `test` package is its port.
const test = require('test');
const assert = require('assert');
const express = require('express');
const promClient = require('prom-client');
const { unexpectedErrorsSuite } = require('@lab/test-kit/unexpected-errors-suite');

unexpectedErrorsSuite(test, assert, express, promClient);

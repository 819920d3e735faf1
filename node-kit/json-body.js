'use strict';
// A JSON request body for a service's own routes, refused as early as it can be: a declared length over the cap is
// answered before a byte is read, and a body that grows past it while it arrives is answered at once, without
// reading the rest (answers.js then closes the connection). body-parser instead reads an oversized body to its end
// before answering 413 (a 50 MB body is read whole). The body must be what its headers declare (body-declaration.js:
// 415 otherwise) and valid UTF-8, checked as it arrives (utf8.js: a 400 naming the byte offset, where a decoder
// would have replaced it silently). Node 14 syntax.
const crypto = require('crypto');
const { HttpError, badRequest } = require('./errors');
const { checkBodyDeclaration } = require('./body-declaration');
const { Utf8Check } = require('./utf8');

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

const tooLarge = (limitBytes) => new HttpError(413, `the body is larger than ${limitBytes} bytes`, { limitBytes });

/**
 * Resolves the body of req, checked as UTF-8, as {buffer, sha256} (the hash taken packet by packet as they arrive), or
 * rejects with HttpError 400 (not UTF-8), 413 (over limitBytes: a declared length before a byte is read, else as soon
 * as it passes) or 415 (compressed, or another charset).
 */
function readBody(req, limitBytes) {
  return new Promise((resolve, reject) => {
    try {
      checkBodyDeclaration(req);
    } catch (err) {
      reject(err);
      return;
    }
    if (Number(req.headers['content-length']) > limitBytes) {
      reject(tooLarge(limitBytes));
      return;
    }
    const chunks = [];
    const utf8 = new Utf8Check();
    const hash = crypto.createHash('sha256');
    let bytes = 0;
    const stop = () => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
    };
    const refuse = (err) => {
      stop();
      req.pause(); // the rest stays unread
      reject(err);
    };
    const onData = (chunk) => {
      bytes += chunk.length;
      if (bytes > limitBytes) {
        refuse(tooLarge(limitBytes));
        return;
      }
      try {
        utf8.write(chunk);
      } catch (err) {
        refuse(err);
        return;
      }
      hash.update(chunk);
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      try {
        utf8.end();
      } catch (err) {
        reject(err);
        return;
      }
      resolve({ buffer: Buffer.concat(chunks), sha256: hash.digest('hex') });
    };
    const onError = (err) => {
      stop();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

/** readBody's body as UTF-8 text. */
const readUtf8Body = (req, limitBytes) => readBody(req, limitBytes).then(({ buffer }) => buffer.toString('utf8'));

/**
 * Resolves the parsed body of req, or rejects with HttpError 400 (not JSON, not UTF-8), 413 (over limitBytes) or 415
 * (compressed, or another charset).
 */
function readJsonBody(req, limitBytes) {
  if (!JSON_TYPE.test(req.headers['content-type'] || '')) {
    return Promise.reject(badRequest('send the body as JSON with Content-Type: application/json', { field: 'body' }));
  }
  return readUtf8Body(req, limitBytes).then((text) => {
    try {
      return JSON.parse(text);
    } catch (err) {
      throw badRequest(`the body is not valid JSON: ${err.message}`, { field: 'body' });
    }
  });
}

/** An express middleware that sets req.body from readJsonBody, or passes its refusal on. */
const jsonBody = (limitBytes) => (req, res, next) => readJsonBody(req, limitBytes).then((body) => {
  req.body = body;
  next();
}, next);

module.exports = { readJsonBody, readBody, readUtf8Body, jsonBody, JSON_TYPE };

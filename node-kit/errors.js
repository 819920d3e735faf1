'use strict';

/**
 * An error the client caused (or an overload it should retry): answered with its status, a JSON body naming what is
 * allowed, and any headers it needs (a 503's Retry-After).
 */
class HttpError extends Error {
  constructor(status, message, details, headers) {
    super(message);
    this.status = status;
    this.details = details || {};
    this.headers = headers || {};
  }

  toJSON() {
    return Object.assign({ error: this.message }, this.details);
  }
}

const badRequest = (message, details) => new HttpError(400, message, details);

/**
 * A request whose head or target is malformed (CONTRACT.md "Errors", rows 1-3 and 7): refused, and the connection
 * closes after the answer, since nothing after a malformed request can be trusted to start where the client meant.
 */
const malformed = (status, message, details) => new HttpError(status, message, details, { Connection: 'close' });

/** 503: the service is busy now; the client may retry after retryAfterSeconds. */
const busy = (message, details, retryAfterSeconds = 1) => new HttpError(503, message, details, { 'Retry-After': String(retryAfterSeconds) });

module.exports = { HttpError, badRequest, malformed, busy };

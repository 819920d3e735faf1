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

/** 503: the service is busy now; the client may retry after retryAfterSeconds. */
const busy = (message, details, retryAfterSeconds = 1) => new HttpError(503, message, details, { 'Retry-After': String(retryAfterSeconds) });

module.exports = { HttpError, badRequest, busy };

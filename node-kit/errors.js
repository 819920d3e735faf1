'use strict';

/** An error the client caused: answered with its status and a JSON body naming what is allowed. */
class HttpError extends Error {
  constructor(status, message, details) {
    super(message);
    this.status = status;
    this.details = details || {};
  }

  toJSON() {
    return Object.assign({ error: this.message }, this.details);
  }
}

const badRequest = (message, details) => new HttpError(400, message, details);

module.exports = { HttpError, badRequest };

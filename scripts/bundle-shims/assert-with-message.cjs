// node:assert as every module in the out/node bundles sees it (scripts/build-node.mjs): the real module, except that
// `assert(value)` and `assert.ok(value)` (and their strict forms) that fail without a message get one. Without a
// message, Node builds one from the failing call's source text: it reads the file and parses the line with acorn.
// A bundle's lines are hundreds of kilobytes long, and that parse took a crawl worker 30-65 s of CPU for one
// failed assertion in undici (a 404 with a body on a connection that closes after it, as Python's http.server
// and many Apache sites send), until the watchdog killed it. Everything else is node:assert's own.
'use strict';

const real = require('node:assert');

const MESSAGE = 'assertion failed (where: see the stack)';

function withMessage(base) {
  const ok = (value, message) => {
    if (!value) base.ok(value, message ?? MESSAGE);
  };
  return Object.assign(ok, base, { ok });
}

const strict = withMessage(real.strict);
strict.strict = strict;
module.exports = Object.assign(withMessage(real), { strict });

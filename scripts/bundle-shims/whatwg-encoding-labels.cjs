// whatwg-encoding as encoding-sniffer's sniffer (the worker's charset detection) uses it in the out/node bundles
// (scripts/build-node.mjs): labelToName alone. The package loads iconv-lite and its tables when it is loaded, about
// 10 ms of every crawl worker's start here, though a worker needs iconv-lite only for its first page that is not
// UTF-8 (electron/worker/fetch-url.ts loads it then). Same table, same function (test/unit/bundle-shims.test.ts).
'use strict';

const labelsToNames = require('whatwg-encoding/lib/labels-to-names.json');

exports.labelToName = (label) => labelsToNames[String(label).trim().toLowerCase()] || null;

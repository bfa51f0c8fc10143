// node:http2 as undici's HTTP/2 client (undici/lib/dispatcher/client-h2.js) sees it in the out/node bundles
// (scripts/build-node.mjs). That file loads node:http2 when it is loaded, only to read ten constants, and loading
// node:http2 cost every crawl worker about 20 ms of its start here. Trawl never asks undici for HTTP/2 (no
// allowH2), so the real module is loaded only if a connection ever calls connect(). The values are node:http2's own
// (test/unit/bundle-shims.test.ts compares them).
'use strict';

module.exports = {
  constants: {
    HTTP2_HEADER_AUTHORITY: ':authority',
    HTTP2_HEADER_METHOD: ':method',
    HTTP2_HEADER_PATH: ':path',
    HTTP2_HEADER_SCHEME: ':scheme',
    HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
    HTTP2_HEADER_EXPECT: 'expect',
    HTTP2_HEADER_STATUS: ':status',
    HTTP2_HEADER_PROTOCOL: ':protocol',
    NGHTTP2_REFUSED_STREAM: 7,
    NGHTTP2_CANCEL: 8,
  },
  connect(...args) {
    return require('node:http2').connect(...args);
  },
};

// `npm run demo-site -- [--port 8180] [--host 127.0.0.1] [--chapters 12] [--sections 10]`: a generated
// documentation site to try Trawl on without reaching anyone else's server. A manual of chapters and sections (a table
// of contents, breadcrumbs, previous/next links, canonical links, a sitemap page), deterministic, served from memory,
// with the faults an audit looks for planted in known places: a moved page (301), a redirect chain, broken links
// (404), a server error (500), a noindex page, a canonicalised copy, a duplicate title, a missing meta description,
// a missing H1, a long title, an image, a link out of the site and a mailto: link. Prints its URL, then serves until
// Ctrl-C.
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8180' },
    host: { type: 'string', default: '127.0.0.1' },
    chapters: { type: 'string', default: '12' },
    sections: { type: 'string', default: '10' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  process.stdout.write(`Usage: npm run demo-site -- [--port 8180] [--host 127.0.0.1] [--chapters 12] [--sections 10]

Serves a generated documentation site (chapters x sections pages, plus planted faults) to try crawls on:
  npm run demo-site &
  npm run crawl -- http://127.0.0.1:8180/ --out demo.xlsx
`);
  process.exit(0);
}
const whole = (name, min, max) => {
  const n = Number(values[name]);
  if (!Number.isInteger(n) || n < min || n > max) {
    process.stderr.write(`demo-site: --${name} must be a whole number from ${min} to ${max}\n`);
    process.exit(2);
  }
  return n;
};
const port = whole('port', 0, 65535);
const chapters = whole('chapters', 1, 500);
const sections = whole('sections', 1, 500);

const TOPICS = [
  'installation',
  'configuration',
  'queries',
  'indexes',
  'transactions',
  'replication',
  'backup',
  'security',
  'monitoring',
  'tuning',
];
const WORDS =
  'the crawler reads every page once and records its status title headings links and the time it took so that an analyst can find what is broken slow duplicated or hidden from search engines'.split(
    ' ',
  );
const topic = (c) => TOPICS[(c - 1) % TOPICS.length];
const chapterTitle = (c) => `Chapter ${c}: ${topic(c)[0].toUpperCase()}${topic(c).slice(1)}`;
const sectionPath = (c, s) => `/docs/ch${c}/s${s}.html`;
const sectionTitle = (c, s) => `${c}.${s} ${topic(c)} in practice, part ${s}`;

function prose(seed, sentences) {
  let out = '';
  for (let i = 0; i < sentences; i++) {
    const len = 8 + ((seed * 7 + i * 3) % 9);
    const words = [];
    for (let w = 0; w < len; w++) words.push(WORDS[(seed * 31 + i * 17 + w * 5) % WORDS.length]);
    out += `${words.join(' ')}. `;
  }
  return `<p>${out.trim()}</p>`;
}

function page({ title, description, h1 = title, body, canonical, robots }) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
${description === null ? '' : `<meta name="description" content="${description}">`}
${canonical ? `<link rel="canonical" href="${canonical}">` : ''}${robots ? `<meta name="robots" content="${robots}">` : ''}
<link rel="stylesheet" href="/static/docs.css"></head>
<body><nav><a href="/">Trawl demo manual</a> · <a href="/docs/">Contents</a> · <a href="/sitemap.html">Site map</a></nav>
<main>${h1 === null ? '' : `<h1>${h1}</h1>`}
${body}</main>
<footer><a href="https://example.com/trawl-demo">About this demo</a> · <a href="mailto:docs@example.com">Write to us</a></footer>
</body></html>
`;
}

function contents() {
  let list = '';
  for (let c = 1; c <= chapters; c++) {
    list += `<li><a href="/docs/ch${c}/">${chapterTitle(c)}</a><ul>`;
    for (let s = 1; s <= sections; s++) list += `<li><a href="${sectionPath(c, s)}">${sectionTitle(c, s)}</a></li>`;
    list += '</ul></li>';
  }
  return `<ol>${list}</ol>`;
}

/** Every route: a page's HTML, or a status with headers. */
function route(path) {
  if (path === '/' || path === '/index.html') {
    return page({
      title: 'Trawl demo manual',
      description: 'A generated manual to try Trawl on.',
      body: `${prose(1, 3)}<p><a href="/docs/">Read the manual</a>, see <a href="/old/start.html">getting started</a> or the <a href="/sitemap.html">site map</a>.</p><img src="/static/logo.png" alt="logo">`,
    });
  }
  if (path === '/docs/') return page({ title: 'Contents', description: 'Every chapter and section of the manual.', body: contents() });
  if (path === '/sitemap.html') return page({ title: 'Site map', description: 'Every page of the manual.', body: contents() });
  // Planted faults.
  if (path === '/old/start.html') return { status: 301, headers: { location: '/old/start-2.html' } };
  if (path === '/old/start-2.html') return { status: 302, headers: { location: sectionPath(1, 1) } };
  if (path === '/docs/errata.html') return { status: 500, body: 'Internal Server Error' };
  if (path === '/static/logo.png')
    return { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('89504e470d0a1a0a', 'hex') };
  if (path === '/static/docs.css') return { status: 200, headers: { 'content-type': 'text/css' }, body: 'body{font-family:sans-serif}' };
  if (path === '/robots.txt')
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /drafts/\n' };
  if (path === '/docs/print/ch1.html') {
    return page({ title: chapterTitle(1), description: 'Chapter 1 on one page.', body: prose(2, 6), canonical: '/docs/ch1/' });
  }
  if (path === '/docs/internal.html')
    return page({ title: 'Internal notes', description: 'Not for search engines.', body: prose(3, 4), robots: 'noindex' });

  let m = /^\/docs\/ch(\d+)\/$/.exec(path);
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= chapters) {
    const c = Number(m[1]);
    let list = '';
    for (let s = 1; s <= sections; s++) list += `<li><a href="${sectionPath(c, s)}">${sectionTitle(c, s)}</a></li>`;
    const extra = c === 1 ? '<p><a href="/docs/print/ch1.html">This chapter on one page</a></p>' : '';
    return page({ title: chapterTitle(c), description: `What chapter ${c} covers.`, body: `${prose(c, 2)}<ul>${list}</ul>${extra}` });
  }
  m = /^\/docs\/ch(\d+)\/s(\d+)\.html$/.exec(path);
  if (m) {
    const c = Number(m[1]);
    const s = Number(m[2]);
    if (c < 1 || c > chapters || s < 1 || s > sections) return { status: 404, body: 'Not found' };
    const prev = s > 1 ? sectionPath(c, s - 1) : c > 1 ? sectionPath(c - 1, sections) : null;
    const next = s < sections ? sectionPath(c, s + 1) : c < chapters ? sectionPath(c + 1, 1) : null;
    const nav = `<p>${prev ? `<a rel="prev" href="${prev}">Previous</a> ` : ''}<a href="/docs/ch${c}/">Up</a>${next ? ` <a rel="next" href="${next}">Next</a>` : ''}</p>`;
    // One broken link a chapter (to a section that does not exist), and a few pages with an audit's usual faults.
    const broken = s === sections ? `<p>See also <a href="/docs/ch${c}/s${sections + 1}.html">the next section</a>.</p>` : '';
    const seeAlso =
      s === 2 && c === 2 ? '<p>Known problems: <a href="/docs/errata.html">errata</a>, <a href="/docs/internal.html">notes</a>.</p>' : '';
    const title =
      c === 3 && s === 2
        ? sectionTitle(3, 1) // a duplicate title
        : c === 4 && s === 1
          ? `${sectionTitle(c, s)}: a title far too long to show whole in any search engine result page`
          : sectionTitle(c, s);
    return page({
      title,
      description: c === 5 && s === 1 ? null : `Section ${c}.${s} of the manual: ${topic(c)}.`,
      h1: c === 6 && s === 1 ? null : sectionTitle(c, s),
      body: `${nav}<h2>Overview</h2>${prose(c * 100 + s, 4)}<h2>Details</h2>${prose(c * 100 + s + 1, 6)}${broken}${seeAlso}${nav}`,
      canonical: sectionPath(c, s),
    });
  }
  return { status: 404, body: 'Not found' };
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0];
  const answer = route(path);
  if (typeof answer === 'string') {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    return res.end(req.method === 'HEAD' ? undefined : answer);
  }
  res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...answer.headers });
  res.end(req.method === 'HEAD' ? undefined : answer.body);
});
server.on('error', (err) => {
  process.stderr.write(`demo-site: ${err.message}\n`);
  process.exit(1);
});
server.listen(port, values.host, () => {
  const { port: bound } = server.address();
  const host = values.host.includes(':') ? `[${values.host}]` : values.host;
  process.stdout.write(`Trawl demo site: http://${host}:${bound}/ (${chapters} chapters of ${sections} sections; Ctrl-C stops it)\n`);
});
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  });

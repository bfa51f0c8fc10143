// Strings shared by the whole interface, in English (the source language). Every other language has exactly
// these keys (zh-CN/common.ts is typed by this object; test/renderer/i18n.test.ts compares them at run time).
export const common = {
  language: 'Language',
  languageTitle: 'The language of the interface (the system language unless you choose one)',
  views: {
    label: 'views',
    live: 'Live crawl',
    liveTitle: 'The threads at work and every row as it is fetched',
    explorer: 'Results explorer',
    explorerTitle: 'Screaming Frog-style filters with counts, and every detail of a URL',
    queue: 'Queue',
    queueTitle: 'The URLs still queued, by host, path prefix and text; exclude a pattern',
    hosts: 'Hosts',
    hostsTitle: 'Per host: crawled, queued, bytes, errors, politeness and robots.txt',
    reports: 'Reports',
    reportsTitle: 'Status codes, depths, response times and throughput as charts',
    compare: 'Compare',
    compareTitle: 'Two crawls of a site: URLs added, removed and changed',
    structure: 'Structure',
    structureTitle: 'The crawl as a folder tree: URLs, indexability, status and depth per folder',
    running: 'running',
    overview: 'Issues',
    overviewTitle: 'Every issue found, by priority, with its number of URLs, why it matters and how to fix it',
    // crawl map (issue 18.6)
    crawlMap: 'Crawl map',
    crawlMapTitle: 'The shortest paths from the seeds as a graph, coloured by indexability or status, sized by Link Score',
  },
};

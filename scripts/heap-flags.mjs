// V8's heap flags for every Trawl process: the CLI, the web console and the desktop app, and the crawl workers they
// start. V8 lets the young generation grow to 16 MB a half (32 MB and more resident) when much of what is allocated
// lives a little while, as a page's text does between the worker that reads it and the transaction that records it;
// on this project's machines a megabyte first touched costs 3.5-6 ms of page faults. At 4 MB the crawl of the
// PostgreSQL manual peaked at 200-207 MB summed against 231-245 MB, in the same time or less, and a worker reading
// 3 MB pages at 140 MB against 180 MB (BENCHMARKS.md, "By commit"). The flags must be on the command line: V8 sizes its
// heap when the process starts, so package.json's scripts and bin/trawl.mjs's first line give them too (a unit test
// checks they are these).
export const HEAP_FLAGS = ['--max-semi-space-size=4'];

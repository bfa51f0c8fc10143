// V8's flags for Trawl's processes, declared once: package.json's scripts, bin/trawl.mjs's first line, the code that
// starts crawl workers (scripts/run-node.mjs, the engine's spawners) and the benches use these (a unit test checks
// the places that can only spell them out).

// Heap flags for every Trawl process: the CLI, the web console and the desktop app, and the crawl workers they
// start. V8 lets the young generation grow to 16 MB a half (32 MB and more resident) when much of what is allocated
// lives a little while, as a page's text does between the worker that reads it and the transaction that records it;
// on this project's machines a megabyte first touched costs 3.5-6 ms of page faults. At 4 MB the crawl of the
// PostgreSQL manual peaked at 200-207 MB summed against 231-245 MB, in the same time or less, and a worker reading
// 3 MB pages at 140 MB against 180 MB (BENCHMARKS.md, "By commit"). The flags must be on the command line: V8 sizes its
// heap when the process starts, so package.json's scripts and bin/trawl.mjs's first line give them too.
export const HEAP_FLAGS = ['--max-semi-space-size=4'];

// A crawl worker also gets compiler flags. A fresh worker spends as much CPU compiling as crawling a site of a
// thousand pages: on the manual its V8 background threads used 0.9 s beside the 1.4 s of its main thread, most of it
// TurboFan recompiling undici's HTTP parser (WebAssembly) and optimising the HTML reader's large functions with
// everything they call inlined. Liftoff's baseline code for the parser and a smaller inlining budget cut that to
// 0.45 s, and the whole crawl's CPU by 12-13%, with no measurable loss on a 20,000-page site (BENCHMARKS.md).
export const WORKER_FLAGS = [...HEAP_FLAGS, '--liftoff-only', '--max-inlined-bytecode-size-cumulative=300'];

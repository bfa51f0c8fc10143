// What a crawl thread is doing right now, after Heritrix's ToeThread steps.

export const THREAD_STEPS = [
  'starting', // its worker process is starting
  'waiting', // waiting for a URL: the frontier has nothing ready
  'politeness', // politeness/backoff wait: URLs are queued but every host must wait
  'ratelimit', // rate limit wait: URLs are ready, but the crawl's global URLs/s cap holds the next fetch
  'claimed', // about to get URI: claimed from the frontier, handed to the worker
  'fetching', // fetching (bytes so far in ThreadStatus.bytes)
  'processing', // parsing and extracting
  'rendering', // its page is loading in a browser (JavaScript rendering), or waiting for one
  'returning', // about to return URI: the result is being recorded and its links scheduled
  'paused', // holding because the crawl is paused
  'retiring', // finishing its current URL, then leaving the pool
  'dead', // its worker process died; a fresh one is taking over
] as const;

export type ThreadStep = (typeof THREAD_STEPS)[number];

export const STEP_LABELS: Record<ThreadStep, string> = {
  starting: 'starting',
  waiting: 'waiting for a URL',
  politeness: 'politeness wait',
  ratelimit: 'rate limit',
  claimed: 'about to get URI',
  fetching: 'fetching',
  processing: 'processing',
  rendering: 'rendering',
  returning: 'about to return URI',
  paused: 'paused',
  retiring: 'retiring',
  dead: 'dead',
};

// Extraction rules tried on one sample URL: before a crawl, fetch the URL in a worker process (the same fetch chain
// and extractor the crawl will run) and return what each rule finds, so an analyst sees the values before crawling a
// million pages. A worker, not the parent, because the page is untrusted input and a pathological one must not
// stall the engine.
import type { PageFetchResult } from '../../../shared/protocol.ts';
import type { ExtractionTestResult } from '../../../shared/crawler-api.ts';
import { parseSettings, validateSettings, type CrawlSettingsInput } from '../../../shared/settings.ts';
import type { WorkerSpawner } from '../pool/worker-spawner.ts';

export interface RuleTestResult {
  url: string;
  statusCode: number | null;
  contentType: string | null;
  /** Why nothing could be read: a fetch error, a redirect (with its target), or not an HTML page. */
  problem: string | null;
  /** Values per rule name, as the crawl would record them. */
  values: Record<string, string[]>;
}

/** Longest the tester waits for the worker's answer before giving up (the fetch has its own timeouts). */
const TEST_TIMEOUT_MS = 60_000;

/**
 * Tests `settings.extraction` on `url`, with the crawl's other settings (user agent, timeouts) as given.
 * Throws a SettingsError for invalid settings; fetch problems come back in `problem`.
 */
export async function testExtractionRules(
  spawner: WorkerSpawner,
  url: string,
  settings: Omit<CrawlSettingsInput, 'seeds'>,
): Promise<RuleTestResult> {
  const parsed = parseSettings({ ...settings, seeds: [url] });
  const worker = spawner.spawn('rule-tester');
  try {
    const result = await new Promise<PageFetchResult>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer from ${url} within ${TEST_TIMEOUT_MS / 1000} s`)), TEST_TIMEOUT_MS);
      worker.onExit((exit) => reject(new Error(`the worker ${exit.reason} before answering`)));
      worker.onMessage((m) => {
        if (m.t === 'ready') worker.send({ t: 'job', job: { kind: 'page', jobId: 1, threadId: 1, url: parsed.seeds[0]!, depth: 0 } });
        else if (m.t === 'fatal') reject(new Error(m.message));
        else if (m.t === 'result' && m.result.kind === 'page') {
          clearTimeout(timer);
          resolve(m.result);
        }
      });
      worker.send({ t: 'init', workerName: 'rule-tester', settings: parsed });
    });
    return {
      url: result.url,
      statusCode: result.statusCode,
      contentType: result.contentType,
      problem: problemOf(result),
      values: result.extracted ?? Object.fromEntries(parsed.extraction.map((r) => [r.name, []])),
    };
  } finally {
    await worker.stop(1_000);
  }
}

function problemOf(r: PageFetchResult): string | null {
  if (r.error) return r.error;
  if (r.redirectUrl) return `redirects to ${r.redirectUrl}; test that URL instead`;
  if (!r.parsed) return `not an HTML page that can be read (status ${r.statusCode}, ${r.contentType ?? 'no content type'})`;
  return null;
}

/**
 * The settings of a rule test (any object but seeds: the URL is given on its own) checked: what testExtractionRules
 * takes, or the problems, the URL's as field "url".
 */
export function checkExtractionTest(
  url: string,
  settings: unknown,
): { ok: true; settings: Omit<CrawlSettingsInput, 'seeds'> } | Extract<ExtractionTestResult, { ok: false }> {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    return { ok: false, problems: [{ field: '(settings)', message: 'must be an object of settings' }] };
  }
  if (Object.hasOwn(settings, 'seeds'))
    return { ok: false, problems: [{ field: 'seeds', message: 'give the URL to test on its own, not as seeds' }] };
  const checked = validateSettings({ ...settings, seeds: [url] });
  if (!checked.ok) {
    return {
      ok: false,
      problems: checked.problems.map((p) => (p.field === 'seeds.0' || p.field === 'seeds' ? { ...p, field: 'url' } : p)),
    };
  }
  if (checked.settings.extraction.length === 0)
    return { ok: false, problems: [{ field: 'extraction', message: 'add a rule to test first' }] };
  const { seeds: _seeds, ...rest } = checked.settings;
  return { ok: true, settings: rest };
}

/** A host's rule tests: one at a time (each runs a worker), a second one while it runs is refused. */
export class ExtractionRuleTests {
  private running = false;

  constructor(private readonly spawner: WorkerSpawner) {}

  /** Checks the settings (problems come back, not thrown), then tests them on `url`. */
  async run(url: string, settings: unknown): Promise<ExtractionTestResult> {
    const checked = checkExtractionTest(url, settings);
    if (!checked.ok) return checked;
    if (this.running) throw new Error('a rule test is already running; wait for it to finish');
    this.running = true;
    try {
      return { ok: true, ...(await testExtractionRules(this.spawner, url, checked.settings)) };
    } finally {
      this.running = false;
    }
  }
}

// The messages built outside the renderer that a person reads (the settings' problems, a crawl's label problems and
// settings summary, a schedule's wait, the session's common refusals): each declared once here, as an English
// template keyed by a code. Code outside the renderer keeps the English text (the CLI prints it, logs keep it); the
// renderer shows the template of the code in its language (renderer/src/i18n: this catalogue is English's
// "messages" namespace, and every language must translate every code), and the English text for a message
// whose code it does not know. Plain data and functions: the renderer imports this.

export const MESSAGES = {
  // ---- a crawl's settings, on one line in the crawls list ----
  summarySpider: 'spider',
  summaryList: 'list',
  summaryScopeSameHost: 'same host',
  summaryScopeSubdomains: 'subdomains',
  summaryScopeDomain: 'domain',
  summaryScopeHosts: 'hosts',
  summaryScopeOther: '{{scope}}',
  summaryThreads: '{{n}} threads',
  summaryDepth: 'depth ≤ {{n}}',
  summaryPages: '≤ {{n}} pages',
  summaryInclude: '{{n}} include',
  summaryExclude: '{{n}} exclude',
  summaryRobotsIgnored: 'robots.txt ignored',
  summaryRobotsReported: 'robots.txt reported only',
  summaryPolite: 'polite',
  summaryDelay: '{{n}} ms delay',
  summaryRate: '≤ {{n}} URLs/s',
  summaryChecks: 'checks resources',
  summaryRenders: 'renders JavaScript',
  summaryRule: '{{n}} extraction rule',
  summaryRules: '{{n}} extraction rules',

  // ---- a crawl's label ----
  labelAtMostChars: 'at most {{max}} characters',
  labelOneLine: 'must be one line of text',
  labelAtMostTags: 'at most {{max}} tags',
  labelTagTooLong: '"{{tag}}…" is longer than {{max}} characters',
  labelTagChars: '"{{tag}}" may not hold a comma or control characters',

  // ---- a crawl's settings (shared/settings.ts, shared/settings-fields.ts) ----
  unknownSetting: 'unknown setting',
  mustBeText: 'must be text',
  mustBeTextValue: 'must be a text value',
  notEmpty: 'must not be empty',
  atMostChars: 'must be at most {{max}} characters',
  atLeast: 'must be at least {{min}}',
  atMost: 'must be at most {{max}}',
  moreThanZero: 'must be more than 0',
  wholeNumber: 'must be a whole number from {{min}} to {{max}}',
  oneOf: 'must be one of {{choices}}',
  listOfUrls: 'must be a list of URLs',
  listOfHosts: 'must be a list of host names',
  listOfPatterns: 'must be a list of regular expressions',
  listOfParams: 'must be a list of query parameter names',
  listOfRules: 'must be a list of extraction rules',
  listOfSelectors: 'must be a list of element names, .classes or #ids',
  contentSelector: 'must be an element name (nav), a .class or an #id',
  listOfChoices: 'must be a list of {{choices}}',
  oneSeed: 'give at least one seed URL',
  badUrl: '"{{value}}" is not a valid URL (expected something like https://example.com/)',
  notHttpUrl: '"{{value}}" is not an http or https URL',
  hostName: 'must be a host name',
  badHostName: '"{{value}}" is not a valid host name (expected a host such as example.com or example.com:8080, without http:// or a path)',
  regex: 'must be a regular expression',
  badRegexIn: 'invalid regular expression: {{error}} in "{{value}}"',
  badRegex: 'invalid regular expression: {{error}}',
  paramName: 'must be a query parameter name',
  badParamName: '"{{value}}" is not a query parameter name (no &, = or #; a * only at the end, as in utm_*)',
  headersObject: 'must be an object of header names and values',
  atMostHeaders: 'must hold at most {{max}} headers',
  badHeaderName: '"{{name}}" is not a valid header name',
  userAgentHeader: 'set the user agent with userAgent',
  headerSetByTrawl: '"{{name}}" is set by Trawl itself',
  headerTwice: '"{{name}}" is given twice',
  badHeaderValueLong: 'must be a valid HTTP header value (no line breaks or control characters, at most 8192 characters)',
  badHeaderValue: 'must be a valid HTTP header value (no line breaks or control characters)',
  badViewport: 'must be desktop, mobile or a size such as 1280x800',
  basicAuthShape: 'must be {"username": ..., "password": ...} or null',
  noColonOrControl: 'must not contain ":" or control characters',
  noControl: 'must not contain control characters',
  authTwice: 'give either basic authentication or an Authorization header, not both',
  hostsNeeded: 'list at least one host when scope is "hosts"',
  seedTooLong: '"{{seed}}" is {{length}} characters long, more than maxUrlLength ({{max}})',
  seedExcluded: '"{{seed}}" is excluded by your include/exclude patterns (it matches exclude pattern "{{pattern}}")',
  seedNotIncluded: '"{{seed}}" is excluded by your include/exclude patterns (it matches no include pattern)',
  columnName: 'must be a column name',
  columnChars: 'may hold letters, digits, spaces and - _ . only',
  ruleType: 'must be css or regex',
  ruleExpression: 'must be a CSS selector or a regular expression',
  ruleOutput: 'must be text, attribute or html',
  robotsChoice: 'must be respect, ignore or report',
  atMostRules: 'must hold at most {{max}} rules',
  ruleNameTaken: '"{{name}}" is the name of another rule',
  badSelector: 'invalid CSS selector: {{error}}',
  attributeNeeded: 'name the attribute to read (e.g. href) when output is "attribute"',

  // ---- why a scheduled run that is due has not started ----
  waitingForCrawl: 'waiting for the crawl in progress ({{state}}) to finish',
  waitingForCluster: 'waiting: a cluster crawl is in view',

  // ---- the session's refusals and failures a person meets most ----
  refuseStart: 'cannot start a new crawl: a crawl is already running ({{state}}); stop it first',
  refuseResume: 'cannot resume a crawl: a crawl is already running ({{state}}); stop it first',
  refuseAttach: 'cannot attach to a cluster crawl: a crawl is already running ({{state}}); stop it first',
  refuseScheduled: 'cannot start a scheduled crawl: a crawl is already running ({{state}}); stop it first',
  refuseOpen: 'a crawl is running; stop it before opening another crawl',
  notCrawlFile: '{{file}} is not a Trawl crawl file',
  notCrawlFileWhy: '{{file}} is not a Trawl crawl file ({{error}})',
  exportCancelled: 'export cancelled',
  compareSame: 'choose two different crawls to compare',
  compareNoStore: 'a cluster crawl is compared only while attached to its store: attach to it again',
} as const;

export type MessageCode = keyof typeof MESSAGES;
export type MessageParams = Readonly<Record<string, string | number>>;

/** A message: its code and parameters, which the renderer formats in its language, and the English text beside them. */
export interface Message {
  code: MessageCode;
  params?: MessageParams;
  text: string;
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The English text of a code with its parameters. */
export function englishText(code: MessageCode, params: MessageParams = {}): string {
  return MESSAGES[code].replace(PLACEHOLDER, (_, name: string) => String(params[name] ?? ''));
}

/** A message of the catalogue, with its English text. */
export function message(code: MessageCode, params?: MessageParams): Message {
  return params === undefined ? { code, text: englishText(code) } : { code, params, text: englishText(code, params) };
}

/** An error whose message is the catalogue's English text; `detail` keeps the code and parameters. */
export class MessageError extends Error {
  readonly detail: Message;
  constructor(code: MessageCode, params?: MessageParams) {
    const detail = message(code, params);
    super(detail.text);
    this.detail = detail;
  }
}

export function isMessageCode(code: unknown): code is MessageCode {
  return typeof code === 'string' && Object.hasOwn(MESSAGES, code);
}

let matchers: { code: MessageCode; names: string[]; pattern: RegExp }[] | null = null;

/**
 * The message an English text is, read back by its template (null when it is none of the catalogue's). A command's
 * error reaches the renderer as its text only (Electron's IPC keeps nothing else of an error), so the renderer
 * recognises the errors of the catalogue this way. Templates with fewer placeholders are tried first, so a text
 * matches the most specific one.
 */
export function messageFromText(text: string): Message | null {
  matchers ??= (Object.keys(MESSAGES) as MessageCode[])
    .map((code) => {
      const names: string[] = [];
      const source = MESSAGES[code]
        .split(PLACEHOLDER)
        .map((part, i) => (i % 2 === 1 ? (names.push(part), '([\\s\\S]*)') : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('');
      return { code, names, pattern: new RegExp(`^${source}$`) };
    })
    // A template of placeholders only would read any text as itself; a summary's parts never travel as text (and
    // "{{n}} threads" would read any text that ends so).
    .filter(({ code }) => MESSAGES[code].replace(PLACEHOLDER, '').trim() !== '' && !code.startsWith('summary'))
    .sort((a, b) => a.names.length - b.names.length);
  for (const { code, names, pattern } of matchers) {
    const m = pattern.exec(text);
    if (!m) continue;
    if (names.length === 0) return { code, text };
    return { code, params: Object.fromEntries(names.map((n, i) => [n, m[i + 1] ?? ''])), text };
  }
  return null;
}

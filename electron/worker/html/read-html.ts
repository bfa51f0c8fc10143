// One pass over a page, handing open/text/close events to each extractor of the crawl. Building cheerio's DOM and
// walking it cost three times as much per page as streaming htmlparser2's events, and htmlparser2's tokenizer
// (a state machine called per character) was still the largest cost of the worker. This reader finds text runs
// with indexOf('<'), reads tags by char codes, builds attributes only for the tags some extractor reads, and
// decodes entities only in a text or value that contains '&'. It reproduces htmlparser2 10's Parser (the reader
// it replaced, decodeEntities on) event for event, quirks included (its raw-text elements, implied closes, void
// and foreign elements, what an unterminated construct at the end of a page becomes): the fuzz test compares the
// two. Forgiving: malformed markup or binary garbage never throws.
import { Tokenizer, type TokenizerCallbacks } from 'htmlparser2';
import type { HtmlExtractor, HtmlHandlers, PageDraft, ParseState } from './extractor-contract.ts';

/** Subtrees that are never shown as text. */
const HIDDEN = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object']);

export function readHtml(html: string, extractors: readonly HtmlExtractor[]): PageDraft {
  const draft: PageDraft = { h1Count: 0, h2Count: 0, hreflang: [], links: [], words: 0 };
  // Extractors reading attributes any tag may carry say whether this page may hold them (one scan of its text).
  const wants = extractors.map((e) => e.everyTagAttributesIf?.(html) === true);
  const handlers = extractors.map((e, i) => e.begin(draft, { html, everyTagAttributes: wants[i]! }));
  const tags = attributeTags(extractors);
  const tagsOf = extractors.map((e, i) => (wants[i] ? undefined : e.tags));
  const opens = dispatch(handlers, tagsOf, 'open');
  const closes = dispatch(handlers, tagsOf, 'close');
  new HtmlReader(html, opens, closes, handlers, tags !== null && wants.includes(true) ? null : tags).read();
  for (const h of handlers) h.end?.();
  return draft;
}

/** For each tag, the handlers its events go to (in the extractors' order), and the handlers of any other tag. */
interface Dispatch {
  byTag: Map<string, HtmlHandlers[]>;
  other: HtmlHandlers[];
}

/** Which handlers an event of each tag goes to: those that have it and handle every tag or name that one. */
function dispatch(
  handlers: readonly HtmlHandlers[],
  tagsOf: readonly (readonly string[] | undefined)[],
  event: 'open' | 'close',
): Dispatch {
  const other: HtmlHandlers[] = [];
  const named = new Set<string>();
  for (let i = 0; i < handlers.length; i++) {
    if (handlers[i]![event] === undefined) continue;
    const tags = tagsOf[i];
    if (tags === undefined) other.push(handlers[i]!);
    else for (const t of tags) named.add(t);
  }
  const byTag = new Map<string, HtmlHandlers[]>();
  for (const tag of named) {
    const list: HtmlHandlers[] = [];
    for (let i = 0; i < handlers.length; i++) {
      const tags = tagsOf[i];
      if (handlers[i]![event] !== undefined && (tags === undefined || tags.includes(tag))) list.push(handlers[i]!);
    }
    byTag.set(tag, list);
  }
  return { byTag, other };
}

/** The tags whose attributes some extractor reads, or null when one of them reads every tag's. */
function attributeTags(extractors: readonly HtmlExtractor[]): ReadonlySet<string> | null {
  const tags = new Set<string>();
  for (const e of extractors) {
    if (e.attributesOf === undefined) return null;
    for (const t of e.attributesOf) tags.add(t);
  }
  return tags;
}

// The tree logic of htmlparser2's Parser (HTML mode).
const formTags = new Set(['input', 'option', 'optgroup', 'select', 'button', 'datalist', 'textarea']);
const pTag = new Set(['p']);
const tableSectionTags = new Set(['thead', 'tbody']);
const ddtTags = new Set(['dd', 'dt']);
const rtpTags = new Set(['rt', 'rp']);
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ['tr', new Set(['tr', 'th', 'td'])],
  ['th', new Set(['th'])],
  ['td', new Set(['thead', 'th', 'td'])],
  ['body', new Set(['head', 'link', 'script'])],
  ['li', new Set(['li'])],
  ['p', pTag],
  ['h1', pTag],
  ['h2', pTag],
  ['h3', pTag],
  ['h4', pTag],
  ['h5', pTag],
  ['h6', pTag],
  ['select', formTags],
  ['input', formTags],
  ['output', formTags],
  ['button', formTags],
  ['datalist', formTags],
  ['textarea', formTags],
  ['option', new Set(['option'])],
  ['optgroup', new Set(['optgroup', 'option'])],
  ['dd', ddtTags],
  ['dt', ddtTags],
  ['address', pTag],
  ['article', pTag],
  ['aside', pTag],
  ['blockquote', pTag],
  ['details', pTag],
  ['div', pTag],
  ['dl', pTag],
  ['fieldset', pTag],
  ['figcaption', pTag],
  ['figure', pTag],
  ['footer', pTag],
  ['form', pTag],
  ['header', pTag],
  ['hr', pTag],
  ['main', pTag],
  ['nav', pTag],
  ['ol', pTag],
  ['pre', pTag],
  ['section', pTag],
  ['table', pTag],
  ['ul', pTag],
  ['rt', rtpTags],
  ['rp', rtpTags],
  ['tbody', tableSectionTags],
  ['tfoot', tableSectionTags],
]);
const VOID = new Set([
  'area',
  'base',
  'basefont',
  'br',
  'col',
  'command',
  'embed',
  'frame',
  'hr',
  'img',
  'input',
  'isindex',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
const FOREIGN = new Set(['math', 'svg']);
const INTEGRATION = new Set(['mi', 'mo', 'mn', 'ms', 'mtext', 'annotation-xml', 'foreignobject', 'desc', 'title']);

/** End sequences of htmlparser2's raw-text elements, as char codes. */
const codes = (s: string) => Array.from(s, (c) => c.charCodeAt(0));
const SCRIPT = codes('</script');
const STYLE = codes('</style');
const TITLE = codes('</title');
const TEXTAREA = codes('</textarea');
const XMP = codes('</xmp');
const CDATA = codes('CDATA[');

const NO_ATTRIBUTES: Record<string, string> = Object.freeze({}) as Record<string, string>;

const isWs = (c: number) => c === 32 || c === 10 || c === 9 || c === 12 || c === 13;
const isAlpha = (c: number) => (c | 0x20) >= 97 && (c | 0x20) <= 122;
const isEndOfTagSection = (c: number) => c === 47 || c === 62 || isWs(c);

/**
 * The raw-text end sequence htmlparser2's tokenizer picks for a tag name (its first two letters choose it: "tmp"
 * reads as xmp, "xitle" as title), or null. `complete`: the name is whole (else it runs to the end of the input,
 * and the answer is whether the tokenizer is still matching).
 */
function specialSequence(s: string, from: number, to: number, complete: boolean): number[] | null {
  const n = to - from;
  const f = s.charCodeAt(from) | 0x20;
  if (n === 1) return complete || (f !== 115 && f !== 116 && f !== 120) ? null : SCRIPT;
  const g = s.charCodeAt(from + 1) | 0x20;
  let seq: number[] | null = null;
  if (f === 115) seq = g === 99 ? SCRIPT : g === 116 ? STYLE : null;
  else if (f === 116 || f === 120) seq = g === 105 ? TITLE : g === 101 ? TEXTAREA : g === 109 ? XMP : null;
  if (seq === null || n > seq.length - 2 || (complete && n !== seq.length - 2)) return null;
  for (let k = 2; k < n; k++) if ((s.charCodeAt(from + k) | 0x20) !== seq[k + 2]) return null;
  return seq;
}

class HtmlReader {
  private readonly texts: HtmlHandlers[];
  private readonly state: ParseState = { hidden: false, inSvg: false };
  private hiddenDepth = 0;
  private svgDepth = 0;
  /** Open elements, innermost last. */
  private readonly stack: string[] = [];
  /** htmlparser2's foreign-context stack (self-closing tags count inside svg and math), innermost last. */
  private readonly foreign: boolean[] = [false];
  /** Next '&' at or after the last asked position (Infinity: none). */
  private amp = -1;

  constructor(
    private readonly html: string,
    private readonly opens: Dispatch,
    private readonly closes: Dispatch,
    handlers: HtmlHandlers[],
    private readonly attributeTags: ReadonlySet<string> | null,
  ) {
    // Only the handlers that have text, so an extractor that reads tags costs nothing per text node.
    this.texts = handlers.filter((h) => h.text !== undefined);
  }

  read(): void {
    this.scan();
    const stack = this.stack;
    while (stack.length > 0) this.close(stack.pop()!);
  }

  // Events as htmlparser2's Parser reports them, with the extractors' parse state.

  private open(name: string, attribs: Record<string, string>): void {
    if (HIDDEN.has(name)) this.hiddenDepth++;
    if (name === 'svg') this.svgDepth++;
    // The element's own state applies from its start tag: its text is hidden, its <title> inside the svg.
    const state = this.state;
    state.hidden = this.hiddenDepth > 0;
    state.inSvg = this.svgDepth > 0;
    for (const h of this.opens.byTag.get(name) ?? this.opens.other) h.open!(name, attribs, state);
  }

  private close(name: string): void {
    const state = this.state;
    for (const h of this.closes.byTag.get(name) ?? this.closes.other) h.close!(name, state);
    if (this.hiddenDepth > 0 && HIDDEN.has(name)) this.hiddenDepth--;
    if (this.svgDepth > 0 && name === 'svg') this.svgDepth--;
    state.hidden = this.hiddenDepth > 0;
    state.inSvg = this.svgDepth > 0;
  }

  /** Text source[from, to): a range of the page itself (no copy made unless a handler keeps it) or an entity's piece. */
  private emit(source: string, from: number, to: number): void {
    for (const h of this.texts) h.text!(source, from, to, this.state);
  }

  /** Text as written (what htmlparser2 reports for an unterminated construct at the end). */
  private raw(from: number, to: number): void {
    if (from < to && this.texts.length > 0) this.emit(this.html, from, to);
  }

  /** Text, entities decoded (in the pieces htmlparser2 reports: before, at and after each entity). */
  private text(from: number, to: number, prefix = ''): void {
    if (from >= to || this.texts.length === 0) return;
    if (this.amp < from) {
      const k = this.html.indexOf('&', from);
      this.amp = k === -1 ? Number.POSITIVE_INFINITY : k;
    }
    if (this.amp >= to) this.emit(this.html, from, to);
    else for (const chunk of entities().text(prefix, this.html.slice(from, to))) this.emit(chunk, 0, chunk.length);
  }

  /** htmlparser2 Parser's emitOpenTag: implied closes, then the element is open (before its attributes are read). */
  private openTagName(name: string): void {
    const stack = this.stack;
    const implies = OPEN_IMPLIES_CLOSE.get(name);
    if (implies !== undefined) {
      while (stack.length > 0 && implies.has(stack[stack.length - 1]!)) this.close(stack.pop()!);
    }
    if (!VOID.has(name)) {
      stack.push(name);
      if (FOREIGN.has(name)) this.foreign.push(true);
      else if (INTEGRATION.has(name)) this.foreign.push(false);
    }
  }

  /** The start tag's '>' (endOpenTag). */
  private openTagEnd(name: string, attribs: Record<string, string>): void {
    this.open(name, attribs);
    if (VOID.has(name)) this.close(name);
  }

  /** "/>": only closes inside svg or math, as in htmlparser2. */
  private selfClosing(name: string, attribs: Record<string, string>): void {
    if (this.foreign[this.foreign.length - 1] === true) {
      this.openTagEnd(name, attribs);
      const stack = this.stack;
      if (stack[stack.length - 1] === name) {
        stack.pop();
        this.close(name);
      }
    } else {
      this.openTagEnd(name, attribs);
    }
  }

  /** An end tag (Parser.onclosetag). */
  private closeTag(name: string): void {
    if (FOREIGN.has(name) || INTEGRATION.has(name)) this.foreign.pop();
    const stack = this.stack;
    if (!VOID.has(name)) {
      const at = stack.lastIndexOf(name);
      if (at !== -1) {
        while (stack.length > at) this.close(stack.pop()!);
      } else if (name === 'p') {
        // </p> without <p>: an empty paragraph.
        this.openTagName('p');
        this.open('p', NO_ATTRIBUTES);
        if (stack[stack.length - 1] === 'p') {
          stack.pop();
          this.close('p');
        }
      }
    } else if (name === 'br') {
      this.open('br', NO_ATTRIBUTES);
      this.close('br');
    }
  }

  /** The whole input; returns when it ends (the open elements are closed by read()). */
  private scan(): void {
    const s = this.html;
    const len = s.length;
    /** Start of the current text. */
    let pos = 0;
    let i = 0;
    while (true) {
      const lt = s.indexOf('<', i);
      if (lt === -1) break;
      this.text(pos, lt);
      pos = lt;
      if (lt + 1 >= len) break;
      const c = s.charCodeAt(lt + 1);
      if (isAlpha(c)) {
        const next = this.startTag(lt + 1);
        if (next < 0) return;
        i = pos = next;
      } else if (c === 47) {
        // End tag.
        let j = lt + 2;
        while (j < len && isWs(s.charCodeAt(j))) j++;
        if (j >= len) return this.raw(lt, len);
        const d = s.charCodeAt(j);
        if (d === 62) {
          // "</>" stays text.
          i = j + 1;
        } else if (isAlpha(d)) {
          let k = j + 1;
          while (k < len) {
            const e = s.charCodeAt(k);
            if (e === 62 || isWs(e)) break;
            k++;
          }
          if (k >= len) return;
          this.closeTag(s.slice(j, k).toLowerCase());
          const next = this.afterEndTagName(k);
          if (next < 0) return;
          i = pos = next;
        } else {
          // "</1...>": a bogus comment.
          const k = s.indexOf('>', j + 1);
          if (k === -1) return this.raw(j, len);
          i = pos = k + 1;
        }
      } else if (c === 33) {
        const next = this.declaration(lt + 2);
        if (next < 0) return;
        i = pos = next;
      } else if (c === 63) {
        // <?...>
        const k = s.indexOf('>', lt + 2);
        if (k === -1) return this.raw(lt + 2, len);
        i = pos = k + 1;
      } else {
        // A '<' that starts no tag is text.
        i = lt + 1;
      }
    }
    this.text(pos, len);
  }

  /** After an end tag's name at `k` (a '>' or whitespace): up to its '>'. Returns the next index, -1 at the end. */
  private afterEndTagName(k: number): number {
    const s = this.html;
    if (s.charCodeAt(k) !== 62) {
      k = s.indexOf('>', k + 1);
      if (k === -1) {
        // htmlparser2 reports the input's last character as text here.
        this.raw(s.length - 1, s.length);
        return -1;
      }
    }
    return k + 1;
  }

  /** <!...> from just after the '!': comments, CDATA (a comment in HTML) and declarations. */
  private declaration(d: number): number {
    const s = this.html;
    const len = s.length;
    if (d >= len) return -1;
    const c = s.charCodeAt(d);
    let from: number;
    if (c === 91) {
      let m = 0;
      while (m < 6 && d + 1 + m < len && s.charCodeAt(d + 1 + m) === CDATA[m]) m++;
      if (m === 6) {
        const e = s.indexOf(']]>', d + 7);
        return e === -1 ? -1 : e + 3;
      }
      if (d + 1 + m >= len) {
        this.raw(d, len);
        return -1;
      }
      from = d + 1 + m;
    } else if (c === 45) {
      if (d + 1 >= len) {
        this.raw(d, len);
        return -1;
      }
      if (s.charCodeAt(d + 1) === 45) {
        // <!-- ... -->; "<!-->" and "<!--->" are whole comments.
        let p = d + 2;
        while (p < len && s.charCodeAt(p) === 45) p++;
        if (p < len && s.charCodeAt(p) === 62) return p + 1;
        const e = s.indexOf('-->', p);
        return e === -1 ? -1 : e + 3;
      }
      from = d + 2;
    } else {
      from = d + 1;
    }
    const e = s.indexOf('>', from);
    if (e === -1) {
      this.raw(d, len);
      return -1;
    }
    return e + 1;
  }

  /** A start tag from its name's first letter. Returns the index after it (and its raw text), -1 at the end. */
  private startTag(ns: number): number {
    const s = this.html;
    const len = s.length;
    let k = ns + 1;
    while (k < len && !isEndOfTagSection(s.charCodeAt(k))) k++;
    if (k >= len) {
      // A name cut by the end: ignored, unless the tokenizer was still matching a raw-text name ("<script").
      if (specialSequence(s, ns, len, false) !== null) this.raw(ns, len);
      return -1;
    }
    const special = specialSequence(s, ns, k, true);
    const name = s.slice(ns, k).toLowerCase();
    this.openTagName(name);
    const collect = this.attributeTags === null || this.attributeTags.has(name);
    const attribs = collect ? {} : NO_ATTRIBUTES;
    // htmlparser2's attribute states, from BeforeAttributeName.
    while (true) {
      if (k >= len) return -1;
      let c = s.charCodeAt(k);
      if (c === 62) {
        this.openTagEnd(name, attribs);
        return special === null ? k + 1 : this.rawText(k + 1, special);
      }
      if (c === 47) {
        k++;
        while (k < len && isWs(s.charCodeAt(k))) k++;
        if (k >= len) {
          this.raw(len - 1, len);
          return -1;
        }
        if (s.charCodeAt(k) === 62) {
          this.selfClosing(name, attribs);
          return k + 1;
        }
        continue;
      }
      if (isWs(c)) {
        k++;
        continue;
      }
      // An attribute name: its first character whatever it is ("=x" included), then up to = / > or whitespace.
      const an = k++;
      while (k < len) {
        c = s.charCodeAt(k);
        if (c === 61 || isEndOfTagSection(c)) break;
        k++;
      }
      const ae = k;
      while (k < len && isWs(s.charCodeAt(k))) k++;
      if (k >= len) return -1;
      if (s.charCodeAt(k) !== 61) {
        if (collect) this.attribute(attribs, an, ae, '');
        continue;
      }
      k++;
      while (k < len && isWs(s.charCodeAt(k))) k++;
      if (k >= len) return -1;
      c = s.charCodeAt(k);
      if (c === 34 || c === 39) {
        const end = s.indexOf(c === 34 ? '"' : "'", k + 1);
        if (end === -1) return -1;
        if (collect) this.attribute(attribs, an, ae, this.value(k + 1, end, c === 34 ? '"' : "'"));
        k = end + 1;
      } else {
        const vs = k;
        while (k < len) {
          c = s.charCodeAt(k);
          if (c === 62 || isWs(c)) break;
          k++;
        }
        if (k >= len) return -1;
        if (collect) this.attribute(attribs, an, ae, this.value(vs, k, ''));
      }
    }
  }

  private attribute(attribs: Record<string, string>, from: number, to: number, value: string): void {
    const name = this.html.slice(from, to).toLowerCase();
    // The first of a name wins.
    if (!Object.hasOwn(attribs, name)) attribs[name] = value;
  }

  private value(from: number, to: number, quote: string): string {
    const v = this.html.slice(from, to);
    return v.includes('&') ? entities().attribute(quote, v) : v;
  }

  /**
   * The text of a raw-text element (script, style, title, textarea, xmp) from `from`, up to its end tag as
   * htmlparser2's tokenizer finds it; returns the index after the end tag, -1 at the end.
   */
  private rawText(from: number, seq: number[]): number {
    const s = this.html;
    const len = s.length;
    const isTitle = seq === TITLE;
    let at = 0;
    let i = from;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (at === seq.length) {
        if (c === 62 || isWs(c)) break;
        at = 0;
      }
      if ((c | 0x20) === seq[at]) at++;
      else if (at === 0) {
        if (!isTitle) {
          const n = s.indexOf('<', i + 1);
          if (n === -1) {
            i = len;
            break;
          }
          i = n;
          at = 1;
        }
      } else at = c === 60 ? 1 : 0;
    }
    if (i >= len) {
      if (isTitle) this.text(from, len, '<title>');
      else this.raw(from, len);
      return -1;
    }
    const endOfText = i - seq.length;
    if (isTitle) this.text(from, endOfText, '<title>');
    else this.raw(from, endOfText);
    this.closeTag(s.slice(endOfText + 2, i).toLowerCase());
    return this.afterEndTagName(i);
  }
}

/**
 * Entity decoding exactly as htmlparser2 does it (its own tokenizer, so its version of the entities tables and
 * its rules for entities without a semicolon), for the rare text or value that contains '&'.
 */
class EntityDecoding implements TokenizerCallbacks {
  private buffer = '';
  private chunks: string[] = [];
  private value = '';
  private readonly tokenizer: Tokenizer;

  constructor() {
    this.tokenizer = new Tokenizer({ decodeEntities: true }, this);
  }

  /** Text in the pieces htmlparser2 reports; `prefix` '<title>' reads it as a title's text. */
  text(prefix: string, text: string): string[] {
    this.chunks = [];
    this.run(prefix + text);
    return this.chunks;
  }

  /** An attribute value, quoted as it was written ('' unquoted). */
  attribute(quote: string, value: string): string {
    this.value = '';
    this.run(`<a x=${quote}${value}${quote}>`);
    return this.value;
  }

  private run(input: string): void {
    this.buffer = input;
    this.tokenizer.reset();
    this.tokenizer.write(input);
    this.tokenizer.end();
  }

  ontext(start: number, end: number): void {
    this.chunks.push(this.buffer.slice(start, end));
  }
  ontextentity(codepoint: number): void {
    this.chunks.push(String.fromCodePoint(codepoint));
  }
  onattribdata(start: number, end: number): void {
    this.value += this.buffer.slice(start, end);
  }
  onattribentity(codepoint: number): void {
    this.value += String.fromCodePoint(codepoint);
  }
  onattribend(): void {}
  onattribname(): void {}
  oncdata(): void {}
  onclosetag(): void {}
  oncomment(): void {}
  ondeclaration(): void {}
  onend(): void {}
  onopentagend(): void {}
  onopentagname(): void {}
  onprocessinginstruction(): void {}
  onselfclosingtag(): void {}
}

let decoding: EntityDecoding | undefined;
const entities = () => (decoding ??= new EntityDecoding());

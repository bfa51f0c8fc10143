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

/** `ascii`: the page's bytes when html is ASCII read as UTF-8, each character the byte at its index (PageText). */
export function readHtml(html: string, extractors: readonly HtmlExtractor[], ascii: Uint8Array | null = null): PageDraft {
  const draft: PageDraft = { h1Count: 0, h2Count: 0, hreflang: [], links: [], words: 0 };
  // Extractors reading attributes any tag may carry say whether this page may hold them (one scan of its text).
  const wants = extractors.map((e) => e.everyTagAttributesIf?.(html) === true);
  const handlers = extractors.map((e, i) => e.begin(draft, { html, everyTagAttributes: wants[i]!, ascii }));
  const tags = attributeTags(extractors);
  const routing: Routing = {
    handlers,
    tagsOf: extractors.map((e, i) => (wants[i] ? undefined : e.tags)),
    textWithin: extractors.map((e) => e.textWithin),
    attributeTags: tags !== null && wants.includes(true) ? null : tags,
  };
  new HtmlReader(html, routing).read();
  for (const h of handlers) h.end?.();
  return draft;
}

/** What the page's handlers want, from which the reader works out each tag's route once per page. */
interface Routing {
  handlers: readonly HtmlHandlers[];
  /** Each handler's tags (undefined: every tag's). */
  tagsOf: readonly (readonly string[] | undefined)[];
  /** Each handler's textWithin (undefined: every text). */
  textWithin: readonly (readonly string[] | undefined)[];
  /** The tags whose attributes are read (null: every tag's). */
  attributeTags: ReadonlySet<string> | null;
}

/** Where one tag's events go on this page. */
interface Route {
  /** The handlers of its open and close events, in the extractors' order. */
  opens: HtmlHandlers[];
  closes: HtmlHandlers[];
  /** Its attributes are read. */
  collect: boolean;
  /** The handlers (by index) whose text waits for this element to be open; null: none. */
  gates: number[] | null;
}

function routeOf(r: Routing, name: string): Route {
  const opens: HtmlHandlers[] = [];
  const closes: HtmlHandlers[] = [];
  let gates: number[] | null = null;
  for (let i = 0; i < r.handlers.length; i++) {
    const h = r.handlers[i]!;
    const tags = r.tagsOf[i];
    if (tags === undefined || tags.includes(name)) {
      if (h.open !== undefined) opens.push(h);
      if (h.close !== undefined) closes.push(h);
    }
    if (h.text !== undefined && r.textWithin[i]?.includes(name)) (gates ??= []).push(i);
  }
  return { opens, closes, collect: r.attributeTags === null || r.attributeTags.has(name), gates };
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

/** What a tag name is to htmlparser2's tree logic (bits of TagName.kind). */
const IS_VOID = 1;
const IS_HIDDEN = 2;
const IS_FOREIGN = 4;
const IS_INTEGRATION = 8;
const IS_SVG = 16;

/**
 * A tag name, lower-cased, with what the tree logic needs to know of it. The names a page uses over and over (p,
 * div, a, span) are interned: the reader finds one from the page's char codes without slicing or lower-casing a
 * string, and each tag's route is worked out once per page (by `id`) instead of a dozen set and map look-ups per
 * tag.
 */
interface TagName {
  readonly name: string;
  readonly kind: number;
  /** The open elements its start tag closes (htmlparser2's openImpliesClose), if any. */
  readonly implies: ReadonlySet<string> | undefined;
  /** Its raw-text end sequence when it is the whole name (script, style, title, textarea, xmp). */
  readonly special: number[] | null;
  /** Index in the reader's routes; -1 for a name not interned (past the bound, or not ASCII). */
  readonly id: number;
}

function tagName(name: string, id: number, special = specialSequence(name, 0, name.length, true)): TagName {
  const kind =
    (VOID.has(name) ? IS_VOID : 0) |
    (HIDDEN.has(name) ? IS_HIDDEN : 0) |
    (FOREIGN.has(name) ? IS_FOREIGN : 0) |
    (INTEGRATION.has(name) ? IS_INTEGRATION : 0) |
    (name === 'svg' ? IS_SVG : 0);
  return { name, kind, implies: OPEN_IMPLIES_CLOSE.get(name), special, id };
}

/**
 * Interned tag names: an open-addressed table keyed by a hash of the lower-cased char codes. A site names its own
 * tags, so at most NAMES_MAX are kept (in the worker, for all pages); a name past that is made anew each time.
 */
const NAMES_MAX = 1024;
const SLOTS = 4096;
const slotHash = new Int32Array(SLOTS);
const slotName: (TagName | undefined)[] = new Array(SLOTS).fill(undefined);
let interned = 0;

/** The tag name s[from, to), lower-cased. */
function tagNameAt(s: string, from: number, to: number): TagName {
  let h = to - from;
  for (let i = from; i < to; i++) {
    let c = s.charCodeAt(i);
    // Not ASCII: lower-casing may change its length, and the raw-text sequence is read from the name as written.
    if (c >= 128) return tagName(s.slice(from, to).toLowerCase(), -1, specialSequence(s, from, to, true));
    if (c >= 65 && c <= 90) c += 32;
    h = (Math.imul(h, 31) + c) | 0;
  }
  let slot = (h ^ (h >>> 12)) & (SLOTS - 1);
  while (true) {
    const t = slotName[slot];
    if (t === undefined) break;
    if (slotHash[slot] === h && sameName(t.name, s, from, to)) return t;
    slot = (slot + 1) & (SLOTS - 1);
  }
  const name = s.slice(from, to).toLowerCase();
  if (interned >= NAMES_MAX) return tagName(name, -1);
  const t = tagName(name, interned++);
  slotHash[slot] = h;
  slotName[slot] = t;
  return t;
}

/** `name` (lower case) is s[from, to) lower-cased (ASCII). */
function sameName(name: string, s: string, from: number, to: number): boolean {
  if (name.length !== to - from) return false;
  for (let i = 0; i < name.length; i++) {
    let c = s.charCodeAt(from + i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== name.charCodeAt(i)) return false;
  }
  return true;
}

const P = tagNameAt('p', 0, 1);
const BR = tagNameAt('br', 0, 2);

class HtmlReader {
  /** The handlers that get the page's text now: every text handler, but those waiting for an element to open. */
  private texts: HtmlHandlers[];
  /** Per handler, how many of the elements its text waits for are open. */
  private readonly gateOpen: Int32Array;
  private readonly routes: (Route | undefined)[] = [];
  private readonly state: ParseState = { hidden: false, inSvg: false };
  private hiddenDepth = 0;
  private svgDepth = 0;
  /** Open elements, innermost last. */
  private readonly stack: TagName[] = [];
  /** htmlparser2's foreign-context stack (self-closing tags count inside svg and math), innermost last. */
  private readonly foreign: boolean[] = [false];
  /** Next '&' at or after the last asked position (Infinity: none). */
  private amp = -1;

  constructor(
    private readonly html: string,
    private readonly routing: Routing,
  ) {
    this.gateOpen = new Int32Array(routing.handlers.length);
    this.texts = this.listening();
  }

  read(): void {
    this.scan();
    const stack = this.stack;
    while (stack.length > 0) this.close(stack.pop()!);
  }

  /** Only the handlers that have text and are not waiting, so an extractor that reads tags costs nothing per text. */
  private listening(): HtmlHandlers[] {
    const { handlers, textWithin } = this.routing;
    return handlers.filter((h, i) => h.text !== undefined && (textWithin[i] === undefined || this.gateOpen[i]! > 0));
  }

  private route(tag: TagName): Route {
    if (tag.id < 0) return routeOf(this.routing, tag.name);
    return (this.routes[tag.id] ??= routeOf(this.routing, tag.name));
  }

  // Events as htmlparser2's Parser reports them, with the extractors' parse state.

  private open(tag: TagName, attribs: Record<string, string>): void {
    const route = this.route(tag);
    if (tag.kind & IS_HIDDEN) this.hiddenDepth++;
    if (tag.kind & IS_SVG) this.svgDepth++;
    // The element's own state applies from its start tag: its text is hidden, its <title> inside the svg.
    const state = this.state;
    state.hidden = this.hiddenDepth > 0;
    state.inSvg = this.svgDepth > 0;
    if (route.gates !== null) {
      let changed = false;
      for (const g of route.gates) if (this.gateOpen[g]!++ === 0) changed = true;
      if (changed) this.texts = this.listening();
    }
    const name = tag.name;
    for (const h of route.opens) h.open!(name, attribs, state);
  }

  private close(tag: TagName): void {
    const state = this.state;
    const route = this.route(tag);
    const name = tag.name;
    for (const h of route.closes) h.close!(name, state);
    if (route.gates !== null) {
      // An element the page ended inside was never opened: its count stays at 0.
      let changed = false;
      for (const g of route.gates) if (this.gateOpen[g]! > 0 && --this.gateOpen[g]! === 0) changed = true;
      if (changed) this.texts = this.listening();
    }
    if (this.hiddenDepth > 0 && tag.kind & IS_HIDDEN) this.hiddenDepth--;
    if (this.svgDepth > 0 && tag.kind & IS_SVG) this.svgDepth--;
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
  private openTagName(tag: TagName): void {
    const stack = this.stack;
    const implies = tag.implies;
    if (implies !== undefined) {
      while (stack.length > 0 && implies.has(stack[stack.length - 1]!.name)) this.close(stack.pop()!);
    }
    if (!(tag.kind & IS_VOID)) {
      stack.push(tag);
      if (tag.kind & IS_FOREIGN) this.foreign.push(true);
      else if (tag.kind & IS_INTEGRATION) this.foreign.push(false);
    }
  }

  /** The start tag's '>' (endOpenTag). */
  private openTagEnd(tag: TagName, attribs: Record<string, string>): void {
    this.open(tag, attribs);
    if (tag.kind & IS_VOID) this.close(tag);
  }

  /** "/>": only closes inside svg or math, as in htmlparser2. */
  private selfClosing(tag: TagName, attribs: Record<string, string>): void {
    if (this.foreign[this.foreign.length - 1] === true) {
      this.openTagEnd(tag, attribs);
      const stack = this.stack;
      if (stack.length > 0 && stack[stack.length - 1]!.name === tag.name) this.close(stack.pop()!);
    } else {
      this.openTagEnd(tag, attribs);
    }
  }

  /** An end tag (Parser.onclosetag). */
  private closeTag(tag: TagName): void {
    if (tag.kind & (IS_FOREIGN | IS_INTEGRATION)) this.foreign.pop();
    const stack = this.stack;
    if (!(tag.kind & IS_VOID)) {
      const name = tag.name;
      let at = stack.length - 1;
      while (at >= 0 && stack[at] !== tag && stack[at]!.name !== name) at--;
      if (at !== -1) {
        while (stack.length > at) this.close(stack.pop()!);
      } else if (tag === P || name === 'p') {
        // </p> without <p>: an empty paragraph.
        this.openTagName(P);
        this.open(P, NO_ATTRIBUTES);
        if (stack.length > 0 && stack[stack.length - 1] === P) this.close(stack.pop()!);
      }
    } else if (tag === BR || tag.name === 'br') {
      this.open(BR, NO_ATTRIBUTES);
      this.close(BR);
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
          this.closeTag(tagNameAt(s, j, k));
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
    const tag = tagNameAt(s, ns, k);
    const special = tag.special;
    this.openTagName(tag);
    const collect = this.route(tag).collect;
    const attribs = collect ? {} : NO_ATTRIBUTES;
    // htmlparser2's attribute states, from BeforeAttributeName.
    while (true) {
      if (k >= len) return -1;
      let c = s.charCodeAt(k);
      if (c === 62) {
        this.openTagEnd(tag, attribs);
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
          this.selfClosing(tag, attribs);
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
    this.closeTag(tagNameAt(s, endOfText + 2, i));
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

// Structured data and social tags (issue 18.4): JSON-LD blocks (<script type="application/ld+json">, parsed, their
// @type values collected through nested objects and @graph), the types of microdata items (itemscope/itemtype) and
// of RDFa resources (typeof, with vocab and prefix), and the Open Graph (og:*) and Twitter card (twitter:*) <meta>
// tags. Everything a site controls is bounded (STRUCTURED_DATA_LIMITS): the characters of a block read, the blocks,
// the JSON walked, the types and tags kept. A page without any costs one scan of its text for the attributes that
// may sit on any tag (the reader then reads only <script> and <meta> attributes for this extractor).
import {
  STRUCTURED_DATA_LIMITS as LIMITS,
  type SocialTag,
  type StructuredDataFormat,
  type StructuredDataItem,
} from '../../../shared/protocol.ts';
import type { HtmlExtractor } from './extractor-contract.ts';

/** Where microdata or RDFa types may be: the attributes, written any case ("typeof" alone is common in scripts). */
const ANY_TAG_MARKERS = /item(?:scope|type)|typeof\s*=/i;
/** Where a JSON-LD block may be (its type, written any case). */
const LD_JSON = /ld\+json/i;
const SCHEMA_ORG = /^https?:\/\/schema\.org\/+/i;
/** RDFa's initial context, the prefixes a page may use without declaring them (the ones types come from). */
const INITIAL_PREFIXES: Record<string, string> = {
  schema: 'http://schema.org/',
  og: 'http://ogp.me/ns#',
  foaf: 'http://xmlns.com/foaf/0.1/',
  dc: 'http://purl.org/dc/terms/',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
};

export const structuredDataExtractor: HtmlExtractor = {
  name: 'structured-data',
  tags: ['script', 'meta'],
  attributesOf: ['script', 'meta'],
  textWithin: ['script'],
  everyTagAttributesIf: (html) => ANY_TAG_MARKERS.test(html),
  begin(draft, page) {
    // A page without the markers has no microdata or RDFa: its tags are not looked at for them (a property look-up
    // on every tag's attributes cost a third of the reader's time).
    const anyTag = page?.everyTagAttributes ?? true;
    // Nor is a page without "ld+json" read for JSON-LD: its handlers are only the <meta> tags' (a text handler costs
    // a call for every text of the page).
    const jsonLd = page === undefined || LD_JSON.test(page.html);
    const items: StructuredDataItem[] = [];
    const tags: SocialTag[] = [];
    // The JSON-LD block being read: its text up to the limit, and whether it went past it.
    let block: string[] | null = null;
    let blockChars = 0;
    let blockOver = false;
    let blocks = 0;
    let microdata: TypeSet | null = null;
    let rdfa: TypeSet | null = null;
    // RDFa's vocab and prefixes: the last declared on the page (their scope, the element, is not tracked).
    let vocab: string | null = null;
    let prefixes: Record<string, string> = INITIAL_PREFIXES;

    const endBlock = () => {
      items.push(jsonLdItem(block!.join(''), blockOver));
      block = null;
    };
    const social = (a: Record<string, string>) => {
      const property = (a.property ?? a.name)?.trim().toLowerCase();
      if (property === undefined || a.content === undefined || tags.length >= LIMITS.socialTags) return;
      if (property.startsWith('og:') || property.startsWith('twitter:')) {
        tags.push({
          property: property.slice(0, LIMITS.socialPropertyChars),
          content: a.content.trim().slice(0, LIMITS.socialContentChars),
        });
      }
    };
    const finish = () => {
      if (microdata) items.push({ format: 'microdata', types: microdata.list, error: null });
      if (rdfa) items.push({ format: 'rdfa', types: rdfa.list, error: null });
      if (items.length > 0) draft.structuredData = items;
      if (tags.length > 0) draft.socialTags = tags;
    };
    // The common page: none of it but maybe social tags.
    if (!anyTag && !jsonLd)
      return {
        open(name, a) {
          if (name === 'meta') social(a);
        },
        end: finish,
      };
    return {
      open(name, a) {
        if (name === 'meta') social(a);
        else if (name === 'script' && block === null && blocks < LIMITS.jsonLdBlocks && isJsonLd(a.type)) {
          blocks++;
          block = [];
          blockChars = 0;
          blockOver = false;
        }
        if (!anyTag) return;
        if (a.itemscope !== undefined || a.itemtype !== undefined) {
          microdata ??= new TypeSet();
          if (a.itemtype) for (const t of words(a.itemtype)) microdata.add(t);
        }
        if (a.vocab !== undefined) vocab = a.vocab.trim() || null;
        if (a.prefix !== undefined) prefixes = { ...prefixes, ...parsePrefixes(a.prefix) };
        // An empty typeof names no type (and a bare one is not what the page's cheap test looks for).
        if (a.typeof !== undefined && a.typeof.trim() !== '') {
          rdfa ??= new TypeSet();
          for (const t of words(a.typeof)) rdfa.add(expandRdfaType(t, vocab, prefixes));
        }
      },
      text(source, from, to) {
        if (block === null || blockOver) return;
        const room = LIMITS.jsonLdChars - blockChars;
        if (to - from > room) {
          blockOver = true;
          return;
        }
        block.push(source.slice(from, to));
        blockChars += to - from;
      },
      close(name) {
        if (block !== null && name === 'script') endBlock();
      },
      end() {
        if (block !== null) endBlock();
        finish();
      },
    };
  },
};

/** A <script type> that says JSON-LD ("application/ld+json", any case, maybe with parameters). */
function isJsonLd(type: string | undefined): boolean {
  if (type === undefined) return false;
  const t = type.trim().toLowerCase();
  return t === 'application/ld+json' || (t.startsWith('application/ld+json') && /^application\/ld\+json\s*;/.test(t));
}

function words(value: string): string[] {
  return value.split(/\s+/).filter((w) => w !== '');
}

/** Distinct types in the order found, at most LIMITS.types, each cut to LIMITS.typeChars. */
class TypeSet {
  readonly list: string[] = [];
  private readonly seen = new Set<string>();
  add(type: string): void {
    const t = shortType(type);
    if (t === '' || this.list.length >= LIMITS.types || this.seen.has(t)) return;
    this.seen.add(t);
    this.list.push(t);
  }
}

/** A schema.org type by its short name ("https://schema.org/Product", "schema:Product" -> "Product"); others as written. */
export function shortType(type: string): string {
  const t = type.trim();
  const short = SCHEMA_ORG.test(t) ? t.replace(SCHEMA_ORG, '') : t.toLowerCase().startsWith('schema:') ? t.slice(7) : t;
  return short.slice(0, LIMITS.typeChars);
}

/** RDFa's prefix attribute: "og: http://ogp.me/ns# schema: https://schema.org/". */
function parsePrefixes(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  const parts = words(value);
  for (let i = 0; i + 1 < parts.length && i < 200; i += 2) {
    const name = parts[i]!;
    if (name.endsWith(':')) out[name.slice(0, -1).toLowerCase()] = parts[i + 1]!;
    else i--; // out of step: look for the next "name:"
  }
  return out;
}

/** A typeof term as an IRI: a full IRI as is, a CURIE through the prefixes, a bare term after the vocab. */
function expandRdfaType(term: string, vocab: string | null, prefixes: Record<string, string>): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(term)) return term;
  const colon = term.indexOf(':');
  if (colon > 0) {
    const base = prefixes[term.slice(0, colon).toLowerCase()];
    return base === undefined ? term : base + term.slice(colon + 1);
  }
  return vocab === null ? term : vocab + term;
}

/** One JSON-LD block: its types, or why it could not be read. */
export function jsonLdItem(text: string, over: boolean): StructuredDataItem {
  const format: StructuredDataFormat = 'json-ld';
  if (over) return { format, types: [], error: `larger than ${LIMITS.jsonLdChars / 1024} KB: not read` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { format, types: [], error: (err as Error).message.slice(0, LIMITS.errorChars) };
  }
  return { format, types: jsonLdTypes(value), error: null };
}

/**
 * The @type values of a parsed JSON-LD value: its objects' (a string or an array of them), nested ones and @graph
 * items included, walked without recursion up to LIMITS.jsonDepth levels and LIMITS.jsonNodes values.
 */
export function jsonLdTypes(root: unknown): string[] {
  const types = new TypeSet();
  const stack: { value: unknown; depth: number }[] = [{ value: root, depth: 0 }];
  let visited = 0;
  while (stack.length > 0 && visited < LIMITS.jsonNodes && types.list.length < LIMITS.types) {
    const { value, depth } = stack.pop()!;
    visited++;
    if (value === null || typeof value !== 'object' || depth >= LIMITS.jsonDepth) continue;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], depth: depth + 1 });
      continue;
    }
    const object = value as Record<string, unknown>;
    const type = object['@type'];
    if (typeof type === 'string') types.add(type);
    else if (Array.isArray(type)) for (const t of type) if (typeof t === 'string') types.add(t);
    const keys = Object.keys(object);
    for (let i = keys.length - 1; i >= 0; i--) if (keys[i] !== '@type') stack.push({ value: object[keys[i]!], depth: depth + 1 });
  }
  return types.list;
}

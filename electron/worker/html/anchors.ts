// Links people click: <a href> and <area href>, with their anchor text (or an image's alt) and rel=nofollow,
// and the <base href> they resolve against.
import { ANCHOR_MAX } from '../../../shared/protocol.ts';
import { TextCapture, collapse, hasToken, type HtmlExtractor, type RawLink } from './extractor-contract.ts';

export const anchorsExtractor: HtmlExtractor = {
  name: 'anchors',
  tags: ['a', 'area', 'base', 'img'],
  attributesOf: ['a', 'area', 'base', 'img'],
  textWithin: ['a'],
  begin(draft) {
    // An anchor is cut to ANCHOR_MAX anyway; keep a little more so collapsing whitespace still fills it.
    const capture = new TextCapture(4 * ANCHOR_MAX);
    /** Links still open, for an <img alt> inside them, innermost last. */
    const open: { link: RawLink; imgAlt?: string }[] = [];
    /** open[0, withAlt) have their alt: an <img> gives its alt to every open link, so those without one follow them. */
    let withAlt = 0;
    return {
      open(name, attribs) {
        switch (name) {
          case 'base':
            if (draft.baseHref === undefined && attribs.href !== undefined) draft.baseHref = attribs.href;
            break;
          case 'area':
            if (attribs.href !== undefined) {
              draft.links.push({
                href: attribs.href,
                anchor: anchorOf('', attribs.alt),
                kind: 'area',
                nofollow: hasToken(attribs.rel, 'nofollow'),
              });
            }
            break;
          case 'img':
            if (attribs.alt !== undefined) {
              for (let i = withAlt; i < open.length; i++) open[i]!.imgAlt ??= attribs.alt;
              withAlt = open.length;
            }
            break;
          case 'a':
            if (attribs.href !== undefined) {
              // Recorded now, so links keep document order; the anchor text is filled in at </a>.
              const link: RawLink = { href: attribs.href, anchor: '', kind: 'a', nofollow: hasToken(attribs.rel, 'nofollow') };
              draft.links.push(link);
              const entry: { link: RawLink; imgAlt?: string } = { link };
              open.push(entry);
              capture.start('a', (text) => {
                link.anchor = anchorOf(text, entry.imgAlt);
                // The innermost open link, in practice (links close in reverse order): searched from the end.
                const at = open.lastIndexOf(entry);
                open.splice(at, 1);
                if (at < withAlt) withAlt--;
              });
            }
            break;
        }
      },
      text: (source, from, to) => capture.text(source, from, to),
      close: (name) => capture.close(name),
    };
  },
};

/** What a person sees as the link: its text, else an image's alt (or the <area>'s alt), cut to ANCHOR_MAX. */
function anchorOf(text: string, alt: string | undefined): string {
  let anchor = collapse(text);
  if (anchor === '') anchor = collapse(alt ?? '');
  return anchor.length > ANCHOR_MAX ? anchor.slice(0, ANCHOR_MAX) : anchor;
}

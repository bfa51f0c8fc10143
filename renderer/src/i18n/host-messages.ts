// The messages built outside the renderer (shared/messages.ts: the settings' problems, a crawl's summary and label
// problems, a schedule's wait, the session's refusals), said in the interface's language: a message by its code
// (the "messages" namespace), else its English text as it came.
import { isMessageCode, type Message, type MessageParams, messageFromText } from '../../../shared/messages.ts';
import type { CrawlFileInfo } from '../../../shared/crawl-info.ts';
import type { SettingsProblem } from '../../../shared/settings.ts';
import { i18next } from './i18n.ts';

/** A message's parameters as the language says them: a crawl's state in its words. */
function localParams(params: MessageParams | undefined): Record<string, string | number> {
  const out: Record<string, string | number> = { ...params };
  const state = out['state'];
  if (typeof state === 'string' && i18next.exists(`live:stateLower.${state}`))
    out['state'] = i18next.t(`live:stateLower.${state}` as never);
  return out;
}

/** A message of the catalogue in the interface's language; its English text when the code is not one the renderer knows. */
export function messageText(msg: Pick<Message, 'text'> & { code?: string | undefined; params?: MessageParams | undefined }): string {
  if (!isMessageCode(msg.code)) return msg.text;
  return i18next.t(`messages:${msg.code}` as never, { ...localParams(msg.params), defaultValue: msg.text }) as string;
}

/** A settings or label problem's message in the interface's language. */
export const problemText = (p: Pick<SettingsProblem, 'message' | 'code' | 'params'>): string =>
  messageText({ text: p.message, code: p.code, params: p.params });

/**
 * A text that came from the host as text only (a command's error, an export's failure): in the interface's language
 * when it is one of the catalogue's messages, else as it is.
 */
export function hostText(text: string): string {
  const msg = messageFromText(text);
  return msg ? messageText(msg) : text;
}

/** A crawl's settings on one line, in the interface's language (the host's English line from a host without the parts). */
export function crawlSummaryText(c: Pick<CrawlFileInfo, 'summary' | 'summaryParts'>): string {
  return c.summaryParts ? c.summaryParts.map(messageText).join(' · ') : c.summary;
}

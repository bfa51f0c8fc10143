// The web console's handler of every command: the session's methods, but for what the web console does itself
// (a crawl is named from the list, never picked in a dialog; exports are downloads), with crawl names in and out
// where the command table says (crawl-names.ts).
import type { CrawlSession } from '../engine/session/crawl-session.ts';
import { sessionHandlers } from '../host/command-handlers.ts';
import type { Handlers, HostHandlers } from '../host/command-handlers.ts';
import type { CrawlNames } from './crawl-names.ts';
import type { Downloads } from './downloads.ts';

export function webConsoleHandlers(session: CrawlSession, names: CrawlNames, downloads: Downloads): Handlers {
  const own: HostHandlers = {
    ...downloads.handlers,
    openCrawl: async (name) => {
      if (name === null) throw new Error('choose a crawl from the list');
      return session.openCrawl(name);
    },
    currentSnapshot: async () => session.snapshot(),
  };
  return names.wrap({ ...sessionHandlers(session), ...own });
}

// User agents an analyst commonly crawls as, offered by the start form besides Trawl's own (the settings'
// default, which the form gets from the host) and a custom one. Only the header changes: robots.txt is still
// read for Trawl's own group or "*" (see README), whichever agent is sent. No imports, so the renderer can take
// it without the settings' validation library.

export interface UserAgentPreset {
  id: string;
  label: string;
  value: string;
}

export const USER_AGENT_PRESETS: readonly UserAgentPreset[] = [
  {
    id: 'googlebot-smartphone',
    label: 'Googlebot smartphone',
    value:
      'Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.204 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  },
  { id: 'bingbot', label: 'Bingbot', value: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)' },
  {
    id: 'chrome-windows',
    label: 'Chrome on Windows',
    value: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  },
  {
    id: 'safari-iphone',
    label: 'Safari on iPhone',
    value:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1',
  },
];

/** Trawl's own agent (the default setting), then the presets above. */
export function userAgentChoices(defaultUserAgent: string): UserAgentPreset[] {
  return [{ id: 'trawl', label: 'Trawl (default)', value: defaultUserAgent }, ...USER_AGENT_PRESETS];
}

/** The choice a user agent is (blank is the default), or null for a custom one. */
export function userAgentChoiceOf(userAgent: string, defaultUserAgent: string): UserAgentPreset | null {
  const ua = userAgent.trim() || defaultUserAgent;
  return userAgentChoices(defaultUserAgent).find((p) => p.value === ua) ?? null;
}

/**
 * Referrer hosts shown under a name, so `google.de`, `google.com` and the Google app are one source. The rule:
 * the host (lower-case, `www.` stripped) is looked up exactly in KNOWN_SOURCES; failing that, a Google or Yandex
 * host on any country domain (`google.co.uk`, `google.com.br`, `yandex.ru`) is Google or Yandex. Any other host
 * is its own source: a subdomain of a known host (`docs.google.com`) is not merged into it.
 */
export const KNOWN_SOURCES: ReadonlyMap<string, string> = new Map([
  // Search engines
  ['bing.com', 'Bing'],
  ['cn.bing.com', 'Bing'],
  ['duckduckgo.com', 'DuckDuckGo'],
  ['html.duckduckgo.com', 'DuckDuckGo'],
  ['search.yahoo.com', 'Yahoo'],
  ['yahoo.com', 'Yahoo'],
  ['search.yahoo.co.jp', 'Yahoo Japan'],
  ['ya.ru', 'Yandex'],
  ['baidu.com', 'Baidu'],
  ['m.baidu.com', 'Baidu'],
  ['ecosia.org', 'Ecosia'],
  ['search.brave.com', 'Brave Search'],
  ['qwant.com', 'Qwant'],
  ['startpage.com', 'Startpage'],
  ['kagi.com', 'Kagi'],
  ['perplexity.ai', 'Perplexity'],
  ['chatgpt.com', 'ChatGPT'],
  ['search.naver.com', 'Naver'],
  ['m.search.naver.com', 'Naver'],
  ['news.google.com', 'Google News'],
  ['mail.google.com', 'Gmail'],
  // Social networks and communities
  ['facebook.com', 'Facebook'],
  ['m.facebook.com', 'Facebook'],
  ['l.facebook.com', 'Facebook'],
  ['lm.facebook.com', 'Facebook'],
  ['instagram.com', 'Instagram'],
  ['l.instagram.com', 'Instagram'],
  ['t.co', 'X (Twitter)'],
  ['twitter.com', 'X (Twitter)'],
  ['x.com', 'X (Twitter)'],
  ['linkedin.com', 'LinkedIn'],
  ['lnkd.in', 'LinkedIn'],
  ['reddit.com', 'Reddit'],
  ['old.reddit.com', 'Reddit'],
  ['out.reddit.com', 'Reddit'],
  ['news.ycombinator.com', 'Hacker News'],
  ['youtube.com', 'YouTube'],
  ['m.youtube.com', 'YouTube'],
  ['pinterest.com', 'Pinterest'],
  ['github.com', 'GitHub'],
  ['stackoverflow.com', 'Stack Overflow'],
  ['t.me', 'Telegram'],
  ['web.telegram.org', 'Telegram'],
  ['away.vk.com', 'VK'],
  ['vk.com', 'VK'],
  ['bsky.app', 'Bluesky'],
  ['threads.net', 'Threads'],
  ['l.threads.net', 'Threads'],
  // Android apps (`android-app://<package>/`)
  ['com.google.android.googlequicksearchbox', 'Google'],
  ['com.google.android.gm', 'Gmail'],
  ['com.facebook.katana', 'Facebook'],
  ['com.instagram.android', 'Instagram'],
  ['com.linkedin.android', 'LinkedIn'],
  ['com.reddit.frontpage', 'Reddit'],
  ['com.twitter.android', 'X (Twitter)'],
  ['org.telegram.messenger', 'Telegram'],
  ['com.slack', 'Slack'],
]);

/** `google.com`, `google.de`, `google.co.uk`, `google.com.br`; the same for Yandex. */
const COUNTRY_DOMAIN_ENGINES = /^(google|yandex)\.(?:com?\.)?[a-z]{2,3}$/;
const ENGINE_NAMES: Readonly<Record<string, string>> = { google: 'Google', yandex: 'Yandex' };

export function knownSource(host: string): string | undefined {
  const known = KNOWN_SOURCES.get(host);
  if (known !== undefined) return known;
  const engine = COUNTRY_DOMAIN_ENGINES.exec(host)?.[1];
  return engine === undefined ? undefined : ENGINE_NAMES[engine];
}

/**
 * Media links (spec 4.5.1): a public HTTPS URL on port 443 with a hostname. Used for
 * media content and for template image/video/document parameters.
 */
import { z } from 'zod';
import { quote, type IssueParams, type MessageIssue } from './issues.js';

/** Suffixes of private, local-only host names. */
const PRIVATE_SUFFIXES = [
  '.localhost',
  '.local',
  '.internal',
  '.lan',
  '.home',
  '.corp',
  '.localdomain',
  '.home.arpa',
];
const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
// Whitespace and C0/C1 controls: the URL parser would silently strip or encode them.
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\s\u0000-\u001f\u007f-\u009f]/;

function reject(link: string, reason: string): MessageIssue {
  return { path: '', message: `Media link ${quote(link)} ${reason} (spec 4.5.1)`, spec: '4.5.1' };
}

/** The authority part (between `//` and the next `/`, `?` or `#`) of a raw URL string. */
function rawAuthority(link: string): string {
  const match = /^[a-z][a-z0-9+.-]*:[/\\]*([^/\\?#]*)/i.exec(link);
  return match?.[1] ?? '';
}

/**
 * Checks a media link against spec 4.5.1. Returns undefined when the link is
 * acceptable, otherwise an issue (with an empty path) saying why and how to fix it.
 *
 * Rejected: anything but `https:`, a port other than 443, embedded credentials, a
 * fragment, IPv4/IPv6 literal hosts (also numeric forms such as `https://2130706433`
 * that the WHATWG parser turns into an IP), `localhost` and `*.localhost`, single-label
 * host names, and the private suffixes `.local`, `.internal`, `.lan`, `.home`, `.corp`,
 * `.localdomain`, `.home.arpa`. Whitespace and control characters are rejected too.
 *
 * @example
 * checkMediaLink('https://cdn.example.com/a.jpg'); // undefined
 * checkMediaLink('http://cdn.example.com/a.jpg')?.message; // 'Media link "http://…" must use https …'
 */
export function checkMediaLink(link: string): MessageIssue | undefined {
  if (link === '') return reject(link, 'is empty; send a public https:// URL');
  if (UNSAFE_CHARS.test(link))
    return reject(link, 'contains whitespace or control characters; percent-encode them');
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return reject(link, 'is not a valid absolute URL; send a public https:// URL');
  }
  if (url.protocol !== 'https:')
    return reject(link, `uses ${url.protocol.slice(0, -1)}; it must use https`);
  if (!/^https:\/\//i.test(link)) return reject(link, 'must start with "https://"');
  if (url.username !== '' || url.password !== '' || rawAuthority(link).includes('@')) {
    return reject(link, 'contains credentials (user:password@); remove them');
  }
  if (url.hash !== '' || link.includes('#'))
    return reject(link, 'contains a fragment (#…); remove it');
  // The parser drops an explicit default port, so any port left is not 443.
  if (url.port !== '') return reject(link, `uses port ${url.port}; only port 443 is allowed`);
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || IPV4.test(host)) {
    return reject(link, `uses an IP address (${url.hostname}); use a public host name`);
  }
  if (host === 'localhost' || PRIVATE_SUFFIXES.some((s) => host.endsWith(s))) {
    return reject(link, `uses the local host name ${quote(url.hostname)}; use a public host name`);
  }
  if (!host.includes('.')) {
    return reject(
      link,
      `uses the single-label host name ${quote(url.hostname)}; use a public host name`,
    );
  }
  return undefined;
}

/** A media link string (spec 4.5.1). */
export const MediaLinkSchema = z.string().superRefine((link, ctx) => {
  const issue = checkMediaLink(link);
  if (issue !== undefined) {
    const params: IssueParams = { spec: '4.5.1' };
    ctx.addIssue({ code: 'custom', message: issue.message, params });
  }
});

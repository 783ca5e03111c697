// What an admin may block on the fediverse (DESIGN.md, Moderation): a server (`example.org`, all
// its subdomains and ports; `host:port` for one port only) or one account (`@user@example.org`),
// written one way whatever was typed: lower-cased, an international name as its ASCII (punycode)
// form, a leading @ for an account. The Fediverse tab checks a target before sending, the server
// again before acting.

export type BlockTarget =
  | { kind: 'server'; target: string; host: string }
  | { kind: 'account'; target: string; username: string; host: string };

export const BLOCK_TARGET_MESSAGE = 'Name a server (example.org) or an account (@user@example.org)';
export const BLOCK_OWN_SERVER_MESSAGE = 'This is this site\'s own address: it cannot be blocked';
export const BLOCK_REASON_MAX = 500;
export const BLOCK_REASON_LENGTH_MESSAGE = `The reason cannot exceed ${BLOCK_REASON_MAX} characters`;

/** Longer than any host (253) with a username in front. */
const TARGET_MAX = 320;
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const IPV6 = /^\[[0-9a-f:.]+\]$/;
/** Mastodon's usernames and those of the other servers: letters, digits, _ . - */
const USERNAME = /^[a-z0-9_](?:[a-z0-9_.-]{0,98}[a-z0-9_])?$/;

/** The target as stored, or undefined when the text names neither a server nor an account. */
export function parseBlockTarget(text: string): BlockTarget | undefined {
  const value = text.trim();
  if (value === '' || value.length > TARGET_MAX) return undefined;
  const parts = (value.startsWith('@') ? value.slice(1) : value).split('@');
  if (parts.length === 1) {
    if (value.startsWith('@')) return undefined;
    const host = canonicalHost(parts[0]!);
    return host ? { kind: 'server', target: host, host } : undefined;
  }
  if (parts.length !== 2) return undefined;
  const username = parts[0]!.toLowerCase();
  const host = canonicalHost(parts[1]!);
  if (!host || !USERNAME.test(username)) return undefined;
  return { kind: 'account', target: `@${username}@${host}`, username, host };
}

/**
 * A host as URLs write it (`Example.ORG` → `example.org`, `bücher.de` → `xn--bcher-kva.de`, the
 * port kept unless it is https's own), or undefined when it is not a host name or an address.
 */
export function canonicalHost(text: string): string | undefined {
  if (text === '' || /[\s/\\?#@%]|:$/.test(text)) return undefined;
  let url: URL;
  try {
    url = new URL(`https://${text}`);
  } catch {
    return undefined;
  }
  const name = url.hostname;
  const valid = IPV4.test(name) || IPV6.test(name) || (name.length <= 253 && name.split('.').every((label) => LABEL.test(label)));
  return valid ? url.host : undefined;
}

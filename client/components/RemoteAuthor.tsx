// A fediverse account as the pages show it (a comment's author, a follower): its picture, and its
// name linking to its profile on its own server. The picture is the one thing a page loads from
// another site, so it is asked for only at an absolute https address (never mixed content,
// never a data: or relative address a remote server chose), lazily and without a referrer; when
// there is none, or it fails, the initial on a plain disc stands in, as for a local user.
import { useEffect, useRef, useState } from 'react';
import { REMOTE_LINK_REL } from '../../shared/fediverse.ts';
import type { RemoteAuthor } from '../types.ts';
import { Avatar } from './Avatar.tsx';

/** The address as given when it is absolute and `https:` (the picture), else null. */
export function httpsAddress(address: string | null | undefined): string | null {
  if (!address) return null;
  try {
    return new URL(address).protocol === 'https:' ? address : null;
  } catch {
    return null;
  }
}

/** A link's address when it is absolute http(s) (the profile), else null. */
function webAddress(address: string): string | null {
  try {
    const { protocol } = new URL(address);
    return protocol === 'https:' || protocol === 'http:' ? address : null;
  } catch {
    return null;
  }
}

/** The name to show: the display name, or the handle when the account has none (then shown once). */
export const remoteName = (author: Pick<RemoteAuthor, 'name' | 'handle'>) => author.name.trim() || author.handle;

export function RemoteAvatar({ author, size = 32 }: { author: RemoteAuthor; size?: number }) {
  const src = httpsAddress(author.avatar);
  const [failed, setFailed] = useState<string | null>(null);
  const image = useRef<HTMLImageElement>(null);
  const name = remoteName(author).replace(/^@/, '');
  // In a page the server rendered, the picture may have failed before React was listening.
  useEffect(() => {
    const element = image.current;
    if (src && element?.complete && element.naturalWidth === 0) setFailed(src);
  }, [src]);

  if (!src || failed === src) return <Avatar username={name} avatar={null} size={size} />;
  const style = { width: size, height: size };
  return (
    <img ref={image} className="avatar avatar--remote" src={src} alt={`${name}'s avatar`} width={size} height={size} style={style}
      loading="lazy" decoding="async" referrerPolicy="no-referrer" onError={() => setFailed(src)} />
  );
}

/** The account's name, a link to its profile on its server (as off-site links in written text are). */
export function RemoteAuthorLink({ author, className }: { author: RemoteAuthor; className: string }) {
  const href = webAddress(author.url);
  const name = remoteName(author);
  if (!href) return <span className={className}>{name}</span>;
  return <a href={href} className={className} rel={REMOTE_LINK_REL}>{name}</a>;
}

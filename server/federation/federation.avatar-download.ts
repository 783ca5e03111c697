// A remote author's picture fetched by the server, for the copy a `federation.avatar` job makes
// (federation.avatar-copy.ts): over https only, never from a private or loopback address (each
// redirect checked again, at most a few), bounded in size and time. What no retry can mend is a
// PermanentJobError; anything else (a network failure, a 5xx, a 404 a server may mend) is tried
// again as jobs are.
import { AVATAR_MAX_BYTES } from '../../shared/accounts.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';
import { BEATNIK_VERSION } from '../version.ts';
import { privateAddressRefusal } from './federation.addresses.ts';

export interface DownloadLimits {
  /** FEDERATION_ALLOW_PRIVATE (tests only): loopback and private addresses reached too. */
  allowPrivateAddress: boolean;
  /** PUBLIC_URL, named in the User-Agent as Fedify names it in the federation's requests. */
  publicUrl: string;
  maxBytes?: number;
  timeoutMs?: number;
}

/** A picture as large as an avatar upload may be (2 MB). */
export const REMOTE_AVATAR_MAX_BYTES = AVATAR_MAX_BYTES;
/** The whole download, redirects and body included. */
export const REMOTE_AVATAR_TIMEOUT_MS = 10_000;
const MAX_REDIRECTS = 3;

/** The bytes at `address`, as its server sends them (what they are is for sharp to decide). */
export async function downloadImage(address: string, limits: DownloadLimits): Promise<Buffer> {
  const maxBytes = limits.maxBytes ?? REMOTE_AVATAR_MAX_BYTES;
  const signal = AbortSignal.timeout(limits.timeoutMs ?? REMOTE_AVATAR_TIMEOUT_MS);
  let url = new URL(address);
  for (let redirects = 0; ; redirects += 1) {
    if (url.protocol !== 'https:') throw new PermanentJobError(`${url.href}: pictures are fetched over https only`);
    const refusal = limits.allowPrivateAddress ? undefined : await privateAddressRefusal(url);
    if (refusal) throw new PermanentJobError(`refused: ${refusal}`);
    const res = await fetch(url, {
      redirect: 'manual', signal,
      headers: { accept: 'image/*', 'user-agent': `Beatnik/${BEATNIK_VERSION} (+${limits.publicUrl})` },
    });
    const location = res.status >= 300 && res.status < 400 ? res.headers.get('location') : null;
    if (location) {
      await res.body?.cancel();
      if (redirects === MAX_REDIRECTS) throw new PermanentJobError(`${address}: more than ${MAX_REDIRECTS} redirects`);
      url = new URL(location, url);
      continue;
    }
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`${url.href} answered ${res.status}`);
    }
    return readAtMost(res, maxBytes, url);
  }
}

async function readAtMost(res: Response, maxBytes: number, url: URL): Promise<Buffer> {
  const tooLarge = () => new PermanentJobError(`${url.href}: larger than ${maxBytes} bytes`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body?.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (;;) {
    const chunk = await reader?.read();
    if (!chunk || chunk.done) break;
    size += chunk.value.byteLength;
    if (size > maxBytes) {
      await reader!.cancel();
      throw tooLarge();
    }
    chunks.push(chunk.value);
  }
  return Buffer.concat(chunks);
}

// STAND-IN, to be deleted when branch fed-out (server/federation/federation.addresses.ts) is in
// main: its privateAddressRefusal, with the same signature and rule (Fedify's validatePublicUrl).
import { validatePublicUrl } from '@fedify/fedify';

/** Why a request to `url` would reach a private or loopback address; undefined when it would not. */
export async function privateAddressRefusal(url: URL): Promise<string | undefined> {
  try {
    await validatePublicUrl(url.href);
    return undefined;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return reason.startsWith('DNS lookup failed') ? undefined : `${url.host}: ${reason}`;
  }
}

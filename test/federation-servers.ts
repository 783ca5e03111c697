// Beatnik instances that federate in tests: https (the fediverse looks `acct:` handles up over
// https only) with the test certificate, on a loopback port reserved before start, because
// PUBLIC_URL must name it before the server listens: every ActivityPub id is built from it.
import { mkdtempSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError } from '../server/config.ts';
import { startTestServer, type TestServer } from './helpers.ts';
import { testCertificate } from './test-certificate.ts';

/** A loopback port free a moment ago: the kernel's pick for port 0, released at once. */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The settings of a federating test instance at `port` (FEDERATION_ALLOW_PRIVATE: tests only). */
export function federationEnv(port: number): Record<string, string> {
  return { PORT: String(port), PUBLIC_URL: `https://127.0.0.1:${port}`, FEDERATION: 'on', FEDERATION_ALLOW_PRIVATE: 'true' };
}

export type FederatedServerOptions = Parameters<typeof startTestServer>[0] & {
  /** Its port, to start again where it was (with `config.dataDir`); by default a free one. */
  port?: number;
};

/**
 * A test instance at `https://127.0.0.1:PORT`, federation on; `server.api` reaches it over
 * https, this process trusting the test certificate. `options.env` may override the settings.
 */
export async function startFederatedServer(options: FederatedServerOptions = {}): Promise<TestServer> {
  const { key, cert } = testCertificate();
  const dataDir = options.config?.dataDir ?? mkdtempSync(path.join(tmpdir(), 'beatnik-test-'));
  for (let attempt = 1; ; attempt += 1) {
    const port = options.port ?? await freeLoopbackPort();
    try {
      return await startTestServer({
        ...options,
        tls: { key, cert },
        config: { ...options.config, dataDir, port },
        env: { ...federationEnv(port), ...options.env },
      });
    } catch (err) {
      // Another process took the port between the probe and the listen: another one, then.
      const taken = err instanceof ConfigError && /already in use/.test(err.message);
      if (!taken || options.port !== undefined || attempt === 3) throw err;
    }
  }
}

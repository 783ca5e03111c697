// A certificate for https on loopback (IP:127.0.0.1, DNS:localhost), made by openssl the first
// time a test process needs it, into a temporary folder removed at exit (never committed), and
// trusted from then on by this process and by every process it spawns. Federation tests need it:
// the fediverse looks `acct:` handles up over https only (RECIPES.md).
//
// Trust is added at run time because NODE_EXTRA_CA_CERTS is read once, when a process starts:
// whether the file runs under scripts/test-suite.ts or alone, its process started before the
// certificate existed. Node 24 (22.19+) has an API for it; Node 20 has none, so there every TLS
// context made without a `ca` of its own (fetch's through undici, https.request's) is given the
// bundled roots plus this certificate. Children read NODE_EXTRA_CA_CERTS as usual.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';

export interface TestCertificate {
  /** PEM texts, for `https.createServer` (and Beatnik's StartOptions.tls). */
  key: string;
  cert: string;
  /** The certificate's file. */
  certPath: string;
}

let made: TestCertificate | undefined;

/** This process's test certificate, made and trusted on the first call. */
export function testCertificate(): TestCertificate {
  if (made) return made;
  const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-tls-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const keyPath = path.join(dir, 'key.pem');
  const certPath = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', keyPath, '-out', certPath, '-days', '2', '-subj', '/CN=Beatnik test',
    '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  made = { key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), certPath };
  trustInThisProcess(made.cert);
  // Spawned processes: the certificate beside whatever extra CAs this process was given.
  const inherited = process.env.NODE_EXTRA_CA_CERTS;
  const bundle = path.join(dir, 'extra-ca.pem');
  writeFileSync(bundle, (inherited ? `${readFileSync(inherited, 'utf8').trim()}\n` : '') + made.cert);
  process.env.NODE_EXTRA_CA_CERTS = bundle;
  return made;
}

/** Node 24's tls.getCACertificates / setDefaultCACertificates, absent from Node 20 and its types. */
interface DefaultCas {
  getCACertificates?: (type: 'default') => string[];
  setDefaultCACertificates?: (certs: string[]) => void;
}

function trustInThisProcess(cert: string): void {
  const node = tls as typeof tls & DefaultCas;
  if (node.getCACertificates && node.setDefaultCACertificates) {
    node.setDefaultCACertificates([...node.getCACertificates('default'), cert]);
    return;
  }
  const inherited = process.env.NODE_EXTRA_CA_CERTS;
  const ca = [...tls.rootCertificates, ...(inherited ? [readFileSync(inherited, 'utf8')] : []), cert];
  const createSecureContext = tls.createSecureContext;
  // tls.connect calls it through the module object: a client asking for no CA of its own gets these.
  tls.createSecureContext = (options) => createSecureContext(options?.ca ? options : { ...options, ca });
}

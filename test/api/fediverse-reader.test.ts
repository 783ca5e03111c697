// What readers are told of the fediverse (DESIGN.md, The fediverse (ActivityPub)): GET /api/site's
// `federation` (FEDERATION, and PUBLIC_URL's host), carried by every page the server renders; the
// profile's 'Follow on the fediverse' with the author's @username@host, in the server's HTML, only
// while federating; and the pictures of remote authors allowed by the page's policy (https only)
// only then.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { SITE_DATA_ID } from '../../client/page-data.ts';
import { FOLLOW_ON_FEDIVERSE } from '../../shared/fediverse.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { attr, pageTemplateDir, parsePage, textOf, type Element } from './html.ts';

const FEDERATING = { FEDERATION: 'on', PUBLIC_URL: 'https://paper.test', FEDERATION_ALLOW_PRIVATE: 'true' };

let templateDir: string;
before(() => { templateDir = pageTemplateDir(); });
after(() => rmSync(templateDir, { recursive: true, force: true }));

async function profile(server: TestServer, username: string) {
  const res = await fetch(`${server.url}/beatnik/${username}`, { headers: { accept: 'text/html' } });
  assert.equal(res.status, 200);
  const page = parsePage(await res.text());
  const data = page.all('script').find((el) => attr(el, 'id') === SITE_DATA_ID);
  assert.ok(data, 'the page carries the site settings');
  const byClass = (tag: string, name: string): Element[] => page.all(tag).filter((el) => (attr(el, 'class') ?? '').split(' ').includes(name));
  return { site: JSON.parse(textOf(data)), byClass };
}

const imageSources = (server: TestServer) =>
  server.api('GET', '/api/health').then((res) => /img-src ([^;]*)/.exec(res.headers.get('content-security-policy') ?? '')?.[1]);

describe('federating (FEDERATION=on)', () => {
  let server: TestServer;
  let author: TestUser;
  before(async () => {
    server = await startTestServer({ clientDir: templateDir, env: FEDERATING });
    author = await createUser(server, { username: 'Alice_Ink' });
  });
  after(() => server?.stop());

  test('GET /api/site says so, with the host of PUBLIC_URL', async () => {
    const res = await server.api('GET', '/api/site');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.federation, { enabled: true, host: 'paper.test' });
    // The admin's settings are theirs to change: federation is not among them.
    const admin = await createAdmin(server);
    const settings = await server.api('GET', '/api/admin/site', { token: admin.token });
    assert.equal(settings.status, 200);
    assert.equal('federation' in settings.body, false);
  });

  test('the profile, as the server renders it, offers the handle to follow', async () => {
    const { site, byClass } = await profile(server, author.username);
    assert.deepEqual(site.federation, { enabled: true, host: 'paper.test' });
    assert.deepEqual(byClass('p', 'fediverse__title').map(textOf), [FOLLOW_ON_FEDIVERSE]);
    assert.deepEqual(byClass('code', 'fediverse__handle').map(textOf), ['@Alice_Ink@paper.test']);
  });

  test('pictures may come from other servers over https only', async () => {
    assert.equal(await imageSources(server), "'self' data: blob: https:");
  });
});

describe('not federating (the default for an http PUBLIC_URL)', () => {
  let server: TestServer;
  let author: TestUser;
  before(async () => {
    server = await startTestServer({ clientDir: templateDir, env: { PUBLIC_URL: 'http://paper.test:8080' } });
    author = await createUser(server);
  });
  after(() => server?.stop());

  test('GET /api/site says so; the host is still PUBLIC_URL\'s, with its port', async () => {
    const res = await server.api('GET', '/api/site');
    assert.deepEqual(res.body.federation, { enabled: false, host: 'paper.test:8080' });
  });

  test('the profile offers no handle', async () => {
    const { site, byClass } = await profile(server, author.username);
    assert.equal(site.federation.enabled, false);
    assert.deepEqual(byClass('div', 'fediverse'), []);
    assert.deepEqual(byClass('code', 'fediverse__handle'), []);
  });

  test('pictures come from the site alone', async () => {
    assert.equal(await imageSources(server), "'self' data: blob:");
  });
});

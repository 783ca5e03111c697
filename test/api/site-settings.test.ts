// The site's settings and pages (DESIGN.md, Running a community): the defaults before anything is
// saved, an admin's change kept and shown to visitors at once, each bad field refused with
// nothing changed, a page rendered from Markdown when saved and taken down when emptied, and the
// registration mode: REGISTRATION until an admin chooses, each change in the moderation log.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { EMAIL_MESSAGE } from '../../shared/accounts.ts';
import {
  REGISTRATION_MODE_MESSAGE, SITE_NAME_LENGTH_MESSAGE, SITE_NAME_REQUIRED_MESSAGE, SITE_PAGE_LENGTH_MESSAGE,
  SITE_PAGE_MAX, SITE_TAGLINE_LENGTH_MESSAGE,
} from '../../shared/site-settings.ts';
import { createAdmin, createUser, sqlRows, startTestServer, type TestServer, type TestUser } from '../helpers.ts';

const NO_PAGES = { about: false, rules: false, privacy: false, terms: false };

describe('site settings', () => {
  let server: TestServer;
  let admin: TestUser;
  before(async () => {
    server = await startTestServer({ env: { REGISTRATION: 'approval' } });
    admin = await createAdmin(server);
  });
  after(() => server.stop());

  const put = (json: unknown, as: TestUser = admin) => server.api('PUT', '/api/admin/site', { token: as.token, json });

  test('before anything is saved: the defaults, and REGISTRATION\'s mode', async () => {
    const res = await server.api('GET', '/api/site');
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      name: 'Beatnik', tagline: '', description: '', contact_email: '', registration: 'approval', pages: NO_PAGES,
      federation: { enabled: false, host: new URL(server.ctx.config.publicUrl).host },
    });
    const page = await server.api('GET', '/api/site/pages/about');
    assert.equal(page.status, 404);
    assert.deepEqual(page.body, { detail: 'Page not found' });
  });

  test('an admin\'s change is kept, answered to visitors at once, and records a new registration mode', async () => {
    const res = await put({
      name: '  The Gazette ', tagline: 'News from the hill', description: 'A paper of the hill folk.',
      contact_email: 'Editor@Example.org', registration: 'invite',
      pages: { about: '# Who we are\n\nWe are *the hill*.', rules: 'Be kind.' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.name, 'The Gazette');
    assert.equal(res.body.contact_email, 'editor@example.org');
    assert.equal(res.body.pages.about, '# Who we are\n\nWe are *the hill*.');
    assert.equal(res.body.pages.privacy, '');

    const site = await server.api('GET', '/api/site');
    assert.deepEqual(site.body, {
      name: 'The Gazette', tagline: 'News from the hill', description: 'A paper of the hill folk.',
      contact_email: 'editor@example.org', registration: 'invite', pages: { ...NO_PAGES, about: true, rules: true },
      federation: { enabled: false, host: new URL(server.ctx.config.publicUrl).host },
    });
    const about = await server.api('GET', '/api/site/pages/about');
    assert.equal(about.status, 200);
    assert.equal(about.body.title, 'About');
    // A '#' heading becomes '##': the page's title is its only h1.
    assert.equal(about.body.content_html, '<h2>Who we are</h2>\n<p>We are <em>the hill</em>.</p>\n');

    const log = await server.api('GET', '/api/moderation');
    const entry = log.body.entries.find((e: { action: string }) => e.action === 'registration');
    assert.equal(entry.reason, 'invite');
    assert.equal(entry.admin, admin.username);
  });

  test('a page emptied is taken down; the same mode again records nothing more', async () => {
    const before = (await sqlRows(server.ctx.db, `SELECT id FROM moderation_log WHERE action = 'registration'`)).length;
    const res = await put({ pages: { rules: '' }, registration: 'invite' });
    assert.equal(res.status, 200);
    assert.equal((await server.api('GET', '/api/site/pages/rules')).status, 404);
    assert.equal((await server.api('GET', '/api/site')).body.pages.rules, false);
    const after = (await sqlRows(server.ctx.db, `SELECT id FROM moderation_log WHERE action = 'registration'`)).length;
    assert.equal(after, before);
  });

  test('refuses each bad field and changes nothing', async () => {
    const stored = (await server.api('GET', '/api/admin/site', { token: admin.token })).body;
    for (const [json, detail] of [
      [{ name: '   ' }, SITE_NAME_REQUIRED_MESSAGE],
      [{ name: 'x'.repeat(61) }, SITE_NAME_LENGTH_MESSAGE],
      [{ name: 42 }, 'name must be text'],
      [{ tagline: 'x'.repeat(121), name: 'Other' }, SITE_TAGLINE_LENGTH_MESSAGE],
      [{ contact_email: 'not an address' }, EMAIL_MESSAGE],
      [{ registration: 'everyone' }, REGISTRATION_MODE_MESSAGE],
      [{ pages: { faq: 'Questions' } }, 'There is no page "faq": pages are about, rules, privacy, terms'],
      [{ pages: { about: 5 } }, 'The page "about" must be text'],
      [{ pages: 'about' }, 'pages must be an object of about, rules, privacy and terms'],
      [{ pages: { terms: 'x'.repeat(SITE_PAGE_MAX + 1) } }, SITE_PAGE_LENGTH_MESSAGE],
    ] as const) {
      const res = await put(json);
      assert.equal(res.status, 400, JSON.stringify(json).slice(0, 80));
      assert.deepEqual(res.body, { detail });
    }
    assert.deepEqual((await server.api('GET', '/api/admin/site', { token: admin.token })).body, stored);
  });

  test('only admins read or change the settings', async () => {
    await put({ registration: 'open' }); // the earlier tests left it by invitation, where no one registers freely
    const user = await createUser(server);
    for (const [method, as, status] of [
      ['GET', undefined, 401], ['PUT', undefined, 401], ['GET', user, 403], ['PUT', user, 403],
    ] as const) {
      const res = await server.api(method, '/api/admin/site', { token: as?.token, json: method === 'PUT' ? { name: 'Mine' } : undefined });
      assert.equal(res.status, status, `${method} as ${as ? 'user' : 'visitor'}`);
    }
    assert.notEqual((await server.api('GET', '/api/site')).body.name, 'Mine');
  });
});

// The site's name everywhere it names itself, and its pages rendered on the server (DESIGN.md,
// Running a community): once an admin renames the paper, every page's <title> and og:site_name,
// the shell of the signed-in screens, the feeds and the mail say the new name; /about and the
// other pages arrive as HTML once written, and answer 404 before.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SITE_DATA_ID } from '../../client/page-data.ts';
import { createAdmin, createUser, type TestServer, type TestUser } from '../helpers.ts';
import { startMailSite, type MailSite } from '../smtp-peer.ts';
import { createPost } from './factories.ts';
import { attr, parsePage, textOf } from './html.ts';

const NAME = 'The Hill Gazette';
let site: MailSite;
let server: TestServer;
let admin: TestUser;

// The built client's pages (npm run test:api builds it first).
before(async () => {
  site = await startMailSite({ EMAIL_VERIFICATION: 'off' });
  server = site.server;
  admin = await createAdmin(server);
});
after(() => site.close());

async function page(path: string): Promise<{ status: number; html: string }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, html: await res.text() };
}

describe('a renamed paper', () => {
  let author: TestUser;
  before(async () => {
    author = await createUser(server);
    await createPost(server, author);
    const res = await server.api('PUT', '/api/admin/site', { token: admin.token, json: { name: NAME, tagline: 'All the news that fits' } });
    assert.equal(res.status, 200);
  });

  test('every page and the shell of the signed-in screens carry the name, and the settings for the app', async () => {
    for (const path of ['/', '/ranks', `/beatnik/${author.username}`, '/login', '/write', '/no-such-page']) {
      const { html } = await page(path);
      const parsed = parsePage(html);
      assert.match(parsed.title, new RegExp(`(^| · )${NAME}$`), `${path}: ${parsed.title}`);
      const data = parsed.all('script').find((el) => attr(el, 'id') === SITE_DATA_ID);
      assert.ok(data, `${path} carries the site's settings`);
      assert.equal(JSON.parse(textOf(data)).name, NAME);
    }
    const front = parsePage((await page('/')).html);
    assert.deepEqual(front.meta('og:site_name'), [NAME]);
    assert.equal(front.meta('description')[0], `${NAME}: short black-and-white articles from a community of writers.`);
    // The masthead, rendered with the page.
    assert.ok(front.all('h1').some((el) => textOf(el) === NAME));
    assert.ok(front.all('p').some((el) => attr(el, 'class') === 'masthead__tagline' && textOf(el) === 'All the news that fits'));
  });

  test('the feeds are titled with it', async () => {
    const rss = await (await fetch(`${server.url}/feed.xml`)).text();
    assert.match(rss, new RegExp(`<title>${NAME}</title>`));
    const json = await (await fetch(`${server.url}/beatnik/${author.username}/feed.json`)).json() as { title: string };
    assert.equal(json.title, `${author.username} · ${NAME}`);
  });

  test('mail says it: a reset link\'s subject, masthead and small print', async () => {
    const before = site.smtp.received.length;
    assert.equal((await server.api('POST', '/api/auth/forgot-password', { json: { email: author.email } })).status, 202);
    const [mail] = (await site.smtp.waitForMail(before + 1)).slice(before);
    assert.equal(mail!.mail.subject, `Reset your ${NAME} password`);
    assert.ok(mail!.mail.text!.startsWith(NAME.toUpperCase()));
    assert.ok(mail!.mail.text!.includes(`${NAME}: https://paper.example.org/`));
    assert.ok(String(mail!.mail.html).includes(`>${NAME}</a>`));
  });
});

describe('the four pages', () => {
  test('answer 404 until written, then arrive rendered, and go when emptied', async () => {
    for (const path of ['/about', '/rules', '/privacy', '/terms']) assert.equal((await page(path)).status, 404, path);
    const saved = await server.api('PUT', '/api/admin/site', {
      token: admin.token, json: { pages: { privacy: 'We keep **nothing** we need not.\n\nAsk [us](mailto:editor@example.org).' } },
    });
    assert.equal(saved.status, 200);
    const { status, html } = await page('/privacy');
    assert.equal(status, 200);
    const parsed = parsePage(html);
    assert.ok(parsed.all('h1').some((el) => textOf(el) === 'Privacy Policy'));
    assert.ok(parsed.all('strong').some((el) => textOf(el) === 'nothing'));
    assert.equal(parsed.meta('description')[0], 'We keep nothing we need not. Ask us.');
    assert.ok(parsed.links('canonical').some((el) => attr(el, 'href')!.endsWith('/privacy')));
    // The footer links the written page and leaves the other as text.
    const footer = parsed.all('p').find((el) => attr(el, 'class') === 'colophon__legal')!;
    assert.equal(textOf(footer), 'Privacy Policy | Terms of Service');
    const links = parsed.all('a').filter((el) => textOf(el) === 'Privacy Policy' || textOf(el) === 'Terms of Service');
    assert.deepEqual(links.map((el) => attr(el, 'href')), ['/privacy']);

    await server.api('PUT', '/api/admin/site', { token: admin.token, json: { pages: { privacy: '', about: 'Who we are.' } } });
    assert.equal((await page('/privacy')).status, 404);
    const front = parsePage((await page('/')).html);
    assert.equal(textOf(front.all('p').find((el) => attr(el, 'class') === 'colophon__legal')!), 'About | Privacy Policy | Terms of Service');
  });
});

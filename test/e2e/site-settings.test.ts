// Admin → Settings in Chromium, at 1280 and 390 px: an admin renames the paper and closes
// registration, and the masthead, the tab's title and the header's links follow at once; writes
// the About page in Markdown, which the footer then links and /about shows, rendered on the
// server; a visitor opening the site afterwards sees all of it before the script runs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createAdmin, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, hydrated, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let admin: TestUser;

describe('Admin → Settings in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server);
    reader = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('renames the paper, closes registration and writes the About page', async () => {
    const watched = await reader.open('/admin', { token: admin.token });
    const { page } = watched;
    await h1(page, 'Admin').waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), 'Beatnik');

    // The tab checks before saving, as the server would.
    await page.getByLabel('Name').fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Please enter a name for the site').waitFor();

    await page.getByLabel('Name').fill('The Hill Gazette');
    await page.getByLabel('Tagline').fill('All the news that fits');
    await page.getByLabel('Contact email').fill('editor@hill.example');
    await page.getByLabel('Registration').selectOption('closed');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await toastSays(page, 'Site settings saved');
    // At once, without a reload: the masthead and the tab's title.
    await page.locator('.masthead__name', { hasText: 'The Hill Gazette' }).waitFor();
    await page.waitForFunction(() => document.title === 'Admin · The Hill Gazette');
    await screenshot(page, 'admin-settings-desktop');

    await page.getByLabel('Page', { exact: true }).selectOption('about');
    await page.locator('textarea#site-page-text').fill('## Who we are\n\nA paper of **the hill**, written by its people.');
    await page.getByRole('button', { name: 'Save About' }).click();
    await toastSays(page, 'About saved');
    await page.locator('.colophon__legal').getByRole('link', { name: 'About' }).waitFor();
    await screenshot(page, 'admin-settings-pages-desktop');
    await closeClean(watched);
  });

  it('shows a visitor the new name, the pages and no Register link, from the server\'s HTML', async () => {
    const watched = await reader.open('/about');
    const { page } = watched;
    await h1(page, 'About').waitFor();
    assert.equal(await page.title(), 'About · The Hill Gazette');
    await page.locator('.site-page__text strong', { hasText: 'the hill' }).waitFor();
    await page.locator('.masthead__tagline', { hasText: 'All the news that fits' }).waitFor();
    await page.locator('.colophon__contact a[href="mailto:editor@hill.example"]').waitFor();
    await hydrated(page);
    assert.equal(await page.getByRole('link', { name: 'Register' }).count(), 0, 'registration is closed');
    assert.equal(await page.locator('.colophon__legal').innerText(), 'About | Privacy Policy | Terms of Service');
    await screenshot(page, 'site-about-desktop');
    await page.locator('.colophon__legal').getByRole('link', { name: 'About' }).click();
    await closeClean(watched);

    const phone = await reader.open('/about', { viewport: PHONE });
    await h1(phone.page, 'About').waitFor();
    await hydrated(phone.page);
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'nothing wider than the phone');
    await screenshot(phone.page, 'site-about-phone');
    await closeClean(phone);

    // Closed: the register page says so before anything is typed, and the login page offers no link.
    const register = await reader.open('/register');
    await register.page.locator('.auth__closed', { hasText: 'Registration is closed.' }).waitFor();
    assert.equal(await register.page.getByLabel('Username').count(), 0, 'no form to fill in vain');
    await register.page.goto('/login');
    await h1(register.page, 'Login').waitFor();
    assert.equal(await register.page.getByText("Don't have an account?").count(), 0);
    await closeClean(register);

    const missing = await reader.open('/rules', { allow: ['/rules'] });
    await h1(missing.page, 'Page not found').waitFor();
    await closeClean(missing);
  });

  it('works on a phone: the Settings tab at 390 px', async () => {
    const watched = await reader.open('/admin', { token: admin.token, viewport: PHONE });
    const { page } = watched;
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByLabel('Name').waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), 'The Hill Gazette');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    assert.equal(overflow, 0, 'nothing wider than the phone');
    await screenshot(page, 'admin-settings-phone');
    await closeClean(watched);
  });
});

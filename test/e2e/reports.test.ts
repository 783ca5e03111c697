// Reports and the moderation log in Chromium (DESIGN.md, Reports; Moderation log): a reader reports
// an article, the admin dismisses it from the Reports tab and the reader reads the outcome in their
// notifications; a reader reports a comment and another article, the admin deletes that article
// with a reason, and the public log at /moderation — reached from the footer — says so.
// Data is made through the API; one server for the file. Needs the built client.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createAdmin, createUser, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let browser: Reader;
let admin: TestUser;
let author: TestUser;
let reader: TestUser;

describe('reports and the moderation log in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    admin = await createAdmin(server, { username: 'night_editor' });
    author = await createUser(server, { username: 'cassady_n' });
    reader = await createUser(server, { username: 'lucien_c' });
    browser = await startReader(server, { timeout: 10_000 });
  });
  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a reader reports an article, the admin dismisses it, and the reader reads the outcome', async () => {
    const post = await createPost(server, author, { title: 'The joan anderson letter, retold' });
    const watched = await browser.open(`/post/${post.id}`, { token: reader.token, allow: ['/api/reports'] });
    const { page } = watched;
    await h1(page, post.title).waitFor();
    await page.getByRole('button', { name: 'Report this article' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this article' });
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please choose a reason: spam, harassment, off-topic or other' }).waitFor();
    await dialog.getByLabel('Spam').check();
    await dialog.getByLabel('Note for the editors (optional)').fill('Links to a shop in every paragraph.');
    await dialog.getByText('35/500').waitFor();
    await screenshot(page, 'report-dialog-desktop', false);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toastSays(page, 'Thank you. The editors will look at it.');
    await dialog.waitFor({ state: 'detached' });
    // A second report of the same article, while the first is open, is refused in words.
    await page.getByRole('button', { name: 'Report this article' }).click();
    await dialog.getByLabel('Other').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toastSays(page, 'You have already reported this');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await closeClean(watched);

    const author_ = await browser.open(`/post/${post.id}`, { token: author.token });
    await h1(author_.page, post.title).waitFor();
    await author_.page.getByRole('button', { name: 'Edit article' }).waitFor();
    assert.equal(await author_.page.getByRole('button', { name: 'Report this article' }).count(), 0, 'not one\'s own');
    await closeClean(author_);

    const desk = await browser.open('/admin', { token: admin.token });
    await desk.page.getByRole('tab', { name: 'Reports' }).click();
    const row = desk.page.locator('.report-row', { hasText: post.title });
    await row.waitFor();
    await row.getByText('Spam ×1').waitFor();
    await row.getByText('Links to a shop in every paragraph.').waitFor();
    await row.getByText('cassady_n').waitFor();
    assert.equal(await row.getByText('lucien_c').count(), 0, 'who reported is not shown');
    await screenshot(desk.page, 'admin-reports-desktop');
    await row.getByRole('button', { name: `Dismiss the reports on “${post.title}”` }).click();
    await toastSays(desk.page, 'Reports dismissed');
    await row.waitFor({ state: 'detached' });
    await desk.page.getByLabel('Status').selectOption('closed');
    const closed = desk.page.locator('.report-row', { hasText: post.title });
    await closed.getByText('Dismissed by night_editor', { exact: false }).waitFor();
    assert.equal(await closed.getByRole('button').count(), 0, 'nothing left to do on a closed report');
    await closeClean(desk);

    const inbox = await browser.open('/notifications', { token: reader.token });
    const card = inbox.page.locator('.notice[data-type="report_closed"]');
    await card.getByRole('heading', { name: 'Your report was reviewed' }).waitFor();
    await card.getByText(`An administrator reviewed your report of the article "${post.title}" and found nothing against the rules. It stays up.`).waitFor();
    await card.getByRole('link', { name: post.title }).waitFor();
    await card.getByRole('img', { name: 'Report outcome' }).waitFor();
    await screenshot(inbox.page, 'report-outcome-notification-desktop');
    await closeClean(inbox);
  });

  it('the admin deletes a reported article with a reason, and /moderation, linked from the footer, says so', async () => {
    const post = await createPost(server, author, { title: 'Notes from the first cross-country drive' });
    const host = await createPost(server, admin, { title: 'The desk asks: where were you in fifty-five?' });
    const comment = await server.api('POST', `/api/posts/${host.id}/comments`, { token: author.token, json: { content: 'Buy my book, cheap.' } });
    assert.equal(comment.status, 201);

    // The reader reports a comment from the article page, and the article itself.
    const watched = await browser.open(`/post/${host.id}`, { token: reader.token });
    const { page } = watched;
    const letter = page.locator('.comment', { hasText: 'Buy my book, cheap.' });
    await letter.getByRole('button', { name: 'Report comment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Report this comment' });
    await dialog.getByLabel('Off-topic').check();
    await dialog.getByRole('button', { name: 'Send report' }).click();
    await toastSays(page, 'Thank you. The editors will look at it.');
    await closeClean(watched);
    assert.equal((await server.api('POST', '/api/reports', { token: reader.token, json: { target_type: 'post', target_id: post.id, reason: 'harassment' } })).status, 201);

    const desk = await browser.open('/admin', { token: admin.token });
    await desk.page.getByRole('tab', { name: 'Reports' }).click();
    const onComment = desk.page.locator('.report-row', { hasText: 'Buy my book, cheap.' });
    await onComment.getByText('Off-topic ×1').waitFor();
    await onComment.getByRole('link', { name: host.title }).waitFor();
    const row = desk.page.locator('.report-row', { hasText: post.title });
    await row.getByRole('button', { name: `Delete “${post.title}”` }).click();
    const remove = desk.page.getByRole('dialog', { name: 'Delete post' });
    await remove.getByLabel('Reason').fill('Harassment of a named neighbour');
    await remove.getByRole('button', { name: 'Delete post' }).click();
    await toastSays(desk.page, 'Post deleted successfully');
    await row.waitFor({ state: 'detached' });
    await onComment.waitFor();
    await closeClean(desk);
    assert.equal((await server.api('GET', `/api/posts/${post.id}`)).status, 404);

    // Anyone reads the log, from the footer of any page.
    const visitor = await browser.open('/');
    await visitor.page.locator('.colophon').getByRole('link', { name: 'Moderation log' }).click();
    await h1(visitor.page, 'Moderation log').waitFor();
    const entry = visitor.page.locator('.moderation-entry').first();
    assert.equal(await entry.locator('.moderation-entry__what').innerText(),
      `night_editor removed the article “${post.title}” by cassady_n.`);
    assert.equal(await entry.locator('.moderation-entry__reason').innerText(), 'Reason: Harassment of a named neighbour');
    assert.equal(await entry.locator('.moderation-entry__kicker').innerText(), 'ARTICLE REMOVED');
    assert.ok(!(await visitor.page.locator('#main').innerText()).includes('lucien_c'), 'no reporter in the log');
    await screenshot(visitor.page, 'moderation-desktop');
    await closeClean(visitor);

    const phone = await browser.open('/moderation', { viewport: PHONE });
    await phone.page.locator('.moderation-entry').first().waitFor();
    await screenshot(phone.page, 'moderation-phone');
    await closeClean(phone);

    const inbox = await browser.open('/notifications', { token: reader.token });
    await inbox.page.locator('.notice[data-type="report_closed"]', { hasText: 'Your report was acted on' })
      .getByText(`An administrator removed the article "${post.title}", which you reported. Thank you for telling us.`).waitFor();
    await closeClean(inbox);
  });
});

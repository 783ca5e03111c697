// Article (SPEC §2) in Chromium: what a visitor, a reader, the author and an admin see and do —
// comments added, edited and deleted, a rating, follow and unfollow, delete — and not found.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPost } from '../api/factories.ts';
import { createUser, promoteToAdmin, samplePng, startTestServer, type TestServer, type TestUser } from '../helpers.ts';
import { screenshot } from './browser.ts';
import { PHONE, closeClean, h1, openInApp, startReader, toastSays, type Reader } from './reader-support.ts';

let server: TestServer;
let reader: Reader;
let author: TestUser;
let readerUser: TestUser;
let post: any;
const CONTENT = 'First paragraph of the night, written by the river as the boats came home slowly.\n\n'
  + 'Second paragraph: the saxophone kept playing until dawn, and nobody in the club wanted to leave before it stopped.';

describe('Article in Chromium', () => {
  before(async () => {
    server = await startTestServer();
    reader = await startReader(server);
    author = await createUser(server, { username: 'kerouac_art' });
    readerUser = await createUser(server, { username: 'cassady_art' });
    post = await createPost(server, author, { title: 'On the road, again and again', content: CONTENT, hashtags: ['road', 'jazz'] }, await samplePng(800, 500));
  });
  after(async () => {
    await reader?.close();
    await server?.stop();
  });

  it('shows a visitor the article, line breaks kept, and a sign-in link', async () => {
    const watched = await reader.open(`/post/${post.id}`);
    const { page } = watched;
    await h1(page, post.title).waitFor();
    // The stored rendering: a paragraph per blank line, a line break per newline.
    const content = page.locator('.article__content');
    assert.ok(await content.locator('p').count() >= 2, 'paragraphs');
    assert.match(await content.innerText(), /came home slowly\.\n+Second paragraph/);
    await page.locator('.article .kicker', { hasText: 'road' }).waitFor();
    assert.equal(await page.locator('.article').getByRole('link', { name: '#jazz' }).getAttribute('href'), '/ranks?hashtag=jazz');
    assert.equal(await page.locator('.article__byline').getByRole('link', { name: 'kerouac_art' }).getAttribute('href'), '/beatnik/kerouac_art');
    const signIn = page.getByRole('link', { name: 'Sign in to join the conversation' });
    assert.equal(await signIn.getAttribute('href'), '/login');
    assert.equal(await page.getByLabel('Your comment').count(), 0);
    assert.equal(await page.getByRole('button', { name: /Follow/ }).count(), 0);
    await screenshot(page, 'reader-article-desktop');
    await page.setViewportSize(PHONE);
    assert.equal(await page.locator('.article-layout__side').isVisible(), false, 'Top Ranking hidden on small screens');
    await screenshot(page, 'reader-article-phone');
    await closeClean(watched);
  });

  it('lets a reader comment, edit, delete, rate and follow', async () => {
    const watched = await reader.open(`/post/${post.id}`, { token: readerUser.token });
    const { page } = watched;
    await h1(page, post.title).waitFor();
    // Comments: empty, then added.
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.locator('#comment-new-error', { hasText: 'Write a comment' }).waitFor();
    await page.getByLabel('Your comment').fill('x'.repeat(1001));
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.locator('#comment-new-error', { hasText: 'Comment cannot exceed 1000 characters' }).waitFor();
    await page.getByLabel('Your comment').fill('Beautiful piece.\nMore please.');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await toastSays(page, 'Comment added');
    await page.locator('.comment', { hasText: 'Beautiful piece.' }).waitFor();
    const comment = page.locator('.comment').first(); // while edited its text is in a textarea
    await page.locator('.article__stats', { hasText: '1 comment' }).waitFor();
    // Edit: empty is refused, then saved and marked (edited).
    await comment.getByRole('button', { name: 'Edit comment' }).click();
    await page.getByLabel('Edit your comment').fill('   ');
    await comment.getByRole('button', { name: 'Save' }).click();
    await comment.locator('.field__error', { hasText: 'Comment cannot be empty' }).waitFor();
    await comment.getByRole('button', { name: 'Cancel' }).click();
    await comment.getByRole('button', { name: 'Edit comment' }).click();
    await page.getByLabel('Edit your comment').fill('Beautiful piece, truly.');
    await comment.getByRole('button', { name: 'Save' }).click();
    await toastSays(page, 'Comment updated successfully');
    await page.locator('.comment', { hasText: 'Beautiful piece, truly.' }).locator('.comment__edited', { hasText: '(edited)' }).waitFor();
    // Rating.
    await page.locator('.rate__star', { hasText: '4 stars' }).click();
    await page.getByRole('button', { name: 'Submit rating' }).click();
    await toastSays(page, 'Rating submitted!');
    await page.getByText('Your rating: 4 of 5').waitFor();
    await page.locator('.article__stats', { hasText: '4.0 (1)' }).waitFor();
    // Follow, then unfollow.
    await page.getByRole('button', { name: 'Follow kerouac_art' }).click();
    await toastSays(page, 'You are now following kerouac_art');
    await page.getByRole('button', { name: 'Unfollow kerouac_art' }).click();
    await toastSays(page, 'Unfollowed kerouac_art');
    await page.getByRole('button', { name: 'Follow kerouac_art' }).waitFor();
    await screenshot(page, 'reader-article-signed-in-desktop');
    // Delete, after a confirmation.
    await page.locator('.comment', { hasText: 'Beautiful piece, truly.' }).getByRole('button', { name: 'Delete comment' }).click();
    await page.getByRole('dialog', { name: 'Delete comment' }).getByRole('button', { name: 'Delete' }).click();
    await toastSays(page, 'Comment deleted successfully');
    await page.getByText('No comments yet. Be the first to write one.').waitFor();
    await closeClean(watched);
  });

  it('lets an admin delete anyone’s comment, with a reason its author reads', async () => {
    const admin = await createUser(server, { username: 'admin_art' });
    await promoteToAdmin(server, admin.id);
    await server.api('POST', `/api/posts/${post.id}/comments`, { token: readerUser.token, json: { content: 'Spam, spam and spam.' } });
    const watched = await reader.open(`/post/${post.id}`, { token: admin.token });
    const { page } = watched;
    const comment = page.locator('.comment', { hasText: 'Spam, spam and spam.' });
    assert.equal(await comment.getByRole('button', { name: 'Edit comment' }).count(), 0);
    await comment.getByRole('button', { name: 'Delete comment' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete comment' });
    await dialog.getByRole('button', { name: 'Delete comment' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Please enter a reason for deleting the comment' }).waitFor();
    await dialog.getByLabel('Reason').fill('Spam');
    await dialog.getByRole('button', { name: 'Delete comment' }).click();
    await toastSays(page, 'Comment deleted successfully');
    await comment.waitFor({ state: 'detached' });
    await closeClean(watched);
    const inbox = await server.api('GET', '/api/notifications', { token: readerUser.token });
    assert.ok(inbox.body.notifications.some((n: any) => n.type === 'comment_deleted' && n.message.endsWith('Reason: Spam')));
  });

  it('gives the author edit and delete, no rating, and deletes to /profile', async () => {
    const doomed = await createPost(server, author, { title: 'An article that will not last' });
    const watched = await reader.open(`/post/${doomed.id}`, { token: author.token });
    const { page } = watched;
    await page.getByText('You cannot rate your own articles.').waitFor();
    assert.equal(await page.getByRole('button', { name: 'Submit rating' }).count(), 0);
    await page.getByRole('button', { name: 'Edit article' }).click();
    await page.getByRole('dialog').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Delete article' }).click();
    await page.getByRole('dialog', { name: 'Delete article' }).getByRole('button', { name: 'Delete' }).click();
    await toastSays(page, 'Article deleted successfully');
    await page.waitForURL('**/profile');
    assert.equal((await server.api('GET', `/api/posts/${doomed.id}`)).status, 404);
    await closeClean(watched);
  });

  it("shows 'Article not found' for a missing article", async () => {
    const watched = await reader.open('/post/999999', { allow: ['status of 404'] });
    const { page } = watched;
    await h1(page, 'Article not found').waitFor();
    await page.getByText("The article you're looking for doesn't exist or has been deleted.").waitFor();
    await screenshot(page, 'reader-article-not-found-desktop');
    await page.getByRole('link', { name: 'Back to the FrontPage' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await closeClean(watched);
  });

  it("toasts 'Error loading comments' and 'Error loading article'", async () => {
    // Reached inside the app, so the page reads them itself (a page the server sends has them).
    const watched = await reader.open('/', { allow: ['status of 500'] });
    const { page } = watched;
    await page.route(`**/api/posts/${post.id}/comments`, (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(page, `/post/${post.id}`);
    await toastSays(page, 'Error loading comments');
    await page.route('**/api/posts/424242', (route) => route.fulfill({ status: 500, json: {} }));
    await openInApp(page, '/post/424242');
    await toastSays(page, 'Error loading article');
    await closeClean(watched);
  });
});

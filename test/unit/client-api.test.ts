// The client's API rules: which 401s sign the user out (SPEC §8), which 403s are a ban that ends
// the session, error text. What each call sends: client-endpoints.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, banOf } from '../../client/api.ts';
import { redirectsOn401 } from '../../client/endpoints.ts';
import { errorText } from '../../client/feedback.ts';

describe('redirectsOn401 (SPEC §8)', () => {
  const exempt = [
    '/api/posts', '/api/posts/', '/api/posts/12', '/api/posts/12/comments', '/api/posts?skip=0&limit=20',
    '/api/users/', '/api/users/7', '/api/users/me', '/api/users/7/followers?skip=0', '/api/users?x=1',
    '/api/auth/login', '/api/auth/login?next=1', '/api/auth/register',
    '/api/health', '/api/health?deep=1',
  ];
  for (const path of exempt) {
    it(`keeps the session on a 401 from ${path}`, () => assert.equal(redirectsOn401(path), false));
  }

  const redirecting = [
    '/api/postsx', '/api/posts-archive', '/api/notifications?limit=1&unread_only=true', '/api/frontpage',
    '/api/follow/3', '/api/admin/users', '/api/auth/loginx', '/api/auth', '/api/healthz', '/api/userss',
    '/api/comments/4', '/api/ranks',
  ];
  for (const path of redirecting) {
    it(`signs out on a 401 from ${path}`, () => assert.equal(redirectsOn401(path), true));
  }
});

describe('errorText (SPEC §8: server detail preferred, then the fallback)', () => {
  it('uses the server detail', () => {
    assert.equal(errorText(new ApiError(401, 'Incorrect email or password'), 'Error logging in'), 'Incorrect email or password');
  });

  it('falls back when there is no detail', () => {
    assert.equal(errorText(new ApiError(500, undefined), 'Error logging in'), 'Error logging in');
    assert.equal(errorText(new TypeError('Failed to fetch'), 'Error creating account'), 'Error creating account');
    assert.equal(errorText(undefined, 'Error creating account'), 'Error creating account');
  });

  it('ApiError keeps the status and the detail', () => {
    const error = new ApiError(409, 'Username is already taken');
    assert.equal(error.status, 409);
    assert.equal(error.detail, 'Username is already taken');
    assert.ok(error instanceof Error);
  });
});

describe('banOf: a 403 with the ban sentence ends the session, saying why', () => {
  it('reads the reason and the end', () => {
    const detail = 'Your account is banned until 12 December 2026, 10:00 UTC. Reason: spam';
    assert.deepEqual(banOf(403, detail), { detail, ban: { permanent: false, until: '2026-12-12T10:00:00.000Z', reason: 'spam' } });
    assert.deepEqual(banOf(403, 'Your account has been permanently banned. Reason: abuse')?.ban, { permanent: true, until: null, reason: 'abuse' });
  });

  it('leaves every other answer alone', () => {
    assert.equal(banOf(403, 'Admin privileges required'), undefined);
    assert.equal(banOf(403, 'You cannot rate your own articles'), undefined);
    assert.equal(banOf(403, undefined), undefined);
    assert.equal(banOf(401, 'Your account has been permanently banned. Reason: abuse'), undefined);
  });
});

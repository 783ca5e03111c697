import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hasUsernameCharacters } from '../../shared/accounts.ts';
import { isValidEmail, normalizeEmail, usernameKey, usernameSkeleton } from '../../server/users/users.names.ts';
import { activeBan, banMessage } from '../../server/users/users.bans.ts';

test('new usernames are ASCII letters, digits, dots, hyphens and underscores, letter or digit at both ends', () => {
  for (const ok of ['ana', 'Ana_B', 'jose.m', 'john..doe', 'a-1', 'X9', '007']) assert.ok(hasUsernameCharacters(ok), ok);
  for (const bad of [
    'a b', 'a/b', 'a?b', '..', 'a#b', 'a%2F', '<script>', 'tab\t', '.ana', 'ana.', '_ana', 'ana-', '-',
    'José', 'björk', 'ñandú-99', 'p\u0430ypal', 'ad\u200Bmin', '\u202Eevil', 'ａｎａ',
  ]) {
    assert.ok(!hasUsernameCharacters(bad), JSON.stringify(bad));
  }
});

test('look-alike names share a skeleton: case and . - _ do not tell names apart', () => {
  for (const alike of ['John.Doe', 'john_doe', 'JOHN-DOE', 'johndoe', 'j.o.h.n.d.o.e']) {
    assert.equal(usernameSkeleton(alike), 'johndoe', alike);
  }
  assert.notEqual(usernameSkeleton('john.doe2'), usernameSkeleton('john.doe'));
});

test('username keys and emails compare case-insensitively', () => {
  assert.equal(usernameKey('AnA'), usernameKey('ana'));
  assert.equal(usernameKey('JOSÉ'), 'josé');
  assert.equal(normalizeEmail('  Ana@Example.COM '), 'ana@example.com');
});

test('email format', () => {
  for (const ok of ['a@b.co', 'first.last+tag@sub.example.org']) assert.ok(isValidEmail(ok), ok);
  for (const bad of ['', 'a', 'a@b', '@b.co', 'a@.co', 'a b@c.co', 'a@b..co', `${'x'.repeat(250)}@b.co`,
    'a@@b.co', 'a@b@c.co', 'a\u0000@b.co', 'a@b.co\u0007', 'a\u200B@b.co', 'a\t@b.co']) {
    assert.ok(!isValidEmail(bad), bad);
  }
});

test('bans: permanent, temporary until a time, and expired', () => {
  const now = new Date('2026-06-01T00:00:00.000Z');
  const base = { banned_at: '2026-05-01T00:00:00.000Z', ban_reason: 'spam' };
  assert.deepEqual(activeBan({ ...base, ban_permanent: 1, ban_until: null }, now),
    { permanent: true, until: null, reason: 'spam' });
  assert.deepEqual(activeBan({ ...base, ban_permanent: 0, ban_until: '2026-06-02T00:00:00.000Z' }, now),
    { permanent: false, until: '2026-06-02T00:00:00.000Z', reason: 'spam' });
  assert.equal(activeBan({ ...base, ban_permanent: 0, ban_until: '2026-05-31T00:00:00.000Z' }, now), undefined);
  assert.equal(activeBan({ banned_at: null, ban_permanent: 0, ban_until: null, ban_reason: null }, now), undefined);
  assert.match(banMessage({ permanent: true, until: null, reason: 'spam' }), /permanently banned.*spam/);
});

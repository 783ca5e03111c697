// The client's form checks (SPEC §5 messages, word for word) and small display rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badgeText } from '../../client/state/notifications.ts';
import {
  firstInvalid, validateEmailChange, validateLogin, validatePasswordChange, validateRegister, type RegisterFields,
} from '../../client/validation.ts';

const valid: RegisterFields = {
  username: 'kerouac', email: 'jack@example.com', password: 'secret1', confirmPassword: 'secret1', bio: '',
};

describe('validateRegister', () => {
  it('accepts a valid form, with or without a biography', () => {
    assert.deepEqual(validateRegister(valid), {});
    assert.deepEqual(validateRegister({ ...valid, bio: 'x'.repeat(500) }), {});
  });

  const cases: { name: string; change: Partial<RegisterFields>; field: keyof RegisterFields; message: string }[] = [
    { name: 'short username', change: { username: 'ab' }, field: 'username', message: 'Username must be at least 3 characters long' },
    { name: 'username of spaces', change: { username: '  ab  ' }, field: 'username', message: 'Username must be at least 3 characters long' },
    { name: 'long username', change: { username: 'k'.repeat(36) }, field: 'username', message: 'Username must be between 3 and 35 characters' },
    { name: 'look-alike letter', change: { username: 'p\u0430ypal' }, field: 'username', message: 'Username can only contain letters, numbers, dots, hyphens and underscores' },
    { name: 'username ending in a dot', change: { username: 'jack.' }, field: 'username', message: 'Username can only contain letters, numbers, dots, hyphens and underscores' },
    { name: 'email with a control character', change: { email: 'jack\u0007@example.com' }, field: 'email', message: 'Please enter a valid email address' },
    { name: 'short password', change: { password: '12345', confirmPassword: '12345' }, field: 'password', message: 'Password must be at least 6 characters long' },
    { name: 'mismatch', change: { confirmPassword: 'secret2' }, field: 'confirmPassword', message: 'Passwords do not match' },
    { name: 'long biography', change: { bio: 'x'.repeat(501) }, field: 'bio', message: 'Biography cannot exceed 500 characters' },
  ];
  for (const c of cases) {
    it(`rejects a ${c.name}`, () => {
      const errors = validateRegister({ ...valid, ...c.change });
      assert.deepEqual(errors, { [c.field]: c.message });
    });
  }

  it('requires an email of a valid shape', () => {
    assert.ok(validateRegister({ ...valid, email: '' }).email);
    assert.ok(validateRegister({ ...valid, email: 'not-an-email' }).email);
    assert.equal(validateRegister({ ...valid, email: ' jack@example.com ' }).email, undefined);
  });

  it('reports every invalid field, and the first in form order', () => {
    const errors = validateRegister({ username: 'a', email: 'x', password: '1', confirmPassword: '2', bio: '' });
    assert.deepEqual(Object.keys(errors).sort(), ['confirmPassword', 'email', 'password', 'username']);
    assert.equal(firstInvalid(['username', 'email', 'password', 'confirmPassword', 'bio'], errors), 'username');
    assert.equal(firstInvalid(['bio', 'password'], errors), 'password');
    assert.equal(firstInvalid(['bio'], errors), undefined);
  });
});

describe('validateLogin', () => {
  it('needs both email and password', () => {
    assert.deepEqual(validateLogin({ email: 'jack@example.com', password: 'x' }), {});
    const errors = validateLogin({ email: '', password: '' });
    assert.ok(errors.email);
    assert.ok(errors.password);
  });
});

describe('badgeText (SPEC §9)', () => {
  it("shows the count up to 9, then '9+'", () => {
    assert.equal(badgeText(1), '1');
    assert.equal(badgeText(9), '9');
    assert.equal(badgeText(10), '9+');
    assert.equal(badgeText(250), '9+');
  });
});

describe('validatePasswordChange (settings), with the messages the server sends', () => {
  const good = { current: 'old secret', next: 'new secret', confirm: 'new secret' };
  it('accepts a new password typed twice', () => assert.deepEqual(validatePasswordChange(good), {}));
  const cases: Array<[string, Partial<typeof good>, Record<string, string>]> = [
    ['no current password', { current: '' }, { current: 'Please enter your current password' }],
    ['a short new one', { next: 'abc', confirm: 'abc' }, { next: 'Password must be at least 6 characters long' }],
    ['the same one again', { next: 'old secret', confirm: 'old secret' }, { next: 'The new password must be different from the current one' }],
    ['a confirmation that differs', { confirm: 'new secrets' }, { confirm: 'Passwords do not match' }],
  ];
  for (const [name, change, errors] of cases) it(`rejects ${name}`, () => assert.deepEqual(validatePasswordChange({ ...good, ...change }), errors));
});

describe('validateEmailChange (settings)', () => {
  it('accepts a new address with the password', () => assert.deepEqual(validateEmailChange({ email: ' New@Example.com ', password: 'pw' }, 'old@example.com'), {}));
  it('rejects an invalid address, the current one, and no password', () => {
    assert.deepEqual(validateEmailChange({ email: 'nope', password: '' }, 'old@example.com'),
      { email: 'Please enter a valid email address', password: 'Please enter your password' });
    assert.deepEqual(validateEmailChange({ email: 'OLD@example.com', password: 'pw' }, 'old@example.com'), { email: 'This is already your email' });
  });
});

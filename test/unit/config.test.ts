import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { ConfigError, loadConfig, parseDuration, prepareDataDir } from '../../server/config.ts';

describe('configuration', () => {
  test('defaults match DESIGN.md', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.dataDir, path.resolve('./data'));
    assert.equal(config.tokenTtlSeconds, 7 * 86400);
    assert.equal(config.rankRefreshHours, 24);
    assert.equal(config.signinClientId, '');
    assert.equal(config.logLevel, 'info');
    assert.equal(config.rateLimits, true);
    assert.equal(config.admin2fa, 'optional');
    assert.equal(config.trustProxy, false, 'no proxy is trusted: X-Forwarded-For is ignored');
    assert.equal(config.publicUrl, 'http://localhost:3000');
    assert.equal(config.s3, undefined, 'images stay in DATA_DIR/uploads');
    assert.equal(config.mail, null, 'mail is off');
    assert.ok(Object.isFrozen(config));
  });

  test('PUBLIC_URL defaults to localhost on the configured port and keeps only the origin', () => {
    assert.equal(loadConfig({ PORT: '8080' }).publicUrl, 'http://localhost:8080');
    assert.equal(loadConfig({ PUBLIC_URL: 'https://Paper.Example.org/' }).publicUrl, 'https://paper.example.org');
    assert.equal(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:3000' }).publicUrl, 'http://10.0.0.5:3000');
  });

  test('TRUSTED_PROXY takes Express trust-proxy syntax', () => {
    const cases: Array<[string, unknown]> = [
      ['', false], ['0', false], ['1', 1], ['2', 2], ['loopback', ['loopback']],
      ['loopback, 10.0.0.0/8, 172.17.0.1', ['loopback', '10.0.0.0/8', '172.17.0.1']],
      ['uniquelocal,linklocal', ['uniquelocal', 'linklocal']], ['::1, fd00::/8', ['::1', 'fd00::/8']],
    ];
    for (const [value, expected] of cases) assert.deepEqual(loadConfig({ TRUSTED_PROXY: value }).trustProxy, expected, value);
  });

  test('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '127.0.0.1', DATA_DIR: '/tmp/x', TOKEN_TTL: '12h', RANK_REFRESH_HOURS: '0.5',
      SIGNIN_CLIENT_ID: 'abc', LOG_LEVEL: 'warn', RATE_LIMITS: 'off', JWT_SECRET: 'x'.repeat(40),
      TRUSTED_PROXY: 'loopback', PUBLIC_URL: 'https://paper.example.org',
    });
    assert.deepEqual(
      [config.port, config.host, config.dataDir, config.tokenTtlSeconds, config.rankRefreshHours,
        config.signinClientId, config.logLevel, config.rateLimits, config.jwtSecret, config.trustProxy, config.publicUrl],
      [8080, '127.0.0.1', '/tmp/x', 43200, 0.5, 'abc', 'warn', false, 'x'.repeat(40), ['loopback'], 'https://paper.example.org'],
    );
  });

  const bad: Array<[string, string, RegExp]> = [
    ['PORT', 'abc', /^PORT must be/],
    ['PORT', '70000', /^PORT must be/],
    ['PORT', '-1', /^PORT must be/],
    ['TOKEN_TTL', '7 days', /^TOKEN_TTL must be/],
    ['TOKEN_TTL', '0', /^TOKEN_TTL must be/],
    ['RANK_REFRESH_HOURS', '-3', /^RANK_REFRESH_HOURS must be/],
    ['RANK_REFRESH_HOURS', 'daily', /^RANK_REFRESH_HOURS must be/],
    ['RANK_REFRESH_HOURS', '0.01', /^RANK_REFRESH_HOURS must be a number of hours from 0\.02 \(72 seconds\) to 168 \(a week\), got "0\.01"$/],
    ['RANK_REFRESH_HOURS', '169', /^RANK_REFRESH_HOURS must be a number of hours from 0\.02/],
    ['RANK_REFRESH_HOURS', '0', /^RANK_REFRESH_HOURS must be/],
    ['BACKUP_HOURS', 'daily', /^BACKUP_HOURS must be 0 \(off\) or a number of hours from 0\.01 to 8760, got "daily"$/],
    ['BACKUP_HOURS', '0.001', /^BACKUP_HOURS must be 0 \(off\)/],
    ['BACKUP_HOURS', '-24', /^BACKUP_HOURS must be/],
    ['BACKUP_HOURS', '9000', /^BACKUP_HOURS must be/],
    ['BACKUP_KEEP', '0', /^BACKUP_KEEP must be a whole number of archives from 1 to 10000, got "0"$/],
    ['BACKUP_KEEP', '2.5', /^BACKUP_KEEP must be/],
    ['BACKUP_KEEP', 'all', /^BACKUP_KEEP must be/],
    ['LOG_LEVEL', 'loud', /^LOG_LEVEL must be/],
    ['RATE_LIMITS', 'maybe', /^RATE_LIMITS must be/],
    ['ADMIN_2FA', 'always', /^ADMIN_2FA must be "optional" or "required", got "always"$/],
    ['JWT_SECRET', 'short', /^JWT_SECRET must be/],
    ['TRUSTED_PROXY', 'true', /^TRUSTED_PROXY must be/],
    ['TRUSTED_PROXY', 'proxy.local', /^TRUSTED_PROXY must be/],
    ['TRUSTED_PROXY', '10.0.0.0/33', /^TRUSTED_PROXY must be/],
    ['TRUSTED_PROXY', 'loopback,', /^TRUSTED_PROXY must be/],
    ['TRUSTED_PROXY', '-1', /^TRUSTED_PROXY must be/],
    ['PUBLIC_URL', 'paper.example.org', /^PUBLIC_URL must be/],
    ['PUBLIC_URL', 'ftp://paper.example.org', /^PUBLIC_URL must be/],
    ['PUBLIC_URL', 'https://paper.example.org/beatnik', /^PUBLIC_URL must be/],
    ['PUBLIC_URL', 'https://user:pw@paper.example.org', /^PUBLIC_URL must be/],
    ['DATABASE_URL', 'mysql://beatnik:hunter2@db/beatnik', /^DATABASE_URL must be a PostgreSQL URL such as postgres:\/\/user:password@host:5432\/beatnik$/],
    ['DATABASE_URL', 'postgres://beatnik:hunter2@db', /^DATABASE_URL must be a PostgreSQL URL/],
    ['DATABASE_URL', 'beatnik.db', /^DATABASE_URL must be a PostgreSQL URL/],
    ['DATABASE_URL', 'postgres:///beatnik', /^DATABASE_URL must be a PostgreSQL URL/],
    // A password pasted as is (openssl rand -base64 makes / and +): the line says what to change,
    // and never echoes the password.
    ['DATABASE_URL', 'postgres://beatnik:Zm9v/YmFy@db:5432/beatnik', /^DATABASE_URL has a "\/" in its user or password: write it percent-encoded, as %2F$/],
    ['DATABASE_URL', 'postgres://beatnik:pass#word@db:5432/beatnik', /^DATABASE_URL has a "#" in its user or password: write it percent-encoded, as %23$/],
    ['DATABASE_URL', 'postgres://beatnik:what?@db:5432/beatnik', /^DATABASE_URL has a "\?" in its user or password: write it percent-encoded, as %3F$/],
    ['DATABASE_URL', 'postgres://beatnik:100%sure@db:5432/beatnik', /^DATABASE_URL has a "%" that is not percent-encoding in its user or password: write it percent-encoded, as %25$/],
  ];
  for (const [name, value, message] of bad) {
    test(`${name}=${value} stops start-up with a one-line error naming it`, () => {
      assert.throws(() => loadConfig({ [name]: value }), (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, message);
        assert.ok(!err.message.includes('\n'));
        return true;
      });
    });
  }

  test('DATABASE_URL: unset is the SQLite file; a TCP or Unix-socket PostgreSQL URL is kept as given', () => {
    assert.equal(loadConfig({}).databaseUrl, null);
    assert.equal(loadConfig({ DATABASE_URL: '  ' }).databaseUrl, null);
    for (const url of ['postgres://beatnik:s3cret@db.example.org:5432/beatnik', 'postgresql://db/beatnik',
      'postgres:///beatnik?host=/run/postgresql', 'postgres://beatnik:a%2Fb%25c@db/beatnik', 'postgres://beatnik:a+b@c:d@db/beatnik']) {
      assert.equal(loadConfig({ DATABASE_URL: url }).databaseUrl, url);
    }
  });

  const S3 = {
    S3_ENDPOINT: 'http://minio:9000/', S3_BUCKET: 'paper-images', S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret',
  };

  test('the four S3 variables put images in a bucket; region and path style have defaults', () => {
    const config = loadConfig(S3);
    assert.deepEqual(config.s3, {
      endpoint: 'http://minio:9000', bucket: 'paper-images', accessKeyId: 'key', secretAccessKey: 'secret',
      region: 'us-east-1', forcePathStyle: true,
    });
    assert.ok(Object.isFrozen(config.s3));
    const aws = loadConfig({ ...S3, S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com', S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: 'false' });
    assert.deepEqual([aws.s3?.endpoint, aws.s3?.region, aws.s3?.forcePathStyle], ['https://s3.eu-west-1.amazonaws.com', 'eu-west-1', false]);
  });

  const halfS3: Array<[string, Record<string, string>, string]> = [
    ['no secret', { ...S3, S3_SECRET_ACCESS_KEY: '' }, 'S3_SECRET_ACCESS_KEY'],
    ['only an endpoint and bucket', { S3_ENDPOINT: S3.S3_ENDPOINT, S3_BUCKET: 'b' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'],
    ['only a region', { S3_REGION: 'eu-west-1' }, 'S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY'],
  ];
  for (const [label, env, missing] of halfS3) {
    test(`S3 half configured (${label}): one line naming what is missing`, () => {
      assert.throws(() => loadConfig(env), (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.message, `S3 storage is half configured: set ${missing} too (or unset every S3_ variable to keep images in DATA_DIR/uploads)`);
        return true;
      });
    });
  }

  for (const [name, value, message] of [
    ['S3_ENDPOINT', 'minio:9000', /^S3_ENDPOINT must be an http\(s\) URL/],
    ['S3_ENDPOINT', 'http://user:pw@minio:9000', /^S3_ENDPOINT must be an http\(s\) URL/],
    ['S3_FORCE_PATH_STYLE', 'sometimes', /^S3_FORCE_PATH_STYLE must be "true" or "false", got "sometimes"$/],
  ] as const) {
    test(`${name}=${value} stops start-up with a one-line error naming it`, () => {
      assert.throws(() => loadConfig({ ...S3, [name]: value }), (err: unknown) => err instanceof ConfigError && message.test(err.message));
    });
  }

  test('with S3 configured the data directory gets no uploads folder', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-config-'));
    try {
      prepareDataDir(loadConfig(S3, { dataDir: dir }));
      assert.ok(existsSync(path.join(dir, 'jwt-secret')));
      assert.ok(!existsSync(path.join(dir, 'uploads')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('RANK_REFRESH_HOURS takes both ends of its range', () => {
    assert.equal(loadConfig({ RANK_REFRESH_HOURS: '0.02' }).rankRefreshHours, 0.02);
    assert.equal(loadConfig({ RANK_REFRESH_HOURS: '168' }).rankRefreshHours, 168);
  });

  test('backups: daily on SQLite, off on PostgreSQL, into DATA_DIR/backups, seven kept', () => {
    assert.deepEqual(loadConfig({ DATA_DIR: '/srv/beatnik' }).backup, { hours: 24, dir: '/srv/beatnik/backups', keep: 7 });
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@db/beatnik' }).backup.hours, 0);
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u:p@db/beatnik', BACKUP_HOURS: '6' }).backup.hours, 6);
    assert.deepEqual(loadConfig({ BACKUP_HOURS: '0', BACKUP_DIR: '/mnt/backups', BACKUP_KEEP: '30' }).backup,
      { hours: 0, dir: '/mnt/backups', keep: 30 });
    assert.equal(loadConfig({ BACKUP_HOURS: '0.01' }).backup.hours, 0.01);
  });

  test('durations', () => {
    assert.equal(parseDuration('X', '90'), 90);
    assert.equal(parseDuration('X', '15m'), 900);
    assert.equal(parseDuration('X', '2d'), 172800);
  });

  test('a generated secret is kept in the data directory with mode 0600 and reused', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-config-'));
    try {
      const first = prepareDataDir(loadConfig({}, { dataDir: dir }));
      const file = path.join(dir, 'jwt-secret');
      assert.ok(first.jwtSecret.length >= 32);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(readFileSync(file, 'utf8').trim(), first.jwtSecret);
      assert.ok(existsSync(path.join(dir, 'uploads')));
      const second = prepareDataDir(loadConfig({}, { dataDir: dir }));
      assert.equal(second.jwtSecret, first.jwtSecret);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a data directory that cannot be written stops start-up with one line naming it', () => {
    // Under a regular file: unwritable even for root, where permission bits do not stop writes.
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-config-'));
    try {
      writeFileSync(path.join(dir, 'file'), '');
      const dataDir = path.join(dir, 'file', 'data');
      assert.throws(() => prepareDataDir(loadConfig({}, { dataDir })), (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.message, `Data directory ${dataDir} is not writable (set DATA_DIR)`);
        return true;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a configured JWT_SECRET is used and nothing is written', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-config-'));
    try {
      const config = prepareDataDir(loadConfig({ JWT_SECRET: 's'.repeat(32) }, { dataDir: dir }));
      assert.equal(config.jwtSecret, 's'.repeat(32));
      assert.ok(!existsSync(path.join(dir, 'jwt-secret')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('mail (DESIGN.md, Mail)', () => {
    test('SMTP_URL turns it on; MAIL_FROM defaults to an address on PUBLIC_URL\'s host', () => {
      const mail = loadConfig({ SMTP_URL: 'smtp://u:p@mail.example.org:587', PUBLIC_URL: 'https://paper.example.org' }).mail;
      // The default's name is the site's own when sent (mail.transport.ts): fromIsDefault says so.
      assert.deepEqual(mail, { smtpUrl: 'smtp://u:p@mail.example.org:587', from: 'Beatnik <noreply@paper.example.org>', fromIsDefault: true, verifyAddresses: true });
      const named = loadConfig({ SMTP_URL: 'smtps://mail.example.org', MAIL_FROM: 'The Paper <news@example.org>' }).mail;
      assert.deepEqual([named?.from, named?.fromIsDefault], ['The Paper <news@example.org>', false]);
    });

    test('EMAIL_VERIFICATION is on unless set off', () => {
      assert.equal(loadConfig({ SMTP_URL: 'smtp://h', EMAIL_VERIFICATION: 'off' }).mail?.verifyAddresses, false);
      assert.equal(loadConfig({ SMTP_URL: 'smtp://h', EMAIL_VERIFICATION: 'ON' }).mail?.verifyAddresses, true);
    });

    test('DKIM takes all three settings and a readable key', () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'beatnik-dkim-'));
      try {
        const keyFile = path.join(dir, 'dkim.pem');
        writeFileSync(keyFile, '-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n');
        const mail = loadConfig({ SMTP_URL: 'smtp://h', DKIM_DOMAIN: 'example.org', DKIM_SELECTOR: 'beatnik', DKIM_PRIVATE_KEY_FILE: keyFile }).mail;
        assert.deepEqual(mail?.dkim, { domainName: 'example.org', keySelector: 'beatnik', privateKey: readFileSync(keyFile, 'utf8') });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    for (const [env, message] of [
      [{ SMTP_URL: 'mail.example.org:587' }, 'SMTP_URL must start with smtp:// or smtps://, got "mail.example.org:"'],
      [{ SMTP_URL: 'http://mail.example.org' }, 'SMTP_URL must start with smtp:// or smtps://, got "http:"'],
      [{ SMTP_URL: 'smtp://h', MAIL_FROM: 'The Paper' }, 'MAIL_FROM must be an address, or a name and <address>, such as Beatnik <news@example.org>, got "The Paper"'],
      [{ SMTP_URL: 'smtp://h', EMAIL_VERIFICATION: 'maybe' }, 'EMAIL_VERIFICATION must be on or off, got "maybe"'],
      [{ SMTP_URL: 'smtp://h', DKIM_DOMAIN: 'example.org' }, 'DKIM needs all three of DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE'],
      [{ SMTP_URL: 'smtp://h', DKIM_DOMAIN: 'e.org', DKIM_SELECTOR: 's', DKIM_PRIVATE_KEY_FILE: '/nonexistent/key.pem' }, 'DKIM_PRIVATE_KEY_FILE /nonexistent/key.pem cannot be read'],
    ] as const) {
      test(`refuses ${JSON.stringify(env)} in one line`, () => {
        assert.throws(() => loadConfig(env), (err: unknown) => {
          assert.ok(err instanceof ConfigError);
          assert.equal(err.message, message);
          return true;
        });
      });
    }
  });
});

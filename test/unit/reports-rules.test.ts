// The pure rules of reports and the moderation log: the reasons and the note's limit both sides
// check, what a reporter is told, and which page of /moderation an address asks for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { moderationHref, moderationPageOf } from '../../client/components/moderation/moderationQuery.ts';
import { isReportReason, REPORT_REASONS, reportNoteProblem } from '../../shared/reports.ts';
import { reportClosedNotice } from '../../server/reports/reports.notices.ts';

describe('report reasons and notes', () => {
  it('takes the four reasons exactly, nothing else', () => {
    assert.deepEqual([...REPORT_REASONS], ['spam', 'harassment', 'off-topic', 'other']);
    for (const reason of REPORT_REASONS) assert.ok(isReportReason(reason));
    for (const other of ['Spam', 'offtopic', '', ' spam', undefined, 1, null]) assert.equal(isReportReason(other), false, String(other));
  });

  it('a note may hold 500 characters as the server counts them (cleaned, line endings as one)', () => {
    assert.equal(reportNoteProblem('x'.repeat(500)), undefined);
    assert.equal(reportNoteProblem(`${'x'.repeat(499)}\r\n`), undefined, 'trimmed');
    assert.equal(reportNoteProblem(`${'x'.repeat(498)}\r\ny`), undefined);
    assert.equal(reportNoteProblem(`${'x'.repeat(500)}\u200B`), undefined, 'invisible characters are not counted');
    assert.equal(reportNoteProblem('x'.repeat(501)), 'The note cannot exceed 500 characters');
  });
});

describe('what a reporter is told', () => {
  it('says what became of the article or the comment', () => {
    assert.deepEqual(reportClosedNotice('dismissed', 'post', 'Howl'), {
      subject: 'Your report was reviewed',
      message: 'An administrator reviewed your report of the article "Howl" and found nothing against the rules. It stays up.',
    });
    assert.deepEqual(reportClosedNotice('deleted', 'comment', 'Howl'), {
      subject: 'Your report was acted on',
      message: 'An administrator removed a comment on "Howl", which you reported. Thank you for telling us.',
    });
    assert.equal(reportClosedNotice('banned', 'post', null).message,
      'An administrator suspended the author of an article, which you reported. Thank you for telling us.');
  });
});

describe("/moderation's page in the address", () => {
  const cases: Array<[string, number]> = [
    ['', 1], ['?page=2', 2], ['page=3', 3], ['?page=1', 1], ['?page=0', 1], ['?page=-2', 1], ['?page=2.5', 1],
    ['?page=abc', 1], ['?page=%202%20', 2], ['?x=1&page=4', 4], ['?page=9999999', 1], ['?page=100000', 100_000],
  ];
  for (const [search, page] of cases) it(`${JSON.stringify(search)} → page ${page}`, () => assert.equal(moderationPageOf(search), page));

  it('writes the first page without a number, the others with theirs', () => {
    assert.equal(moderationHref(1), '/moderation');
    assert.equal(moderationHref(2), '/moderation?page=2');
    assert.equal(moderationPageOf(moderationHref(7).slice('/moderation'.length)), 7);
  });
});

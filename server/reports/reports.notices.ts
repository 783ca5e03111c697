// What a reader is told when their report is resolved (a 'report_closed' notification).
import type { ReportResolution, ReportTargetType } from '../schema.ts';

export type NoticeResolution = Exclude<ReportResolution, 'removed'>;

export function reportClosedNotice(resolution: NoticeResolution, type: ReportTargetType, title: string | null):
  { subject: string; message: string } {
  // Quoted as the other notifications quote a title.
  const what = type === 'post'
    ? (title === null ? 'an article' : `the article "${title}"`)
    : (title === null ? 'a comment' : `a comment on "${title}"`);
  switch (resolution) {
    case 'dismissed':
      return {
        subject: 'Your report was reviewed',
        message: `An administrator reviewed your report of ${what} and found nothing against the rules. It stays up.`,
      };
    case 'deleted':
      return {
        subject: 'Your report was acted on',
        message: `An administrator removed ${what}, which you reported. Thank you for telling us.`,
      };
    case 'banned':
      return {
        subject: 'Your report was acted on',
        message: `An administrator suspended the author of ${what}, which you reported. Thank you for telling us.`,
      };
  }
}

// Reports (DESIGN.md, Reports): the reasons a reader may give, the note's limit and the messages,
// checked by the report dialog before sending and by the server again before storing.
import { textLength } from './text.ts';

export const REPORT_REASONS = ['spam', 'harassment', 'off-topic', 'other'] as const;
export type ReportReasonName = (typeof REPORT_REASONS)[number];

export const REPORT_REASON_LABELS: Record<ReportReasonName, string> = {
  spam: 'Spam', harassment: 'Harassment', 'off-topic': 'Off-topic', other: 'Other',
};

export const REPORT_NOTE_MAX = 500;
export const REPORT_NOTE_LENGTH_MESSAGE = 'The note cannot exceed 500 characters';
export const REPORT_REASON_MESSAGE = 'Please choose a reason: spam, harassment, off-topic or other';
export const ALREADY_REPORTED = 'You have already reported this';
export const OWN_CONTENT_REPORT = 'You cannot report your own content';
export const REPORT_SIGN_IN = 'You must sign in to report content';

export function isReportReason(value: unknown): value is ReportReasonName {
  return typeof value === 'string' && (REPORT_REASONS as readonly string[]).includes(value);
}

/** What is wrong with a report's note, or undefined. */
export function reportNoteProblem(raw: string): string | undefined {
  return textLength(raw) > REPORT_NOTE_MAX ? REPORT_NOTE_LENGTH_MESSAGE : undefined;
}

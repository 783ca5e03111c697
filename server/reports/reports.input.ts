// A report's body (DESIGN.md, Reports), turned into typed values or the 400 that says what is wrong.
import {
  isReportReason, REPORT_REASON_MESSAGE, reportNoteProblem, type ReportReasonName,
} from '../../shared/reports.ts';
import { badRequest, badRequestIf, notFound } from '../errors.ts';
import type { Body } from '../http.ts';
import { lineText, multilineText } from '../http.ts';
import type { ReportTargetType } from '../schema.ts';
import type { Target } from './reports.repo.ts';

export const TARGET_TYPES: readonly ReportTargetType[] = ['post', 'comment'];

export interface ReportInput {
  target: Target;
  reason: ReportReasonName;
  note: string;
}

function targetTypeOf(value: string | undefined): ReportTargetType | undefined {
  return TARGET_TYPES.find((type) => type === value);
}

/** A positive integer sent as a JSON number or as digits. */
function positiveId(value: unknown): number | undefined {
  const id = typeof value === 'number' ? value
    : typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(id) && id >= 1 ? id : undefined;
}

export function parseReport(body: Body): ReportInput {
  const type = targetTypeOf(lineText(body, 'target_type'));
  if (!type) throw badRequest("target_type must be 'post' or 'comment'");
  const id = positiveId(body.target_id);
  if (id === undefined) throw badRequest('target_id must be a positive integer');
  const reason = lineText(body, 'reason');
  if (!isReportReason(reason)) throw badRequest(REPORT_REASON_MESSAGE);
  if (body.note !== undefined && body.note !== null && typeof body.note !== 'string') throw badRequest('note must be text');
  const note = multilineText(body, 'note') ?? '';
  badRequestIf(reportNoteProblem(note));
  return { target: { type, id }, reason, note };
}

/** The target of an admin's path (/api/admin/reports/:target_type/:target_id/…): anything else names nothing. */
export function targetOfPath(type: string | undefined, id: string | undefined, detail: string): Target {
  const targetType = targetTypeOf(type);
  const targetId = typeof id === 'string' && /^[1-9]\d{0,15}$/.test(id) ? Number(id) : NaN;
  if (!targetType || !Number.isSafeInteger(targetId)) throw notFound(detail);
  return { type: targetType, id: targetId };
}

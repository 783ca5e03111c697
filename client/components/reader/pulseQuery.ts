// The Pulse's filters as they live in the URL (/ranks?hashtag=&time_period=&criteria=), so a
// ranking can be shared and reloaded. criteria is written only when it is not the default ranking.
import type { RankCriteria as Criteria, TimePeriod } from '../../types.ts';

export interface PulseFilters {
  hashtag: string;
  time_period: TimePeriod;
  criteria: Criteria;
}

export const CRITERIA_OPTIONS: Array<{ value: Criteria; label: string }> = [
  { value: 'ranking', label: 'Higher ranking' },
  { value: 'visits', label: 'Most visited' },
];

export const TIME_OPTIONS: Array<{ value: TimePeriod; label: string }> = [
  { value: '', label: 'All time' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
];

const TIMES = new Set<string>(['24h', '7d', '30d']);

export function parsePulseQuery(search: string): PulseFilters {
  const params = new URLSearchParams(search);
  const time = params.get('time_period') ?? '';
  return {
    hashtag: (params.get('hashtag') ?? '').trim().replace(/^#+/, ''),
    time_period: (TIMES.has(time) ? time : '') as TimePeriod,
    criteria: params.get('criteria') === 'visits' ? 'visits' : 'ranking',
  };
}

/** '?hashtag=jazz&criteria=visits', or '' when every filter is at its default. */
export function pulseSearch(filters: PulseFilters): string {
  const params = new URLSearchParams();
  if (filters.hashtag) params.set('hashtag', filters.hashtag);
  if (filters.time_period) params.set('time_period', filters.time_period);
  if (filters.criteria !== 'ranking') params.set('criteria', filters.criteria);
  const text = params.toString();
  return text ? `?${text}` : '';
}

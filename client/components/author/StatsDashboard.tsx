// The four totals over my non-archived articles.
import { oneDecimal } from '../../format.ts';
import type { AuthorStats } from './authorStats.ts';

export function StatsDashboard({ stats }: { stats: AuthorStats | null }) {
  const items: Array<[string, string]> = [
    ['Total visits', stats ? String(stats.visits) : '—'],
    ['Average rating', stats ? oneDecimal(stats.averageRating) : '—'],
    ['Comments received', stats ? String(stats.comments) : '—'],
    ['Ratings received', stats ? String(stats.ratings) : '—'],
  ];
  return (
    <section className="stats-dashboard" aria-labelledby="stats-title">
      <h2 id="stats-title" className="author-title">Your numbers</h2>
      <dl className="stats-dashboard__grid">
        {items.map(([label, value]) => (
          <div key={label} className="stats-dashboard__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="stats-dashboard__note">Over your active (non-archived) articles.</p>
    </section>
  );
}

// The four totals over my non-archived articles, as GET /api/users/me/stats counts them.
import { oneDecimal } from '../../format.ts';
import type { MyStats } from '../../types.ts';

export function StatsDashboard({ stats }: { stats: MyStats | null }) {
  const items: Array<[string, string]> = [
    ['Total visits', stats ? String(stats.total_visits) : '—'],
    ['Average rating', stats ? oneDecimal(stats.average_rating) : '—'],
    ['Comments received', stats ? String(stats.comments_received) : '—'],
    ['Ratings received', stats ? String(stats.ratings_received) : '—'],
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

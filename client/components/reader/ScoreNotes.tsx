// The article's numbers explained (DESIGN.md, Transparency): its ratings star by star, and its
// place on The Pulse with what the score is made of (docs/ranking.md).
import { Link } from 'wouter';
import { TimeAgo } from '../TimeAgo.tsx';
import type { PostRank } from '../../types.ts';

/** Five bars, 5★ on top; each line's text ('5★ 12') is what a screen reader reads. */
export function RatingHistogram({ histogram }: { histogram: number[] }) {
  const most = Math.max(1, ...histogram);
  return (
    <figure className="histogram">
      <figcaption className="histogram__title">Ratings, star by star</figcaption>
      <ul className="histogram__bars">
        {[5, 4, 3, 2, 1].map((stars) => {
          const n = histogram[stars - 1] ?? 0;
          return (
            <li key={stars} className="histogram__row">
              <span className="histogram__label">{stars}★ {n}</span>
              <span className="histogram__track" aria-hidden="true">
                <span className="histogram__bar" style={{ width: `${(n / most) * 100}%` }} />
              </span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

const twoDecimals = (n: number) => n.toFixed(2);

/** 'Ranked #N on The Pulse' and the score's split, as the last refresh computed it. */
export function RankNote({ rank }: { rank: PostRank }) {
  return (
    <section className="rank-note" aria-label="Ranking">
      <p className="rank-note__title">Ranked #{rank.position} on <Link href="/ranks">The Pulse</Link></p>
      <p className="rank-note__split">
        Score {twoDecimals(rank.score)} = (1 + visits {twoDecimals(rank.parts.visits)} + ratings {twoDecimals(rank.parts.ratings)}
        {' '}+ comments {twoDecimals(rank.parts.comments)}) × decay {twoDecimals(rank.decay)}
        {' '}(age {Math.round(rank.age_hours)} h). Refreshed <TimeAgo iso={rank.refreshed_at} />.
      </p>
    </section>
  );
}

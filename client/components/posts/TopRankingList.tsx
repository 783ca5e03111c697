// The Top Ranking side list (Home and Article): three numbered stories with 90-character teasers.
import { Link } from 'wouter';
import { postExcerpt } from '../../format.ts';
import type { Post } from '../../types.ts';
import { EXCERPT, TOP_RANKING_COUNT } from './frontpage.ts';
import { authorHref, postHref } from './PostBits.tsx';

export function TopRankingList({ posts, className = '' }: { posts: Post[]; className?: string }) {
  const shown = posts.slice(0, TOP_RANKING_COUNT);
  return (
    <aside className={`top-ranking ${className}`.trim()} aria-labelledby="top-ranking-title">
      <h2 id="top-ranking-title" className="section-title">Top Ranking</h2>
      {shown.length === 0 ? <p className="quiet">No ranked articles yet.</p> : (
        <ol className="top-ranking__list">
          {shown.map((post, index) => (
            <li key={post.id} className="top-ranking__item">
              <span className="top-ranking__number" aria-hidden="true">{index + 1}</span>
              <div>
                <h3 className="top-ranking__title"><Link href={postHref(post)}>{post.title}</Link></h3>
                <p className="top-ranking__excerpt">{postExcerpt(post, EXCERPT.topRanking)}</p>
                <p className="byline">By <Link href={authorHref(post.author_username)}>{post.author_username}</Link></p>
              </div>
            </li>
          ))}
        </ol>
      )}
    </aside>
  );
}

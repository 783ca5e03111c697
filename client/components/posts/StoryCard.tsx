// A story on Home and in Recent Posts: picture, kicker, headline, 120-character teaser,
// two hashtags, byline and numbers.
import { Link } from 'wouter';
import { postExcerpt } from '../../format.ts';
import type { Post } from '../../types.ts';
import { EXCERPT } from './frontpage.ts';
import { Byline, HashtagLinks, PostImage, PostStats, kickerOf, postHref } from './PostBits.tsx';

export function StoryCard({ post }: { post: Post }) {
  return (
    <article className="story">
      <Link href={postHref(post)} tabIndex={-1} aria-hidden="true"><PostImage post={post} className="story__image" /></Link>
      <p className="kicker">{kickerOf(post)}</p>
      <h3 className="story__title"><Link href={postHref(post)}>{post.title}</Link></h3>
      <p className="story__excerpt">{postExcerpt(post, EXCERPT.card)}</p>
      <Byline post={post} />
      <HashtagLinks tags={post.hashtags} max={2} />
      <PostStats post={post} />
    </article>
  );
}

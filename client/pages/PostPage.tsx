// /post/{id} (SPEC §2, Article): the article, its comments, rating and follow. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function PostPage({ id }: { id: string }) {
  return (
    <article className="page" data-post-id={id}>
      <PageHeading title="Article" />
    </article>
  );
}

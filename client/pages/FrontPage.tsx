// / (SPEC §2, Home): hero, Top Ranking, Top Rated and Recent Posts. To be built; heading only for now.
import { PageHeading } from '../components/PageHeading.tsx';

export function FrontPage() {
  return (
    <article className="page">
      <PageHeading title="FrontPage" />
    </article>
  );
}

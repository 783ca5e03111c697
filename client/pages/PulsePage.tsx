// /ranks (SPEC §2, The Pulse): ranked articles with hashtag, period and criteria filters. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function PulsePage() {
  return (
    <article className="page">
      <PageHeading title="The Pulse" />
    </article>
  );
}

// /authors (SPEC §2, Voices): the authors directory with search and sort. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function VoicesPage() {
  return (
    <article className="page">
      <PageHeading title="Voices" />
    </article>
  );
}

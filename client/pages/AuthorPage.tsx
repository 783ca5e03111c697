// /beatnik/{username} (SPEC §2, Public profile): an author's profile and articles. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function AuthorPage({ username }: { username: string }) {
  return (
    <article className="page">
      <PageHeading title={username} kicker="Voices" />
    </article>
  );
}

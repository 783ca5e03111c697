// /profile (SPEC §2, My profile): the signed-in user's stats and articles. Signed-in only. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function ProfilePage() {
  return (
    <article className="page">
      <PageHeading title="My profile" />
    </article>
  );
}

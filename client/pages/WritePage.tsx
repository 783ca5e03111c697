// /write (SPEC §2, Editor): title, content, hashtags and a grayscale image. Signed-in only. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function WritePage() {
  return (
    <article className="page">
      <PageHeading title="Write" />
    </article>
  );
}

// Any path the route list does not know.
import { Link } from 'wouter';
import { PageHeading } from '../components/PageHeading.tsx';

export function NotFoundPage() {
  return (
    <article className="page page--notice">
      <PageHeading title="Page not found" kicker="Stop the presses" />
      <p>There is no page at this address.</p>
      <p><Link href="/">Back to the FrontPage</Link></p>
    </article>
  );
}

// /notifications (SPEC §2, Notifications): the signed-in user's notifications. To be built.
import { PageHeading } from '../components/PageHeading.tsx';

export function NotificationsPage() {
  return (
    <article className="page">
      <PageHeading title="Notifications" />
    </article>
  );
}

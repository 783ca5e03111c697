// Loading skeletons that look like grey blocks of type waiting for the press.
export function SkeletonLines({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton" aria-hidden="true">
      <span className="skeleton__bar skeleton__bar--title" />
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton__bar" style={{ width: i === lines - 1 ? '60%' : undefined }} />
      ))}
    </div>
  );
}

export function SkeletonStory({ lines = 3 }: { lines?: number }) {
  return (
    <div className="skeleton-story" aria-hidden="true">
      <span className="skeleton__image" />
      <SkeletonLines lines={lines} />
    </div>
  );
}

/** The status line screen readers hear while the skeletons show. */
export function LoadingNote({ label }: { label: string }) {
  return <p className="visually-hidden" role="status">{label}</p>;
}

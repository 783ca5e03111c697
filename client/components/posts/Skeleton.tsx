// Loading skeletons that look like grey blocks of type waiting for the press.
export function SkeletonLines({ lines = 3, title = true }: { lines?: number; title?: boolean }) {
  return (
    <div className="skeleton" aria-hidden="true">
      {title ? <span className="skeleton__bar skeleton__bar--title" /> : null}
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} className="skeleton__bar" style={{ width: i === lines - 1 ? '60%' : undefined }} />
      ))}
    </div>
  );
}

export function SkeletonStory({ image = true, lines = 3 }: { image?: boolean; lines?: number }) {
  return (
    <div className="skeleton-story" aria-hidden="true">
      {image ? <span className="skeleton__image" /> : null}
      <SkeletonLines lines={lines} />
    </div>
  );
}

/** The status line screen readers hear while the skeletons show. */
export function LoadingNote({ label }: { label: string }) {
  return <p className="visually-hidden" role="status">{label}</p>;
}

// Shown while something (the session, a page's data) is still being determined.
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="loading__rule" aria-hidden="true" />
      <span className="loading__label">{label}</span>
      <span className="loading__rule" aria-hidden="true" />
    </div>
  );
}

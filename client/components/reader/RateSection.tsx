// Rate an article 1 to 5 stars (SPEC §2 Article, §4 Rating). The stars are a radio group, so the
// keyboard can move between them; Submit sends the chosen rating.
import { useState } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { plural } from '../../format.ts';
import type { Post } from '../../types.ts';

const STARS = [1, 2, 3, 4, 5];

/** `onRated` gets the article as the server has it after the rating: its numbers and the reader's rating. */
export function RateSection({ post, onRated }: { post: Post; onRated(post: Post): void }) {
  const current = post.user_rating ?? 0;
  const [choice, setChoice] = useState(current);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (choice < 1) return;
    setBusy(true);
    try {
      onRated(await api.ratings.rate(post.id, choice));
      toastSuccess('Rating submitted!', 'Error submitting rating');
    } catch (error) {
      toastApiError(error, 'Error submitting rating');
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="rate" aria-labelledby="rate-title">
      <h2 id="rate-title" className="section-title">Rate this article</h2>
      <fieldset className="rate__stars">
        <legend className="visually-hidden">Your rating, 1 to 5 stars</legend>
        {STARS.map((n) => (
          <label key={n} className={n <= choice ? 'rate__star rate__star--on' : 'rate__star'}>
            <input type="radio" name="rating" value={n} checked={choice === n} onChange={() => setChoice(n)} className="visually-hidden" />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">{plural(n, 'star')}</span>
          </label>
        ))}
      </fieldset>
      <div className="rate__actions">
        <button type="button" className="button button--small button--primary" disabled={busy || choice < 1} onClick={() => void submit()}>
          Submit rating
        </button>
        <p className="rate__yours" aria-live="polite">
          {current > 0 ? `Your rating: ${current} of 5` : 'You have not rated this article yet.'}
        </p>
      </div>
    </section>
  );
}

// Follow / Unfollow an author (SPEC §2 Article and Public profile, §4 Follow).
import { useState } from 'react';
import toast from 'react-hot-toast';
import { api } from '../../api.ts';

export function FollowButton({ userId, username, following, onChange }: {
  userId: number;
  username: string;
  following: boolean;
  onChange(following: boolean): void;
}) {
  const [busy, setBusy] = useState(false);

  async function toggle() {
    setBusy(true);
    try {
      const result = following ? await api.follows.unfollow(userId) : await api.follows.follow(userId);
      toast.success(following ? `Unfollowed ${username}` : result.message);
      onChange(result.following);
    } catch {
      toast.error('Error following/unfollowing user');
    } finally {
      setBusy(false);
    }
  }

  return (
    <button type="button" className={following ? 'button button--small' : 'button button--small button--primary'}
      aria-pressed={following} disabled={busy} onClick={() => void toggle()}>
      {following ? 'Unfollow' : 'Follow'}
      <span className="visually-hidden"> {username}</span>
    </button>
  );
}

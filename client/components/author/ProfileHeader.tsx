// My profile's masthead: picture, name, mojo to one decimal by a star, the tiles (the followers'
// with those from the fediverse), bio, joined date and the Write, Edit and Settings buttons.
import { Link } from 'wouter';
import { remoteFollowersText } from '../../../shared/fediverse.ts';
import { monthYear, mojoRounded, oneDecimal, plural } from '../../format.ts';
import type { PrivateUser } from '../../types.ts';
import { Avatar } from '../Avatar.tsx';

export const BIO_PLACEHOLDER = 'No biography yet. Tell readers who you are from Edit profile.';

export function ProfileHeader({ user, onEdit, onShowList }: {
  user: PrivateUser;
  onEdit: () => void;
  onShowList: (kind: 'followers' | 'following') => void;
}) {
  const remoteFollowers = user.remote_followers_count ?? 0;
  return (
    <header className="profile-head">
      <div className="profile-head__id">
        <Avatar username={user.username} avatar={user.avatar} size={96} />
        <div>
          <h1 className="page-heading__kicker profile-head__kicker">My profile</h1>
          <h2 className="profile-head__name">{user.username}</h2>
          <p className="profile-head__mojo" aria-label={`Mojo ${oneDecimal(user.mojo)}`}>
            <span aria-hidden="true">★</span> {oneDecimal(user.mojo)}
          </p>
        </div>
        <div className="profile-head__buttons">
          <Link className="button button--primary" href="/write">Write</Link>
          <button type="button" className="button" onClick={onEdit}>Edit</button>
          <Link className="button" href="/settings">Settings</Link>
        </div>
      </div>
      <ul className="profile-tiles">
        <li className="profile-tile"><span className="profile-tile__value">{mojoRounded(user.mojo)}</span><span className="profile-tile__label">Mojo</span></li>
        <li className="profile-tile"><span className="profile-tile__value">{user.posts_count}</span><span className="profile-tile__label">Articles</span></li>
        <li className="profile-tile">
          <button type="button" className="profile-tile__button" onClick={() => onShowList('followers')}>
            <span className="profile-tile__value">{user.followers_count}</span><span className="profile-tile__label">Followers</span>
            {remoteFollowers > 0 ? <span className="profile-tile__remote">{remoteFollowersText(remoteFollowers)}</span> : null}
          </button>
        </li>
        <li className="profile-tile">
          <button type="button" className="profile-tile__button" onClick={() => onShowList('following')}>
            <span className="profile-tile__value">{user.following_count}</span><span className="profile-tile__label">Following</span>
          </button>
        </li>
      </ul>
      <p className={user.bio ? 'profile-head__bio' : 'profile-head__bio profile-head__bio--empty'}>{user.bio || BIO_PLACEHOLDER}</p>
      <p className="profile-head__joined">Joined {monthYear(user.created_at)} · {plural(user.posts_count, 'article')}</p>
    </header>
  );
}

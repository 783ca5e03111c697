// A user's picture, or their initial on a plain disc when they have none.
export function Avatar({ username, avatar, size = 32 }: { username: string; avatar: string | null; size?: number }) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.5) };
  if (avatar) {
    return <img className="avatar" src={avatar} alt={`${username}'s avatar`} width={size} height={size} style={style} />;
  }
  return (
    <span className="avatar avatar--placeholder" style={style} aria-hidden="true">
      {username.slice(0, 1).toUpperCase()}
    </span>
  );
}

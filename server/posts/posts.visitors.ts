// Who is reading an article, for visit de-duplication: asked by the API's article read and by
// the article page the server renders (server/pages/), which count visits alike.
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import type { AppContext } from '../context.ts';

/**
 * The user, or a salted hash of the client IP alone. Never the User-Agent: a script rotating it
 * would count as a crowd (DESIGN.md, Edges).
 */
export function visitorKey(ctx: AppContext, req: Request, userId: number | undefined): string {
  if (userId !== undefined) return userVisitor(userId);
  const hash = createHash('sha256').update(`${ctx.config.jwtSecret}|${req.ip ?? ''}`).digest('base64url');
  return `a:${hash.slice(0, 22)}`;
}

/** A signed-in reader, as the visit records know them. */
export function userVisitor(userId: number): string {
  return `u:${userId}`;
}

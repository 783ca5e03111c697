// Rendering a text as it is written: the site's origin from the configuration, the mentioned users
// from the database (one query by username_key, the lower-cased name a mention is matched by).
import type { AppContext } from '../context.ts';
import { usersByUsernameKeys } from '../users/users.service.ts';
import { renderMarkdown, type RenderedText } from './markdown.render.ts';

export type { RenderedText } from './markdown.render.ts';
export { mentionedNamesOf } from './markdown.render.ts';

export function renderText(ctx: Pick<AppContext, 'db' | 'config'>, source: string): Promise<RenderedText> {
  return renderMarkdown(source, {
    siteOrigin: ctx.config.publicUrl, // an origin already (config.ts)
    findUsers: (names) => usersByUsernameKeys(ctx.db, names),
  });
}

// My profile (SPEC §2): the result count line of the article search.
import { plural } from '../../format.ts';

/** The line under the search box. */
export function resultCountText(count: number, search: string): string {
  return search ? `${plural(count, 'article')} found for “${search}”` : plural(count, 'article');
}

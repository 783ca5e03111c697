// My profile (SPEC §2): the result count line of the article search.
import { plural } from '../../format.ts';

/** The line under the search box; `noun` is 'draft' in the drafts view. */
export function resultCountText(count: number, search: string, noun = 'article'): string {
  return search ? `${plural(count, noun)} found for “${search}”` : plural(count, noun);
}

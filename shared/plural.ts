// The one rule for counted words, on every screen and in every server message: 1 article,
// 0 articles, 2 people. SPEC's fixed texts ('User banned for N days') are written out literally.

/** The word alone, agreeing with the count: pluralNoun(1, 'visit') → 'visit'. */
export function pluralNoun(count: number, singular: string, pluralForm = `${singular}s`): string {
  return count === 1 ? singular : pluralForm;
}

/** The count and its word: plural(1, 'article') → '1 article', plural(2, 'person', 'people') → '2 people'. */
export function plural(count: number, singular: string, pluralForm?: string): string {
  return `${count} ${pluralNoun(count, singular, pluralForm)}`;
}

// Words and sentences for demo data: original text in the spirit of the beat poets, no quotes.

export const HASHTAGS = [
  'jazz', 'poetry', 'bebop', 'roadtrip', 'city', 'night', 'coffee', 'ink', 'vinyl', 'blues',
  'desert', 'highway', 'zen', 'haiku', 'typewriter', 'rain', 'harbor', 'neon', 'diner', 'trains',
  'letters', 'photography', 'bookshops', 'saxophone', 'dawn', 'insomnia', 'friendship', 'manifesto',
  'cinema', 'radio', 'mountains', 'ocean', 'streets', 'memory', 'travel', 'music', 'art', 'dreams',
  'politics', 'food', 'gardening', 'cycling', 'chess', 'history', 'science', 'books', 'winter',
  'summer', 'autumn', 'spring', 'small-press', 'zines', 'folk', 'drums', 'piano', 'bridges',
  'lighthouses', 'markets', 'rooftops', 'subway',
];

const ADJECTIVES = ['restless', 'electric', 'midnight', 'wandering', 'quiet', 'howling', 'golden', 'lonesome',
  'dharma', 'beatific', 'wild', 'gentle', 'burning', 'silver', 'hungry', 'holy', 'dusty', 'velvet', 'hollow', 'bright'];
const NOUNS = ['poet', 'drifter', 'scribe', 'hobo', 'angel', 'dreamer', 'reader', 'rider', 'saint', 'painter',
  'drummer', 'pilgrim', 'sailor', 'typist', 'owl', 'coyote', 'sparrow', 'prophet', 'hipster', 'voyager'];

const OPENINGS = ['Notes on', 'A long night of', 'Why I still believe in', 'The quiet art of', 'Letters about',
  'What the city taught me about', 'Three mornings of', 'Against the tyranny of', 'In praise of',
  'On the road with', 'A small manifesto for', 'Field notes on', 'Remembering', 'Learning to love'];
const SUBJECTS = ['cheap coffee and long talks', 'the last train home', 'broken typewriters', 'the neon diner',
  'saxophones at dawn', 'rain on the harbor', 'secondhand bookshops', 'highways without names',
  'the radio after midnight', 'friends who never sleep', 'an empty notebook', 'the desert in winter',
  'rooftop conversations', 'strangers on buses', 'the ocean in November', 'crooked bridges'];

const SENTENCES = [
  'We drove all night with the windows down and the radio whispering old songs.',
  'The city hummed like a tired engine, and every light was a small promise.',
  'Nobody in the diner asked where we were going, which was the kindest thing.',
  'I wrote on napkins because the notebook had run out somewhere near the border.',
  'The saxophone player closed his eyes and the whole room leaned toward him.',
  'There is a kind of freedom that only arrives at four in the morning.',
  'My friend talked about the stars as if they owed him money.',
  'Rain turned the streets into mirrors and we walked on our own reflections.',
  'Every used bookshop smells like a hundred lives folded into paper.',
  'The train was late, so we invented a new religion on the platform.',
  'She said poetry is just paying attention with your whole body.',
  'We shared one orange and three cigarettes and a plan to change everything.',
  'The typewriter jammed on the letter e, so I learned to live without it for a while.',
  'Out in the desert the silence was so loud it felt like music.',
  'Some nights the only honest thing you can do is keep moving.',
  'The harbor lights blinked in a code that only insomniacs understand.',
  'I have learned more from strangers on buses than from any lecture hall.',
  'The morning came in gray and gentle, like an apology.',
  'We argued about jazz until the waitress joined in and won.',
  'Memory is a road map drawn in pencil and folded too many times.',
  'A good friend is someone who hands you a coffee and asks nothing.',
  'The mountains did not care about our plans, and that was a relief.',
  'I keep a list of small miracles: a free refill, a green light, a letter from home.',
  'There is no map for the places that matter most.',
];

const BIOS = [
  'Writing my way across the country one diner at a time.',
  'Poet, night owl, collector of train tickets.',
  'I type on a machine older than my parents.',
  'Jazz, long walks, and the occasional manifesto.',
  'Photographer of empty streets and full hearts.',
  'Reading everything, finishing nothing, loving all of it.',
  'Somewhere between a road trip and a haiku.',
  '',
];

const COMMENTS = [
  'This took me right back to my own road trips.',
  'Beautiful. The last paragraph stayed with me all day.',
  'I disagree with half of this and loved every word.',
  'More of this, please.',
  'The line about the harbor lights is perfect.',
  'Read it twice. Going to read it again tonight.',
  'You made me want to buy a typewriter.',
  'Sharing this with everyone I know.',
  'Not sure about the ending, but what a ride.',
  'This is why I come here.',
];

export type Random = () => number;

export function pick<T>(rnd: Random, items: readonly T[]): T {
  return items[Math.floor(rnd() * items.length)]!;
}

export function username(rnd: Random, index: number): string {
  return `${pick(rnd, ADJECTIVES)}_${pick(rnd, NOUNS)}${index}`;
}

export function bio(rnd: Random): string {
  return pick(rnd, BIOS);
}

/** 20–80 characters, as the publishing rules demand. */
export function title(rnd: Random): string {
  const text = `${pick(rnd, OPENINGS)} ${pick(rnd, SUBJECTS)}`;
  return text.length < 20 ? `${text}, again and again` : text.slice(0, 80);
}

/** 150 to roughly 1,500 characters in a few paragraphs. */
export function content(rnd: Random): string {
  const paragraphs: string[] = [];
  const count = 1 + Math.floor(rnd() * 4);
  for (let p = 0; p < count; p += 1) {
    const sentences: string[] = [];
    for (let s = 0; s < 2 + Math.floor(rnd() * 4); s += 1) sentences.push(pick(rnd, SENTENCES));
    paragraphs.push(sentences.join(' '));
  }
  let text = paragraphs.join('\n\n');
  while (text.length < 150) text += ` ${pick(rnd, SENTENCES)}`;
  return text.slice(0, 10_000);
}

export function comment(rnd: Random): string {
  return pick(rnd, COMMENTS);
}

/** A seeded generator (mulberry32): the same --seed makes the same data. */
export function seededRandom(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

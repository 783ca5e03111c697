// Article factories: data made through the API, as an author would.
import { multipart, type TestServer, type TestUser } from '../helpers.ts';

let n = 0;

export function articleFields(overrides: Partial<{ title: string; content: string; hashtags: string[] }> = {}): Record<string, string> {
  n += 1;
  return {
    title: overrides.title ?? `A headline worth reading, number ${n}`,
    content: overrides.content ?? `Article ${n}. ${'The quick brown fox jumps over the lazy dog. '.repeat(5)}`,
    hashtags: JSON.stringify(overrides.hashtags ?? ['jazz']),
  };
}

export async function createPost(
  server: TestServer, author: TestUser,
  overrides: Partial<{ title: string; content: string; hashtags: string[] }> = {},
  image?: Buffer,
): Promise<any> {
  const body = multipart(articleFields(overrides), image ? { field: 'image', data: image } : undefined);
  const res = await server.api('POST', '/api/posts', { token: author.token, body });
  if (res.status !== 201) throw new Error(`create post: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

// API calls from a chosen loopback address: the tests run on one machine, yet some features must
// tell clients apart by IP. Linux routes all of 127.0.0.0/8 to loopback, so a client socket bound
// to 127.0.0.2 or 127.0.0.3 reaches the test server as a different client.
import http from 'node:http';
import type { ApiResponse, RequestOptions } from '../helpers.ts';

export function apiFrom<T = any>(
  localAddress: string, baseUrl: string, method: string, urlPath: string,
  options: Omit<RequestOptions, 'body'> = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
    // Without it Node sends a DELETE's body with neither a length nor chunks: the server reads none.
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(urlPath, baseUrl), { method, headers, localAddress }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (value !== undefined) responseHeaders.set(name, Array.isArray(value) ? value.join(', ') : value);
        }
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: (text ? parseJson(text) : undefined) as T });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

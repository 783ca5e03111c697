// Text the server writes into HTML: attribute and element text, and JSON inside a <script> element,
// where user text holding `</script>` or `<!--` must not end the element or change how it parses.

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

/**
 * JSON that is safe as a script element's text: `<`, `>` and `&` written as \u escapes, which
 * JSON.parse reads back as the same characters, plus the two line separators older parsers
 * choke on.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

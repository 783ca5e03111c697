// What a mail says, as both parts (DESIGN.md, Mail): a plain-text part that reads well on its own,
// and an HTML part in the newspaper's look: black on white, a serif masthead between rules, every
// style inline (mail clients drop style sheets), no image and nothing fetched from anywhere.
// Links are absolute, on PUBLIC_URL.
import { escapeMarkup } from '../markup.ts';

export interface MailContent {
  subject: string;
  /** The headline above the text. */
  heading: string;
  paragraphs: readonly string[];
  /** Lists under the text, each of linked lines with an optional quote: a notification mail's acts, a digest's articles. */
  sections?: readonly MailSection[];
  /** The one thing to do, as a button (and its address in the text part). */
  action?: { label: string; url: string };
  /** Small print under the rule: why this mail came, how to stop it. */
  footer?: readonly string[];
}

export interface MailSection {
  title?: string;
  entries: readonly MailEntry[];
}

export interface MailEntry {
  text: string;
  url: string;
  quote?: string;
}

export interface ComposedMail {
  subject: string;
  text: string;
  html: string;
}

/** Whose mail it is: the site's address (PUBLIC_URL) and the name its admin gave it. */
export interface MailSite {
  url: string;
  name: string;
}

const SERIF = "Georgia, 'Times New Roman', Times, serif";

export function composeMail(site: MailSite, content: MailContent): ComposedMail {
  return { subject: content.subject, text: textPart(site, content), html: htmlPart(site, content) };
}

function textPart({ url: publicUrl, name }: MailSite, { heading, paragraphs, sections = [], action, footer = [] }: MailContent): string {
  const rule = '-'.repeat(60);
  return [
    name.toUpperCase(),
    rule,
    '',
    heading,
    '',
    ...paragraphs.flatMap((p) => [p, '']),
    ...sections.flatMap(({ title, entries }) => [
      ...(title ? [title.toUpperCase(), ''] : []),
      ...entries.flatMap((e) => [`* ${e.text}`, ...(e.quote ? [`  "${e.quote}"`] : []), `  ${e.url}`, '']),
    ]),
    ...(action ? [`${action.label}:`, action.url, ''] : []),
    rule,
    ...footer,
    `${name}: ${publicUrl}/`,
    '',
  ].join('\n');
}

/** The text escaped, its addresses on PUBLIC_URL (settings, unsubscribe) made links. */
function linked(text: string): string {
  return text.split(/(https?:\/\/\S+)/).map((part, i) => (i % 2 === 1
    ? `<a href="${escapeMarkup(part)}" style="color:#444444;">${escapeMarkup(part)}</a>`
    : escapeMarkup(part))).join('');
}

function htmlPart({ url: publicUrl, name }: MailSite, { subject, heading, paragraphs, sections = [], action, footer = [] }: MailContent): string {
  const paragraph = (text: string) =>
    `<p style="margin:0 0 16px;font-family:${SERIF};font-size:17px;line-height:1.55;color:#111111;">${escapeMarkup(text)}</p>`;
  const button = action
    ? `<p style="margin:24px 0;"><a href="${escapeMarkup(action.url)}" style="display:inline-block;padding:12px 22px;border:2px solid #111111;background:#111111;color:#ffffff;font-family:${SERIF};font-size:16px;font-weight:bold;text-decoration:none;">${escapeMarkup(action.label)}</a></p>`
      + `<p style="margin:0 0 16px;font-family:${SERIF};font-size:13px;line-height:1.5;color:#444444;">Or open this address: <a href="${escapeMarkup(action.url)}" style="color:#111111;">${escapeMarkup(action.url)}</a></p>`
    : '';
  const entry = ({ text, url, quote }: MailEntry) =>
    `<p style="margin:0 0 14px;padding:0 0 14px;border-bottom:1px solid #cccccc;font-family:${SERIF};font-size:16px;line-height:1.5;color:#111111;"><a href="${escapeMarkup(url)}" style="color:#111111;font-weight:bold;">${escapeMarkup(text)}</a>`
    + (quote ? `<br><span style="font-style:italic;color:#444444;">“${escapeMarkup(quote)}”</span>` : '') + '</p>';
  const section = ({ title, entries }: MailSection) => (title
    ? `<h2 style="margin:24px 0 12px;padding:0 0 6px;border-bottom:2px solid #111111;font-family:${SERIF};font-size:15px;letter-spacing:2px;text-transform:uppercase;color:#111111;">${escapeMarkup(title)}</h2>`
    : '') + entries.map(entry).join('\n');
  const small = (text: string) => `<p style="margin:0 0 8px;font-family:${SERIF};font-size:13px;line-height:1.5;color:#444444;">${linked(text)}</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeMarkup(subject)}</title>
</head>
<body style="margin:0;padding:0;background:#ffffff;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#ffffff;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;">
<tr><td style="border-top:4px double #111111;border-bottom:1px solid #111111;padding:12px 0;text-align:center;">
<a href="${escapeMarkup(publicUrl)}/" style="font-family:${SERIF};font-size:34px;font-weight:bold;letter-spacing:2px;color:#111111;text-decoration:none;">${escapeMarkup(name)}</a>
</td></tr>
<tr><td style="padding:28px 0 8px;">
<h1 style="margin:0 0 20px;font-family:${SERIF};font-size:26px;line-height:1.25;color:#111111;">${escapeMarkup(heading)}</h1>
${paragraphs.map(paragraph).join('\n')}
${sections.map(section).join('\n')}
${button}
</td></tr>
<tr><td style="border-top:1px solid #111111;padding:16px 0 0;">
${[...footer.map(small), small(`${name}: ${publicUrl}/`)].join('\n')}
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

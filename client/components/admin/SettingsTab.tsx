// Admin, Settings tab (DESIGN.md, Running a community): the paper's name, tagline, description,
// contact address and who may register, saved together; and its four pages in Markdown (About,
// Rules, Privacy Policy, Terms of Service), each saved on its own, an emptied one taken down. A
// save shows at once in the masthead, the footer and the tab's title (state/site.ts).
import { useEffect, useRef, useState, type FormEvent } from 'react';
import toast from 'react-hot-toast';
import { Link } from 'wouter';
import { SITE_PAGE_LENGTH_MESSAGE, SITE_PAGE_MAX, SITE_PAGE_TITLES, SITE_PAGES, SITE_SAVED_MESSAGE } from '../../../shared/site-settings.ts';
import { textLength } from '../../../shared/text.ts';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { ROUTES } from '../../routes.ts';
import { siteSaved } from '../../state/site.ts';
import type { AdminSiteSettings, SiteInfo, SitePage } from '../../types.ts';
import { MarkdownEditor } from '../editor/MarkdownEditor.tsx';
import { InputField, SelectField } from '../Field.tsx';
import { Loading } from '../Loading.tsx';
import { REGISTRATION_CHOICES, validateSite, type SiteFields } from './siteRules.ts';

const FAILED = 'Error saving site settings';

export function SettingsTab() {
  const [stored, setStored] = useState<AdminSiteSettings | null>(null);
  useEffect(() => {
    api.site.settings().then(setStored, () => toast.error('Error loading site settings'));
  }, []);

  function saved(settings: AdminSiteSettings) {
    setStored(settings);
    // What visitors read now (GET /api/site's answer): the same settings, each page whether written.
    siteSaved({ ...settings, pages: Object.fromEntries(SITE_PAGES.map((page) => [page, settings.pages[page] !== ''])) as SiteInfo['pages'] });
  }

  if (!stored) return <Loading label="Loading site settings…" />;
  return (
    <div className="site-settings">
      <PaperForm stored={stored} onSaved={saved} />
      <PagesForm stored={stored} onSaved={saved} />
    </div>
  );
}

function PaperForm({ stored, onSaved }: { stored: AdminSiteSettings; onSaved(settings: AdminSiteSettings): void }) {
  const [fields, setFields] = useState<SiteFields>(() => fieldsOf(stored));
  const [errors, setErrors] = useState<Partial<Record<keyof SiteFields, string>>>({});
  const [busy, setBusy] = useState(false);
  const form = useRef<HTMLFormElement>(null);

  const set = (field: keyof SiteFields) => (event: { target: { value: string } }) => {
    setFields((current) => ({ ...current, [field]: event.target.value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateSite(fields);
    setErrors(found);
    const invalid = (Object.keys(fields) as Array<keyof SiteFields>).find((field) => found[field]);
    if (invalid) {
      form.current?.querySelector<HTMLInputElement>(`#site-${invalid.replace('_', '-')}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      const settings = await api.site.save(fields);
      setFields(fieldsOf(settings));
      onSaved(settings);
      toastSuccess(SITE_SAVED_MESSAGE, FAILED);
    } catch (error) {
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="site-settings__part" aria-labelledby="site-paper-title">
      <h2 id="site-paper-title" className="site-settings__title">The paper</h2>
      <form ref={form} className="form" onSubmit={submit} noValidate aria-label="Site settings">
        <InputField id="site-name" label="Name" value={fields.name} onChange={set('name')} error={errors.name}
          hint={<span className="counter">In the masthead, every tab's title, feeds and mail</span>} />
        <InputField id="site-tagline" label="Tagline" value={fields.tagline} onChange={set('tagline')} error={errors.tagline}
          hint={<span className="counter">Under the name; optional</span>} />
        <InputField id="site-description" label="Description" value={fields.description} onChange={set('description')} error={errors.description}
          hint={<span className="counter">For search engines and link previews</span>} />
        <InputField id="site-contact-email" label="Contact email" type="email" value={fields.contact_email}
          onChange={set('contact_email')} error={errors.contact_email}
          hint={<span className="counter">Shown in the footer; optional</span>} />
        <SelectField id="site-registration" label="Registration" value={fields.registration} options={REGISTRATION_CHOICES}
          onChange={(registration) => setFields((current) => ({ ...current, registration }))} />
        <div className="settings__actions">
          <button type="submit" className="button button--primary" disabled={busy}>{busy ? 'Saving…' : 'Save settings'}</button>
        </div>
      </form>
    </section>
  );
}

function PagesForm({ stored, onSaved }: { stored: AdminSiteSettings; onSaved(settings: AdminSiteSettings): void }) {
  const [page, setPage] = useState<SitePage>('about');
  const [drafts, setDrafts] = useState<Record<SitePage, string>>(stored.pages);
  const [busy, setBusy] = useState(false);
  const text = drafts[page];
  const length = textLength(text);
  const tooLong = length > SITE_PAGE_MAX;
  const written = stored.pages[page] !== '';

  async function save(content: string) {
    setBusy(true);
    try {
      const settings = await api.site.save({ pages: { [page]: content } });
      setDrafts((current) => ({ ...current, [page]: settings.pages[page] }));
      onSaved(settings);
      toastSuccess(content.trim() ? `${SITE_PAGE_TITLES[page]} saved` : `${SITE_PAGE_TITLES[page]} taken down`, FAILED);
    } catch (error) {
      toastApiError(error, FAILED);
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!tooLong) void save(text);
  }

  return (
    <section className="site-settings__part" aria-labelledby="site-pages-title">
      <h2 id="site-pages-title" className="site-settings__title">Pages</h2>
      <p className="site-settings__lede">
        Written in Markdown, like articles. A page is read at its address and linked from the footer once written; save it empty to take it down.
      </p>
      <form className="form" onSubmit={submit} noValidate aria-label="Site page">
        <SelectField id="site-page" label="Page" value={page}
          options={SITE_PAGES.map((value) => ({ value, label: `${SITE_PAGE_TITLES[value]}${stored.pages[value] ? '' : ' (not written)'}` }))}
          onChange={setPage} />
        <MarkdownEditor key={page} id="site-page-text" label={SITE_PAGE_TITLES[page]} value={text} rows={14}
          onChange={(value) => setDrafts((current) => ({ ...current, [page]: value }))}
          error={tooLong ? SITE_PAGE_LENGTH_MESSAGE : undefined}
          hint={<span className={tooLong ? 'counter counter--over' : 'counter'} id="site-page-text-count">{length.toLocaleString('en-US')}/{SITE_PAGE_MAX.toLocaleString('en-US')}</span>}
          hintId="site-page-text-count" />
        <div className="settings__actions">
          {written ? <Link href={ROUTES[page]} className="button">View page</Link> : null}
          {written ? <button type="button" className="button" disabled={busy} onClick={() => void save('')}>Take down</button> : null}
          <button type="submit" className="button button--primary" disabled={busy || tooLong}>{busy ? 'Saving…' : `Save ${SITE_PAGE_TITLES[page]}`}</button>
        </div>
      </form>
    </section>
  );
}

function fieldsOf(settings: AdminSiteSettings): SiteFields {
  const { name, tagline, description, contact_email, registration } = settings;
  return { name, tagline, description, contact_email, registration };
}

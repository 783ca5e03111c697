// The editor of articles, drafts, edits and comments (DESIGN.md, Writing): a labelled Markdown
// field with a toolbar acting on the selection (Bold, Italic, Link, Quote, List, Heading, Code;
// Ctrl/⌘+B, +I, +K), and Write / Preview tabs, the preview being exactly what the server will store
// (POST /api/preview). Toolbar and tabs follow the WAI-ARIA patterns: one tab stop each, arrow keys
// move within. Changes are typed into the field (execCommand), so the browser's undo takes them back.
import { useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { ApiError, api, endExpiredSession } from '../../api.ts';
import { describedBy, FieldFrame } from '../Field.tsx';
import { CodeIcon, LinkIcon, ListIcon, QuoteIcon } from '../icons.tsx';
import { Prose } from '../Prose.tsx';
import { applyEdit, markdownEdit, SHORTCUTS, type Edit, type MarkdownAction } from './markdownActions.ts';

const TOOLS: ReadonlyArray<{ action: MarkdownAction; label: string; keys?: string; glyph: ReactNode }> = [
  { action: 'bold', label: 'Bold', keys: 'B', glyph: <b aria-hidden="true" className="md-editor__glyph">B</b> },
  { action: 'italic', label: 'Italic', keys: 'I', glyph: <i aria-hidden="true" className="md-editor__glyph">I</i> },
  { action: 'link', label: 'Link', keys: 'K', glyph: <LinkIcon /> },
  { action: 'quote', label: 'Quote', glyph: <QuoteIcon /> },
  { action: 'list', label: 'List', glyph: <ListIcon /> },
  { action: 'heading', label: 'Heading', glyph: <span aria-hidden="true" className="md-editor__glyph">H</span> },
  { action: 'code', label: 'Code', glyph: <CodeIcon /> },
];

const isMac = () => typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

type Preview = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; html: string; of: string } | { state: 'failed'; message: string };

export function MarkdownEditor({ id, label, value, onChange, error, hint, hintId, rows, placeholder, maxLength }: {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  /** The counter, beside the label. */
  hint?: ReactNode;
  hintId?: string;
  rows: number;
  placeholder?: string;
  maxLength?: number;
}) {
  const field = useRef<HTMLTextAreaElement>(null);
  const [tab, setTab] = useState<'write' | 'preview'>('write');
  const [preview, setPreview] = useState<Preview>({ state: 'idle' });
  const [toolFocus, setToolFocus] = useState(0);
  const toolbar = useRef<HTMLDivElement>(null);
  const tabs = useRef<HTMLDivElement>(null);
  const ids = { write: `${id}-write`, preview: `${id}-preview`, writeTab: `${id}-write-tab`, previewTab: `${id}-preview-tab`, help: `${id}-help` };
  const mod = isMac() ? '⌘' : 'Ctrl+';

  function run(action: MarkdownAction) {
    const area = field.current;
    if (!area) return;
    const edit = markdownEdit(action, area.value, { start: area.selectionStart, end: area.selectionEnd });
    typeEdit(area, edit, onChange);
  }

  function onFieldKey(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const action = SHORTCUTS[event.key.toLowerCase()];
    if (!action) return;
    event.preventDefault();
    run(action);
  }

  /** Arrow keys, Home and End move between a group's buttons; Tab leaves the group. */
  function roving(event: KeyboardEvent, count: number, current: number, move: (index: number) => void) {
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: count - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    move((next + count) % count);
  }

  function focusTool(index: number) {
    setToolFocus(index);
    toolbar.current?.querySelectorAll('button')[index]?.focus();
  }

  async function showPreview() {
    setTab('preview');
    const text = value;
    if (preview.state === 'ready' && preview.of === text) return;
    if (text.trim() === '') {
      setPreview({ state: 'ready', html: '', of: text });
      return;
    }
    setPreview({ state: 'loading' });
    try {
      const { content_html } = await api.writing.preview(text);
      setPreview({ state: 'ready', html: content_html, of: text });
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) endExpiredSession();
      setPreview({ state: 'failed', message: err instanceof ApiError && err.detail ? err.detail : 'The preview could not be loaded. Please try again.' });
    }
  }

  function selectTab(which: 'write' | 'preview') {
    if (which === 'preview') void showPreview();
    else setTab('write');
    tabs.current?.querySelector<HTMLElement>(`#${which === 'write' ? ids.writeTab : ids.previewTab}`)?.focus();
  }

  return (
    <FieldFrame id={id} label={label} error={error} hint={hint}>
      <div className="md-editor">
        <div className="md-editor__bar">
          <div ref={tabs} className="md-editor__tabs" role="tablist" aria-label="Write or preview"
            onKeyDown={(e) => roving(e, 2, tab === 'write' ? 0 : 1, (i) => selectTab(i === 0 ? 'write' : 'preview'))}>
            <button type="button" role="tab" id={ids.writeTab} aria-selected={tab === 'write'} aria-controls={ids.write}
              tabIndex={tab === 'write' ? 0 : -1} className="md-editor__tab" onClick={() => selectTab('write')}>Write</button>
            <button type="button" role="tab" id={ids.previewTab} aria-selected={tab === 'preview'} aria-controls={ids.preview}
              tabIndex={tab === 'preview' ? 0 : -1} className="md-editor__tab" onClick={() => selectTab('preview')}>Preview</button>
          </div>
          {tab === 'write' ? (
            <div ref={toolbar} className="md-editor__tools" role="toolbar" aria-label="Formatting" aria-controls={id}
              onKeyDown={(e) => roving(e, TOOLS.length, toolFocus, focusTool)}>
              {TOOLS.map((tool, index) => (
                <button key={tool.action} type="button" className="md-editor__tool" tabIndex={index === toolFocus ? 0 : -1}
                  aria-label={tool.keys ? `${tool.label} (${mod}${tool.keys})` : tool.label} title={tool.keys ? `${tool.label} (${mod}${tool.keys})` : tool.label}
                  aria-keyshortcuts={tool.keys ? `Control+${tool.keys} Meta+${tool.keys}` : undefined}
                  onFocus={() => setToolFocus(index)}
                  // Keeps the field's selection: the button takes no focus from a mouse click.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => run(tool.action)}>
                  {tool.glyph}
                </button>
              ))}
            </div>
          ) : null}
        </div>
        <div role="tabpanel" id={ids.write} aria-labelledby={ids.writeTab} hidden={tab !== 'write'}>
          <textarea ref={field} id={id} className="field__control field__control--area md-editor__field" value={value} rows={rows}
            placeholder={placeholder} maxLength={maxLength} aria-invalid={error ? true : undefined}
            aria-describedby={describedBy(id, error, [hintId, ids.help].filter(Boolean).join(' '))}
            onChange={(e) => onChange(e.target.value)} onKeyDown={onFieldKey} />
          <p className="md-editor__help" id={ids.help}>
            Markdown: **bold**, *italic*, [a link](https://…), &gt; a quote, - a list, ## a heading, `code`; @name to mention someone.
          </p>
        </div>
        <div role="tabpanel" id={ids.preview} aria-labelledby={ids.previewTab} hidden={tab !== 'preview'} tabIndex={0}
          className="md-editor__preview" aria-busy={preview.state === 'loading'}>
          {preview.state === 'loading' ? <p className="md-editor__note">Loading the preview…</p>
            : preview.state === 'failed' ? <p className="md-editor__note" role="alert">{preview.message}</p>
            : preview.state === 'ready' && preview.html !== '' ? <Prose className="md-editor__prose" html={preview.html} />
            : <p className="md-editor__note">Nothing to preview yet.</p>}
        </div>
      </div>
    </FieldFrame>
  );
}

/**
 * Applies the edit as if typed: the field's selection set to the range, then execCommand's
 * insertText, which the browser's undo history keeps. Where that is not supported, the value is
 * set directly (no undo for it).
 */
function typeEdit(area: HTMLTextAreaElement, edit: Edit, onChange: (value: string) => void) {
  const wanted = applyEdit(area.value, edit);
  area.focus();
  area.setSelectionRange(edit.from, edit.to);
  const typed = edit.insert === '' ? document.execCommand('delete') : document.execCommand('insertText', false, edit.insert);
  if (!typed || area.value !== wanted) {
    area.value = wanted;
    onChange(wanted);
  }
  area.setSelectionRange(edit.select.start, edit.select.end);
}

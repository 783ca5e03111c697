// Entry point: adopt the page the server rendered (hydrate it) or, on the signed-in screens it
// leaves to the browser, render the app; then check the stored session. The session is applied
// once the first render is on the page: the server rendered for a visitor, so the first render
// must too, and the reader's own links and tools follow right after.
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { browserPageData } from './page-data.ts';
import { Root } from './Root.tsx';
import { initSession } from './state/session.ts';
import { embeddedSite } from './state/site.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
let mounted!: () => void;
const rendered = new Promise<void>((resolve) => { mounted = resolve; });
const data = browserPageData(rendered);
const app = <Root data={data} site={embeddedSite()} path={location.pathname} search={location.search} onMounted={mounted} />;
// As a transition, hydration yields to the browser every few milliseconds instead of holding the
// main thread for the whole page: the reader can scroll meanwhile, and a slow phone's long tasks
// stay short (Lighthouse's total blocking time).
if (data.current()) startTransition(() => { hydrateRoot(root, app); });
else createRoot(root).render(app);
void initSession(rendered);

// The Fediverse tab's blocks (DESIGN.md, Moderation): a form to block a server (example.org) or an
// account (@user@example.org), with an optional reason for the moderation log, and the blocks in
// force, each with a button to lift it. The target is checked as the server checks it before
// anything is sent.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../../api.ts';
import { toastApiError, toastSuccess } from '../../feedback.ts';
import { humanDateTime } from '../../format.ts';
import type { Block } from '../../../server/api-types.ts';
import { BLOCK_REASON_MAX, BLOCK_TARGET_MESSAGE, parseBlockTarget } from '../../../shared/federation-blocks.ts';
import { InputField } from '../Field.tsx';
import { Loading } from '../Loading.tsx';

const PAGE_SIZE = 100;

export function FediverseBlocks({ onChanged }: { onChanged: () => void }) {
  const [blocks, setBlocks] = useState<Block[] | null>(null);
  const [total, setTotal] = useState(0);
  const [target, setTarget] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const page = await api.federation.blocks({ limit: PAGE_SIZE });
      setBlocks(page.blocks);
      setTotal(page.total);
    } catch (error) {
      setBlocks([]);
      toastApiError(error, 'Error loading blocks');
    }
  }, []);
  useEffect(() => { void load(); }, [load]);

  async function add(event: FormEvent) {
    event.preventDefault();
    const parsed = parseBlockTarget(target);
    if (!parsed) {
      setProblem(BLOCK_TARGET_MESSAGE);
      return;
    }
    setProblem(undefined);
    setBusy('new');
    try {
      const result = await api.federation.block(parsed.target, { reason: reason.trim() || undefined });
      toastSuccess(result.message, 'Error blocking');
      setTarget('');
      setReason('');
      await load();
      onChanged();
    } catch (error) {
      toastApiError(error, 'Error blocking');
    } finally {
      setBusy(null);
    }
  }

  async function lift(block: Block) {
    setBusy(block.target);
    try {
      const result = await api.federation.unblock(block.target);
      toastSuccess(result.message, 'Error lifting block');
      setBlocks((current) => (current ?? []).filter((b) => b.target !== block.target));
      setTotal((n) => n - 1);
    } catch (error) {
      toastApiError(error, 'Error lifting block');
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="fediverse__part" aria-labelledby="fediverse-blocks">
      <h2 id="fediverse-blocks" className="fediverse__title">Blocks</h2>
      <p className="fediverse__lede">
        A blocked server or account loses its followers, comments, likes and boosts here; what it sends is refused and
        nothing more is sent to it. The moderation log records each block. Lifting one restores nothing.
      </p>
      <form className="form fediverse-block-form" onSubmit={add} noValidate aria-label="New block">
        <div className="form__pair">
          <InputField id="block-target" label="Server or account" placeholder="example.org or @user@example.org" value={target}
            autoCapitalize="off" autoCorrect="off" spellCheck={false} error={problem}
            onChange={(e) => { setTarget(e.target.value); setProblem(undefined); }} />
          <InputField id="block-reason" label="Reason (optional, public)" value={reason} maxLength={BLOCK_REASON_MAX}
            onChange={(e) => setReason(e.target.value)} />
        </div>
        <button type="submit" className="button button--danger" disabled={busy === 'new'}>{busy === 'new' ? 'Blocking…' : 'Block'}</button>
      </form>
      {blocks === null ? <Loading label="Loading blocks…" /> : blocks.length === 0
        ? <p className="empty-state">Nothing is blocked.</p>
        : (
          <>
            <p className="admin-count" aria-live="polite">{total === 1 ? '1 block' : `${total} blocks`}{total > blocks.length ? `, the first ${blocks.length} shown` : ''}</p>
            <ul className="admin-list" aria-label="Blocks in force">
              {blocks.map((block) => (
                <li key={block.target} className="admin-row">
                  <div className="admin-row__main">
                    <p className="admin-row__title">
                      <span className="fediverse__address">{block.target}</span>
                      <span className="level-badge level-badge--banned">{block.target.startsWith('@') ? 'Account' : 'Server'}</span>
                    </p>
                    <p className="admin-row__sub">
                      Blocked{block.created_by ? ` by ${block.created_by}` : ''} · <time dateTime={block.created_at}>{humanDateTime(block.created_at)}</time>
                    </p>
                  </div>
                  <div className="admin-row__actions">
                    <button type="button" className="button button--small" disabled={busy === block.target}
                      onClick={() => void lift(block)} aria-label={`Lift block on ${block.target}`}>Lift block</button>
                  </div>
                </li>
              ))}
            </ul>
          </>
        )}
    </section>
  );
}

import * as Tabs from '@radix-ui/react-tabs';
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import type { DuplicatePair, EntityDossier as EntityPage, ItemRef, PieceOrigin } from '#shared/api/types.ts';
import { describeCitation } from '#shared/citation.ts';
import { useApp } from '../../app/app-context.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative, plural } from '../../lib/format.ts';

function Origin({ origin }: { origin: PieceOrigin }) {
  return (
    <span
      className="entity__origin"
      title={`${origin.source}${origin.run ? `, run ${origin.run}` : ''}, ${formatDateTime(origin.at)}`}
    >
      {origin.actor} · {origin.source} · {formatRelative(origin.at)}
    </span>
  );
}

function ItemLink({ item, onOpen }: { item: ItemRef; onOpen: (id: string) => void }) {
  return (
    <button type="button" className="link-button" onClick={() => onOpen(item.id)}>
      {item.label}
    </button>
  );
}

function Duplicates({
  pairs,
  self,
  onLinked,
}: {
  pairs: DuplicatePair[];
  self: string;
  onLinked: () => void;
}) {
  const app = useApp();
  const [busy, setBusy] = useState<string | null>(null);
  const link = async (pair: DuplicatePair) => {
    const other = pair.a.id === self ? pair.b : pair.a;
    setBusy(other.id);
    try {
      await call('entities.link', { from: self, to: other.id });
      app.notify(`Linked with ${other.label} (SAME_AS). Both stay as they are.`, 'success');
      onLinked();
    } catch (err) {
      app.notify(`Could not link: ${err instanceof Error ? err.message : String(err)}`, 'error');
    } finally {
      setBusy(null);
    }
  };
  return (
    <section className="entity__section" aria-label="Possible duplicates">
      <h3 className="entity__heading">Possible duplicates</h3>
      <ul className="entity__list">
        {pairs.map((pair) => {
          const other = pair.a.id === self ? pair.b : pair.a;
          return (
            <li key={other.id} className="entity__row">
              <div>
                <button type="button" className="link-button" onClick={() => app.openDossier(other.id)}>
                  {other.label}
                </button>{' '}
                <span className="scope-badge">{other.scope}</span>
                <p className="muted">{pair.reason}</p>
              </div>
              <button
                type="button"
                className="button button--small"
                disabled={busy !== null}
                onClick={() => void link(pair)}
                aria-label={`Same as ${other.label}: link them`}
              >
                <Link2 size={13} aria-hidden="true" />
                Same as…
              </button>
            </li>
          );
        })}
      </ul>
      <p className="muted">Linking records a soft SAME_AS edge; nothing is merged.</p>
    </section>
  );
}

/** An entity's page in the dossier: names, facts, mentions with cited ranges, related, retired. */
export function EntityDossier({
  page,
  entityId,
  onChanged,
}: {
  page: EntityPage;
  entityId: string;
  onChanged: () => void;
}) {
  const app = useApp();
  const open = (id: string) => app.openDossier(id, 'select');
  return (
    <div className="entity">
      <section className="entity__section" aria-label="Names">
        <h3 className="entity__heading">Names</h3>
        <ul className="entity__aliases">
          {page.aliases.map((a) => (
            <li key={a.name} className="kind-tag" title={`Found as "${a.normalised}"`}>
              {a.name}
            </li>
          ))}
        </ul>
      </section>
      {page.duplicates.length ? (
        <Duplicates pairs={page.duplicates} self={entityId} onLinked={onChanged} />
      ) : null}
      <Tabs.Root className="entity__tabs" defaultValue="mentions">
        <Tabs.List className="tabs" aria-label="About this entity">
          <Tabs.Trigger className="tabs__tab" value="mentions">
            Mentions <span className="count-badge">{page.totals.mentions}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="facts">
            Facts and notes <span className="count-badge">{page.totals.facts}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="related">
            Related <span className="count-badge">{page.related.length}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="history">
            Retired <span className="count-badge">{page.retired.length}</span>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="mentions" className="entity__panel">
          {page.mentions.length === 0 ? <p className="muted">No mentions you can see.</p> : null}
          <ul className="entity__list" aria-label="Mentions">
            {page.mentions.map((m) => {
              const where = m.citation ? describeCitation(m.citation) : m.item.label;
              return (
                <li key={m.edgeId} className="entity__mention">
                  <button
                    type="button"
                    className="entity__cite"
                    onClick={() => app.openDossier(m.item.id, 'citation', m.span ?? undefined)}
                    aria-label={`Open mention in ${where}`}
                  >
                    {where}
                  </button>
                  <blockquote className="entity__snippet">
                    {m.snippet.before}
                    <mark>{m.snippet.match}</mark>
                    {m.snippet.after}
                  </blockquote>
                  <Origin origin={m.origin} />
                </li>
              );
            })}
          </ul>
          {page.totals.mentions > page.mentions.length ? (
            <p className="muted">
              Showing {page.mentions.length} of {plural(page.totals.mentions, 'mention')}.
            </p>
          ) : null}
        </Tabs.Content>
        <Tabs.Content value="facts" className="entity__panel">
          {page.facts.length === 0 ? <p className="muted">No notes or facts about it yet.</p> : null}
          <ul className="entity__list" aria-label="Facts and notes">
            {page.facts.map((f) => (
              <li key={`${f.item.id}-${f.via}`} className="entity__fact">
                <p className="entity__fact-text">{f.text}</p>
                <div className="entity__fact-meta">
                  <span className="kind-tag">{f.via}</span>
                  <ItemLink item={f.item} onOpen={open} />
                  {f.citation ? (
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => app.openDossier(f.citation?.itemId ?? f.item.id, 'citation')}
                    >
                      {describeCitation(f.citation)}
                    </button>
                  ) : null}
                  <Origin origin={f.origin} />
                </div>
              </li>
            ))}
          </ul>
        </Tabs.Content>
        <Tabs.Content value="related" className="entity__panel">
          {page.related.length === 0 ? <p className="muted">No related entities yet.</p> : null}
          <ul className="entity__list" aria-label="Related entities">
            {page.related.map((r) => (
              <li key={`${r.entity.id}-${r.via}`} className="entity__row">
                <ItemLink item={r.entity} onOpen={open} />
                <span className="muted">
                  {r.entity.kind} ·{' '}
                  {r.via === 'CO_MENTIONED' ? `named together in ${plural(r.count, 'item')}` : r.via}
                  {r.soft ? ' (soft)' : ''}
                </span>
                <span className="scope-badge">{r.entity.scope}</span>
              </li>
            ))}
          </ul>
        </Tabs.Content>
        <Tabs.Content value="history" className="entity__panel">
          {page.retired.length === 0 ? (
            <p className="muted">Nothing about it has been retired or superseded.</p>
          ) : null}
          <ul className="entity__list" aria-label="Retired or superseded">
            {page.retired.map((r) => (
              <li key={`${r.item.id}-${r.what}`} className="entity__row entity__row--retired">
                <span className="kind-tag">{r.what}</span>
                <ItemLink item={r.item} onOpen={open} />
                <span className="muted">retired {r.retiredAt ? formatRelative(r.retiredAt) : ''}</span>
                {r.replacement ? (
                  <span>
                    → replaced by <ItemLink item={r.replacement} onOpen={open} />
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

import type { EntityDossier as EntityPage, ItemRef, PieceOrigin } from '#shared/api/types.ts';
import { describeCitation } from '#shared/citation.ts';
import { useApp } from '../../app/app-context.ts';
import { formatDateTime, formatRelative, plural } from '../../lib/format.ts';
import './entity.css';

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

/** Where the entity is mentioned: each mention opens its cited range, with the text around it. */
export function MentionsPanel({ page }: { page: EntityPage }) {
  const app = useApp();
  return (
    <>
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
    </>
  );
}

/** Notes and links about the entity, each with the item it comes from and its citation. */
export function FactsPanel({ page, open }: { page: EntityPage; open: (id: string) => void }) {
  const app = useApp();
  return (
    <>
      {page.facts.length === 0 ? <p className="muted">No notes or links about it yet.</p> : null}
      <ul className="entity__list" aria-label="Notes and links">
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
    </>
  );
}

/** Entities named together with it, or linked to it. */
export function RelatedPanel({ page, open }: { page: EntityPage; open: (id: string) => void }) {
  return (
    <>
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
    </>
  );
}

/** What about it has been retired or superseded, and by what. */
export function RetiredPanel({ page, open }: { page: EntityPage; open: (id: string) => void }) {
  return (
    <>
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
    </>
  );
}

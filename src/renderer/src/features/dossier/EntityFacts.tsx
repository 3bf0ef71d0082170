import { Archive, History, Pencil, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { Outputs } from '#shared/api/contract.ts';
import { describeCitation } from '#shared/citation.ts';
import { useApp } from '../../app/app-context.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { ErrorNotice } from '../../components/ErrorNotice.tsx';
import { Skeleton } from '../../components/Skeleton.tsx';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';
import { formatDateTime, formatRelative } from '../../lib/format.ts';
import './entity.css';

type Fact = Outputs['facts.list']['facts'][number];

const REASONS: Record<NonNullable<Fact['reason']>, string> = {
  superseded: 'replaced',
  'no source': 'no source left',
  retired: 'retired',
};

function FactRow({
  fact,
  byId,
  onRetire,
  onEdit,
}: {
  fact: Fact;
  byId: Map<string, Fact>;
  onRetire: (fact: Fact) => void;
  onEdit: (fact: Fact) => void;
}) {
  const app = useApp();
  const replacement = fact.supersededBy ? byId.get(fact.supersededBy) : undefined;
  return (
    <li className={`entity__fact${fact.status === 'retired' ? ' entity__fact--retired' : ''}`}>
      <p className="entity__fact-text">
        {fact.attribute ? <span className="kind-tag">{fact.attribute}</span> : null} {fact.statement}
      </p>
      <div className="entity__fact-meta">
        <span title="The date the source says it holds">valid {fact.validAt.slice(0, 10)}</span>
        <span
          className="entity__origin"
          title={`${fact.origin.source}${fact.origin.run ? `, run ${fact.origin.run}` : ''}, ${formatDateTime(fact.origin.at)}`}
        >
          {fact.origin.actor} · {formatRelative(fact.origin.at)}
        </span>
        {fact.status === 'retired' ? (
          <span className="chip">
            {fact.reason ? REASONS[fact.reason] : 'retired'}
            {replacement ? ` by "${replacement.statement}"` : ''}
          </span>
        ) : (
          <>
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => onEdit(fact)}
              aria-label={`Edit the fact "${fact.statement}"`}
            >
              <Pencil size={12} aria-hidden="true" /> Edit
            </button>
            <button
              type="button"
              className="button button--small button--ghost"
              onClick={() => onRetire(fact)}
              aria-label={`Retire the fact "${fact.statement}"`}
            >
              <Archive size={12} aria-hidden="true" /> Retire
            </button>
          </>
        )}
      </div>
      <ul className="entity__citations" aria-label="Citations">
        {fact.citations.map((c) => {
          const where = describeCitation(c.citation) || c.item.label;
          return (
            <li key={`${c.item.id}-${c.quote}`}>
              <button
                type="button"
                className="entity__cite"
                onClick={() => app.openDossier(c.item.id, 'citation', c.span ?? undefined)}
                aria-label={`Open the citation in ${where}`}
              >
                {where}
              </button>
              {c.source.versions > 1 ? (
                <button
                  type="button"
                  className="button button--small button--ghost entity__versions"
                  onClick={() => app.openDossier(c.source.id, 'select')}
                  title={`${c.source.label} has ${c.source.versions} versions: open it to see them`}
                >
                  {c.source.versions} versions
                </button>
              ) : null}
              <blockquote className="entity__snippet">{c.quote}</blockquote>
            </li>
          );
        })}
      </ul>
    </li>
  );
}

/**
 * States a fact with its citation: the source item and the exact words it says it in. Editing a fact
 * is stating the new wording (its citation kept unless changed) and retiring the old one
 * (docs/FACTS.md [K6]).
 */
function FactForm({
  entity,
  editing,
  onDone,
  onCancel,
}: {
  entity: string;
  editing: Fact | null;
  onDone: () => void;
  onCancel: () => void;
}) {
  const app = useApp();
  const cited = editing?.citations[0];
  const [statement, setStatement] = useState(editing?.statement ?? '');
  const [attribute, setAttribute] = useState(editing?.attribute ?? '');
  const [validAt, setValidAt] = useState(editing?.validAt.slice(0, 10) ?? '');
  const [item, setItem] = useState(cited?.item.id ?? '');
  const [quote, setQuote] = useState(cited?.quote ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const out = await call('facts.state', {
        entity,
        statement,
        item_id: item.trim(),
        quote,
        ...(attribute.trim() ? { attribute: attribute.trim() } : {}),
        ...(validAt.trim() ? { valid_at: validAt.trim() } : {}),
      });
      if (editing && out.fact.id !== editing.id) await call('facts.retire', { fact: editing.id });
      app.notify(editing ? 'Fact changed; the old wording is in the history.' : 'Fact added.', 'success');
      onDone();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  const verb = editing ? 'Save' : 'Add fact';
  return (
    <form
      className="entity__add-fact"
      onSubmit={submit}
      aria-label={editing ? 'Edit the fact' : 'Add a fact'}
    >
      <label>
        Statement
        <input className="input" value={statement} onChange={(e) => setStatement(e.target.value)} required />
      </label>
      <label>
        Attribute <span className="muted">(optional: price, owner, term…)</span>
        <input className="input" value={attribute} onChange={(e) => setAttribute(e.target.value)} />
      </label>
      <label>
        Valid at <span className="muted">(optional, YYYY-MM-DD)</span>
        <input className="input" value={validAt} onChange={(e) => setValidAt(e.target.value)} />
      </label>
      <label>
        Source item id
        <input className="input mono" value={item} onChange={(e) => setItem(e.target.value)} required />
      </label>
      <label>
        The exact words in the source
        <textarea
          className="input"
          value={quote}
          onChange={(e) => setQuote(e.target.value)}
          required
          rows={2}
        />
      </label>
      {error ? (
        <ErrorNotice error={error} title={editing ? 'Could not change the fact' : 'Could not add the fact'} />
      ) : null}
      <div className="entity__add-actions">
        <button type="submit" className="button button--small button--primary" disabled={busy}>
          {busy ? 'Saving…' : verb}
        </button>
        <button type="button" className="button button--small button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Facts grouped by what they give (price, owner, term…), in the engine's order; plain facts last. */
function groupByAttribute(facts: Fact[]): [string | null, Fact[]][] {
  const groups = new Map<string | null, Fact[]>();
  for (const f of facts) groups.set(f.attribute, [...(groups.get(f.attribute) ?? []), f]);
  return [...groups.entries()];
}

/**
 * An entity's facts (docs/FACTS.md): current ones grouped by attribute, each with its citations
 * (opening the cited range), validAt and who stated it; "Show history" adds the retired ones with
 * why and what replaced them; a fact is retired after a confirmation, or added with its citation.
 */
export function EntityFacts({ entity }: { entity: string }) {
  const app = useApp();
  const [history, setHistory] = useState(false);
  const [retiring, setRetiring] = useState<Fact | null>(null);
  /** The form: closed, adding (null) or editing a fact. */
  const [form, setForm] = useState<{ editing: Fact | null } | undefined>(undefined);
  const closeForm = () => setForm(undefined);
  const facts = useCall('facts.list', { entity, history: true });
  const all = facts.data?.facts ?? [];
  const byId = new Map(all.map((f) => [f.id, f]));
  const shown = all.filter((f) => history || f.status === 'current');
  const retiredCount = all.length - all.filter((f) => f.status === 'current').length;
  return (
    <div className="entity__facts">
      <div className="entity__facts-bar">
        {form ? null : (
          <button type="button" className="button button--small" onClick={() => setForm({ editing: null })}>
            <Plus size={13} aria-hidden="true" /> Add a fact
          </button>
        )}
        <span className="toolbar__spacer" />
        <button
          type="button"
          className="button button--small button--ghost"
          aria-pressed={history}
          onClick={() => setHistory((h) => !h)}
          disabled={retiredCount === 0}
          title={retiredCount === 0 ? 'No retired facts' : undefined}
        >
          <History size={13} aria-hidden="true" />{' '}
          {history ? 'Hide history' : `Show history (${retiredCount})`}
        </button>
      </div>
      {form ? (
        <FactForm
          key={form.editing?.id ?? 'new'}
          entity={entity}
          editing={form.editing}
          onCancel={closeForm}
          onDone={() => {
            closeForm();
            facts.refresh();
          }}
        />
      ) : null}
      {facts.error ? (
        <ErrorNotice error={facts.error} title="Could not load the facts" onRetry={facts.refresh} />
      ) : null}
      {facts.loading && !facts.data ? <Skeleton lines={3} /> : null}
      {facts.data && shown.length === 0 ? (
        <p className="muted">
          {retiredCount
            ? 'No current facts: every fact about it was retired (Show history).'
            : 'No facts about it yet.'}
        </p>
      ) : null}
      <ul className="entity__list" aria-label="Facts">
        {groupByAttribute(shown).map(([attribute, group]) => (
          <li key={attribute ?? ''} className="entity__group">
            {attribute !== null || shown.some((f) => f.attribute !== null) ? (
              <h4 className="entity__group-title">{attribute ?? 'Other facts'}</h4>
            ) : null}
            <ul className="entity__list">
              {group.map((f) => (
                <FactRow
                  key={f.id}
                  fact={f}
                  byId={byId}
                  onRetire={setRetiring}
                  onEdit={(fact) => setForm({ editing: fact })}
                />
              ))}
            </ul>
          </li>
        ))}
      </ul>
      <ConfirmDialog
        open={retiring !== null}
        onOpenChange={(o) => {
          if (!o) setRetiring(null);
        }}
        title="Retire this fact?"
        message={`"${retiring?.statement ?? ''}" leaves the page and stays in its history, with its citations.`}
        confirmLabel="Retire"
        destructive
        onConfirm={async () => {
          if (!retiring) return;
          await call('facts.retire', { fact: retiring.id });
          app.notify('Fact retired.', 'success');
          setRetiring(null);
          facts.refresh();
        }}
      />
    </div>
  );
}

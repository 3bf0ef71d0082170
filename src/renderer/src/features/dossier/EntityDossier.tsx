import * as Tabs from '@radix-ui/react-tabs';
import type { EntityDossier as EntityPage } from '#shared/api/types.ts';
import { useApp } from '../../app/app-context.ts';
import { EntityDuplicates } from './EntityDuplicates.tsx';
import { EntityFacts } from './EntityFacts.tsx';
import { FactsPanel, MentionsPanel, RelatedPanel, RetiredPanel } from './EntityPanels.tsx';
import './entity.css';

/** An entity's page in the dossier: names, its facts (docs/FACTS.md), mentions with cited ranges, notes and links, related, retired. */
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
        <EntityDuplicates pairs={page.duplicates} self={entityId} onLinked={onChanged} />
      ) : null}
      <Tabs.Root className="entity__tabs" defaultValue="page">
        <Tabs.List className="tabs" aria-label="About this entity">
          <Tabs.Trigger className="tabs__tab" value="page">
            Facts
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="mentions">
            Mentions <span className="count-badge">{page.totals.mentions}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="facts">
            Notes and links <span className="count-badge">{page.totals.facts}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="related">
            Related <span className="count-badge">{page.related.length}</span>
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs__tab" value="history">
            Retired <span className="count-badge">{page.retired.length}</span>
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="page" className="entity__panel">
          <EntityFacts entity={entityId} />
        </Tabs.Content>
        <Tabs.Content value="mentions" className="entity__panel">
          <MentionsPanel page={page} />
        </Tabs.Content>
        <Tabs.Content value="facts" className="entity__panel">
          <FactsPanel page={page} open={open} />
        </Tabs.Content>
        <Tabs.Content value="related" className="entity__panel">
          <RelatedPanel page={page} open={open} />
        </Tabs.Content>
        <Tabs.Content value="history" className="entity__panel">
          <RetiredPanel page={page} open={open} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

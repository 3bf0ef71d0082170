/** The BrainApi's entity and graph commands: thin adapters over the engine, scope-checked there. */
import type { Outputs, ParsedInputs } from '../../shared/api/contract.ts';
import type { Engine } from '../engine.ts';
import { listEntities, possibleDuplicates } from '../entities.ts';
import { linkItems } from '../graph.ts';
import { graphView } from '../graph-view.ts';

type EntityCommand = 'entities.list' | 'entities.duplicates' | 'entities.link' | 'graph.get';
type EntityHandlers = { [N in EntityCommand]: (input: ParsedInputs[N]) => Outputs[N] };

export function entityHandlers(e: Engine): EntityHandlers {
  return {
    'entities.list': (input) => listEntities(e.db, e.scopes(), input),
    'entities.duplicates': (input) => possibleDuplicates(e.db, e.scopes(), input),
    'entities.link': (input) => {
      // A person's decision, recorded as a soft edge: both entities keep their ids, names and scopes.
      const edge = linkItems(
        e.db,
        e.scopes(),
        { from: input.from, to: input.to, type: 'SAME_AS', note: input.note },
        { actor: e.user, source: 'app', run: '' },
      );
      return { id: edge.id, type: edge.type, from: edge.from, to: edge.to };
    },
    'graph.get': (input) => graphView(e.db, e.scopes(), input),
  };
}

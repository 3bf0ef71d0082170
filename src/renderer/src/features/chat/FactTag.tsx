import './turns.css';

/** Marks a citation that is a fact of an entity (docs/FACTS.md [K15]): "fact", then whose. */
export function FactTag({ entity }: { entity: string }) {
  return (
    <>
      <span className="fact-tag">fact</span>
      <span className="ellipsis fact-tag__entity">{entity}</span>
    </>
  );
}

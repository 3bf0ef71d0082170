/**
 * Agent brains, third slice (docs/AGENTS.md [G7]–[G9]).
 * - runs.brain_version: the brain version the run read ([G7]): the one its MCP server served it,
 *   else the agent's active version when the run ended, else NULL. Effectiveness groups runs by it
 *   ([G8]).
 * - agents.compare_a / compare_b / compare_split: a side-by-side comparison of two versions in
 *   production ([G9]): while set, each run is served a or b, chosen from its run id; split is a's
 *   share in percent (1–99). All three are NULL when no comparison is set.
 */
export const sql = `
ALTER TABLE runs ADD COLUMN brain_version INTEGER;
CREATE INDEX runs_agent_brain_version ON runs (workspace_id, agent, brain_version);

ALTER TABLE agents ADD COLUMN compare_a INTEGER;
ALTER TABLE agents ADD COLUMN compare_b INTEGER;
ALTER TABLE agents ADD COLUMN compare_split INTEGER CHECK (compare_split IS NULL OR compare_split BETWEEN 1 AND 99);
`;

import { useState } from 'react';
import { AgentList } from './AgentList.tsx';
import { AgentPage } from './AgentPage.tsx';
import './agents.css';

/** The Agents screen (docs/AGENTS.md [G11]): the list of agents, or one agent's page. */
export function AgentsScreen() {
  const [open, setOpen] = useState<string | null>(null);
  return open ? <AgentPage name={open} onBack={() => setOpen(null)} /> : <AgentList onOpen={setOpen} />;
}

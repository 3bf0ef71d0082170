import type { StartupProblem } from '../lib/api.ts';
import './fatal.css';

/** Shown instead of the app when it cannot start (no token, no bridge). */
export function FatalScreen({ problem }: { problem: StartupProblem }) {
  return (
    <main className="fatal">
      <div className="fatal__card" role="alert">
        <h1>{problem.title}</h1>
        <p>{problem.message}</p>
      </div>
    </main>
  );
}

import { useEffect, useState } from 'react';
import type { AppInfo } from '../../preload/contract.ts';

type InfoState = { status: 'pending' } | { status: 'ready'; info: AppInfo } | { status: 'failed' };

function useAppInfo(): InfoState {
  const [state, setState] = useState<InfoState>({ status: 'pending' });
  useEffect(() => {
    let live = true;
    window.api
      .invoke('app.info')
      .then((result) => {
        if (live) setState(result.ok ? { status: 'ready', info: result.data } : { status: 'failed' });
      })
      .catch(() => {
        if (live) setState({ status: 'failed' });
      });
    return () => {
      live = false;
    };
  }, []);
  return state;
}

export function App() {
  const info = useAppInfo();
  const name = info.status === 'ready' ? info.info.name : 'Org Brain';

  return (
    <main className="welcome">
      <h1 className="welcome__name">{name}</h1>
      <p className="welcome__version" aria-live="polite">
        {info.status === 'ready' ? `Version ${info.info.version}` : '\u00a0'}
      </p>
      <p className="welcome__lead">Your team's shared memory, for people and agents.</p>
      <p className="welcome__text">
        The desktop app arrives in the next release. The command line works today: run{' '}
        <code>npx brain --help</code> to see what it can do.
      </p>
    </main>
  );
}

// The global stylesheets come first, so every feature's own stylesheet (imported beside its
// component) lands after them in the bundle and can refine them.
import './styles/tokens.css';
import './styles/base.css';
import './styles/controls.css';
import './styles/forms.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { FatalScreen } from './app/FatalScreen.tsx';
import { startApi } from './lib/api.ts';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

const problem = startApi();
createRoot(container).render(
  <StrictMode>{problem ? <FatalScreen problem={problem} /> : <App />}</StrictMode>,
);

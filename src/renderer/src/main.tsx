import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { FatalScreen } from './app/FatalScreen.tsx';
import { startApi } from './lib/api.ts';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

const problem = startApi();
createRoot(container).render(
  <StrictMode>{problem ? <FatalScreen problem={problem} /> : <App />}</StrictMode>,
);

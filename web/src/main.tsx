// Entry point: mounts the app into <main id="app"> (index.html loads this file only).
import { render } from 'preact';
import { App } from './components/App.js';
import './style.css';

render(<App />, document.getElementById('app')!);

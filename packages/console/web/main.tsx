import 'uplot/dist/uPlot.min.css';
import './console.css';
import { render } from 'preact';
import { App } from './App.js';

render(<App />, document.getElementById('app')!);

import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const start = () => import('./app/start').then(({ startApp }) => startApp(root));

/**
 * A page rendered at build time (src/prerender.tsx) is painted before the app's code is fetched and
 * run: on a phone that code is a few hundred milliseconds of download and evaluation, and the visitor
 * can read the page meanwhile. Any other route has nothing to show until the app runs, so it starts
 * at once, its code already on the way (modulepreload, vite.config.ts).
 */
if (root.hasChildNodes()) {
  requestAnimationFrame(() => setTimeout(start));
} else {
  void start();
}

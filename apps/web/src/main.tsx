import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/** Resolves in a later task, so the work before and after is two shorter tasks instead of one long one. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve));
// On a phone, evaluating React DOM (most of the app's code), evaluating the rest and creating the
// router are each a long task; run them one after another, not as one.
const start = async () => {
  await import('react-dom/client');
  await nextTask();
  const { startApp } = await import('./app/start');
  await nextTask();
  return startApp(root);
};

/**
 * A page rendered at build time (src/prerender.tsx) is painted before the app's code is fetched and
 * run: on a phone that code is a few hundred milliseconds of download and evaluation, and the visitor
 * can read the page meanwhile. Any other route has nothing to show until the app runs, so it starts
 * at once, its code and the signed-in shell's already on the way (modulepreload, vite.config.ts).
 */
if (root.hasChildNodes()) {
  requestAnimationFrame(() => setTimeout(start));
} else {
  void start();
}

// Applies the stored theme before the first paint, so a dark page never flashes light. A file rather
// than an inline script because the gateway's Content-Security-Policy allows scripts from 'self' only.
try {
  var t = localStorage.getItem('theme');
  if (t === 'dark' || ((t === null || t === 'system' || (t !== 'light' && t !== 'dark')) && matchMedia('(prefers-color-scheme: dark)').matches))
    document.documentElement.classList.add('dark');
} catch (e) {}

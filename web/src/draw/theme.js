// Light and dark themes: "auto" follows prefers-color-scheme; the picker can pin one.

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

export function applyTheme(choice) {
  const dark = choice === 'dark' || (choice === 'auto' && darkQuery.matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}

export function watchSystemTheme(onChange) {
  darkQuery.addEventListener('change', onChange);
}

// Keyboard shortcuts to sections (they need Alt+Shift, so typing in a field
// never triggers one): J / K the next / previous section, 0–9 view 0–9, C the
// Contents. Each lands through go(id) (state/anchor.js), which moves focus.

/** The page's sections in reading order: view 0 above the bar, then every view in main. */
const sections = () => [...document.querySelectorAll('body > section[id], main > section[id]')];

/** The section whose top is at or above the reading line (just below the sticky bar). */
function currentIndex(list) {
  const line = (parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--bar-h')) || 0) + 24;
  let current = -1;
  list.forEach((s, n) => {
    if (s.getBoundingClientRect().top <= line) current = n;
  });
  return current;
}

export function wireShortcuts(go) {
  document.addEventListener('keydown', (event) => {
    if (!event.altKey || !event.shiftKey || event.ctrlKey || event.metaKey) return;
    const list = sections();
    let target = null;
    if (event.code === 'KeyJ') target = list[Math.min(list.length - 1, currentIndex(list) + 1)];
    else if (event.code === 'KeyK') target = list[Math.max(0, currentIndex(list) - 1)];
    else if (event.code === 'KeyC') target = document.getElementById('contents');
    else if (/^Digit\d$/.test(event.code)) target = list[Number(event.code.slice(5))];
    if (!target) return;
    event.preventDefault();
    go(target.id);
  });
}

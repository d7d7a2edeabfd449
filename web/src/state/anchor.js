// Sections reached through a #hash (a Contents link, a shared URL, a reload,
// the skip link or a shortcut) land with their top just below the sticky bar
// and stay there while the views above them load and change height: the views
// are lazily loaded and sized when drawn, so a plain jump lands where the
// section was before they grew. The pin holds until the layout is quiet for
// QUIET_MS or the reader scrolls, types or clicks.

const QUIET_MS = 2500;
const MOST_MS = 12_000;

/**
 * bar: the sticky bar whose height sets the landing offset (kept in the CSS
 * variable --bar-h, which scroll-margin-top uses too). Returns go(id, { focus }).
 */
export function wireAnchors({ bar }) {
  const root = document.documentElement;
  const barHeight = () => Math.round(bar.getBoundingClientRect().height);
  new ResizeObserver(() => root.style.setProperty('--bar-h', `${barHeight()}px`)).observe(bar);
  root.style.setProperty('--bar-h', `${barHeight()}px`);

  let pinned = null; // { target, quietTimer, endTimer }
  const layout = new ResizeObserver(() => {
    if (!pinned) return;
    place(pinned.target);
    clearTimeout(pinned.quietTimer);
    pinned.quietTimer = setTimeout(unpin, QUIET_MS);
  });

  /** The target's top at scroll-margin-top below the viewport's top (as far as the page can scroll). */
  function place(target) {
    const want = parseFloat(getComputedStyle(target).scrollMarginTop) || 0;
    const off = target.getBoundingClientRect().top - want;
    if (Math.abs(off) > 1) window.scrollBy({ top: off, behavior: 'instant' });
  }

  function unpin() {
    if (!pinned) return;
    clearTimeout(pinned.quietTimer);
    clearTimeout(pinned.endTimer);
    layout.disconnect();
    pinned = null;
    document.body.dataset.anchor = '';
  }

  function pin(target) {
    unpin();
    pinned = { target, quietTimer: setTimeout(unpin, QUIET_MS), endTimer: setTimeout(unpin, MOST_MS) };
    document.body.dataset.anchor = target.id; // tests wait for it to clear
    layout.observe(document.body);
    for (const section of document.querySelectorAll('section')) layout.observe(section);
    place(target);
  }

  // The reader's own scrolling ends the pin (a programmatic scrollBy fires none of these).
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    window.addEventListener(type, (event) => event.isTrusted && pinned && !isAnchorClick(event) && unpin(), {
      passive: true,
      capture: true,
    });
  }
  const isAnchorClick = (event) => event.type === 'mousedown' && event.target.closest?.('a[href^="#"]');

  /** Lands on the element with this id and pins it; focus moves there (for keyboard and screen readers). */
  function go(id, { focus = true, push = true } = {}) {
    const target = document.getElementById(id);
    if (!target) return false;
    if (push && location.hash !== `#${id}`) history.pushState(null, '', `${location.pathname}${location.search}#${id}`);
    if (focus) {
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
      target.focus({ preventScroll: true });
    }
    pin(target);
    return true;
  }

  // In-page links: the same landing, whatever loads above.
  document.addEventListener('click', (event) => {
    const link = event.target.closest?.('a[href^="#"]');
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
    if (go(decodeURIComponent(link.hash.slice(1)))) event.preventDefault();
  });
  window.addEventListener('hashchange', () => go(decodeURIComponent(location.hash.slice(1)), { push: false }));
  // A URL that arrives with a hash.
  if (location.hash.length > 1) go(decodeURIComponent(location.hash.slice(1)), { focus: false, push: false });
  return go;
}

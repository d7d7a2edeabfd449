// Where a section lands after a jump (a Contents link, a URL with #id), read
// without waiting out the page's pin: state/anchor.js holds the section at its
// place until the layout has been quiet for 2.5 s, which cost the walk and the
// anchors test 2.6 s a landing (about 200 s of CI). The place is read once the
// views near the viewport have drawn and it has held for a few frames, then the
// pin is ended as a reader ends it (a key press) and the place read again once
// the views have settled: a section that moves when the pin lets go fails.
// That the pin also ends by itself is page-a11y's shortcuts test.
import { frames, settledOnScreen } from './browser-page.js';

/** Frames the section's top must hold still (a view resizing above it moves it in the frame after). */
const STILL_FRAMES = 4;

/** The section's top, its scroll margin (where it should be), the scroll and the sticky bar's edges. */
const place = (page, id) =>
  page.evaluate((id) => {
    const section = document.getElementById(id);
    const bar = document.getElementById('controls').getBoundingClientRect();
    return {
      top: section.getBoundingClientRect().top,
      want: parseFloat(getComputedStyle(section).scrollMarginTop),
      scrollY: window.scrollY,
      barTop: bar.top,
      barBottom: bar.bottom,
    };
  }, id);

/** Resolves once the section's top has not moved for STILL_FRAMES animation frames (20 s at most). */
const heldStill = (page, id) =>
  page.evaluate(
    ([id, still]) =>
      new Promise((done, fail) => {
        const end = performance.now() + 20_000;
        let last = NaN;
        let same = 0;
        const tick = () => {
          const top = document.getElementById(id).getBoundingClientRect().top;
          same = Math.abs(top - last) < 0.5 ? same + 1 : 0;
          last = top;
          if (same >= still) done();
          else if (performance.now() > end) fail(new Error(`#${id} kept moving for 20 s`));
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    [id, STILL_FRAMES],
  );

/**
 * After a jump to section id: { top, want, scrollY, barTop, barBottom } read while the pin holds it, and
 * `released`, its top once the pin has been ended by a key press and the views near it have drawn again.
 */
export async function landing(page, id) {
  await settledOnScreen(page);
  await heldStill(page, id);
  const held = await place(page, id);
  await page.keyboard.press('Shift'); // a reader's key press ends the pin (anchor.js); Shift alone does nothing else
  await page.waitForFunction(() => !document.body.dataset.anchor, null, { timeout: 5000 });
  await settledOnScreen(page);
  await frames(page, 2);
  return { ...held, released: (await place(page, id)).top };
}

/** The broken promises of a landing, as sentences ([] when it landed on its top and stayed). */
export function landingProblems(where, id, { top, want, scrollY, barTop, barBottom, released }) {
  const problems = [];
  // The first section sits above the bar: it lands at the page's top, as high as it can go.
  if (scrollY === 0 ? top > want + 3 : Math.abs(top - want) > 3)
    problems.push(`${where} #${id}: top at ${top.toFixed(0)} px, wanted ${want} px`);
  // Where the bar is stuck at the top, the section starts below it.
  if (barTop <= 1 && top < barBottom - 1) problems.push(`${where} #${id}: under the sticky bar (${barBottom})`);
  if (Math.abs(released - top) > 3)
    problems.push(`${where} #${id}: moved from ${top.toFixed(0)} to ${released.toFixed(0)} px when the pin ended`);
  return problems;
}

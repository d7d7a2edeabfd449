// A view whose code is fetched only when its section comes near the screen
// (or when something asks it to act, e.g. a preset handing it a config), so it
// adds nothing to the first view's weight. Until then render() draws nothing;
// once the view is made it asks the scheduler for a redraw of its section.

/**
 * section: the view's section element; make(): a promise of the view ({ render, setRedraw? }), called once;
 * onError(error): said in the section when the code cannot be fetched. Returns { render, setRedraw, call(fn) }.
 */
export function lazyView(section, make, onError) {
  let view = null;
  let loading = null;
  let redraw = () => {};
  const pending = [];

  function start() {
    loading ??= make().then(
      (made) => {
        view = made;
        view.setRedraw?.(redraw);
        for (const fn of pending.splice(0)) fn(view);
        redraw();
      },
      (error) => onError(error),
    );
  }

  // The same margin as the scheduler's: fetched half a screen before it scrolls in.
  const observer = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      start();
    },
    { rootMargin: '50% 0px 50% 0px' },
  );
  observer.observe(section);

  return {
    render(state) {
      view?.render(state);
    },
    setRedraw(request) {
      redraw = request;
      view?.setRedraw?.(request);
    },
    /** Runs fn(view) now, or once the view is made (fetching it now). */
    call(fn) {
      if (view) fn(view);
      else {
        pending.push(fn);
        start();
      }
    },
  };
}

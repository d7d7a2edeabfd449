// Play/pause for a number that motion explains (p and k of the rotation view,
// the shared position cursor): while playing, the value advances by `step`
// once per animation frame and wraps from `max` back to `min`. The button
// says what it does and carries aria-pressed; Space or Enter on it toggles.

/**
 * button: the play button. read(): current value; write(v): applies it;
 * range(): { min, max, step }; onStop(): called on pause. Returns { stop() }.
 */
export function wirePlayer(button, { read, write, range, label, onStop }) {
  let frame = 0;
  const show = (playing) => {
    button.textContent = playing ? `❚❚ pause ${label}` : `▶ play ${label}`;
    button.setAttribute('aria-pressed', String(playing));
  };
  const tick = () => {
    const { min, max, step } = range();
    const next = read() + step;
    write(next > max ? min : next);
    frame = requestAnimationFrame(tick);
  };
  const stop = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    show(false);
    onStop?.();
  };
  button.addEventListener('click', () => {
    if (frame) stop();
    else {
      show(true);
      frame = requestAnimationFrame(tick);
    }
  });
  show(false);
  return { stop };
}

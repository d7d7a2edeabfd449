// View 12: a model's config.json, read by the package's fromConfig. Drop or
// pick the file, or paste its text, and the view says which position scheme
// the model uses and draws it: RoPE's wavelength per pair for each layer type
// (scaled solid, unscaled dashed, both from ropeFrequencies with the config),
// ALiBi's slope per head, T5's bucket against the offset (t5Buckets with the
// config's settings) or Shaw's clipped index. A config the package refuses
// shows the PosencError's message here, never a crash or a blank view.
// A new config asks the scheduler to redraw this section only, so it is drawn
// when on screen, like every view.
import { fromConfig, ropeFrequencies, shawIndices, t5Buckets, PosencError } from '../../../src/js/index.js';
import { availableWidth, createRedrawGuard, themeColors } from '../draw/canvas.js';
import { pairColor } from '../draw/colormap.js';
import { sig6 } from '../draw/format.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { wireFileDrop } from '../io/file-drop.js';
import { layerSummary } from '../state/model-presets.js';

const TAU = 2 * Math.PI;
// A config.json is a few kB (Phi-3.5's long factors included); anything far larger is not one.
const MAX_CONFIG_BYTES = 4 << 20;

const item = (text) => Object.assign(document.createElement('li'), { textContent: text });

/**
 * elements: { zone, file, paste, status, facts, plot, readout }; onRead(text, source, fromUser): called
 * once for each config read without error (fromUser: dropped, chosen or pasted, not a preset's), so the
 * views above can show it. Returns { render, load(text, source), setRedraw }.
 */
export function createConfigView({ zone, file, paste, status, facts, plot, readout, onRead = () => {} }) {
  let text = '';
  let source = '';
  let fromUser = false;
  let announced = '';
  let redraw = () => {};
  const needsDraw = createRedrawGuard();

  /** Shows text (a config's JSON) from source (a file name, "pasted text", a preset) on the next frame it is seen. */
  function load(nextText, nextSource, byUser = false) {
    if (paste.value !== nextText) paste.value = nextText;
    text = nextText;
    source = nextSource;
    fromUser = byUser;
    redraw();
    // A config the user gives drives the views above at once, even while this view is off screen.
    if (byUser) announce();
  }

  /** Tells the page about a config read without error, once per text. */
  function announce() {
    if (announced === text || !text.trim()) return;
    try {
      fromConfig(text);
    } catch {
      return; // render() says why, here
    }
    announced = text;
    onRead(text, source, fromUser);
  }

  wireFileDrop({
    zone,
    input: file,
    onFile: async (picked) => {
      if (picked.size > MAX_CONFIG_BYTES) {
        fail(`${picked.name} is ${picked.size} bytes: a config.json is a few kB; nothing was read`);
        return;
      }
      load(await picked.text(), picked.name, true);
    },
  });
  paste.addEventListener('input', () => load(paste.value, 'pasted text', true));
  // Text pasted while this view's code was still being fetched.
  if (paste.value.trim()) load(paste.value, 'pasted text', true);

  function fail(message) {
    status.textContent = message;
    status.className = 'file-status error';
    facts.replaceChildren();
    facts.dataset.kind = 'refused';
    plot.hidden = true;
    readout.textContent = '';
  }

  function render() {
    const width = availableWidth(plot.parentElement, 900);
    if (!needsDraw([text, source, width])) return;
    if (!text.trim()) {
      status.textContent = 'Drop a config.json here, choose one, or paste its text.';
      status.className = 'file-status';
      facts.replaceChildren();
      facts.dataset.kind = '';
      plot.hidden = true;
      readout.textContent = '';
      return;
    }
    try {
      const description = fromConfig(text);
      status.textContent = `Read ${source}: ${describeKind(description)}.`;
      status.className = 'file-status loaded';
      plot.hidden = false;
      const lines = DRAW[description.kind]?.(description, { text, plot, readout }) ?? [];
      if (!DRAW[description.kind]) plot.hidden = true;
      const layers = layerSummary(description.layers);
      if (layers) lines.unshift(`Layer by layer: ${layers}`);
      if (description.ignored.length) lines.push(`Keys not used for positions: ${description.ignored.join(', ')}.`);
      facts.replaceChildren(...lines.map(item));
      facts.dataset.kind = description.kind;
    } catch (error) {
      // Every refusal is the package's own sentence; anything else is a bug, said here rather than thrown.
      fail(error instanceof PosencError ? error.message : `Could not read this config: ${error.message}`);
      if (!(error instanceof PosencError)) console.error(error);
    }
  }

  return {
    render,
    load,
    setRedraw(request) {
      redraw = request;
    },
  };
}

/** One line naming the scheme. */
function describeKind(d) {
  if (d.kind === 'rope')
    return d.layerTypes ? `RoPE, per layer type (${Object.keys(d.layerTypes).join(', ')})` : 'RoPE';
  if (d.kind === 'none') return 'no position in any layer';
  if (d.kind === 'relative')
    return d.scheme === 't5' ? "T5's relative attention buckets" : "Shaw et al.'s clipped relative positions";
  return { alibi: 'ALiBi', learned: 'a learned position table', sinusoidal: 'the sinusoidal table' }[d.kind];
}

/** The scaling dict as a short text: rope_type and its numbers (long factor lists by their length). */
function scalingText(scaling) {
  if (!scaling) return 'no scaling';
  return Object.entries(scaling)
    .map(([k, v]) => `${k} = ${Array.isArray(v) ? `[${v.length} values]` : typeof v === 'number' ? sig6(v) : v}`)
    .join(', ');
}

/** RoPE: wavelength 2π/wᵢ per pair for each layer type, scaled (solid) and unscaled (dashed). */
function drawRope(d, { text, plot, readout }) {
  const layers = d.layerTypes ? Object.entries(d.layerTypes) : [[null, d.rope]];
  // Frequencies at the model's whole context, which decides dynamic NTK and LongRoPE's long factors.
  const length = d.maxPositions;
  const curves = layers.map(([layerType, rope], n) => {
    const scaled = ropeFrequencies({
      config: text,
      ...(layerType ? { layerType } : {}),
      ...(length ? { length } : {}),
    });
    const plain = ropeFrequencies({ headDim: rope.headDim, rotaryDim: rope.rotaryDim, base: rope.base });
    return { name: layerType ?? 'every layer', rope, scaled, plain, color: pairColor(n) };
  });
  const pairs = Math.max(...curves.map((c) => c.plain.frequencies.length));
  const x = Array.from({ length: pairs }, (_, i) => i);
  const pad = (values) => Array.from(x, (i) => (i < values.length ? TAU / values[i] : null));
  const colors = themeColors();
  const markers = [];
  if (length)
    markers.push({ axis: 'y', value: length, label: `max_position_embeddings = ${length}`, color: colors.accent });
  const original = curves.map((c) => c.rope.scaling?.original_max_position_embeddings).find(Boolean);
  if (original && original !== length) {
    markers.push({
      axis: 'y',
      value: original,
      label: `original context = ${original}`,
      color: colors.muted,
      align: 'right',
    });
  }
  drawLogPlot(plot, {
    title: 'Wavelength 2π / wᵢ of each rotating pair (positions per turn)',
    xLabel: 'pair i',
    yLabel: 'positions per turn',
    x,
    yLog: 2,
    series: curves.flatMap((c) => [
      { label: `${c.name}: as configured`, values: pad(c.scaled.frequencies), stroke: c.color, width: 2.4 },
      { label: `${c.name}: unscaled`, values: pad(c.plain.frequencies), stroke: c.color, width: 1.2, dash: [5, 4] },
    ]),
    markers,
    onCursor: (v) => {
      const i = v == null ? -1 : Math.round(v);
      readout.textContent =
        i < 0 || i >= pairs
          ? 'Hover the plot (or focus it and use the arrow keys) to read one pair.'
          : `pair ${i}: ` +
            curves
              .filter((c) => i < c.scaled.frequencies.length)
              .map(
                (c) =>
                  `${c.name} w = ${sig6(c.scaled.frequencies[i])}, wavelength ${sig6(TAU / c.scaled.frequencies[i])}`,
              )
              .join('; ');
      readout.dataset.pair = i < 0 ? '' : String(i);
    },
  });
  readout.textContent = 'Hover the plot (or focus it and use the arrow keys) to read one pair.';
  return curves.map(
    ({ name, rope, scaled, plain }) =>
      `${name}: head_dim ${rope.headDim}, rotary dims ${rope.rotaryDim}, rope_theta ${sig6(rope.base)}, ` +
      `${rope.layout} layout; ${scalingText(rope.scaling)}` +
      (scaled.attentionFactor !== 1 ? `; cos and sin × ${sig6(scaled.attentionFactor)}` : '') +
      `. Wavelengths ${sig6(TAU / scaled.frequencies[0])} … ${sig6(TAU / scaled.frequencies.at(-1))} positions ` +
      `(unscaled … ${sig6(TAU / plain.frequencies.at(-1))})${length ? `, at length ${length}` : ''}.`,
  );
}

/** ALiBi: the slope of each head, log axis. */
function drawAlibi(d, { plot, readout }) {
  const slopes = Array.from(d.slopes);
  drawLogPlot(plot, {
    title: `ALiBi slope mₕ of each of the ${d.heads} heads (bias −mₕ·|j − i|)`,
    xLabel: 'head h',
    yLabel: 'slope m',
    x: slopes.map((_, h) => h),
    yLog: 2,
    series: [{ label: 'slope', values: slopes, stroke: pairColor(0), width: 2, points: true }],
    onCursor: (v) => {
      const h = v == null ? -1 : Math.round(v);
      readout.textContent = h < 0 || h >= slopes.length ? '' : `head ${h}: m = ${sig6(slopes[h])}`;
    },
  });
  readout.textContent = 'Hover the plot (or focus it and use the arrow keys) to read one head.';
  return [
    `${d.heads} heads; slopes ${slopes.slice(0, 4).map(sig6).join(', ')} … ${sig6(slopes.at(-1))} ` +
      '(alibiSlopes: 2^(−8h/n), interleaved for a head count that is not a power of two).',
  ];
}

/** T5's buckets (encoder bidirectional, decoder causal) or Shaw's clipped index, against the offset. */
function drawRelative(d, { plot, readout }) {
  const span = d.scheme === 't5' ? Math.ceil(d.maxDistance * 1.25) : d.maxRelative + Math.max(4, d.maxRelative);
  const x = Array.from({ length: 2 * span + 1 }, (_, k) => k - span);
  const geometry = { queryLength: 1, keyLength: x.length, offset: span };
  const colors = themeColors();
  const series =
    d.scheme === 't5'
      ? [
          { label: 'encoder (bidirectional)', values: t5Buckets({ ...geometry, ...t5(d), bidirectional: true }) },
          {
            label: 'decoder (causal)',
            values: t5Buckets({ ...geometry, ...t5(d), bidirectional: false }),
            dash: [6, 4],
          },
        ]
      : [{ label: 'index', values: shawIndices({ ...geometry, maxRelative: d.maxRelative }) }];
  drawLogPlot(plot, {
    title:
      d.scheme === 't5'
        ? `T5 bucket against the offset (${d.numBuckets} buckets, max distance ${d.maxDistance})`
        : `Shaw index clip(j − i, −k, k) + k, k = ${d.maxRelative}`,
    xLabel: 'offset j − i (key − query)',
    yLabel: d.scheme === 't5' ? 'bucket' : 'index',
    x,
    series: series.map((s, n) => ({
      ...s,
      values: Array.from(s.values),
      stroke: n ? colors.muted : colors.accent,
      width: 2,
    })),
    onCursor: (v) => {
      const k = v == null ? -1 : Math.round(v) + span;
      readout.textContent =
        k < 0 || k >= x.length ? '' : `offset ${x[k]}: ` + series.map((s) => `${s.label} ${s.values[k]}`).join(', ');
    },
  });
  readout.textContent = 'Hover the plot (or focus it and use the arrow keys) to read one offset.';
  return d.scheme === 't5'
    ? [
        `relative_attention_num_buckets = ${d.numBuckets}, relative_attention_max_distance = ${d.maxDistance}` +
          `${d.heads ? `, ${d.heads} heads` : ''}${d.encoderDecoder ? '; encoder and decoder' : ''}: each head learns one bias per bucket.`,
      ]
    : [`max_relative_positions = ${d.maxRelative}: offsets beyond ±${d.maxRelative} share the end indices.`];
}
const t5 = (d) => ({ numBuckets: d.numBuckets, maxDistance: d.maxDistance });

/** Learned and sinusoidal tables: nothing to plot here, the text says where the page shows them. */
function describeTable(d, { plot }) {
  plot.hidden = true;
  return d.kind === 'learned'
    ? [
        `A learned table of ${d.maxPositions ?? '?'} positions × ${d.dim ?? '?'} (position offset ${d.positionOffset}): ` +
          'its rows are weights, in the checkpoint, not the config; drop them into view 6.',
      ]
    : [
        `The sinusoidal table: d = ${d.dim}, ${d.layout} layout, ${d.frequencies} frequencies, positions from ` +
          `${d.positionOffset}; views 1–5 show it.`,
      ];
}

const DRAW = {
  rope: drawRope,
  alibi: drawAlibi,
  relative: drawRelative,
  learned: describeTable,
  sinusoidal: describeTable,
};

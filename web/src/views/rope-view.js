// View 7: RoPE's frequency bands. For each rotating pair i: its speed w_i
// (radians per position) and wavelength 2π/w_i against the context lengths,
// and how each HF rope_scaling type moves it. Every frequency comes from the
// package's ropeFrequencies; the lines drawn at thresholds (L0 / β, L0 /
// low_freq_factor…) only mark where the documented formulas switch.
import { ropeFrequencies } from '../../../src/js/index.js';
import { availableWidth, createRedrawGuard, themeColors, plotHeight } from '../draw/canvas.js';
import { pairColor } from '../draw/colormap.js';
import { longRopeMissing, ropeScalingDict } from '../state/rope-scaling.js';
import { modelConfigVersion, modelRope } from '../state/model-config.js';
import { sig6 } from '../draw/format.js';
import { drawLogPlot } from '../draw/log-plot.js';
import { csvColumns } from '../io/csv-columns.js';

const TAU = 2 * Math.PI;
// longrope joins them when a model's config gives its per-pair factors.
const METHODS = ['linear', 'dynamic', 'yarn', 'llama3'];
const METHOD_NAMES = {
  none: 'no scaling',
  linear: 'linear (PI)',
  dynamic: 'dynamic NTK',
  yarn: 'YaRN',
  llama3: 'Llama 3',
  longrope: 'LongRoPE',
};
const METHOD_COLORS = {
  linear: pairColor(0),
  dynamic: pairColor(4),
  yarn: pairColor(2),
  llama3: pairColor(3),
  longrope: pairColor(5),
};
const modelScaling = () => modelRope()?.scaling ?? null;

/** { w: Float64Array, attentionFactor } from the package's ropeFrequencies. */
function frequencies(state, type) {
  const scaling = type === 'none' ? undefined : ropeScalingDict({ ...state, rs: type }, modelScaling());
  const result = ropeFrequencies({ headDim: state.rhd, base: state.rbase, scaling, length: state.rlen });
  return { w: result.frequencies, attentionFactor: result.attentionFactor };
}

export function createRopeView({ speed, wavelength, bands, readout, facts, config, status, plots }) {
  const needsDraw = createRedrawGuard();
  let shown = null; // the numbers under the readout
  let columns = []; // every pair's frequencies, for CSV export

  function render(state) {
    const width = availableWidth(plots, 900);
    const key = ['rhd', 'rbase', 'rs', 'rf', 'rl0', 'rlen', 'rbf', 'rbs', 'rlo', 'rhi'].map((k) => state[k]);
    if (!needsDraw([...key, modelConfigVersion(), width])) return;
    if (longRopeMissing(state, modelScaling())) {
      status.textContent =
        'longrope needs per-pair short_factor and long_factor lists: choose a LongRoPE model (Phi-3-mini-128k) ' +
        'or drop its config.json into view 12.';
      return;
    }
    const dict = ropeScalingDict(state, modelScaling());
    config.textContent =
      `rope_theta = ${state.rbase}, head_dim = ${state.rhd}, rope_scaling = ` +
      (dict
        ? JSON.stringify(dict, (k, v) => (Array.isArray(v) ? `[${v.length} values]` : v))
            .replace(/,"/g, ', "')
            .replace(/":/g, '": ')
        : 'None');
    let plain;
    let scaled;
    let all;
    let methods;
    try {
      plain = frequencies(state, 'none');
      scaled = state.rs === 'none' ? plain : frequencies(state, state.rs);
      methods = modelScaling()?.rope_type === 'longrope' ? [...METHODS, 'longrope'] : METHODS;
      all = Object.fromEntries(methods.map((m) => [m, m === state.rs ? scaled : frequencies(state, m)]));
    } catch (error) {
      // The package explains a refused parameter set (e.g. low_freq_factor ≥ high_freq_factor).
      status.textContent = `posenc refused these RoPE parameters: ${error.message}`;
      return;
    }
    // HF's config check warns when beta_fast < beta_slow: YaRN's ramp then runs backwards. Drawn, and said.
    status.textContent =
      state.rs === 'yarn' && state.rbf < state.rbs
        ? `beta_fast (${state.rbf}) is below beta_slow (${state.rbs}), which HF warns about: YaRN's ramp then runs ` +
          'backwards, slowing the fast pairs and leaving the slow ones.'
        : '';
    const half = plain.w.length;
    const pairs = Array.from({ length: half }, (_, i) => i);
    const name = METHOD_NAMES[state.rs];
    const colors = themeColors();
    const contextMarkers = (toY) => [
      { axis: 'y', value: toY(state.rl0), label: `original context L0 = ${state.rl0}`, color: colors.muted },
      {
        axis: 'y',
        value: toY(state.rlen),
        label: `context length L = ${state.rlen}`,
        color: colors.accent,
        align: 'right',
      },
    ];
    const halfWidth = width >= 860 ? Math.floor((width - 16) / 2) : width;
    for (const el of [speed, wavelength]) el.style.width = `${halfWidth}px`;
    const onCursor = (x) => showPair(x === null ? null : Math.round(x));

    drawLogPlot(speed, {
      title: 'Rotation speed wᵢ of each pair (radians per position)',
      xLabel: 'pair i',
      yLabel: ['wᵢ (rad / position)', 'wᵢ'],
      x: pairs,
      yLog: 10,
      series: [
        { label: 'no scaling', values: plain.w, stroke: colors.muted, width: 1.5, dash: [5, 4] },
        { label: name, values: scaled.w, stroke: METHOD_COLORS[state.rs] ?? colors.accent, width: 2.2 },
      ],
      markers: contextMarkers((L) => TAU / L).map((m) => ({ ...m, label: `one turn in ${m.label}` })),
      height: plotHeight(300, 212), // 150 px of plot on a phone
      legendColumns: 2,
      onCursor,
    });
    drawLogPlot(wavelength, {
      title: 'Wavelength 2π / wᵢ against the context',
      xLabel: 'pair i',
      yLabel: ['positions per turn', 'wavelength'],
      x: pairs,
      yLog: 2,
      series: [
        {
          label: 'no scaling',
          values: Array.from(plain.w, (w) => TAU / w),
          stroke: colors.muted,
          width: 1.5,
          dash: [5, 4],
        },
        {
          label: name,
          values: Array.from(scaled.w, (w) => TAU / w),
          stroke: METHOD_COLORS[state.rs] ?? colors.accent,
          width: 2.2,
        },
      ],
      markers: contextMarkers((L) => L),
      height: plotHeight(300, 212), // 150 px of plot on a phone
      legendColumns: 2,
      onCursor,
    });
    const originalWavelengths = Array.from(plain.w, (w) => TAU / w);
    drawLogPlot(bands, {
      title: `How each scaling moves each band: scaled wᵢ / original wᵢ (factor ${state.rf}, L0 = ${state.rl0}, L = ${state.rlen})`,
      xLabel: ['original wavelength of the pair (positions per turn)', 'original wavelength'],
      yLabel: ['scaled w / original w', 'w ratio'],
      x: originalWavelengths,
      xLog: 2,
      yLog: 2,
      series: methods.map((m) => ({
        label: `${METHOD_NAMES[m]}${all[m].attentionFactor !== 1 ? ` (× attention ${sig6(all[m].attentionFactor)})` : ''}`,
        values: Array.from(all[m].w, (w, i) => w / plain.w[i]),
        stroke: METHOD_COLORS[m],
        width: m === state.rs ? 3.2 : 1.6,
        dash: m === state.rs ? undefined : [6, 3],
        points: half <= 24,
      })),
      markers: thresholdMarkers(state, colors),
      height: plotHeight(320, 214), // the band labels need 150 px of plot on a phone
    });

    shown = { plain: plain.w, scaled: scaled.w, name };
    columns = [
      { name: 'pair', values: pairs },
      { name: 'w', values: plain.w },
      { name: 'wavelength', values: originalWavelengths },
      ...methods.map((m) => ({ name: `w_${m}`, values: all[m].w })),
    ];
    writeFacts(state, plain, scaled, name);
    showPair(null);
  }

  function writeFacts(state, plain, scaled, name) {
    const half = plain.w.length;
    let moved = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < half; i++) {
      const ratio = scaled.w[i] / plain.w[i];
      if (Math.abs(ratio - 1) > 1e-12) moved++;
      lo = Math.min(lo, ratio);
      hi = Math.max(hi, ratio);
    }
    const longer = (L) => Array.from(scaled.w).filter((w) => TAU / w > L).length;
    const items = [
      `${name}: ${moved} of ${half} pairs move; scaled w / original w runs from ${sig6(lo)} to ${sig6(hi)}` +
        (scaled.attentionFactor !== 1
          ? `; cos and sin are multiplied by the attention factor ${sig6(scaled.attentionFactor)}.`
          : '.'),
      `Pairs whose wavelength is longer than the original context (${state.rl0}): ${Array.from(plain.w).filter((w) => TAU / w > state.rl0).length} ` +
        `unscaled, ${longer(state.rl0)} scaled. Longer than the context length ${state.rlen}: ${longer(state.rlen)} scaled; ` +
        'such pairs never complete a turn and act as a smooth position ramp.',
    ];
    if (state.rs === 'dynamic' && state.rlen <= state.rl0) {
      items.push(`Dynamic NTK changes nothing while the sequence (L = ${state.rlen}) is within L0 = ${state.rl0}.`);
    }
    facts.replaceChildren(...items.map((text) => Object.assign(document.createElement('li'), { textContent: text })));
    Object.assign(facts.dataset, { moved: String(moved), ratioMin: String(lo), ratioMax: String(hi) });
  }

  function showPair(i) {
    if (!shown) return;
    if (i === null || i < 0 || i >= shown.plain.length) {
      readout.textContent = 'Hover a plot to read one pair.';
      return;
    }
    const w0 = shown.plain[i];
    const w1 = shown.scaled[i];
    readout.textContent =
      `pair ${i}: w = ${sig6(w0)} rad/position, wavelength ${sig6(TAU / w0)} positions\n` +
      `${shown.name}: w = ${sig6(w1)}, wavelength ${sig6(TAU / w1)}; scaled / original = ${sig6(w1 / w0)}`;
  }

  return { render, csv: () => csvColumns(columns) };
}

/** Where the selected type's formula switches, as wavelengths (posenc.h, "Frequency scaling"). */
function thresholdMarkers(state, colors) {
  const markers = [{ axis: 'x', value: state.rl0, label: `L0 = ${state.rl0}`, color: colors.fg }];
  if (state.rs === 'yarn') {
    markers.push(
      {
        axis: 'x',
        value: state.rl0 / state.rbf,
        label: `L0 / beta_fast: ${state.rbf} turns in L0`,
        color: METHOD_COLORS.yarn,
        row: 1,
      },
      {
        axis: 'x',
        value: state.rl0 / state.rbs,
        label: `L0 / beta_slow: ${state.rbs} turn${state.rbs === 1 ? '' : 's'} in L0`,
        color: METHOD_COLORS.yarn,
        row: 2,
      },
    );
  }
  if (state.rs === 'llama3') {
    markers.push(
      { axis: 'x', value: state.rl0 / state.rhi, label: 'L0 / high_freq_factor', color: METHOD_COLORS.llama3, row: 1 },
      { axis: 'x', value: state.rl0 / state.rlo, label: 'L0 / low_freq_factor', color: METHOD_COLORS.llama3, row: 2 },
    );
  }
  return markers;
}

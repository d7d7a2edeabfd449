// The tutorial double loop, as blog posts and course notebooks write it: a
// fresh array per call and Math.pow for every element.

function tutorialTable(length, dim) {
  const pe = new Float32Array(length * dim);
  for (let pos = 0; pos < length; pos++) {
    for (let i = 0; i < dim; i += 2) {
      pe[pos * dim + i] = Math.sin(pos / Math.pow(10000, i / dim));
      pe[pos * dim + i + 1] = Math.cos(pos / Math.pow(10000, i / dim));
    }
  }
  return pe;
}

export async function load() {
  return [
    {
      name: 'tutorial double loop (Math.pow)',
      kind: 'table',
      speed: 'slow',
      prepare({ length, dim }) {
        let last;
        return { run: () => (last = tutorialTable(length, dim)), output: () => last };
      },
    },
  ];
}

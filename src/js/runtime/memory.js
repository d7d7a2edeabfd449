// All of an instance's memory plumbing, in one file: the regions it keeps and
// grows (the staging region that JS arrays travel through, a family's scratch),
// views of wasm memory, and the copies in and out of the staging region.
// Growing memory detaches every earlier view, so views here are made (or
// remade) at the moment they are used, after the call's last allocation.

// Staging: big enough to amortise a call, small enough for caches.
export const STAGING_BYTES = 256 * 1024;
export const FLOAT = 4; // bytes per float32

const align16 = (bytes) => Math.ceil(bytes / 16) * 16;

/**
 * Rows per chunk and batch items per group so that group·rows·rowFloats +
 * rows·extraPerRow floats fit in capacity floats, with at least minRows rows
 * (whole 64-position blocks for sinusoids): a large batch is split into
 * groups rather than into thinner row chunks.
 */
export function chunkShape(capacity, batch, rowFloats, extraPerRow, minRows) {
  const rows = Math.floor(capacity / (batch * rowFloats + extraPerRow));
  if (rows >= minRows) return { rows, group: batch };
  return { rows: minRows, group: Math.floor((capacity - minRows * extraPerRow) / (minRows * rowFloats)) };
}

/**
 * How a region splits into up to `rows` rows of headBytes each (e.g. uint32
 * positions), then, 16-aligned, their rows of bodyBytes each: { rows, bodyAt }.
 */
export function splitRegion(region, headBytes, bodyBytes) {
  let rows = Math.floor(region.bytes / (headBytes + bodyBytes));
  while (align16(rows * headBytes) + rows * bodyBytes > region.bytes) rows--;
  return { rows, bodyAt: region.at + align16(rows * headBytes) };
}

/**
 * The memory plumbing of one instance.
 * @param {{memory: WebAssembly.Memory}} state
 * @param {{malloc: (bytes: number, what: string) => number, free: (pointer: number) => void}} calls
 */
export function wasmMemory(state, calls) {
  const memory = state.memory;

  /**
   * A region of wasm memory the instance keeps and grows on demand, named
   * `what` in a TOO_LARGE refusal: reserve(what) gives ensure(bytes) -> { at, bytes }.
   */
  function reserve(what) {
    let at = 0;
    let size = 0;
    return (bytes) => {
      if (bytes > size) {
        const pointer = calls.malloc(bytes, what);
        calls.free(at);
        at = pointer;
        size = bytes;
      }
      return { at, bytes: size };
    };
  }

  const ensureStaging = reserve('staging');
  let stagingBytes = 0;

  // Whole-memory views, remade whenever memory has grown (growth detaches them).
  let heapBuffer = null;
  let heapF32 = null;
  let heapU32 = null;
  function heap() {
    if (memory.buffer !== heapBuffer) {
      heapBuffer = memory.buffer;
      heapF32 = new Float32Array(heapBuffer);
      heapU32 = new Uint32Array(heapBuffer);
    }
  }
  const floats = (pointer, count) => (heap(), heapF32.subarray(pointer >>> 2, (pointer >>> 2) + count));

  return {
    reserve,

    /**
     * use(...pointers) with a temporary block of wasm memory for each [bytes, what]
     * of `blocks` (pointer 0 for a null entry), freed afterwards, also on a throw.
     */
    withTemporary(blocks, use) {
      const pointers = [];
      try {
        for (const block of blocks) pointers.push(block ? calls.malloc(block[0], block[1]) : 0);
        return use(...pointers);
      } finally {
        for (const pointer of pointers) calls.free(pointer);
      }
    },

    /** The staging region, shared by every family, grown to at least `bytes`: { at, bytes }. */
    staging(bytes) {
      const region = ensureStaging(Math.max(STAGING_BYTES, align16(bytes)));
      stagingBytes = region.bytes;
      return region;
    },

    /** The staging region's size now (0 before its first use), without growing it. */
    stagingBytes: () => stagingBytes,

    /** Views of count elements at pointer, valid until the next allocation. */
    floats,
    halves: (pointer, count) => new Uint16Array(memory.buffer, pointer, count),
    words: (pointer, count) => new Uint32Array(memory.buffer, pointer, count),
    doubles: (pointer, count) => new Float64Array(memory.buffer, pointer, count),

    /** Copies count floats from wasm at pointer into target[at ...]; small copies skip the view object. */
    copyOut(target, at, pointer, count) {
      heap();
      const from = pointer >>> 2;
      if (count <= 64) for (let i = 0; i < count; i++) target[at + i] = heapF32[from + i];
      else target.set(heapF32.subarray(from, from + count), at);
    },

    /** Writes list[first ... first + count) (integers, checked) as uint32 at pointer. */
    copyWordsIn(pointer, list, first, count) {
      heap();
      const at = pointer >>> 2;
      if (ArrayBuffer.isView(list) && count > 64) heapU32.set(list.subarray(first, first + count), at);
      else for (let i = 0; i < count; i++) heapU32[at + i] = list[first + i];
    },

    /**
     * Copies x[b0 .. b0+group, r0 .. r0+rows, :] of x = (batch, length, rowFloats)
     * to wasm at `pointer`, packed as (group, rows, rowFloats).
     */
    stageSlab(x, pointer, length, rowFloats, b0, group, r0, rows) {
      const stage = floats(pointer, group * rows * rowFloats);
      for (let b = 0; b < group; b++) {
        const from = ((b0 + b) * length + r0) * rowFloats;
        stage.set(x.subarray(from, from + rows * rowFloats), b * rows * rowFloats);
      }
    },

    /** The reverse of stageSlab: the packed slab at `pointer` back into x. */
    unstageSlab(x, pointer, length, rowFloats, b0, group, r0, rows) {
      const stage = floats(pointer, group * rows * rowFloats);
      for (let b = 0; b < group; b++) {
        x.set(stage.subarray(b * rows * rowFloats, (b + 1) * rows * rowFloats), ((b0 + b) * length + r0) * rowFloats);
      }
    },
  };
}

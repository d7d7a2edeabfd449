"""The Python package's calls: values against float64 formulas written here,
in-place updates without copies (numpy and torch), float16/bfloat16 RoPE as
float32 rotation rounded once, refusals with the JS package's codes that leave
their inputs untouched, configs and identify."""

import json
import os
import tempfile
import unittest
from pathlib import Path

import numpy as np

import posenc
from posenc import PosencError
from posenc.errors import CODE_OF_STATUS, code_of_status, status_name
from posenc._status_table import parse_status_js

ROOT = Path(__file__).resolve().parents[3]
LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 8192}
LLAMA31 = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
           "max_position_embeddings": 131072, "rope_scaling": LLAMA3}


def rne_bfloat16(values: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 bits, nearest even (the top half of a float32)."""
    u = np.ascontiguousarray(values, dtype=np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def rotate_half(x: np.ndarray, cos: np.ndarray, sin: np.ndarray) -> np.ndarray:
    """HF's q * cos + rotate_half(q) * sin in float32, x (length, heads, d), cos/sin (length, d/2)."""
    h = x.shape[-1] // 2
    x1, x2 = x[..., :h], x[..., h:]
    c, s = cos[:, None, :], sin[:, None, :]
    return np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=-1).astype(np.float32)


class SinusoidalTest(unittest.TestCase):
    def test_values_are_within_6e8_of_float64_sin_and_cos(self):
        for dim, offset in ((8, 0), (64, 1000), (6, 2**31 - 40)):
            pe = posenc.sinusoidal(40, dim, offset=offset)
            p = np.arange(offset, offset + 40, dtype=np.float64)[:, None]
            w = 10000.0 ** (-np.arange(0, dim, 2, dtype=np.float64) / dim)
            exact = np.empty((40, dim))
            exact[:, 0::2], exact[:, 1::2] = np.sin(p * w), np.cos(p * w)
            # float64 p*w keeps 16 digits: at p near 2^31 the reference itself is only good to ~5e-7.
            bound = 6e-8 if offset < 2**20 else 1e-6
            self.assertLess(np.max(np.abs(pe - exact)), bound, f"dim {dim} offset {offset}")

    def test_out_is_written_in_place_and_positions_match_rows(self):
        out = np.full((5, 16), 7.0, dtype=np.float32)
        result = posenc.sinusoidal(5, 16, offset=3, out=out)
        self.assertIs(result, out)
        at = posenc.sinusoidal(dim=16, positions=[7, 3, 4])
        np.testing.assert_array_equal(at, out[[4, 0, 1]])

    def test_dtypes_are_the_float64_values_rounded_once(self):
        wide = posenc.sinusoidal(50, 32, offset=12345, dtype="float64")
        self.assertEqual(wide.dtype, np.float64)
        np.testing.assert_array_equal(posenc.sinusoidal(50, 32, offset=12345), wide.astype(np.float32))
        np.testing.assert_array_equal(posenc.sinusoidal(50, 32, offset=12345, dtype="float16"),
                                      wide.astype(np.float16))
        bits = posenc.sinusoidal(50, 32, offset=12345, dtype="bfloat16")
        self.assertEqual(bits.dtype, np.uint16)
        widened = (bits.astype(np.uint32) << 16).view(np.float32)
        self.assertLessEqual(np.max(np.abs(widened - wide)), 2**-9)

    def test_presets_set_layout_and_frequencies(self):
        split = posenc.sinusoidal(4, 8, preset="marian")
        inter = posenc.sinusoidal(4, 8)
        np.testing.assert_array_equal(split[:, :4], inter[:, 0::2])
        with self.assertRaises(PosencError) as caught:
            posenc.sinusoidal(4, 8, preset="marian", layout="interleaved")
        self.assertEqual(caught.exception.code, "BAD_PRESET")


class RopeTest(unittest.TestCase):
    def setUp(self):
        rng = np.random.default_rng(27)
        self.x = rng.standard_normal((2, 9, 3, 16)).astype(np.float32)

    def test_rotates_in_place_as_hf_does_with_its_own_cos_sin(self):
        x = self.x.copy()
        address = x.ctypes.data
        result = posenc.rope(x, offset=100, base=500000.0, scaling=LLAMA3)
        self.assertIs(result, x)
        self.assertEqual(x.ctypes.data, address)
        cos, sin = posenc.rope_cos_sin(head_dim=16, length=9, offset=100, base=500000.0, scaling=LLAMA3)
        for b in range(2):
            np.testing.assert_array_equal(x[b], rotate_half(self.x[b], cos, sin))

    def test_rotation_is_within_2_ulp_of_the_exact_one(self):
        x = self.x.copy()
        posenc.rope(x, offset=2**31 - 9)
        p = np.arange(2**31 - 9, 2**31, dtype=np.float64)
        w = 10000.0 ** (-np.arange(0, 16, 2, dtype=np.float64) / 16)
        # float64 angles lose ~2^31 * 2^-53 = 2.4e-7 rad here: the bound below allows for it.
        a = (p[:, None] * w)[:, None, :]
        x0 = self.x.astype(np.float64)
        x1, x2 = x0[..., :8], x0[..., 8:]
        exact = np.concatenate([x1 * np.cos(a) - x2 * np.sin(a), x2 * np.cos(a) + x1 * np.sin(a)], axis=-1)
        pair = np.sqrt(x1**2 + x2**2)
        error = np.abs(x - exact) / np.concatenate([pair, pair], axis=-1)
        self.assertLess(np.max(error), 2 * 2**-23 + 5e-7)

    def test_inverse_undoes_it_and_shapes_are_read_from_x(self):
        x = self.x.copy()
        posenc.rope(x, positions=[5, 1, 2, 3, 4, 0, 6, 7, 8], layout="interleaved")
        posenc.rope(x, positions=[5, 1, 2, 3, 4, 0, 6, 7, 8], layout="interleaved", inverse=True)
        self.assertLess(np.max(np.abs(x - self.x)), 1e-6)
        bhld = np.ascontiguousarray(self.x.transpose(0, 2, 1, 3))
        posenc.rope(bhld, order="bhld", offset=3)
        blhd = self.x.copy()
        posenc.rope(blhd, offset=3)
        np.testing.assert_array_equal(bhld.transpose(0, 2, 1, 3), blhd)

    def test_float16_and_bfloat16_are_the_float32_rotation_rounded_once(self):
        half = self.x.astype(np.float16)
        wide = half.astype(np.float32)
        posenc.rope(half, offset=70000)
        posenc.rope(wide, offset=70000)
        np.testing.assert_array_equal(half.view(np.uint16), wide.astype(np.float16).view(np.uint16))
        bits = rne_bfloat16(self.x)
        wide = (bits.astype(np.uint32) << 16).view(np.float32).copy()
        posenc.rope(bits, offset=70000, dtype="bfloat16")
        posenc.rope(wide, offset=70000)
        np.testing.assert_array_equal(bits, rne_bfloat16(wide))

    def test_torch_tensors_are_rotated_in_place(self):
        try:
            import torch
        except ImportError:
            if os.environ.get("POSENC_REQUIRE_TORCH"):
                raise
            self.skipTest("torch is not installed")
        t = torch.from_numpy(self.x.copy())
        pointer = t.data_ptr()
        self.assertIs(posenc.rope(t, offset=11), t)
        self.assertEqual(t.data_ptr(), pointer)
        expected = self.x.copy()
        posenc.rope(expected, offset=11)
        np.testing.assert_array_equal(t.numpy(), expected)
        b = torch.from_numpy(self.x.copy()).to(torch.bfloat16)
        bits = b.view(torch.int16).numpy().view(np.uint16).copy()
        posenc.rope(b, offset=11)
        posenc.rope(bits, offset=11, dtype="bfloat16")
        np.testing.assert_array_equal(b.view(torch.int16).numpy().view(np.uint16), bits)
        with self.assertRaises(PosencError) as caught:
            posenc.rope(torch.from_numpy(self.x.copy()).transpose(1, 2))
        self.assertEqual(caught.exception.code, "BAD_BUFFER")

    def test_cos_sin_expand_and_frequencies(self):
        cos, sin = posenc.rope_cos_sin(head_dim=8, length=4, expand=True)
        np.testing.assert_array_equal(cos[:, :4], cos[:, 4:])
        w, factor = posenc.rope_frequencies(head_dim=128, base=500000.0, scaling=LLAMA3)
        self.assertEqual(factor, 1.0)
        # HF's _compute_llama3_parameters, in float64
        inv = 500000.0 ** (-np.arange(0, 128, 2, dtype=np.float64) / 128)
        wavelen = 2 * np.pi / inv
        smooth = (8192 / wavelen - 1.0) / (4.0 - 1.0)
        hf = np.where(wavelen > 8192, inv / 8, inv)
        middle = (wavelen <= 8192) & (wavelen >= 2048)
        hf = np.where(middle, (1 - smooth) * inv / 8 + smooth * inv, hf)
        np.testing.assert_allclose(w, hf, rtol=1e-12)


class RefusalTest(unittest.TestCase):
    def test_codes_are_the_js_packages_by_status_name(self):
        table = parse_status_js((ROOT / "src" / "js" / "runtime" / "status.js").read_text())
        self.assertEqual(CODE_OF_STATUS, table)
        status = 0
        while status_name(status) != "PE_UNKNOWN":
            self.assertEqual(code_of_status(status), table[status_name(status)])
            status += 1
        self.assertGreaterEqual(status, 35)
        self.assertEqual(code_of_status(status), "CORE_STATUS")

    def refused(self, code, call, *args, **kwargs):
        with self.assertRaises(PosencError) as caught:
            call(*args, **kwargs)
        self.assertEqual(caught.exception.code, code, str(caught.exception))
        return caught.exception

    def test_each_bad_argument_is_named(self):
        self.refused("BAD_DIM", posenc.sinusoidal, 4, 7)
        self.refused("BAD_BASE", posenc.sinusoidal, 4, 8, base=1.0)
        self.refused("BAD_LAYOUT", posenc.sinusoidal, 4, 8, layout="diagonal")
        self.refused("BAD_OFFSET", posenc.sinusoidal, 4, 8, offset=2**31 - 3)
        self.refused("BAD_POSITION", posenc.sinusoidal, dim=8, positions=[0, -1])
        self.refused("BAD_DTYPE", posenc.sinusoidal, 4, 8, dtype="int8")
        self.refused("BAD_SIZE", posenc.sinusoidal, 4, 8, out=np.empty(31, np.float32))
        self.refused("BAD_HEADS", posenc.alibi_bias, 0, 4)
        self.refused("BAD_OFFSET", posenc.alibi_bias, 2, 5, 3)
        self.refused("BAD_CONFIG", posenc.from_config, {"model_type": "mystery"})
        self.refused("BAD_CONFIG", posenc.from_config, "/nonexistent/config.json")
        self.refused("BAD_KIND", posenc.identify, np.zeros((4, 4), np.float32), kind="heatmap")
        error = self.refused("BAD_SCALING", posenc.rope_cos_sin, head_dim=8, length=2,
                             scaling={"rope_type": "linear", "factr": 2})
        self.assertIn("factr", str(error))

    def test_a_refused_rope_leaves_x_untouched(self):
        x = np.linspace(-1, 1, 2 * 4 * 8, dtype=np.float32).reshape(2, 4, 1, 8)
        before = x.copy()
        self.refused("BAD_ROTARY_DIM", posenc.rope, x, rotary_dim=5)
        self.refused("BAD_SCALING", posenc.rope, x, scaling={"rope_type": "linear", "factor": 0.5})
        self.refused("XPOS_RANGE", posenc.rope, x, offset=10**6, layout="interleaved",
                     xpos={"scale_base": 512, "gamma": 0.4})
        self.refused("BAD_DTYPE", posenc.rope, x.astype(np.float64))
        self.refused("BAD_DTYPE", posenc.rope, np.zeros(8, np.uint16), head_dim=8, length=1)
        self.refused("BAD_BUFFER", posenc.rope, x[:, ::2])
        np.testing.assert_array_equal(x, before)

    def test_a_nan_cell_is_named_by_row_and_column(self):
        table = posenc.sinusoidal(16, 8)
        table[5, 3] = np.nan
        error = self.refused("BAD_TABLE", posenc.identify, table)
        self.assertIn("row 5, column 3", str(error))


class ConfigAndIdentifyTest(unittest.TestCase):
    def test_a_dict_its_text_and_its_path_read_alike(self):
        described = posenc.from_config(LLAMA31)
        self.assertEqual(described["rope"]["scaling"]["rope_type"], "llama3")
        self.assertEqual(described["rope"]["head_dim"], 128)
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "config.json"
            path.write_text(json.dumps(LLAMA31))
            self.assertEqual(posenc.from_config(path), described)
            self.assertEqual(posenc.from_config(str(path)), described)
        self.assertEqual(posenc.from_config(json.dumps(LLAMA31)), described)

    def test_rope_from_a_config_is_rope_from_its_numbers(self):
        x = np.ones((1, 3, 32, 128), np.float32)
        y = x.copy()
        posenc.rope(x, config=LLAMA31, offset=9000)
        posenc.rope(y, base=500000.0, scaling=LLAMA3, offset=9000)
        np.testing.assert_array_equal(x, y)

    def test_layer_types_and_alibi(self):
        gemma = {"model_type": "gemma3_text", "hidden_size": 1152, "head_dim": 256, "num_attention_heads": 4,
                 "rope_theta": 1000000.0, "rope_local_base_freq": 10000.0,
                 "rope_scaling": {"rope_type": "linear", "factor": 8.0}}
        described = posenc.from_config(gemma)
        self.assertEqual(described["layer_types"]["sliding_attention"]["base"], 10000.0)
        self.assertEqual(described["layer_types"]["full_attention"]["scaling"]["factor"], 8.0)
        bloom = posenc.from_config({"model_type": "bloom", "n_head": 8, "hidden_size": 64})
        np.testing.assert_array_equal(bloom["slopes"], 2.0 ** -np.arange(1, 9, dtype=np.float32))

    def test_alibi_bias_is_minus_slope_times_distance(self):
        bias = posenc.alibi_bias(4, 3, 5, causal=True)
        slopes = posenc.alibi_slopes(4).astype(np.float64)
        q = np.arange(2, 5)[:, None]
        k = np.arange(5)[None, :]
        expected = np.where(k > q, -np.inf, -(slopes[:, None, None] * np.abs(q - k))).astype(np.float32)
        np.testing.assert_array_equal(bias, expected)

    def test_identify_names_a_table_a_cache_and_an_inv_freq_vector(self):
        self.assertTrue(posenc.identify(posenc.sinusoidal(256, 64, preset="marian"))["verdict"].startswith(
            "split layout"))
        cos, _ = posenc.rope_cos_sin(head_dim=64, length=512, expand=True)
        self.assertEqual(posenc.identify(cos)["kind"], "cos-sin")
        w, _ = posenc.rope_frequencies(head_dim=128, base=500000.0, scaling=LLAMA3)
        found = posenc.identify(w, kind="inv-freq")
        self.assertEqual(found["scaling"], "llama3")
        self.assertEqual(found["ropeScaling"]["factor"], 8)
        self.assertEqual(found["base"], 500000)


if __name__ == "__main__":
    unittest.main()

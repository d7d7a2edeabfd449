"""No copies where the layout allows: rope turns numpy arrays, torch tensors (float32, float16,
bfloat16) and other frameworks' DLPack arrays in their own memory (checked by address and by the
values found there afterwards); contiguous float32 inputs are read where they lie. And the public
API's contract: every function has a docstring and type hints, and the package ships py.typed."""

import inspect
import os
import unittest
from pathlib import Path
from typing import Any

import numpy as np

import posenc
from posenc import PosencError
from posenc._arrays import readable


def torch_or_skip(test: unittest.TestCase) -> Any:
    try:
        import torch
    except ImportError:
        if os.environ.get("POSENC_REQUIRE_TORCH"):
            raise
        test.skipTest("torch is not installed")
    return torch


class Producer:
    """Another framework's CPU array, seen only through DLPack (its tensor kept private)."""

    def __init__(self, tensor: Any) -> None:
        self._tensor = tensor

    def __dlpack__(self, stream: Any = None) -> Any:
        return self._tensor.__dlpack__()

    def __dlpack_device__(self) -> Any:
        return self._tensor.__dlpack_device__()


def x_values(shape: tuple) -> np.ndarray:
    rng = np.random.default_rng(27)
    return rng.uniform(-2, 2, size=shape).astype(np.float32)


class InPlaceTest(unittest.TestCase):
    shape = (2, 5, 3, 64)  # (batch, length, heads, head_dim)

    def expected(self, dtype: str) -> np.ndarray:
        """The rotation of the same values in a fresh numpy array (float32, float16, or bfloat16 bits)."""
        x = x_values(self.shape)
        if dtype == "float16":
            x = x.astype(np.float16)
        if dtype == "bfloat16":  # rounded to nearest even, as torch's .to(torch.bfloat16)
            u = x.view(np.uint32).astype(np.uint64)
            x = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
        return posenc.rope(x, offset=123, base=500000.0, dtype=None if dtype != "bfloat16" else "bfloat16")

    def test_numpy_arrays_turn_in_their_own_memory(self):
        for dtype in ("float32", "float16"):
            x = x_values(self.shape).astype(dtype)
            address = x.ctypes.data
            before = x.copy()
            self.assertIs(posenc.rope(x, offset=123, base=500000.0), x)
            self.assertEqual(x.ctypes.data, address)
            self.assertFalse(np.array_equal(x, before), "the values at that address changed")
            np.testing.assert_array_equal(x, self.expected(dtype))
        # A slice turns where it lies: the rows around it (sentinels) are left as they were.
        whole = np.full((4,) + self.shape[1:], 7.0, dtype=np.float32)
        whole[1:3] = x_values(self.shape)
        self.assertIs(posenc.rope(whole[1:3], offset=123, base=500000.0).base, whole)
        np.testing.assert_array_equal(whole[1:3], self.expected("float32"))
        self.assertTrue(np.all(whole[0] == 7.0) and np.all(whole[3] == 7.0))

    def test_torch_tensors_of_each_dtype_turn_in_their_own_memory(self):
        torch = torch_or_skip(self)
        for dtype, kind in (("float32", torch.float32), ("float16", torch.float16), ("bfloat16", torch.bfloat16)):
            t = torch.from_numpy(x_values(self.shape)).to(kind)
            pointer = t.data_ptr()
            self.assertIs(posenc.rope(t, offset=123, base=500000.0), t)
            self.assertEqual(t.data_ptr(), pointer)
            bits = t.view(torch.int16).numpy().view(np.uint16) if dtype == "bfloat16" else t.numpy()
            np.testing.assert_array_equal(bits, self.expected(dtype), err_msg=dtype)

    def test_dlpack_arrays_turn_in_their_own_memory(self):
        torch = torch_or_skip(self)
        for dtype, kind in (("float32", torch.float32), ("float16", torch.float16), ("bfloat16", torch.bfloat16)):
            t = torch.from_numpy(x_values(self.shape)).to(kind)
            producer = Producer(t)
            self.assertIs(posenc.rope(producer, offset=123, base=500000.0), producer)
            bits = t.view(torch.int16).numpy().view(np.uint16) if dtype == "bfloat16" else t.numpy()
            np.testing.assert_array_equal(bits, self.expected(dtype), err_msg=f"DLPack {dtype}")
        strided = torch.from_numpy(x_values(self.shape)).transpose(1, 2)
        before = strided.clone()
        with self.assertRaises(PosencError) as caught:
            posenc.rope(Producer(strided))
        self.assertEqual(caught.exception.code, "BAD_BUFFER")
        self.assertTrue(torch.equal(strided, before))

    def test_contiguous_inputs_are_read_where_they_lie(self):
        table = posenc.sinusoidal(64, 16)
        self.assertIs(readable(table, "table", np.float32), table)
        torch = torch_or_skip(self)
        t = torch.from_numpy(table.copy())
        self.assertTrue(np.shares_memory(readable(t, "table", np.float32), t.numpy()))
        self.assertTrue(np.shares_memory(readable(Producer(t), "table", np.float32), t.numpy()))
        self.assertEqual(posenc.identify(t)["json"], posenc.identify(table)["json"])
        out = np.empty((64, 16), np.float32)
        self.assertIs(posenc.sinusoidal(64, 16, out=out), out)
        np.testing.assert_array_equal(out, table)


class ContractTest(unittest.TestCase):
    def test_every_public_function_has_a_docstring_and_type_hints(self):
        names = [n for n in posenc.__all__ if callable(getattr(posenc, n)) and n != "PosencError"]
        self.assertGreaterEqual(len(names), 9)
        for name in names:
            function = getattr(posenc, name)
            self.assertTrue(inspect.getdoc(function), f"{name} has a docstring")
            signature = inspect.signature(function)
            self.assertIsNot(signature.return_annotation, inspect.Signature.empty, f"{name} says what it returns")
            for parameter in signature.parameters.values():
                self.assertIsNot(parameter.annotation, inspect.Parameter.empty, f"{name}({parameter.name}) is typed")
        self.assertTrue(inspect.getdoc(PosencError))

    def test_the_package_ships_py_typed(self):
        self.assertTrue((Path(posenc.__file__).parent / "py.typed").is_file())


if __name__ == "__main__":
    unittest.main()

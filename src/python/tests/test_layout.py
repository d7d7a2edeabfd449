"""The ctypes structs of posenc/_lib.py against a C compiler's layout of posenc.h:
every field's offset and every struct's size, so a field added to posenc.h and
not to the bindings fails here rather than writing beside the struct."""

import json
import os
import subprocess
import tempfile
import unittest
from pathlib import Path

from posenc import _cli_config, _lib

ROOT = Path(__file__).resolve().parents[3]
HEADER_DIR = os.environ.get("POSENC_INCLUDE", str(ROOT / "src" / "core"))

STRUCTS = {
    "pe_sinusoid": _lib.Sinusoid,
    "pe_alibi": _lib.Alibi,
    "pe_rope_scaling": _lib.RopeScaling,
    "pe_rope_axes": _lib.RopeAxes,
    "pe_xpos": _lib.Xpos,
    "pe_rotary": _lib.Rotary,
    "pe_config": _lib.Config,
    "pe_config_layer": _cli_config.ConfigLayer,  # the CLI's mirror (posenc config)
}


def c_layout() -> dict:
    lines = ['#include <stdio.h>', '#include <stddef.h>', '#include "posenc.h"', "int main(void) {",
             '    printf("{");']
    for c_name, struct in STRUCTS.items():
        lines.append(f'    printf("\\"{c_name}\\": {{\\"size\\": %zu", sizeof({c_name}));')
        for field, _ in struct._fields_:
            lines.append(f'    printf(", \\"{field}\\": %zu", offsetof({c_name}, {field}));')
        lines.append('    printf("}, ");')
    lines.append('    printf("\\"pe_inv_freq_diagnosis\\": {\\"size\\": %zu}, ", sizeof(pe_inv_freq_diagnosis));')
    lines.append('    printf("\\"pe_diagnosis\\": {\\"size\\": %zu}}\\n", sizeof(pe_diagnosis));')
    lines.append("    return 0;\n}\n")
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "layout.c"
        source.write_text("\n".join(lines))
        binary = Path(scratch) / "layout"
        subprocess.run(["cc", "-std=c11", f"-I{HEADER_DIR}", "-o", str(binary), str(source)], check=True)
        return json.loads(subprocess.run([str(binary)], check=True, capture_output=True, text=True).stdout)


class LayoutTest(unittest.TestCase):
    def test_every_struct_matches_the_compiler(self):
        layout = c_layout()
        for c_name, struct in STRUCTS.items():
            with self.subTest(struct=c_name):
                self.assertEqual(ctypes_size(struct), layout[c_name]["size"])
                for field, _ in struct._fields_:
                    self.assertEqual(getattr(struct, field).offset, layout[c_name][field], f"{c_name}.{field}")

    def test_the_diagnosis_buffer_holds_the_struct(self):
        self.assertGreaterEqual(_lib.DIAGNOSIS_BYTES, c_layout()["pe_diagnosis"]["size"])

    def test_the_inv_freq_buffer_holds_the_struct(self):
        self.assertGreaterEqual(_lib.INV_FREQ_DIAGNOSIS_BYTES, c_layout()["pe_inv_freq_diagnosis"]["size"])


def ctypes_size(struct) -> int:
    import ctypes

    return ctypes.sizeof(struct)


if __name__ == "__main__":
    unittest.main()

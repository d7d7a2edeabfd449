/* What every wasm export file shares: the public header and the attribute
 * that names an export. The exports take flat arguments (numbers and
 * pointers), so the JS loader never lays out a C struct; sizes, positions
 * and offsets arrive as i32 and are read as unsigned. Each pe_wasm_*'s name
 * and parameters, in posenc.h's order, are listed in EXPORTS
 * (src/js/runtime/boundary.js): the JS runtime's contract, which
 * tests/runtime-boundary.test.js holds this folder to. */
#ifndef PE_WASM_EXPORT_H
#define PE_WASM_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "posenc.h"

#define EXPORT(name) __attribute__((export_name(name)))

#endif

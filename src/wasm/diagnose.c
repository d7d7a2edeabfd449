/* Wasm exports of the diagnose family (posenc.h, pe_diagnose): one call reads
 * the table, then writes the verdict text and the JSON facts into buffers the
 * caller gives, so JS never reads the result struct's layout. Sizes arrive as
 * i32 and are read as unsigned. */
#include "export.h"

/* Scratch bytes plus room for the result struct; 0 when the shape is refused. */
EXPORT("pe_wasm_diagnose_scratch_size")
size_t pe_wasm_diagnose_scratch_size(uint32_t rows, uint32_t cols) {
    size_t bytes = 0;
    return pe_diagnose_scratch_size(rows, cols, &bytes) == PE_OK ? bytes + sizeof(pe_diagnosis) + 16 : 0;
}

/* text and json get NUL-terminated strings (cut short when too small);
 * *bad_cell the index of a NaN or infinite cell when that is refused. */
EXPORT("pe_wasm_diagnose")
int pe_wasm_diagnose(const float *table, uint32_t rows, uint32_t cols, uint32_t kind, void *scratch,
                     size_t scratch_bytes, char *text, size_t text_bytes, char *json, size_t json_bytes,
                     size_t *bad_cell) {
    if (scratch_bytes < sizeof(pe_diagnosis) + 16) return PE_ERR_SCRATCH;
    /* the result first, 16-aligned, then the core's scratch */
    char *base = (char *)scratch;
    pe_diagnosis *result = (pe_diagnosis *)(base + ((16 - ((uintptr_t)base & 15)) & 15));
    size_t used = (size_t)((char *)(result + 1) - base);
    size_t written;
    pe_status st =
        pe_diagnose(table, rows, cols, (pe_diag_kind)kind, result, bad_cell, base + used, scratch_bytes - used);
    if (st != PE_OK) return st;
    if ((st = pe_diagnosis_text(result, text, text_bytes, &written)) != PE_OK) return st;
    return pe_diagnosis_json(result, json, json_bytes, &written);
}

/* An inv_freq vector (float64 values: exactly what the caller holds, any
 * storage dtype widened); the verdict text and JSON as above. The result
 * struct lives in scratch of pe_wasm_inv_freq_scratch_size bytes. */
EXPORT("pe_wasm_inv_freq_scratch_size")
size_t pe_wasm_inv_freq_scratch_size(void) {
    return sizeof(pe_inv_freq_diagnosis) + 16;
}

EXPORT("pe_wasm_diagnose_inv_freq")
int pe_wasm_diagnose_inv_freq(const double *inv_freq, uint32_t count, void *scratch, size_t scratch_bytes, char *text,
                              size_t text_bytes, char *json, size_t json_bytes, uint32_t *bad_index) {
    if (scratch_bytes < sizeof(pe_inv_freq_diagnosis) + 16) return PE_ERR_SCRATCH;
    char *base = (char *)scratch;
    pe_inv_freq_diagnosis *result = (pe_inv_freq_diagnosis *)(base + ((16 - ((uintptr_t)base & 15)) & 15));
    size_t written;
    pe_status st = pe_diagnose_inv_freq(inv_freq, count, result, bad_index);
    if (st != PE_OK) return st;
    if ((st = pe_inv_freq_diagnosis_text(result, text, text_bytes, &written)) != PE_OK) return st;
    return pe_inv_freq_diagnosis_json(result, json, json_bytes, &written);
}

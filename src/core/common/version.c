/* The library's version at run time (pe_version), so a program can tell the
 * shared library it loaded from the header it was compiled with. */
#include "posenc.h"

const char *pe_version(void) {
    return PE_VERSION_STRING;
}

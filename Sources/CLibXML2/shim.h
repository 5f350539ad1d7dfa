#ifndef IAPKIT_CLIBXML2_SHIM_H
#define IAPKIT_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
// Debian's libxml2 pulls in the system ICU headers, which clash with the ICU inside Foundation
// ("'UErrorCode' has different definitions") on a clean build. iapkit never needs libxml2's ICU API.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlwriter.h>
#include <libxml/xmlerror.h>
#include <stdlib.h>

// xmlFree is a macro-backed global function pointer that Swift does not import.
static inline void iapkit_xmlFree(void *p) { xmlFree(p); }
#endif

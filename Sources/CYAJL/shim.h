#ifndef IAPKIT_CYAJL_SHIM_H
#define IAPKIT_CYAJL_SHIM_H
// yajl's own headers include each other as <yajl/...>, so the folder above yajl/ must be on the include path.
#include <yajl/yajl_parse.h>
#endif

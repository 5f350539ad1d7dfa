#ifndef IAPKIT_CZLIB_SHIM_H
#define IAPKIT_CZLIB_SHIM_H
#include <zlib.h>
// deflateInit2 is a macro over deflateInit2_; Swift does not import function-like macros.
static inline int iapkit_deflateInit2(z_streamp strm, int level, int windowBits) {
    return deflateInit2(strm, level, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY);
}
static inline int iapkit_inflateInit2(z_streamp strm, int windowBits) {
    return inflateInit2(strm, windowBits);
}
#endif

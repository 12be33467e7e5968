/*
 * nbo_export.h - include/nbo.h as libnbo's own code includes it.  Internal.
 *
 * libnbo is compiled with hidden visibility (meson.build), so nothing it
 * defines is exported from libnbo.so unless declared with default
 * visibility.  The public header, included between these pragmas, gives
 * exactly its own functions default visibility: libnbo.so exports the API
 * of nbo.h and nothing else (libnbo.map then versions those names).  Every
 * internal header and source includes nbo.h through this file; one that
 * included nbo.h directly, before this file, would define its public
 * functions hidden (the suite install checks the exported names,
 * tests/install/check_symbols.sh).
 */
#ifndef NBO_EXPORT_H
#define NBO_EXPORT_H

#if defined(__GNUC__)
#pragma GCC visibility push(default)
#endif
#include "nbo.h"
#if defined(__GNUC__)
#pragma GCC visibility pop
#endif

#endif /* NBO_EXPORT_H */

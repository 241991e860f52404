/* Ijwi: memset, memcpy and memmove for Flite's WebAssembly build (build.sh links this object
   before wasi-libc, whose own are then not taken). Debian's wasi-libc is built without
   WebAssembly's bulk memory, so its memset and memcpy are loops of four or eight bytes a step:
   calloc's memset alone (Flite allocates everything with calloc, and the parameter generation
   allocates its matrices an utterance) was 2.5 % of an English run. Past a few dozen bytes these
   are WebAssembly's memory.fill and memory.copy, which the engine runs as native memset and
   memmove; below, a byte loop, cheaper than a call out of the module. Compiled with
   -fno-builtin (so the loops are not made calls to memset again) and without -flto (the linker
   keeps a library function defined in bitcode only as long as nothing needs it after code
   generation). Part of Ijwi, GPL-3.0-or-later. */
#include <stddef.h>

#define BULK_FROM 32

void *memset(void *dest, int c, size_t n)
{
    unsigned char *d = dest;

    if (n > BULK_FROM)
        return __builtin_memset(dest, c, n);
    while (n--)
        *d++ = (unsigned char)c;
    return dest;
}

void *memmove(void *dest, const void *src, size_t n)
{
    unsigned char *d = dest;
    const unsigned char *s = src;

    if (n > BULK_FROM)
        return __builtin_memmove(dest, src, n);
    if (d < s)
        while (n--)
            *d++ = *s++;
    else
        while (n--)
            d[n] = s[n];
    return dest;
}

void *memcpy(void *restrict dest, const void *restrict src, size_t n)
{
    return memmove(dest, src, n);
}

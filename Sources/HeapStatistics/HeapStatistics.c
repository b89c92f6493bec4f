#include "HeapStatistics.h"

#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>   // defines __GLIBC__ (through <features.h>) on glibc
#endif

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
long long heap_statistics_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    // uordblks: bytes in use in the heap proper; hblkhd: bytes in chunks glibc mmapped on their own
    // (large allocations, such as a multi-megabyte array, above its mmap threshold).
    return (long long)(info.uordblks + info.hblkhd);
}
#else
long long heap_statistics_bytes_in_use(void) {
    return -1;
}
#endif

// Allocator statistics for the Benchmarks executable. Swift's Glibc module does not export <malloc.h>,
// so mallinfo2() is reached through this tiny C target.
#ifndef HEAP_STATISTICS_H
#define HEAP_STATISTICS_H

/// Bytes currently allocated by malloc, mmapped chunks included (glibc's mallinfo2().uordblks + hblkhd),
/// or -1 where unavailable.
long long heap_statistics_bytes_in_use(void);

#endif

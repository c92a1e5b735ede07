package views

// SoftMemoryLimit is the soft heap limit the console runs under (main sets
// it with debug.SetMemoryLimit unless GOMEMLIMIT is given). Go's collector
// otherwise lets the heap grow to twice the live set between collections,
// which with 100k rows loaded doubles the peak RSS; the row store is sized
// so 100k sessions fit well inside this limit (BENCHMARKS.md).
const SoftMemoryLimit = 128 << 20
